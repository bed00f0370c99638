package fsext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAppendFile: appends keep what was there, create a missing file, and
// a writer stopped before its rename leaves the old content whole.
func TestAppendFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "session.ad")
	for _, line := range []string{"open a\n", "press b\n"} {
		if err := AppendFile(name, []byte(line), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	err := AppendFile(name, []byte("type c\n"), WriteOptions{BeforeRename: func(tmp string) {
		if d, _ := os.ReadFile(name); string(d) != "open a\npress b\n" {
			t.Errorf("the target changed before the rename: %q", d)
		}
		if d, _ := os.ReadFile(tmp); string(d) != "open a\npress b\ntype c\n" {
			t.Errorf("the replacement holds %q", d)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := os.ReadFile(name); string(d) != "open a\npress b\ntype c\n" {
		t.Fatalf("content %q", d)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
	if err := AppendFile(dir, []byte("x"), WriteOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("appending to a folder: %v", err)
	}
}

// TestCreateCommitAbort: a streamed replacement is invisible until Commit;
// Abort leaves the old file and no temporary file.
func TestCreateCommitAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "events.jsonl")
	os.WriteFile(name, []byte("old\n"), 0o644)
	f, err := Create(name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new 1\n"))
	f.Write([]byte("new 2\n"))
	if d, _ := os.ReadFile(name); string(d) != "old\n" {
		t.Fatalf("visible before the commit: %q", d)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if d, _ := os.ReadFile(name); string(d) != "new 1\nnew 2\n" {
		t.Fatalf("content %q", d)
	}
	if err := f.Commit(); err != nil {
		t.Fatalf("a second commit: %v", err)
	}
	g, err := Create(name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("dropped"))
	g.Abort()
	if d, _ := os.ReadFile(name); string(d) != "new 1\nnew 2\n" {
		t.Fatalf("abort changed the file: %q", d)
	}
	if g.Commit() == nil {
		t.Error("a commit after abort must fail")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}
