package flow

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// openingHost is an adb server with one online phone whose opening takes
// until the context ends, and then fails with whatever the opening met
// (here the bare context error, as any layer may return it).
type openingHost struct{ started chan struct{} }

func (openingHost) Addr() string { return "127.0.0.1:5037" }
func (openingHost) Devices(context.Context) ([]adbDevice, error) {
	return []adbDevice{{Serial: "emulator-5554", State: "device"}}, nil
}
func (openingHost) APILevel(context.Context, string) (string, error) { return "34", nil }
func (h openingHost) Open(ctx context.Context, o androidOpen) (exec.Device, error) {
	close(h.started)
	<-ctx.Done()
	return nil, ctx.Err()
}

// A run cancelled while its Android device opens skips every flow as
// INTERRUPTED, keeps the result for the report, and returns an
// INTERRUPTED error, never INTERNAL "context canceled".
func TestInterruptedWhileOpeningAndroid(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.yaml", "b.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("appId: com.example.shop\n---\n- launchApp\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	apk := filepath.Join(dir, "helper.apk")
	if err := os.WriteFile(apk, []byte("helper"), 0o644); err != nil {
		t.Fatal(err)
	}
	host := openingHost{started: make(chan struct{})}
	env := Env{ADB: func(context.Context, Env) (androidHost, error) { return host, nil }, Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-host.started:
		case <-time.After(10 * time.Second):
		}
		cancel()
	}()
	res, err := Run(ctx, []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")},
		RunOptions{Target: Target{Device: "android:emulator-5554", AndroidHelper: apk, Env: env}})
	if canonical.CodeOf(err) != canonical.CodeInterrupted {
		t.Fatalf("want INTERRUPTED, got %#v", err)
	}
	if len(res.Flows) != 2 {
		t.Fatalf("every flow must be in the result: %+v", res.Flows)
	}
	for _, f := range res.Flows {
		if f.Status != exec.StatusSkipped || f.Error == nil || f.Error.Code != canonical.CodeInterrupted {
			t.Errorf("flow %s: want skipped INTERRUPTED, got %s %+v", f.Name, f.Status, f.Error)
		}
	}
}
