package appium_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/appium"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

func fixturePath(t testing.TB, name string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", "source", name))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// open starts a fake-driver session serving app on the shared server.
func open(t testing.TB, app string, extra map[string]any) exec.Device {
	t.Helper()
	srv := server.Get(t)
	caps := map[string]any{"platformName": "Fake", "appium:automationName": "Fake", "appium:deviceName": "Fake Phone", "appium:app": app}
	for k, v := range extra {
		caps[k] = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := appium.Open(ctx, appium.Config{URL: srv.URL, Capabilities: caps})
	if err != nil {
		t.Fatalf("open: %v\nAppium:\n%s", err, srv.Log())
	}
	t.Cleanup(func() { _ = d.(exec.Closer).Close(context.Background()) })
	return d
}

func native(t testing.TB, d exec.Device) *appium.Device {
	t.Helper()
	n, ok := d.(*appium.Device)
	if !ok {
		t.Fatalf("a native session opened as %T", d)
	}
	return n
}

// actionsLog is what the fake driver recorded of POST /actions.
func actionsLog(t *testing.T, d *appium.Device) []json.RawMessage {
	t.Helper()
	var log []json.RawMessage
	if err := d.Client().Logs(context.Background(), "actions", &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// TestNativeSessionThroughAppium: on a real Appium server, the page
// source decides the platform when the capabilities name neither, the
// hierarchy read through Appium equals the fixture parsed from disk, the
// viewport comes from that same read, and each touch is exactly one
// request whose body Appium logged unchanged.
func TestNativeSessionThroughAppium(t *testing.T) {
	for _, tc := range []struct {
		file, platform string
		vp             canonical.Viewport
	}{
		{"uiautomator2-login.xml", "android", canonical.Viewport{Width: 1080, Height: 2400}},
		{"xcuitest-login.xml", "ios", canonical.Viewport{Width: 390, Height: 844}},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			d := native(t, open(t, fixturePath(t, tc.file), nil))
			info, _ := d.Info(ctx)
			if info.Platform != tc.platform || !strings.Contains(info.Name, "Fake Phone") {
				t.Errorf("info %+v, want platform %s", info, tc.platform)
			}
			if d.MultiTouch() {
				t.Error("the fake driver is not known to deliver multi-touch; it must not be assumed")
			}
			data, _ := os.ReadFile(fixturePath(t, tc.file))
			want, _, err := appium.ParseSource(data)
			if err != nil {
				t.Fatal(err)
			}
			before := d.RoundTrips()
			got, err := d.Hierarchy(ctx)
			if err != nil {
				t.Fatal(err)
			}
			vp, err := d.Viewport(ctx)
			if err != nil || vp != tc.vp {
				t.Errorf("viewport %+v, %v; want %+v", vp, err, tc.vp)
			}
			if n := d.RoundTrips() - before; n != 1 {
				t.Errorf("a hierarchy read and the viewport took %d requests, want 1", n)
			}
			if !reflect.DeepEqual(got, want) {
				t.Error("the hierarchy read through Appium differs from the fixture parsed from disk")
			}

			plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp,
				Origin: &canonical.Point{X: tc.vp.Width / 2, Y: tc.vp.Height * 0.7}}, tc.vp, planner.Platform(tc.platform))
			if err != nil {
				t.Fatal(err)
			}
			before = d.RoundTrips()
			if err := d.Tap(ctx, canonical.Point{X: 100, Y: 200}); err != nil {
				t.Fatal(err)
			}
			if err := d.LongPress(ctx, canonical.Point{X: 50, Y: 60}, 800*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			if err := d.PerformGesture(ctx, plan); err != nil {
				t.Fatal(err)
			}
			if n := d.RoundTrips() - before; n != 3 {
				t.Errorf("a tap, a long press and a gesture took %d requests, want 3", n)
			}
			lowered, _ := d.Lowering(plan)
			wants := []any{appium.PressActions(canonical.Point{X: 100, Y: 200}, 0).Actions,
				appium.PressActions(canonical.Point{X: 50, Y: 60}, 800*time.Millisecond).Actions, lowered.Actions}
			log := actionsLog(t, d)
			if len(log) != len(wants) {
				t.Fatalf("Appium logged %d sequences, want %d", len(log), len(wants))
			}
			for i, w := range wants {
				wj, _ := json.Marshal(w)
				var a, b any
				_ = json.Unmarshal(log[i], &a)
				_ = json.Unmarshal(wj, &b)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("sequence %d: Appium got %s, flow meant %s", i, log[i], wj)
				}
			}
		})
	}
}

// TestTwoContactsRefusedBeforeSending: on a driver not known to deliver
// multi-touch a pinch fails with UNSUPPORTED_OPERATION and nothing is
// sent; "flow:multiTouch": true sends it.
func TestTwoContactsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	vp := canonical.Viewport{Width: 1080, Height: 2400}
	scale := 0.5
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: &scale}, vp, planner.Android)
	if err != nil {
		t.Fatal(err)
	}
	d := native(t, open(t, fixturePath(t, "uiautomator2-login.xml"), nil))
	before := d.RoundTrips()
	err = d.PerformGesture(ctx, plan)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeUnsupportedOperation || ce.Details["operation"] != "pinch" || ce.Hint == "" {
		t.Fatalf("want UNSUPPORTED_OPERATION for pinch with a hint, got %v", err)
	}
	if d.RoundTrips() != before {
		t.Error("a refused gesture reached the endpoint")
	}
	d = native(t, open(t, fixturePath(t, "uiautomator2-login.xml"), map[string]any{appium.CapMultiTouch: true}))
	if err := d.PerformGesture(ctx, plan); err != nil {
		t.Fatal(err)
	}
	log := actionsLog(t, d)
	var sources []any
	if len(log) != 1 || json.Unmarshal(log[0], &sources) != nil || len(sources) != 2 {
		t.Errorf("want one two-source sequence, Appium logged %s", log)
	}
}

// TestExtensionsAFakeDriverLacks: a device command maps to a `mobile:`
// extension; Appium's answer for one the driver lacks becomes
// UNSUPPORTED_OPERATION naming the extension, with a hint.
func TestExtensionsAFakeDriverLacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := native(t, open(t, fixturePath(t, "xcuitest-login.xml"), nil))
	for name, call := range map[string]func() error{
		"mobile: setSimulatedLocation": func() error { return d.SetLocation(ctx, 52.5, 13.4) },
		"mobile: terminateApp":         func() error { return d.StopApp(ctx, "com.example.shop", true) },
		"mobile: clearApp":             func() error { return d.ClearState(ctx, "com.example.shop") },
		"mobile: deepLink":             func() error { return d.OpenLink(ctx, "shop://cart", false) },
		"mobile: pressButton":          func() error { return d.PressKey(ctx, exec.Key{Name: "Home"}) },
	} {
		err := call()
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeUnsupportedOperation || !strings.Contains(ce.Message, name) || ce.Hint == "" {
			t.Errorf("%s: got %v", name, err)
		}
	}
	// iOS: back is Maestro's no-op, and sends nothing.
	before := d.RoundTrips()
	if err := d.Back(ctx); err != nil || d.RoundTrips() != before {
		t.Errorf("back on iOS: %v, %d requests", err, d.RoundTrips()-before)
	}
}

// TestBrowserSessionIsHandedToTheWebDevice: capabilities that say neither
// native nor browser leave it to the page source; an HTML one makes the
// session the web device's.
func TestBrowserSessionIsHandedToTheWebDevice(t *testing.T) {
	t.Parallel()
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte("<html><body><p>hello</p></body></html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := server.Get(t)
	d, err := appium.Open(context.Background(), appium.Config{URL: srv.URL,
		Capabilities: map[string]any{"platformName": "Fake", "appium:automationName": "Fake", "appium:app": page}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.(exec.Closer).Close(context.Background())
	if _, ok := d.(*webdriver.Device); !ok {
		t.Errorf("an HTML page source opened as %T, want the web device", d)
	}
}

// TestProviderRefusals: a farm's refusal is DEVICE_UNAVAILABLE with the
// provider's own words and a hint at the usual cause. The messages are
// BrowserStack's documented ones for a used-up plan and a device tier.
func TestProviderRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ message, hint string }{
		{"[BROWSERSTACK_ALL_PARALLELS_IN_USE] All parallel tests are currently in use, including the queued tests. Please wait to finish or upgrade your plan to add more sessions.", "capacity"},
		{"Could not find a driver for automationName 'UiAutomator3' and platformName 'android'.", "appium driver install"},
		{"Authorization required", "credentials"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			_ = json.NewEncoder(w).Encode(map[string]any{"value": map[string]string{"error": "session not created", "message": tc.message}})
		}))
		_, err := appium.Open(context.Background(), appium.Config{URL: srv.URL,
			Capabilities: map[string]any{"platformName": "android", "appium:automationName": "UiAutomator2"}})
		srv.Close()
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, tc.message[:20]) || !strings.Contains(ce.Hint, tc.hint) {
			t.Errorf("%q: got %v (hint %q)", tc.message, err, ce.Hint)
		}
	}
}

// TestEraseTextIsOneKeySequence: eraseText is Backspace presses on one
// W3C key source, one request.
func TestEraseTextIsOneKeySequence(t *testing.T) {
	t.Parallel()
	d := native(t, open(t, fixturePath(t, "uiautomator2-login.xml"), nil))
	before := d.RoundTrips()
	if err := d.EraseText(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	if n := d.RoundTrips() - before; n != 1 {
		t.Errorf("eraseText took %d requests", n)
	}
	var log [][]struct {
		Type    string `json:"type"`
		Actions []struct {
			Type, Value string
		} `json:"actions"`
	}
	if err := d.Client().Logs(context.Background(), "actions", &log); err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || len(log[0]) != 1 || log[0][0].Type != "key" || len(log[0][0].Actions) != 6 ||
		log[0][0].Actions[0].Value != webdriver.KeyBackspace || log[0][0].Actions[1].Type != "keyUp" {
		t.Errorf("Appium logged %+v", log)
	}
}
