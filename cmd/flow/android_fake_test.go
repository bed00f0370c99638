package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// fakeAndroid serves a fake phone (its app observations into events)
// through a real adb server of the test's own.
func fakeAndroid(t *testing.T) (*phone.Phone, *adbtest.Device, Env, string) {
	t.Helper()
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Files: fs})
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
	apk := filepath.Join(t.TempDir(), "flow-helper.apk")
	os.WriteFile(apk, []byte("a helper the fake phone accepts"), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: d.Getenv}
	return p, d, env, apk
}

// TestAndroidDemoOnFakePhone is issue 11's acceptance: the demo suite on
// the fake phone through the real adb server passes, with the same steps
// and the same gesture plans as on sim:android, and the helper received
// every touch; nothing was done with `input`.
func TestAndroidDemoOnFakePhone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo suite on a wall clock")
	}
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	androidEvents, simEvents := filepath.Join(dir, "android.jsonl"), filepath.Join(dir, "sim.jsonl")
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo", "--device", "android:" + d.Serial,
		"--android-helper", apk, "--events", androidEvents})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	r := runFlow(t, "", "test", "../../flows/demo", "--device", "sim:android", "--events", simEvents)
	if r.code != 0 {
		t.Fatalf("sim: %s", r)
	}
	if f := p.Forbidden(); len(f) != 0 {
		t.Fatalf("flow shelled out for input: %q", f)
	}
	a, s := runnerEvents(t, androidEvents), runnerEvents(t, simEvents)
	t.Logf("%d runner events; %d touches", strings.Count(a, "\n")+1, len(p.Touches()))
	if a != s {
		t.Fatalf("the Android run differs from sim:android:\nandroid:\n%s\nsim:\n%s", a, s)
	}
	if len(p.Touches()) == 0 {
		t.Fatal("no touch reached the helper")
	}
}

// runnerEvents are the runtime's events of a log, untimed: the sim device
// adds what its app observed ("observed"), which on Android is the
// phone's to log, not flow's.
func runnerEvents(t *testing.T, file string) string {
	t.Helper()
	var keep []string
	for _, l := range strings.Split(untimedEvents(t, file), "\n") {
		if !strings.Contains(l, `"type":"observed"`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestAndroidFaultsExit3WithReport: a helper that will not install, one
// that never becomes ready and a session that keeps dropping each end
// the run with exit 3 naming the device, in bounded time, and the report
// is still written.
func TestAndroidFaultsExit3WithReport(t *testing.T) {
	for name, tc := range map[string]struct {
		faults phone.Faults
		msg    string
	}{
		"install refused": {phone.Faults{InstallFailure: "INSTALL_FAILED_INSUFFICIENT_STORAGE"}, "INSTALL_FAILED_INSUFFICIENT_STORAGE"},
		"session drops":   {phone.Faults{HelperDropAfter: 4}, "dropped"},
	} {
		t.Run(name, func(t *testing.T) {
			fs := adbd.NewMemFS()
			p := phone.New(phone.Options{Files: fs, Faults: tc.faults})
			t.Cleanup(func() { p.Close() })
			d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
			apk := filepath.Join(t.TempDir(), "flow-helper.apk")
			os.WriteFile(apk, []byte("helper"), 0o644)
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: d.Getenv}
			report := filepath.Join(t.TempDir(), "report.xml")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			start := time.Now()
			code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "android:" + d.Serial,
				"--android-helper", apk, "--format", "junit", "--output", report})
			all := out.String() + errb.String()
			if code != 3 || !strings.Contains(all, d.Serial) || !strings.Contains(all, tc.msg) || !strings.Contains(all, "hint:") {
				t.Fatalf("want exit 3 naming %s and %q with a hint; exit %d\n%s", d.Serial, tc.msg, code, all)
			}
			if took := time.Since(start); took > time.Minute {
				t.Fatalf("took %s", took)
			}
			if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), "<testsuite") {
				t.Fatalf("the report was lost: %v\n%s", err, b)
			}
		})
	}
}
