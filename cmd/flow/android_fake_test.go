package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
	"github.com/flow-runner/flow/planner"
)

// fakeAndroid serves a fake phone (its app observations into events)
// through a real adb server of the test's own.
func fakeAndroid(t *testing.T) (*phone.Phone, *adbtest.Device, Env, string) {
	t.Helper()
	fs := adbd.NewMemFS()
	// SystemUI emits events throughout, as on a phone (its status bar):
	// nothing flow decides may wait on them or count them as a change.
	p := phone.New(phone.Options{Files: fs, SystemUIEvery: 300 * time.Millisecond})
	t.Cleanup(func() { p.Close() })
	d := adbtest.Start(t, p, adbd.Options{Props: p.Props(), FS: fs})
	apk := filepath.Join(t.TempDir(), "flow-helper.apk")
	os.WriteFile(apk, []byte("a helper the fake phone accepts"), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(d.Getenv)}
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
	androidReport, simReport := filepath.Join(dir, "android.json"), filepath.Join(dir, "sim.json")
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo", "--device", "android:" + d.Serial,
		"--android-helper", apk, "--events", androidEvents, "--format", "json", "--output", androidReport})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	r := runFlow(t, "", "test", "../../flows/demo", "--device", "sim:android", "--events", simEvents, "--format", "json", "--output", simReport)
	if r.code != 0 {
		t.Fatalf("sim: %s", r)
	}
	if a := reportSteps(t, androidReport); strings.Count(a, " passed") < 30 || !strings.Contains(a, "05-checkout.yaml passed") {
		t.Fatalf("the report must hold the five demo flows, passed, step by step:\n%s", a)
	}
	if a, s := reportSteps(t, androidReport), reportSteps(t, simReport); a != s {
		t.Fatalf("the Android report differs from sim:android's:\nandroid:\n%s\nsim:\n%s", a, s)
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

// reportSteps is a JSON report without timings and device: each flow and
// step with its status, position and error code.
func reportSteps(t *testing.T, file string) string {
	t.Helper()
	var rep struct {
		Summary map[string]any `json:"summary"`
		Flows   []struct {
			Name, File, Status string
			Steps              []struct {
				Command, Description, Status string
				Pos                          map[string]any
			}
		} `json:"flows"`
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range rep.Flows {
		fmt.Fprintf(&b, "%s %s %s\n", f.Name, f.File, f.Status)
		for _, s := range f.Steps {
			fmt.Fprintf(&b, "  %s %q %s %v\n", s.Command, s.Description, s.Status, s.Pos)
		}
	}
	return b.String()
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
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(d.Getenv)}
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

// TestAndroidGesturesReachTheHelperExactly: a pinch, a two-finger pan and
// a drag between two elements, from an .ad script, reach the fake helper
// as exactly exec/android's lowering of the plans flow logged, byte for
// byte, and those bytes are pinned.
func TestAndroidGesturesReachTheHelperExactly(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "gestures.ad")
	os.WriteFile(script, []byte(`context platform=android
open com.example.shop --relaunch
press text="Browse as guest"
gesture pinch 0.5
gesture pan 540 1500 0 -600 300 --pointer-count 2
gesture drag "text=Outdoor" "text=\"On sale\"" 200 400 100
`), 0o644)
	events := filepath.Join(dir, "events.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", script, "--device", "android:" + d.Serial, "--android-helper", apk, "--events", events}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	var lowered [][]byte
	data, _ := os.ReadFile(events)
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Type string        `json:"type"`
			Plan *planner.Plan `json:"plan"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		if e.Type != "gesture" || e.Plan == nil {
			continue
		}
		tp, err := android.Lower(*e.Plan)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := tp.MarshalJSON()
		lowered = append(lowered, b)
	}
	var gestures [][]byte
	for _, touch := range p.Touches() {
		if !bytes.Contains(touch, []byte(`"durationMs":50,`)) { // taps are 50 ms stationary plans
			gestures = append(gestures, touch)
		}
	}
	if len(lowered) != 3 || len(gestures) != 3 {
		t.Fatalf("want 3 planned gestures and 3 gesture touches, got %d and %d", len(lowered), len(gestures))
	}
	for i := range lowered {
		if !bytes.Equal(lowered[i], gestures[i]) {
			t.Errorf("gesture %d: the helper received\n%s\nandroid.Lower of the logged plan is\n%s", i+1, gestures[i], lowered[i])
		}
	}
	var pinned []string
	for _, g := range gestures {
		pinned = append(pinned, string(g))
	}
	snaps.MatchSnapshot(t, strings.Join(pinned, "\n"))
	if f := p.Forbidden(); len(f) != 0 {
		t.Fatalf("flow shelled out for input: %q", f)
	}
}

// TestAndroidShardsAndPicking: two phones on one adb server: --device
// android without a serial is refused (exit 2, listing both), the suite
// runs on both with --shard-split 2, and three shards are exit 3 (a
// device is missing, as when none is attached) saying how many are online.
func TestAndroidShardsAndPicking(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo suite on a wall clock")
	}
	p1, d1, env, apk := fakeAndroid(t)
	fs := adbd.NewMemFS()
	p2 := phone.New(phone.Options{Files: fs})
	t.Cleanup(func() { p2.Close() })
	d2 := d1.Add(t, p2, adbd.Options{Props: p2.Props(), FS: fs})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	call := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		e := env
		e.Stdout, e.Stderr = &out, &errb
		code := run(ctx, e, append([]string{"flow", "test", "../../flows/demo/01-launch.yaml", "../../flows/demo/03-browse.yaml", "../../flows/demo/04-product.yaml", "--android-helper", apk}, args...))
		return code, out.String() + errb.String()
	}
	if code, out := call("--device", "android"); code != 2 || !strings.Contains(out, d1.Serial) || !strings.Contains(out, d2.Serial) {
		t.Fatalf("two online devices and no serial: want exit 2 listing both, got %d\n%s", code, out)
	}
	if code, out := call("--device", "android", "--shard-split", "3"); code != 3 || !strings.Contains(out, "needs 3 online Android devices") || !strings.Contains(out, "lower --shard-split to 2") {
		t.Fatalf("three shards on two devices: want exit 3 saying two are online, got %d\n%s", code, out)
	}
	if code, out := call("--device", "android", "--shard-split", "2"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if len(p1.Touches()) == 0 || len(p2.Touches()) == 0 {
		t.Fatalf("both phones must have run flows: %d and %d touches", len(p1.Touches()), len(p2.Touches()))
	}
}

// TestAndroidWithoutADB: no server and no adb to start one is exit 3
// saying so.
func TestAndroidWithoutADB(t *testing.T) {
	env := testEnv(map[string]string{"ANDROID_ADB_SERVER_PORT": "1"})
	code := run(t.Context(), env, []string{"flow", "test", "../../flows/demo/01-launch.yaml", "--device", "android", "--android-helper", "../../README.md"})
	out := env.Stdout.(*bytes.Buffer).String() + env.Stderr.(*bytes.Buffer).String()
	if code != 3 || !strings.Contains(out, "adb") || !strings.Contains(out, "hint:") {
		t.Fatalf("want exit 3 about adb with a hint, got %d\n%s", code, out)
	}
}
