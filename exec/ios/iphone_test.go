package ios

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// fakeLink is a phone whose runner is a tiny flow-runner-v1 answerer that
// reports a real device; it starts only once forwarded, as a runner on a
// phone is reachable only through the forward.
type fakeLink struct {
	phones   []Phone
	startErr error // the runner's test ends at once with this
	started  string
	env      int
	stopped  chan struct{}
	srv      *http.Server
	gestures int
	// installed is the runner build on the phone ("" none); calls logs
	// the link's install-side calls in order.
	installed  string
	installErr error
	calls      []string
}

func (f *fakeLink) InstalledVersion(_ context.Context, udid, bundleID string) (string, error) {
	f.calls = append(f.calls, "version "+bundleID)
	return f.installed, nil
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

func (f *fakeLink) StartRunner(ctx context.Context, udid string, port int) (<-chan error, error) {
	f.started, f.env = udid, port
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
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": b.CommandID, "data": map[string]any{"protocol": RunnerProtocol, "simulator": false}})
	})}
	go f.srv.Serve(l)
	return f.srv.Close, nil
}

func TestOpenIPhone(t *testing.T) {
	link := &fakeLink{phones: []Phone{{UDID: "00008110-A", Name: "Ada's iPhone", Version: "16.7"}}}
	ctx := context.Background()
	d, err := OpenIPhone(ctx, IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if link.started != "00008110-A" || link.env != runnerPhonePort {
		t.Fatalf("the runner must start on the phone with its port: %q %d", link.started, link.env)
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
			_, err := OpenIPhone(context.Background(), IPhoneConfig{UDID: c.udid, Link: c.link, ReadyTimeout: 3 * time.Second})
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
		"none":    {"", "11", []string{"version " + runnerBundleID, "install /cache/R.app"}},
		"older":   {"10", "11", []string{"version " + runnerBundleID, "install /cache/R.app"}},
		"current": {"11", "11", []string{"version " + runnerBundleID}},
	} {
		t.Run(name, func(t *testing.T) {
			link := &fakeLink{phones: phone, installed: c.installed}
			d, err := OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: built(c.version)})
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
	_, err := OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: built("11")})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "ApplicationVerificationFailed") ||
		!strings.Contains(ce.Hint, "FLOW_IOS_TEAM") || link.started != "" {
		t.Fatalf("a refused install: %v (started %q)", err, link.started)
	}
	noBuild := func(context.Context) (RunnerApp, error) {
		return RunnerApp{}, canonical.NewError(canonical.CodeDeviceUnavailable, "xcodebuild failed")
	}
	link = &fakeLink{phones: phone}
	_, err = OpenIPhone(context.Background(), IPhoneConfig{Link: link, ReadyTimeout: 5 * time.Second, Runner: noBuild})
	if ce, ok := canonical.AsError(err); !ok || ce.Details["device"] != "00008110-A" || len(link.calls) != 0 || link.started != "" {
		t.Fatalf("a failed build: %v, calls %q", err, link.calls)
	}
}
