package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	helperapk "github.com/flow-runner/flow/helper-apk"
)

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheckAndWrite: -check fails on a committed APK that is not the
// rebuild (CI's gate) and passes on the real one; without -check the
// files are written, the same as the committed ones.
func TestCheckAndWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the helper")
	}
	repo, err := helperapk.MavenRepo()
	if err != nil {
		t.Fatal(err)
	}
	if missing := helperapk.MissingArtifacts(repo); len(missing) > 0 {
		msg := "the Maven repository lacks " + strings.Join(missing, ", ") + " (go run ./helper-apk/cmd/builddist -resolve fetches them)"
		if os.Getenv("FLOW_REQUIRE_ANDROID_TOOLS") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	for _, sub := range []string{"src", "dist"} {
		copyTree(t, filepath.Join("..", "..", sub), filepath.Join(dir, sub))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	if err := run(ctx, []string{"-dir", dir, "-check"}, &out, &errb); err != nil {
		t.Fatalf("the committed helper fails -check: %v\n%s%s", err, &out, &errb)
	}
	apk := filepath.Join(dir, filepath.FromSlash(helperapk.DistAPK))
	committed, err := os.ReadFile(apk)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Clone(committed)
	tampered[len(tampered)/2] ^= 1
	if err := os.WriteFile(apk, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"-dir", dir, "-check"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "differ from a rebuild") {
		t.Fatalf("-check passed a changed APK: %v", err)
	}
	if err := run(ctx, []string{"-dir", dir}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if written, err := os.ReadFile(apk); err != nil || !bytes.Equal(written, committed) {
		t.Fatalf("the written APK is not the committed one (%v)", err)
	}
}
