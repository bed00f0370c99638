package android

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestInstallAppVerdicts: --app-file streams the file as adb install -r
// does and reads the package manager's verdict (AOSP
// PackageManagerShellCommand prints "Success" or "Failure [REASON: …]"):
// a reason that blames the file is INVALID_ARGS (exit 2) naming it, any
// other is the device's (DEVICE_UNAVAILABLE), both quoting pm.
func TestInstallAppVerdicts(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	d, err := open(ctx, Config{Serial: "emulator-5554", HelperData: []byte("helper"), HelperVersionCode: 1, ReadyTimeout: 2 * time.Second}, p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	apk := filepath.Join(t.TempDir(), "todo.apk")
	os.WriteFile(apk, []byte("PK\x03\x04 the app"), 0o644)
	if err := d.InstallApp(ctx, apk); err != nil {
		t.Fatalf("a Success verdict: %v", err)
	}
	p.mu.Lock()
	got := p.apk
	p.mu.Unlock()
	if !bytes.Equal(got, []byte("PK\x03\x04 the app")) {
		t.Fatalf("the package manager got %q, not the file", got)
	}
	for verdict, code := range map[string]canonical.Code{
		"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl1.tmp/base.apk]":    canonical.CodeInvalidArgs,
		"Failure [INSTALL_FAILED_NO_MATCHING_ABIS: Failed to extract native libraries, res=-113]": canonical.CodeInvalidArgs,
		"Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]":                                           canonical.CodeDeviceUnavailable,
	} {
		p.mu.Lock()
		p.install = []string{verdict}
		p.mu.Unlock()
		err := d.InstallApp(ctx, apk)
		ce, _ := canonical.AsError(err)
		if ce == nil || ce.Code != code || !strings.Contains(ce.Message, apk) || !strings.Contains(ce.Message, verdict) || ce.Hint == "" {
			t.Errorf("%s: want %s naming the file and quoting pm, got %#v", verdict, code, err)
		}
	}
	if err := d.InstallApp(ctx, filepath.Join(t.TempDir(), "gone.apk")); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Errorf("a missing file: want INVALID_ARGS, got %v", err)
	}
}
