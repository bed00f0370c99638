package appium_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/appium"
)

// rotatingDriver answers an Appium 3 session of UiAutomator2 or XCUITest
// as the real stack does for the routes that turn the screen:
//
//   - POST /session/{id}/appium/device/rotation: 405 "unknown method".
//     Appium 3 routes it to setRotation (@appium/base-driver
//     lib/protocol/routes/appium-device), neither driver implements that
//     method, and neither proxies /appium POSTs to its device server
//     (appium-uiautomator2-driver and appium-xcuitest-driver lib/driver.ts,
//     NO_PROXY lists), so base-driver throws NotYetImplementedError
//     (lib/protocol/errors: "unknown method", HTTP 405).
//   - POST /session/{id}/rotation {x,y,z}: proxied to the device server.
//     UiAutomator2's SetRotation.java answers the rotation's name
//     ("ROTATION_90"); WebDriverAgent's handleSetRotation answers OK
//     (value null). Both refuse a z outside 0, 90, 180, 270 (x and y 0)
//     as an invalid argument.
//
// With modern set, the driver also implements setRotation on the Appium 3
// route, as a driver written for Appium 3 may. The turned screen is kept
// as the device server's rotation value for the test to read.
type rotatingDriver struct {
	automation string
	modern     bool
	mu         sync.Mutex
	sent       []string
	z          int
}

func (f *rotatingDriver) start(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		path := strings.Replace(r.URL.Path, "/session/s-1", "{id}", 1)
		answer := func(status int, value any) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(map[string]any{"value": value})
		}
		if r.Method == http.MethodPost && path == "/session" {
			answer(200, map[string]any{"sessionId": "s-1", "capabilities": map[string]any{
				"platformName":   map[string]string{"UiAutomator2": "Android", "XCUITest": "iOS"}[f.automation],
				"automationName": f.automation, "deviceName": "Phone"}})
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.sent = append(f.sent, fmt.Sprintf("%s %s %s", r.Method, path, strings.TrimSpace(string(body))))
		switch {
		case path == "{id}/appium/device/rotation" && !f.modern,
			path == "{id}/rotation" && f.modern:
			answer(405, map[string]any{"error": "unknown method", "message": "Method has not yet been implemented", "stacktrace": ""})
		case path == "{id}/appium/device/rotation", path == "{id}/rotation":
			var rot struct{ X, Y, Z *int }
			_ = json.Unmarshal(body, &rot)
			if rot.X == nil || rot.Y == nil || rot.Z == nil || *rot.X != 0 || *rot.Y != 0 || *rot.Z%90 != 0 || *rot.Z < 0 || *rot.Z > 270 {
				answer(400, map[string]any{"error": "invalid argument", "message": "rotation is not supported", "stacktrace": ""})
				return
			}
			f.z = *rot.Z
			if f.automation == "UiAutomator2" {
				answer(200, fmt.Sprintf("ROTATION_%d", f.z))
				return
			}
			answer(200, nil)
		default:
			answer(200, nil)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (f *rotatingDriver) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.sent
	f.sent = nil
	return out
}

// TestSetOrientationOnAppium: each of Maestro's orientations becomes the
// driver's z (UiAutomator2: LANDSCAPE_LEFT 90, as Maestro's user_rotation
// 1; XCUITest: LANDSCAPE_LEFT 270, UIDeviceOrientation.landscapeLeft),
// through the legacy /rotation once the Appium 3 route answered "unknown
// method", and then straight there; a driver that implements the Appium 3
// route gets one request.
func TestSetOrientationOnAppium(t *testing.T) {
	t.Parallel()
	tables := map[string]map[string]int{
		"UiAutomator2": {"PORTRAIT": 0, "LANDSCAPE_LEFT": 90, "UPSIDE_DOWN": 180, "LANDSCAPE_RIGHT": 270},
		"XCUITest":     {"PORTRAIT": 0, "LANDSCAPE_LEFT": 270, "UPSIDE_DOWN": 180, "LANDSCAPE_RIGHT": 90},
	}
	order := []string{"LANDSCAPE_LEFT", "UPSIDE_DOWN", "LANDSCAPE_RIGHT", "PORTRAIT"}
	for _, modern := range []bool{false, true} {
		for automation, table := range tables {
			t.Run(fmt.Sprintf("%s modern=%v", automation, modern), func(t *testing.T) {
				t.Parallel()
				f := &rotatingDriver{automation: automation, modern: modern, z: -1}
				ctx := context.Background()
				dev, err := appium.Open(ctx, appium.Config{URL: f.start(t), Capabilities: map[string]any{
					"platformName": "x", "appium:automationName": automation}})
				if err != nil {
					t.Fatal(err)
				}
				d := dev.(*appium.Device)
				f.take()
				route := "{id}/rotation"
				if modern {
					route = "{id}/appium/device/rotation"
				}
				for i, o := range order {
					note, err := d.SetOrientationNoted(ctx, o)
					if err != nil || note != "" {
						t.Fatalf("%s: %q %v", o, note, err)
					}
					if f.z != table[o] {
						t.Errorf("%s turned the screen to z %d, want %d", o, f.z, table[o])
					}
					want := []string{fmt.Sprintf(`POST %s {"x":0,"y":0,"z":%d}`, route, table[o])}
					if i == 0 && !modern {
						want = append([]string{fmt.Sprintf(`POST {id}/appium/device/rotation {"x":0,"y":0,"z":%d}`, table[o])}, want...)
					}
					if got := f.take(); strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("%s sent\n%s\nwant\n%s", o, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			})
		}
	}
}

// TestSetOrientationWithoutTheRotationRoute runs on a real Appium 3 server
// whose fake driver has no setRotation, on either route ("unknown method"),
// and an /orientation that knows PORTRAIT and LANDSCAPE
// (@appium/fake-driver lib/commands/general setOrientation): LANDSCAPE_LEFT
// turns the screen to LANDSCAPE with a note that the side was not chosen,
// PORTRAIT turns it back without one, and UPSIDE_DOWN is
// UNSUPPORTED_OPERATION with a hint.
func TestSetOrientationWithoutTheRotationRoute(t *testing.T) {
	t.Parallel()
	d := native(t, open(t, fixturePath(t, "uiautomator2-login.xml"), nil))
	ctx := context.Background()
	current := func() string {
		var o string
		if err := d.Client().Command(ctx, http.MethodGet, "/orientation", nil, 0, &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	before := d.RoundTrips()
	note, err := d.SetOrientationNoted(ctx, "LANDSCAPE_LEFT")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "no rotation route") || !strings.Contains(note, "LANDSCAPE_LEFT") || !strings.Contains(note, "hint:") {
		t.Errorf("the note does not say the side was not chosen: %q", note)
	}
	if n := d.RoundTrips() - before; n != 3 {
		t.Errorf("the first turn took %d requests, want 3 (two rotation routes, then /orientation)", n)
	}
	if o := current(); o != "LANDSCAPE" {
		t.Fatalf("the driver's orientation is %q after LANDSCAPE_LEFT", o)
	}
	before = d.RoundTrips()
	if note, err := d.SetOrientationNoted(ctx, "PORTRAIT"); err != nil || note != "" {
		t.Fatalf("PORTRAIT: %q %v", note, err)
	}
	if n := d.RoundTrips() - before; n != 1 {
		t.Errorf("a later turn took %d requests, want 1: the missing rotation routes are remembered", n)
	}
	if o := current(); o != "PORTRAIT" {
		t.Fatalf("the driver's orientation is %q after PORTRAIT", o)
	}
	before = d.RoundTrips()
	_, err = d.SetOrientationNoted(ctx, "UPSIDE_DOWN")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeUnsupportedOperation || !strings.Contains(ce.Hint, "rotation") {
		t.Fatalf("UPSIDE_DOWN: want UNSUPPORTED_OPERATION with a hint, got %v", err)
	}
	if n := d.RoundTrips() - before; n != 0 {
		t.Errorf("UPSIDE_DOWN sent %d requests, want none", n)
	}
}
