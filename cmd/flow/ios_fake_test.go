package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/internal/fakeios/runner"
	iosrunner "github.com/flow-runner/flow/ios-runner"
	"github.com/flow-runner/flow/planner"
)

func fakeRunner(t *testing.T, o runner.Options) (*runner.Runner, string) {
	t.Helper()
	r := runner.New(o)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Serve(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })
	return r, "http://" + l.Addr().String()
}

// iosDemo are the demo flows a runner reached by URL can run: 01-launch
// clears the app's state, which needs the simulator's host (simctl).
var iosDemo = []string{"../../flows/demo/02-login.yaml", "../../flows/demo/03-browse.yaml", "../../flows/demo/04-product.yaml", "../../flows/demo/05-checkout.yaml"}

// TestIOSRunnerURLDemo: the demo suite through --ios-runner-url on the
// fake runner passes with the same report steps and runtime events
// (gesture plans included) as on sim:ios.
func TestIOSRunnerURLDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo suite on a wall clock")
	}
	_, url := fakeRunner(t, runner.Options{Simulator: true})
	dir := t.TempDir()
	ev, simEv := filepath.Join(dir, "ios.jsonl"), filepath.Join(dir, "sim.jsonl")
	rep, simRep := filepath.Join(dir, "ios.json"), filepath.Join(dir, "sim.json")
	r := runFlow(t, "", append([]string{"test", "--ios-runner-url", url, "--events", ev, "--format", "json", "--output", rep}, iosDemo...)...)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	s := runFlow(t, "", append([]string{"test", "--device", "sim:ios", "--events", simEv, "--format", "json", "--output", simRep}, iosDemo...)...)
	if s.code != 0 {
		t.Fatalf("sim: %s", s)
	}
	if a, b := reportSteps(t, rep), reportSteps(t, simRep); a != b || strings.Count(a, " passed") < 20 {
		t.Fatalf("the iOS report differs from sim:ios's:\nios:\n%s\nsim:\n%s", a, b)
	}
	if a, b := runnerEvents(t, ev), runnerEvents(t, simEv); a != b {
		t.Fatalf("the iOS run differs from sim:ios:\nios:\n%s\nsim:\n%s", a, b)
	}
}

// TestIOSGesturesReachTheRunnerExactly: an .ad pinch and rotate reach the
// fake simulator runner as exactly exec/ios's requests of the plans flow
// logged (pinned by snapshot); on an iPhone they fail with
// UNSUPPORTED_OPERATION and nothing is sent.
func TestIOSGesturesReachTheRunnerExactly(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "gestures.ad")
	os.WriteFile(script, []byte("context platform=ios\nopen com.example.shop --relaunch\ngesture pinch 0.5\ngesture rotate 45\n"), 0o644)
	rn, url := fakeRunner(t, runner.Options{Simulator: true})
	events := filepath.Join(dir, "events.jsonl")
	if r := runFlow(t, "", "test", script, "--ios-runner-url", url, "--events", events); r.code != 0 {
		t.Fatalf("%s", r)
	}
	var want []string
	data, _ := os.ReadFile(events)
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Type string        `json:"type"`
			Plan *planner.Plan `json:"plan"`
		}
		json.Unmarshal([]byte(l), &e)
		if e.Type != "gesture" || e.Plan == nil {
			continue
		}
		req, err := ios.LowerRequest(*e.Plan, "com.example.shop")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(req.GesturePlan)
		want = append(want, string(b))
	}
	var got []string
	for _, g := range rn.Gestures() {
		var body struct {
			Command     string          `json:"command"`
			GesturePlan json.RawMessage `json:"gesturePlan"`
			AppBundleID string          `json:"appBundleId"`
		}
		json.Unmarshal(g, &body)
		if body.Command != "gesture" || body.AppBundleID != "com.example.shop" {
			t.Fatalf("a gesture request names its app: %s", g)
		}
		got = append(got, string(body.GesturePlan))
	}
	if len(want) != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the runner received\n%s\nexec/ios's requests of the logged plans are\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	snaps.MatchSnapshot(t, strings.Join(got, "\n"))

	phone, purl := fakeRunner(t, runner.Options{Simulator: false})
	r := runFlow(t, "", "test", script, "--ios-runner-url", purl)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "UNSUPPORTED_OPERATION") || !strings.Contains(r.stdout+r.stderr, "simulator") {
		t.Fatalf("two fingers on an iPhone must be refused:\n%s", r)
	}
	if n := len(phone.Gestures()); n != 0 {
		t.Fatalf("%d gesture requests reached the iPhone", n)
	}
}

// TestIOSRunnerFailures: no runner at the URL, and a runner that dies
// mid-flow, end with exit 3 naming the device, with a hint, and the report
// is written.
func TestIOSRunnerFailures(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String()
	l.Close()
	_, dying := fakeRunner(t, runner.Options{Simulator: true, DieAfter: 6})
	for name, url := range map[string]string{"no runner": dead, "dies mid-flow": dying} {
		t.Run(name, func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "r.xml")
			start := time.Now()
			r := runFlow(t, "", "test", "../../flows/demo/02-login.yaml", "--ios-runner-url", url, "--format", "junit", "--output", report)
			if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "hint:") || !strings.Contains(r.stdout+r.stderr, strings.TrimPrefix(url, "http://")) {
				t.Fatalf("want exit 3 naming the runner with a hint:\n%s", r)
			}
			if time.Since(start) > time.Minute {
				t.Fatalf("took %s", time.Since(start))
			}
			if b, err := os.ReadFile(report); err != nil || !bytes.Contains(b, []byte("<testsuite")) {
				t.Fatalf("the report was lost: %v", err)
			}
		})
	}
}

// fakeMac puts a fake xcrun (this test binary) first and returns an
// environment for flow with it and a built runner to start.
func fakeMac(t *testing.T) (Env, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	xcrun := filepath.Join(dir, "xcrun")
	if err := os.Symlink(self, xcrun); err != nil {
		t.Fatal(err)
	}
	xctestrun := filepath.Join(dir, "FlowRunner.xctestrun")
	os.WriteFile(xctestrun, []byte("<plist/>"), 0o644)
	vars := map[string]string{"FLOW_IOS_RUNNER_XCTESTRUN": xctestrun, "FLOW_IOS_LOCK_DIR": filepath.Join(dir, "locks")}
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(func(k string) string { return vars[k] }),
		Environ:  func() []string { return append(os.Environ(), fakeXcrunDir+"="+dir) },
		LookPath: func(name string) (string, error) { return filepath.Join(dir, name), nil },
		IOSLink:  &fakePhones{}}
	return env, dir
}

// TestIOSSimulatorThroughFakeXcrun: --device ios on a Mac (a fake xcrun:
// simctl and xcodebuild) finds the booted simulator, starts the runner,
// runs the whole demo suite (clearState and permissions through simctl)
// with the same report steps and runtime events as sim:ios, and stops
// the runner.
func TestIOSSimulatorThroughFakeXcrun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo suite on a wall clock")
	}
	env, dir := fakeMac(t)
	tmp := t.TempDir()
	ev, simEv := filepath.Join(tmp, "ios.jsonl"), filepath.Join(tmp, "sim.jsonl")
	rep, simRep := filepath.Join(tmp, "ios.json"), filepath.Join(tmp, "sim.json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", "../../flows/demo", "--device", "ios", "--events", ev, "--format", "json", "--output", rep}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	if s := runFlow(t, "", "test", "../../flows/demo", "--device", "sim:ios", "--events", simEv, "--format", "json", "--output", simRep); s.code != 0 {
		t.Fatalf("sim: %s", s)
	}
	if a, b := reportSteps(t, rep), reportSteps(t, simRep); a != b || !strings.Contains(a, "01-launch.yaml passed") {
		t.Fatalf("the iOS report differs from sim:ios's:\nios:\n%s\nsim:\n%s", a, b)
	}
	if a, b := runnerEvents(t, ev), runnerEvents(t, simEv); a != b {
		t.Fatalf("the iOS run differs from sim:ios:\nios:\n%s\nsim:\n%s", a, b)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	for _, want := range []string{
		"simctl list -j devices",
		"xcodebuild test-without-building -xctestrun " + filepath.Join(dir, "FlowRunner.xctestrun") + " -destination id=FAKE-UDID-1",
		"simctl get_app_container FAKE-UDID-1 com.example.shop",
		"simctl uninstall FAKE-UDID-1 com.example.shop",
		"simctl privacy FAKE-UDID-1 grant all com.example.shop",
	} {
		if !strings.Contains(string(log), want) {
			t.Errorf("xcrun was not asked %q:\n%s", want, log)
		}
	}
}

// TestIOSSimulatorFailures: no Xcode, several booted simulators without a
// UDID, a UDID that does not exist, and no built runner each end with a
// coded error naming the device and a hint.
func TestIOSSimulatorFailures(t *testing.T) {
	env, _ := fakeMac(t)
	noXcode := env
	noXcode.LookPath = func(string) (string, error) { return "", os.ErrNotExist }
	noRunner := env
	locks := t.TempDir()
	noRunner.Getenv = func(k string) string {
		return map[string]string{"XDG_CACHE_HOME": t.TempDir(), "FLOW_IOS_LOCK_DIR": locks}[k]
	}
	noRunner.Environ = func() []string { return append(env.Environ(), "FLOW_FAKE_XCRUN_BUILD=fail") }
	for name, tc := range map[string]struct {
		env    Env
		device string
		code   int
		want   string
	}{
		"no xcode":              {noXcode, "ios", 3, "no Xcode"},
		"unknown udid":          {env, "ios:NOPE", 3, "no iOS device NOPE"},
		"runner does not build": {noRunner, "ios", 3, "xcodebuild build-for-testing of flow's iOS runner failed: exit status 65: FlowRunnerUITests/Commands.swift:40:9: error: value of type 'XCUIApplication' has no member 'frobnicate'"},
	} {
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			e := tc.env
			e.Stdout, e.Stderr = &out, &errb
			code := run(context.Background(), e, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", tc.device})
			all := out.String() + errb.String()
			if code != tc.code || !strings.Contains(all, tc.want) || !strings.Contains(all, "hint:") {
				t.Fatalf("want exit %d with %q and a hint, got %d\n%s", tc.code, tc.want, code, all)
			}
		})
	}
}

// TestDevicesListsSimulators: flow devices on a Mac lists its available
// simulators (booted first), and says how to run a shut-down one.
func TestDevicesListsSimulators(t *testing.T) {
	env, _ := fakeMac(t)
	if code := run(context.Background(), env, []string{"flow", "devices"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, env.Stderr)
	}
	out := env.Stdout.(*bytes.Buffer).String()
	booted, off := strings.Index(out, "ios:FAKE-UDID-1"), strings.Index(out, "ios:FAKE-UDID-2")
	if booted < 0 || off < booted || strings.Contains(out, "FAKE-UDID-OLD") || !strings.Contains(out, "--device ios:FAKE-UDID-2") {
		t.Fatalf("want the booted simulator, then the shut-down one with a hint, and no unavailable one:\n%s", out)
	}
}

// TestIOSShards: --shard-split 2 runs on two booted simulators, each with
// its own runner; three shards on two booted simulators is exit 3 saying
// how many are booted; a URL is one device.
func TestIOSShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flows on a wall clock")
	}
	env, dir := fakeMac(t)
	environ := env.Environ
	env.Environ = func() []string { return append(environ(), "FLOW_FAKE_XCRUN_BOOTED=2") }
	flows := []string{"../../flows/demo/02-login.yaml", "../../flows/demo/03-browse.yaml", "../../flows/demo/04-product.yaml"}
	call := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		e := env
		e.Stdout, e.Stderr = &out, &errb
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		code := run(ctx, e, append(append([]string{"flow", "test"}, flows...), args...))
		return code, out.String() + errb.String()
	}
	if code, out := call("--device", "ios", "--shard-split", "3"); code != 3 || !strings.Contains(out, "2 are booted") {
		t.Fatalf("want exit 3 saying two are booted, got %d\n%s", code, out)
	}
	if code, out := call("--ios-runner-url", "http://127.0.0.1:1", "--shard-split", "2"); code != 2 {
		t.Fatalf("a runner URL is one device: want exit 2, got %d\n%s", code, out)
	}
	if code, out := call("--device", "ios", "--shard-split", "2"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	if !strings.Contains(string(log), "-destination id=FAKE-UDID-1") || !strings.Contains(string(log), "-destination id=FAKE-UDID-2") {
		t.Fatalf("each shard starts a runner on its own simulator:\n%s", log)
	}
}

// fakePhones is a USB link to fake iPhones: each runner is the fake
// runner reporting a real device, reachable once forwarded.
type fakePhones struct {
	phones    []ios.Phone
	mu        sync.Mutex
	runner    *runner.Runner
	installed string
	installs  []string
	runnerID  string // the bundle id of the runner installed
	started   string // the bundle id StartRunner was asked for
}

func (f *fakePhones) List(context.Context) ([]ios.Phone, error) { return f.phones, nil }

// Apps lists what the installation proxy would: the runner once
// installed, and the fake runner's app.
func (f *fakePhones) Apps(_ context.Context, udid string) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	apps := map[string]string{"com.example.shop": "1"}
	if f.installed != "" {
		apps[f.runnerID] = f.installed
	}
	return apps, nil
}

// Install records the app and keeps its build number, as the phone's
// installation proxy then reports it. An .ipa is sent whole, as go-ios's
// zipconduit sends one (ios/zipconduit/zipconduit_installer.go,
// sendIpaFile).
func (f *fakePhones) Install(_ context.Context, udid, app string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.installs = append(f.installs, app)
	if strings.HasSuffix(app, ".ipa") {
		return nil
	}
	id, v, err := iosrunner.AppInfo(app)
	if err == nil && (f.runnerID == "" || strings.HasPrefix(id, "dev.flow.runner")) {
		// The runner's build number is what a later run compares.
		f.installed, f.runnerID = v, id
	}
	return err
}

func (f *fakePhones) StartRunner(ctx context.Context, udid, bundleID string, port int) (<-chan error, error) {
	f.mu.Lock()
	f.started = bundleID
	f.mu.Unlock()
	return make(chan error), nil
}

func (f *fakePhones) Forward(ctx context.Context, udid string, local, port int) (func() error, error) {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(local))
	if err != nil {
		return nil, err
	}
	r := runner.New(runner.Options{Simulator: false})
	f.mu.Lock()
	f.runner = r
	f.mu.Unlock()
	sctx, cancel := context.WithCancel(context.Background())
	go r.Serve(sctx, l)
	return func() error { cancel(); return nil }, nil
}

// TestIOSIPhone: --device ios:UDID of a connected iPhone starts the runner
// through the USB link, runs a flow, and refuses a pinch with nothing sent.
func TestIOSIPhone(t *testing.T) {
	env, dir := fakeMac(t)
	link := &fakePhones{phones: []ios.Phone{{UDID: "00008110-PHONE", Name: "Ada's iPhone", Version: "16.7"}}}
	env.IOSLink = link
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios:00008110-PHONE"}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	script := filepath.Join(dir, "pinch.ad")
	os.WriteFile(script, []byte("context platform=ios\nopen com.example.shop --relaunch\ngesture pinch 0.5\n"), 0o644)
	out.Reset()
	code := run(ctx, env, []string{"flow", "test", script, "--device", "ios:00008110-PHONE"})
	if code == 0 || !strings.Contains(out.String(), "UNSUPPORTED_OPERATION") {
		t.Fatalf("a pinch on an iPhone must be refused: exit %d\n%s", code, out.String())
	}
	link.mu.Lock()
	n := len(link.runner.Gestures())
	link.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d gesture requests reached the iPhone", n)
	}
	// With a booted simulator and a phone, --device ios must be told which.
	out.Reset()
	if code := run(ctx, env, []string{"flow", "test", script, "--device", "ios"}); code != 2 || !strings.Contains(out.String()+errb.String(), "00008110-PHONE") {
		t.Fatalf("a simulator and an iPhone without a UDID: want exit 2 listing both, got %d\n%s", code, out.String()+errb.String())
	}
}

// TestIOSSimulatorKeychainAndRecording: clearKeychain and a screen
// recording on a simulator go through simctl; the video lands at the
// flow's path.
func TestIOSSimulatorKeychainAndRecording(t *testing.T) {
	env, dir := fakeMac(t)
	flow := filepath.Join(dir, "rec.yaml")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp:\n    clearKeychain: true\n- startRecording: "+filepath.Join(dir, "clip")+"\n- assertVisible: Shop\n- stopRecording\n"), 0o644)
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if code := run(ctx, env, []string{"flow", "test", flow, "--device", "ios"}); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	for _, want := range []string{"simctl keychain FAKE-UDID-1 reset", "simctl io FAKE-UDID-1 recordVideo --force " + filepath.Join(dir, "clip.mp4")} {
		if !strings.Contains(string(log), want) {
			t.Errorf("xcrun was not asked %q:\n%s", want, log)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "clip.mp4")); err != nil || string(b) != "fake mp4" {
		t.Fatalf("the recording was not finished at its path: %v", err)
	}
}

// TestIOSRunnerBuiltOnFirstUse: without FLOW_IOS_RUNNER_XCTESTRUN, flow
// builds the runner it embeds with xcodebuild build-for-testing, starts
// the .xctestrun that build made, and the next run reuses the cache.
func TestIOSRunnerBuiltOnFirstUse(t *testing.T) {
	env, dir := fakeMac(t)
	cache := t.TempDir()
	locks := t.TempDir()
	env.Getenv = func(k string) string {
		return map[string]string{"XDG_CACHE_HOME": cache, "FLOW_IOS_LOCK_DIR": locks}[k]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := 0; i < 2; i++ {
		var out, errb bytes.Buffer
		env.Stdout, env.Stderr = &out, &errb
		if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios"}); code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", i, code, out.String(), errb.String())
		}
		if built := strings.Contains(errb.String(), "building flow's iOS runner"); built != (i == 0) {
			t.Errorf("run %d: said it builds = %v\n%s", i, built, errb.String())
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	var builds, starts []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "xcodebuild build-for-testing"):
			builds = append(builds, l)
		case strings.HasPrefix(l, "xcodebuild test-without-building"):
			starts = append(starts, l)
		}
	}
	if len(builds) != 1 || len(starts) != 2 {
		t.Fatalf("want one build and two starts:\n%s", log)
	}
	if !strings.Contains(builds[0], "-scheme FlowRunner") || !strings.Contains(builds[0], "-destination generic/platform=iOS Simulator") {
		t.Errorf("build: %s", builds[0])
	}
	xctestrun := filepath.Join(cache, "flow", "ios-runner")
	for _, s := range starts {
		if !strings.Contains(s, "-xctestrun "+xctestrun) || !strings.Contains(s, "FlowRunner_iphonesimulator17.5-arm64.xctestrun -destination id=FAKE-UDID-1") {
			t.Errorf("start does not use the built runner in %s: %s", xctestrun, s)
		}
	}
}

// TestIOSRunnerBuildCommand: flow ios runner build prints the built
// .xctestrun (and for iPhones the app to install); an iPhone build without
// a team is refused before xcodebuild runs.
func TestIOSRunnerBuildCommand(t *testing.T) {
	env, dir := fakeMac(t)
	cache := t.TempDir()
	locks := t.TempDir()
	env.Getenv = func(k string) string {
		return map[string]string{"XDG_CACHE_HOME": cache, "FLOW_IOS_LOCK_DIR": locks}[k]
	}
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	if code := run(context.Background(), env, []string{"flow", "ios", "runner", "build"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	path := strings.TrimSpace(out.String())
	if _, err := os.Stat(path); err != nil || !strings.HasPrefix(path, cache) || !strings.HasSuffix(path, "_iphonesimulator17.5-arm64.xctestrun") {
		t.Fatalf("printed %q (%v)", path, err)
	}
	out.Reset()
	errb.Reset()
	if code := run(context.Background(), env, []string{"flow", "ios", "runner", "build", "--iphone"}); code != 2 || !strings.Contains(errb.String(), "--team") {
		t.Fatalf("--iphone without a team: exit %d\n%s", code, errb.String())
	}
	before, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	if strings.Count(string(before), "build-for-testing") != 1 {
		t.Fatalf("xcodebuild ran for a refused build:\n%s", before)
	}
	out.Reset()
	if code := run(context.Background(), env, []string{"flow", "ios", "runner", "build", "--iphone", "--team", "ABCDE12345"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	printed := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(printed) != 2 || !strings.HasSuffix(printed[1], filepath.Join("Debug-iphoneos", "FlowRunnerUITests-Runner.app")) {
		t.Fatalf("printed %q", printed)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	if !strings.Contains(string(log), "-destination generic/platform=iOS -allowProvisioningUpdates DEVELOPMENT_TEAM=ABCDE12345") {
		t.Errorf("the iPhone build is not signed with the team:\n%s", log)
	}
}

// TestIOSIPhoneInstallsTheRunner: with FLOW_IOS_TEAM, flow builds the
// runner for iPhones (signed by that team), installs it on the phone that
// lacks it before starting it, and does not install it again.
func TestIOSIPhoneInstallsTheRunner(t *testing.T) {
	env, _ := fakeMac(t)
	cache := t.TempDir()
	env.Getenv = func(k string) string {
		return map[string]string{"XDG_CACHE_HOME": cache, "FLOW_IOS_TEAM": "ABCDE12345", "FLOW_IOS_LOCK_DIR": filepath.Join(cache, "locks")}[k]
	}
	link := &fakePhones{phones: []ios.Phone{{UDID: "00008110-PHONE", Name: "Ada's iPhone", Version: "16.7"}}}
	env.IOSLink = link
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := 0; i < 2; i++ {
		var out, errb bytes.Buffer
		env.Stdout, env.Stderr = &out, &errb
		if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios:00008110-PHONE"}); code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", i, code, out.String(), errb.String())
		}
	}
	if len(link.installs) != 1 || !strings.HasSuffix(link.installs[0], filepath.Join("Debug-iphoneos", "FlowRunnerUITests-Runner.app")) {
		t.Fatalf("installs: %q", link.installs)
	}
	// M2: the runner's ids are the team's own, and go-ios starts that one.
	if link.started != "dev.flow.runner.abcde12345.UITests.xctrunner" {
		t.Fatalf("the runner started is %q, want the team's dev.flow.runner.abcde12345.UITests.xctrunner", link.started)
	}
}

// TestIOSOneSessionPerSimulator (R19): while a run holds a simulator, a
// second run on it exits 3 naming the first (its pid) and starts no
// runner; once the first is gone, the simulator is free.
func TestIOSOneSessionPerSimulator(t *testing.T) {
	env, dir := fakeMac(t)
	first, err := ios.LockDevice(context.Background(), env.Var("FLOW_IOS_LOCK_DIR"), "FAKE-UDID-1")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env.Stdout, env.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios"})
	all := out.String() + errb.String()
	if code != 3 || !strings.Contains(all, "FAKE-UDID-1 is in use by another flow run") || !strings.Contains(all, "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(all, "hint:") {
		t.Fatalf("a second session: want exit 3 naming the first (pid %d), got %d\n%s", os.Getpid(), code, all)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "xcrun.log"))
	if strings.Contains(string(log), "test-without-building") {
		t.Fatalf("the refused run started a runner:\n%s", log)
	}
	first.Release()
	out.Reset()
	errb.Reset()
	if code := run(ctx, env, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios"}); code != 0 {
		t.Fatalf("the simulator is free again: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestIOSStartupTimeout: MAESTRO_DRIVER_STARTUP_TIMEOUT (milliseconds)
// bounds the wait for the runner; a value that is no number of
// milliseconds is exit 2 naming the variable.
func TestIOSStartupTimeout(t *testing.T) {
	env, _ := fakeMac(t)
	environ := env.Environ
	env.Environ = func() []string { return append(environ(), "FLOW_FAKE_XCRUN_RUNNER=hang") }
	getenv := env.Getenv
	for _, c := range []struct {
		value string
		code  int
		want  string
	}{
		{"800", 3, "did not say it was ready within 800ms"},
		{"soon", 2, `MAESTRO_DRIVER_STARTUP_TIMEOUT is "soon", not a number of milliseconds`},
	} {
		t.Run(c.value, func(t *testing.T) {
			e := env
			e.Getenv = func(k string) string {
				if k == "MAESTRO_DRIVER_STARTUP_TIMEOUT" {
					return c.value
				}
				return getenv(k)
			}
			var out, errb bytes.Buffer
			e.Stdout, e.Stderr = &out, &errb
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := time.Now()
			code := run(ctx, e, []string{"flow", "test", "../../flows/demo/02-login.yaml", "--device", "ios"})
			all := out.String() + errb.String()
			if code != c.code || !strings.Contains(all, c.want) || !strings.Contains(all, "hint:") {
				t.Fatalf("want exit %d with %q, got %d\n%s", c.code, c.want, code, all)
			}
			if time.Since(start) > 30*time.Second {
				t.Fatalf("took %s", time.Since(start))
			}
		})
	}
}

// TestIOSRunnerURLCannotRecord: through --ios-runner-url alone there is no
// simctl to record with: startRecording is UNSUPPORTED_OPERATION (exit 3)
// with a hint, and with optional: true a warning on a passing flow.
func TestIOSRunnerURLCannotRecord(t *testing.T) {
	_, url := fakeRunner(t, runner.Options{Simulator: true})
	dir := t.TempDir()
	flow := filepath.Join(dir, "rec.yaml")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp\n- startRecording: "+filepath.Join(dir, "clip")+"\n- stopRecording\n"), 0o644)
	r := runFlow(t, "", "test", flow, "--ios-runner-url", url)
	out := r.stdout + r.stderr
	if r.code != 3 || !strings.Contains(out, "UNSUPPORTED_OPERATION") || !strings.Contains(out, "startRecording") || !strings.Contains(out, "hint:") {
		t.Fatalf("want exit 3 with UNSUPPORTED_OPERATION naming startRecording and a hint:\n%s", r)
	}
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp\n- startRecording:\n    path: "+filepath.Join(dir, "clip")+"\n    optional: true\n- stopRecording\n"), 0o644)
	r = runFlow(t, "", "test", flow, "--ios-runner-url", url)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "UNSUPPORTED_OPERATION") {
		t.Fatalf("want a pass with the refusal as a warning:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "clip.mp4")); err == nil {
		t.Error("a recording was written")
	}
}
