package phone

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/exec/android/adb"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
)

// startPhone serves a phone through a real adb server of the test's own.
func startPhone(t *testing.T, o Options) (*Phone, *adbtest.Device) {
	t.Helper()
	fs := adbd.NewMemFS()
	o.Files = fs
	p := New(o)
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
	return p, d
}

func helperFile(t *testing.T, body string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "flow-helper.apk")
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestAndroidDeviceOnThePhone opens exec/android's Device on the fake
// phone through the real adb server: the helper is installed, started and
// driven, the demo app is launched and tapped, and no command used input.
func TestAndroidDeviceOnThePhone(t *testing.T) {
	p, d := startPhone(t, Options{Permissions: map[string][]string{"com.example.shop": {"android.permission.CAMERA"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()), HelperAPK: helperFile(t, "helper v1")}
	dev, err := android.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if apk, ok := p.HelperInstalled(); !ok || string(apk) != "helper v1" {
		t.Fatalf("the helper was not installed byte for byte: %q", apk)
	}
	if err := dev.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true}); err != nil {
		t.Fatal(err)
	}
	vp, err := dev.Viewport(ctx)
	if err != nil || vp.Width <= 0 || vp.Height <= 0 {
		t.Fatalf("viewport %+v %v", vp, err)
	}
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	login := find(root, "Log in")
	if login == nil {
		t.Fatalf("the demo app's home screen has no \"Log in\" (hierarchy %+v)", root)
	}
	if err := dev.Tap(ctx, login.Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	st, err := dev.ReadSettled(ctx, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if find(st.Root, "Log in") != nil && find(st.Root, "Email") == nil {
		t.Fatalf("tapping Log in did not change the screen")
	}
	if err := dev.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if f := p.Forbidden(); len(f) != 0 {
		t.Fatalf("flow shelled out for input: %q", f)
	}
	touches := p.Touches()
	if len(touches) != 1 || !bytes.Contains(touches[0], []byte(`"durationMs":50`)) {
		t.Fatalf("the tap must reach the helper as one 50 ms stationary plan: %s", touches)
	}
	if g := p.Grants(); len(g) != 1 || g[0] != (Grant{Verb: "grant", Package: "com.example.shop", Permission: "android.permission.CAMERA"}) {
		t.Fatalf("launchApp grants every permission the app requests ({all: allow}): %+v", g)
	}

	// A second open finds the same helper installed and keeps it.
	dev2, err := android.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	dev2.Close(ctx)
}

// TestAndroidDeviceFaults: every way the helper fails ends in bounded
// time with DEVICE_UNAVAILABLE naming the serial.
func TestAndroidDeviceFaults(t *testing.T) {
	for name, tc := range map[string]struct {
		faults Faults
		msg    string
	}{
		"never ready":   {Faults{HelperNeverReady: true}, "did not report ready"},
		"install fails": {Faults{InstallFailure: "INSTALL_FAILED_INSUFFICIENT_STORAGE"}, "INSTALL_FAILED_INSUFFICIENT_STORAGE"},
	} {
		t.Run(name, func(t *testing.T) {
			_, d := startPhone(t, Options{Faults: tc.faults})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			start := time.Now()
			_, err := android.Open(ctx, android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()),
				HelperAPK: helperFile(t, "helper"), ReadyTimeout: time.Second})
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, tc.msg) || ce.Details["serial"] != d.Serial || ce.Hint == "" {
				t.Fatalf("want DEVICE_UNAVAILABLE %q naming %s with a hint, got %+v", tc.msg, d.Serial, err)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Fatalf("took %s", took)
			}
		})
	}
	t.Run("session drops mid-flow", func(t *testing.T) {
		_, d := startPhone(t, Options{Faults: Faults{HelperDropAfter: 3}})
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		dev, err := android.Open(ctx, android.Config{Serial: d.Serial, ADB: adb.New(d.ServerAddr()), HelperAPK: helperFile(t, "helper")})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close(ctx)
		var last error
		for i := 0; i < 12 && last == nil; i++ {
			_, last = dev.Hierarchy(ctx)
		}
		ce, ok := canonical.AsError(last)
		if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Details["serial"] != d.Serial {
			t.Fatalf("a helper that keeps dropping ends the run with DEVICE_UNAVAILABLE, got %v", last)
		}
	})
}

func find(n *exec.Node, text string) *exec.Node {
	if n == nil {
		return nil
	}
	if n.Text == text || n.Label == text {
		return n
	}
	for _, c := range n.Children {
		if f := find(c, text); f != nil {
			return f
		}
	}
	return nil
}
