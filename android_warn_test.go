package flow

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// warningHost is an adb server with one phone whose opening warns once
// through what it was given, then fails.
type warningHost struct{ openingHost }

func (warningHost) Open(ctx context.Context, o androidOpen) (exec.Device, error) {
	if o.Warn != nil {
		o.Warn("a screenshot of emulator-5554 is all black")
	}
	return nil, canonical.NewError(canonical.CodeDeviceUnavailable, "emulator-5554 is gone")
}

// TestAndroidWarningsReachStderr: a device's warning (android.Config.Warn)
// is printed on the run's stderr as one warning line.
func TestAndroidWarningsReachStderr(t *testing.T) {
	dir := t.TempDir()
	flowFile := filepath.Join(dir, "a.yaml")
	apk := filepath.Join(dir, "helper.apk")
	if err := os.WriteFile(flowFile, []byte("appId: com.example.shop\n---\n- launchApp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(apk, []byte("helper"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	env := Env{ADB: func(context.Context, Env) (androidHost, error) { return warningHost{}, nil }, Getenv: func(string) string { return "" }, Stderr: &stderr}
	_, _ = Run(context.Background(), []string{flowFile}, RunOptions{Target: Target{Device: "android:emulator-5554", AndroidHelper: apk, Env: env}})
	if got := stderr.String(); got != "warning: a screenshot of emulator-5554 is all black\n" {
		t.Fatalf("stderr = %q", got)
	}
}
