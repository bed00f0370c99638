package ios

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

// fakeLink is a phone whose runner is a tiny flow-runner-v1 answerer that
// reports a real device; it starts only once forwarded, as a runner on a
// phone is reachable only through the forward.
type fakeLink struct {
	phones   []Phone
	startErr error // the runner's test ends at once with this
	started  string
	bundle   string
	env      int
	fwdPort  int
	stopped  chan struct{}
	srv      *http.Server
	gestures int
	// installed is the runner build on the phone ("" none); calls logs
	// the link's install-side calls in order.
	installed  string
	installErr error
	calls      []string
	mu         sync.Mutex
	commands   []string // what the runner was sent
}

func (f *fakeLink) sent() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.commands, " ")
}

// Apps lists what go-ios's installation proxy would (BrowseAllApps): the
// runner when installed, and a system app.
func (f *fakeLink) Apps(_ context.Context, udid string) (map[string]string, error) {
	f.calls = append(f.calls, "apps")
	apps := map[string]string{"com.apple.mobilesafari": "8619.1.26.30.5"}
	if f.installed != "" {
		apps[f.installedID()] = f.installed
	}
	return apps, nil
}

func (f *fakeLink) installedID() string {
	if f.bundle != "" {
		return f.bundle
	}
	return runnerBundleID
}

func (f *fakeLink) Install(_ context.Context, udid, app string) error {
	f.calls = append(f.calls, "install "+app)
	if f.installErr != nil {
		return f.installErr
	}
	f.installed = "from " + app
	return nil
}

func (f *fakeLink) List(context.Context) ([]Phone, error) { return f.phones, nil }

func (f *fakeLink) StartRunner(ctx context.Context, udid, bundleID string, port int) (<-chan error, error) {
	f.started, f.env, f.bundle = udid, port, bundleID
	done := make(chan error, 1)
	if f.startErr != nil {
		done <- f.startErr
		return done, nil
	}
	f.stopped = make(chan struct{})
	go func() { <-ctx.Done(); close(f.stopped) }()
	return done, nil
}

func (f *fakeLink) Forward(ctx context.Context, udid string, local, port int) (func() error, error) {
	f.fwdPort = port
	if f.startErr != nil {
		return func() error { return nil }, nil // nothing listens on the phone
	}
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(local))
	if err != nil {
		return nil, err
	}
	f.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct {
			Command   string `json:"command"`
			CommandID int    `json:"commandId"`
		}
		json.NewDecoder(r.Body).Decode(&b)
		if b.Command == "gesture" {
			f.gestures++
		}
		f.mu.Lock()
		f.commands = append(f.commands, b.Command)
		f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": b.CommandID, "data": map[string]any{"protocol": RunnerProtocol, "simulator": false}})
	})}
	go f.srv.Serve(l)
	return f.srv.Close, nil
}

func TestOpenIPhone(t *testing.T) {
	link := &fakeLink{phones: []Phone{{UDID: "00008110-A", Name: "Ada's iPhone", Version: "16.7"}}}
	ctx := context.Background()
	d, err := OpenIPhone(ctx, IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, LockDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if link.started != "00008110-A" || link.env == 0 || link.fwdPort != link.env || link.bundle != runnerBundleID {
		t.Fatalf("the runner must start on the phone with the port flow forwards to: %q port %d, forward to %d, bundle %q", link.started, link.env, link.fwdPort, link.bundle)
	}
	two := planner.Plan{Topology: planner.Two, Intent: canonical.IntentPinch, DurationMs: 40, Viewport: canonical.Viewport{Width: 390, Height: 844},
		Pointers: []planner.Pointer{
			{PointerID: 0, Samples: []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 380}}, {OffsetMs: 40, Point: canonical.Point{X: 220, Y: 360}}}},
			{PointerID: 1, Samples: []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 460}}, {OffsetMs: 40, Point: canonical.Point{X: 220, Y: 440}}}}}}
	if err := d.PerformGesture(ctx, two); canonical.CodeOf(err) != canonical.CodeUnsupportedOperation || link.gestures != 0 {
		t.Fatalf("two fingers on an iPhone: %v (%d sent)", err, link.gestures)
	}
	if err := d.ClearState(ctx, "com.example"); canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
		t.Fatalf("clearState on an iPhone: %v", err)
	}
	if err := d.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-link.stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the runner's test")
	}
}

func TestOpenIPhoneFailures(t *testing.T) {
	two := []Phone{{UDID: "A", Name: "one"}, {UDID: "B", Name: "two"}}
	for name, c := range map[string]struct {
		link *fakeLink
		udid string
		code canonical.Code
		msg  string
		hint string
	}{
		"none":             {&fakeLink{}, "", canonical.CodeDeviceUnavailable, "no iPhone is connected", "trust this computer"},
		"two, no udid":     {&fakeLink{phones: two}, "", canonical.CodeInvalidArgs, "A (one), B (two)", "--device ios:UDID"},
		"unknown udid":     {&fakeLink{phones: two}, "C", canonical.CodeDeviceUnavailable, "no iPhone C", "ios list"},
		"ios 17 no tunnel": {&fakeLink{phones: []Phone{{UDID: "A", Name: "one", Version: "17.4"}}, startErr: errors.New("no tunnel")}, "", canonical.CodeDeviceUnavailable, "did not become ready", "ios tunnel start"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := OpenIPhone(context.Background(), IPhoneConfig{UDID: c.udid, Link: c.link, ReadyTimeout: 3 * time.Second, LockDir: t.TempDir()})
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != c.code || !strings.Contains(ce.Message, c.msg) || !strings.Contains(ce.Hint, c.hint) {
				t.Fatalf("want %s %q hint %q, got %v", c.code, c.msg, c.hint, err)
			}
		})
	}
}

// The runner is installed when the phone lacks it or has another build,
// before the test starts; the same build is not installed again.
func TestOpenIPhoneInstallsTheRunner(t *testing.T) {
	phone := []Phone{{UDID: "00008110-A", Name: "Ada's iPhone", Version: "16.7"}}
	built := func(version string) func(context.Context) (RunnerApp, error) {
		return func(context.Context) (RunnerApp, error) { return RunnerApp{App: "/cache/R.app", Version: version}, nil }
	}
	for name, c := range map[string]struct {
		installed, version string
		want               []string
	}{
		"none":    {"", "11", []string{"apps", "install /cache/R.app"}},
		"older":   {"10", "11", []string{"apps", "install /cache/R.app"}},
		"current": {"11", "11", []string{"apps"}},
	} {
		t.Run(name, func(t *testing.T) {
			link := &fakeLink{phones: phone, installed: c.installed}
			d, err := OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: built(c.version), LockDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close(context.Background())
			if strings.Join(link.calls, "; ") != strings.Join(c.want, "; ") || link.started == "" {
				t.Fatalf("calls %q (started %q), want %q then the start", link.calls, link.started, c.want)
			}
		})
	}
	link := &fakeLink{phones: phone, installErr: errors.New("ApplicationVerificationFailed")}
	_, err := OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: built("11"), LockDir: t.TempDir()})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "ApplicationVerificationFailed") ||
		!strings.Contains(ce.Hint, "FLOW_IOS_TEAM") || link.started != "" {
		t.Fatalf("a refused install: %v (started %q)", err, link.started)
	}
	noBuild := func(context.Context) (RunnerApp, error) {
		return RunnerApp{}, canonical.NewError(canonical.CodeDeviceUnavailable, "xcodebuild failed")
	}
	link = &fakeLink{phones: phone}
	_, err = OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: noBuild, LockDir: t.TempDir()})
	if ce, ok := canonical.AsError(err); !ok || ce.Details["device"] != "00008110-A" || len(link.calls) != 0 || link.started != "" {
		t.Fatalf("a failed build: %v, calls %q", err, link.calls)
	}
}

// TestIPhoneOneSessionPerDevice (R19): while one run holds a phone, a
// second is refused with DEVICE_UNAVAILABLE naming the first (its pid)
// before anything reaches the phone; once the first closes, the phone is
// free again.
func TestIPhoneOneSessionPerDevice(t *testing.T) {
	phones := []Phone{{UDID: "00008110-A", Name: "Ada's iPhone", Version: "16.7"}}
	locks := t.TempDir()
	first := &fakeLink{phones: phones}
	d, err := OpenIPhone(context.Background(), IPhoneConfig{Link: first, ReadyTimeout: 5 * time.Second, LockDir: locks})
	if err != nil {
		t.Fatal(err)
	}
	second := &fakeLink{phones: phones}
	_, err = OpenIPhone(context.Background(), IPhoneConfig{Link: second, ReadyTimeout: 5 * time.Second, LockDir: locks})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "in use by another flow run") ||
		!strings.Contains(ce.Message, "pid "+strconv.Itoa(os.Getpid())) || ce.Hint == "" || second.started != "" {
		t.Fatalf("a second session must be refused naming the first (pid %d), with nothing started: %v (started %q)", os.Getpid(), err, second.started)
	}
	if err := d.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	third := &fakeLink{phones: phones}
	d, err = OpenIPhone(context.Background(), IPhoneConfig{Link: third, ReadyTimeout: 5 * time.Second, LockDir: locks})
	if err != nil {
		t.Fatalf("the phone is free once the first session closed: %v", err)
	}
	d.Close(context.Background())
}

// TestIPhoneLaunchChecksInstallation (M6): launchApp of an app the phone
// does not have fails COMMAND_FAILED (Maestro's UnableToLaunchApp) before
// any launch reaches the runner, whose launch() could block for ever;
// stopApp of it passes as Maestro's does; an installed system app
// launches.
func TestIPhoneLaunchChecksInstallation(t *testing.T) {
	link := &fakeLink{phones: []Phone{{UDID: "00008110-A", Name: "Ada's iPhone", Version: "16.7"}}}
	ctx := context.Background()
	d, err := OpenIPhone(ctx, IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, LockDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	err = d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.missing", StopApp: true})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Message, "com.example.missing") || !strings.Contains(ce.Message, "not installed") || ce.Hint == "" {
		t.Fatalf("launching a missing app: %v", err)
	}
	if err := d.StopApp(ctx, "com.example.missing", false); err != nil {
		t.Fatalf("stopping a missing app passes in Maestro: %v", err)
	}
	if s := link.sent(); strings.Contains(s, "launch") || strings.Contains(s, "terminate") {
		t.Fatalf("nothing about a missing app may reach the runner: %s", s)
	}
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.apple.mobilesafari", StopApp: true}); err != nil {
		t.Fatal(err)
	}
	if s := link.sent(); !strings.Contains(s, "launch") {
		t.Fatalf("an installed app is launched by the runner: %s", s)
	}
}

// fakeAgent answers as go-ios's tunnel agent does (ios/tunnel/
// tunnel_api.go tunnelInfoMux: GET /tunnel/UDID is the tunnel as JSON, or
// 404 "tunnel not found").
func fakeAgent(t *testing.T, tunnels map[string]string) (string, int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		udid, ok := strings.CutPrefix(r.URL.Path, "/tunnel/")
		if !ok || r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, ok := tunnels[udid]
		if !ok {
			http.Error(w, "tunnel not found", http.StatusNotFound)
			return
		}
		w.Header().Add("Content-Type", "application/json")
		w.Write([]byte(body))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "127.0.0.1", l.Addr().(*net.TCPAddr).Port
}

// TestLookupTunnel (M1): the tunnel of an iOS 17+ phone comes from go-ios's
// agent; no tunnel for the phone, and no agent at all, are
// DEVICE_UNAVAILABLE saying to run `ios tunnel start`.
func TestLookupTunnel(t *testing.T) {
	host, port := fakeAgent(t, map[string]string{
		"00008110-A": `{"address":"fd7b:e5b:6f53::1","rsdPort":58783,"udid":"00008110-A","userspaceTun":true,"userspaceTunPort":60105}`,
		"00008110-B": `{"address":"","rsdPort":0,"udid":"00008110-B"}`,
	})
	got, err := lookupTunnel(context.Background(), "00008110-A", host, port)
	if err != nil || got.Address != "fd7b:e5b:6f53::1" || got.RsdPort != 58783 || !got.UserspaceTUN || got.UserspaceTUNPort != 60105 {
		t.Fatalf("the agent's tunnel: %+v %v", got, err)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for name, c := range map[string]struct {
		udid string
		port int
		msg  string
	}{
		"no tunnel for the phone":  {"00008110-C", port, "has no tunnel to this iPhone"},
		"a tunnel without address": {"00008110-B", port, "no tunnel address and RSD port"},
		"no agent":                 {"00008110-A", dead, "no go-ios tunnel agent answers"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := lookupTunnel(context.Background(), c.udid, host, c.port)
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, c.msg) || !strings.Contains(ce.Hint, "ios tunnel start") || ce.Details["device"] != c.udid {
				t.Fatalf("want DEVICE_UNAVAILABLE %q naming %s with the tunnel hint, got %v", c.msg, c.udid, err)
			}
		})
	}
}

// TestCheckDiskImage (M7): no developer disk image mounted names the
// command that mounts one.
func TestCheckDiskImage(t *testing.T) {
	if err := checkDiskImage("A", [][]byte{[]byte("sig")}, nil); err != nil {
		t.Fatalf("a mounted image: %v", err)
	}
	ce, ok := canonical.AsError(checkDiskImage("A", nil, nil))
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, "ios image auto --udid=A") {
		t.Fatalf("no image: %v", ce)
	}
	ce, ok = canonical.AsError(checkDiskImage("A", nil, errors.New("InvalidService")))
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, "Developer Mode") {
		t.Fatalf("no image service: %v", ce)
	}
}

// TestRunnerEnvIsStrings (R13): go-ios hands testmanagerd the test's
// environment as given, and the runner reads FLOW_RUNNER_PORT as a string.
func TestRunnerEnvIsStrings(t *testing.T) {
	for k, v := range runnerEnv(49152) {
		if s, ok := v.(string); !ok || (k == "FLOW_RUNNER_PORT" && s != "49152") {
			t.Fatalf("%s = %#v, want the string \"49152\"", k, v)
		}
	}
}
