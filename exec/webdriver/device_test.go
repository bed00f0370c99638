package webdriver_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

// remote opens a Device on a fake endpoint, without calibration unless
// caps ask for it; rules
// given come before the defaults.
func remote(t *testing.T, caps map[string]any, rules ...rule) (*webdriver.Device, *fakeW3C) {
	t.Helper()
	f := newFake(t, append(rules, []rule{
		{match: "POST /session", body: sessionOK},
		{match: "/execute/sync", body: `{"value":"complete"}`},
		{match: "/execute/async", body: `{"value":{"settled":true,"ms":40,"frames":3}}`},
		{match: "/actions", body: `{"value":null}`},
		{match: "/url", body: `{"value":null}`},
		{match: "DELETE /session/s1", body: `{"value":null}`},
	}...)...)
	if _, set := caps["flow:calibrate"]; !set {
		caps["flow:calibrate"] = false
	}
	dev, err := webdriver.Open(context.Background(), webdriver.Config{URL: f.srv.URL, Capabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dev.Close(context.Background()) })
	return dev, f
}

func pinchPlan(t *testing.T) planner.Plan {
	t.Helper()
	p, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)}, canonical.Viewport{Width: 390, Height: 844}, planner.Web)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// flow's own capabilities are read, never sent.
func TestRemoteCapabilitiesKeepFlowKeys(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome", "flow:multiTouch": true, "appium:automationName": "UiAutomator2"})
	sent := f.bodies["POST /session"][0]
	if strings.Contains(sent, "flow:") || !strings.Contains(sent, `"appium:automationName":"UiAutomator2"`) {
		t.Errorf("session request %s", sent)
	}
	info, _ := dev.Info(context.Background())
	if info.Platform != "web" || info.ID != "s1" || !strings.Contains(info.Name, "chrome 156") || !dev.MultiTouch() {
		t.Errorf("info %+v, multi-touch %v", info, dev.MultiTouch())
	}
}

// A remote endpoint is not known to deliver multi-touch: a two-contact
// gesture is refused with UNSUPPORTED_OPERATION before anything is sent.
func TestRemoteRefusesTwoContactsBeforeSending(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"})
	before := len(f.seen)
	err := dev.PerformGesture(context.Background(), pinchPlan(t))
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeUnsupportedOperation || ce.Details["operation"] != "pinch" ||
		ce.Details["provider"] != "webdriver" || !strings.Contains(ce.Hint, "flow:multiTouch") {
		t.Fatalf("got %v (%+v)", err, ce)
	}
	if len(f.seen) != before {
		t.Errorf("the refused gesture sent %v", f.seen[before:])
	}
}

// With "flow:multiTouch": true the same pinch is sent as two synchronized
// touch sources.
func TestRemoteMultiTouchWhenDeclared(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome", "flow:multiTouch": true})
	if err := dev.PerformGesture(context.Background(), pinchPlan(t)); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Actions []struct {
			ID      string            `json:"id"`
			Actions []json.RawMessage `json:"actions"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(f.bodies["POST /session/s1/actions"][0]), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Actions) != 2 || len(raw.Actions[0].Actions) != len(raw.Actions[1].Actions) {
		t.Fatalf("sources %+v", raw.Actions)
	}
}

// A one-contact gesture is three round trips: keep the page's frames
// flowing, the action sequence, wait for scrolling to settle. Without
// calibration nothing is subtracted and the durations add up to the plan.
func TestRemoteGestureRoundTrips(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"})
	plan := panPlan(t, 500, 0, -300)
	before := dev.RoundTrips()
	if err := dev.PerformGesture(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 3 {
		t.Errorf("a gesture took %d round trips: %v", n, f.seen)
	}
	var a struct {
		Actions []struct {
			Actions []struct {
				Type     string `json:"type"`
				Duration int    `json:"duration"`
			} `json:"actions"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(f.bodies["POST /session/s1/actions"][0]), &a); err != nil {
		t.Fatal(err)
	}
	total, moves := 0, 0
	for _, act := range a.Actions[0].Actions {
		total += act.Duration
		if act.Type == "pointerMove" {
			moves++
		}
	}
	if total != 500 || moves != 31 {
		t.Errorf("%d moves lasting %d ms, want 1+30 lasting 500", moves, total)
	}
}

// Tap is one round trip; keys other than Enter and Backspace are refused
// without a request.
func TestRemoteTapAndKeys(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"})
	ctx := context.Background()
	before := dev.RoundTrips()
	if err := dev.Tap(ctx, canonical.Point{X: 10, Y: 20}); err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 1 {
		t.Errorf("a tap took %d round trips", n)
	}
	want := `{"actions":[{"type":"pointer","id":"gesture-pointer-0","parameters":{"pointerType":"touch"},"actions":[` +
		`{"type":"pointerMove","duration":0,"x":10,"y":20},{"type":"pointerDown","button":0},{"type":"pointerUp","button":0}]}]}`
	if got := f.bodies["POST /session/s1/actions"][0]; got != want {
		t.Errorf("tap body %s", got)
	}
	if err := dev.PressKey(ctx, exec.Key{Name: "Volume Up"}); canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
		t.Errorf("Volume Up: %v", err)
	}
	if err := dev.EraseText(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if got := f.bodies["POST /session/s1/actions"][1]; strings.Count(got, `"keyDown"`) != 3 || !strings.Contains(got, "\ue003") {
		t.Errorf("erase body %s", got)
	}
}

// Links without a scheme get https://, as in Maestro; everything else is
// opened as given.
func TestRemoteOpenLink(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"})
	for link, want := range map[string]string{
		"example.com/shop":           "https://example.com/shop",
		"localhost:8080/a":           "https://localhost:8080/a",
		"http://127.0.0.1:9/x":       "http://127.0.0.1:9/x",
		"data:text/html,<p>hi</p>":   "data:text/html,<p>hi</p>",
		"shop://product/1":           "shop://product/1",
		"  https://example.com/  ":   "https://example.com/",
		"about:blank":                "about:blank",
		"file:///tmp/page.html":      "file:///tmp/page.html",
		"example.com:443/checkout":   "https://example.com:443/checkout",
		"mailto:someone@example.com": "mailto:someone@example.com",
	} {
		n := len(f.bodies["POST /session/s1/url"])
		if err := dev.OpenLink(context.Background(), link, false); err != nil {
			t.Fatal(err)
		}
		var body map[string]string
		_ = json.Unmarshal([]byte(f.bodies["POST /session/s1/url"][n]), &body)
		if body["url"] != want {
			t.Errorf("%q opened %q, want %q", link, body["url"], want)
		}
	}
}

// Close releases pointers and ends the session, once.
func TestRemoteClose(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"}, rule{match: "DELETE /session/s1/actions", body: `{"value":null}`})
	ctx := context.Background()
	if err := dev.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := dev.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if f.count("DELETE /session/s1") != 1 || f.count("DELETE /session/s1/actions") != 1 {
		t.Errorf("close sent %v", f.seen)
	}
}

func TestOpenRejectsABadURL(t *testing.T) {
	t.Parallel()
	_, err := webdriver.Open(context.Background(), webdriver.Config{URL: "localhost:4444", StartTimeout: time.Second})
	if canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Errorf("got %v", err)
	}
}

// A hierarchy read that lands while the page navigates is repeated.
func TestRemoteHierarchyRetriesANavigatingPage(t *testing.T) {
	t.Parallel()
	tree := `{"value":"{\"w\":390,\"h\":844,\"root\":{\"b\":[0,0,390,844],\"c\":\"body\",\"ch\":[{\"b\":[10,20,100,40],\"c\":\"button\",\"t\":\"OK\"}]}}"}`
	dev, f := remote(t, map[string]any{"browserName": "chrome"}, rule{match: "/execute/sync", fail: 2, body: tree})
	before := f.count("/execute/sync")
	root, err := dev.Hierarchy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := f.count("/execute/sync") - before; n != 3 {
		t.Errorf("%d reads, want 3", n)
	}
	if len(root.Children) != 1 || root.Children[0].Text != "OK" || *root.Children[0].Bounds != (exec.Rect{X: 10, Y: 20, W: 100, H: 40}) {
		t.Errorf("tree %+v", root.Children[0])
	}
	vp, err := dev.Viewport(context.Background())
	if err != nil || vp != (canonical.Viewport{Width: 390, Height: 844}) || f.count("/execute/sync")-before != 3 {
		t.Errorf("viewport %+v %v, not from the hierarchy read", vp, err)
	}
}

// actionsMs is the total duration of the first source of the n-th actions
// request.
func actionsMs(t *testing.T, f *fakeW3C, n int) int {
	t.Helper()
	var a struct {
		Actions []struct {
			Actions []struct {
				Duration int `json:"duration"`
			} `json:"actions"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(f.bodies["POST /session/s1/actions"][n]), &a); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, act := range a.Actions[0].Actions {
		total += act.Duration
	}
	return total
}

// Each gesture's duration as the page observed it corrects the next
// gesture of its kind: half the error at a time, at most three frames.
// A page that saw no whole touch changes nothing, and gestures of another
// kind keep their own correction.
func TestGestureDriftCorrection(t *testing.T) {
	t.Parallel()
	// The endpoint cannot be calibrated (its pages answer nothing useful),
	// so the costs stay zero and the durations show the correction alone.
	dev, f := remote(t, map[string]any{"browserName": "chrome", "flow:calibrate": true},
		rule{match: "/execute/async", body: `{"value":{"settled":true,"ms":40,"frames":3,"touch":{"down":100,"up":640}}}`})
	ctx := context.Background()
	if dev.Calibration().Measured {
		t.Fatal("the fake endpoint was calibrated")
	}
	plan := panPlan(t, 500, 0, -300)
	var got []float64
	for i := range 3 {
		if err := dev.PerformGesture(ctx, plan); err != nil {
			t.Fatal(err)
		}
		g := dev.LastGesture()
		if g.ObservedMs != 540 || g.PlannedMs != 500 {
			t.Errorf("gesture %d: %+v, want 540 ms observed of 500 planned", i, g)
		}
		got = append(got, g.DriftMs)
		if sent := actionsMs(t, f, i); sent != 500-int(g.DriftMs) {
			t.Errorf("gesture %d with drift %.1f ms sent %d ms of actions", i, g.DriftMs, sent)
		}
	}
	// 0, then +20 (half of 40 over), +40, and the third frame caps the next.
	if got[0] != 0 || got[1] != 20 || got[2] != 40 {
		t.Errorf("drift by gesture %v, want [0 20 40]", got)
	}
	if err := dev.PerformGesture(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if g := dev.LastGesture(); math.Abs(g.DriftMs-50) > 0.01 {
		t.Errorf("drift %.2f, want it capped at three frames (50 ms)", g.DriftMs)
	}
	// A fling is its own kind: it starts uncorrected.
	fling, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp, Origin: &canonical.Point{X: 195, Y: 600}},
		canonical.Viewport{Width: 390, Height: 844}, planner.Web)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.PerformGesture(ctx, fling); err != nil {
		t.Fatal(err)
	}
	if g := dev.LastGesture(); g.DriftMs != 0 {
		t.Errorf("a fling after pans was lowered with drift %.1f", g.DriftMs)
	}
}

// Without calibration the endpoint is trusted to keep time: observed
// gestures are reported but correct nothing.
func TestGestureDriftNeedsCalibration(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"},
		rule{match: "/execute/async", body: `{"value":{"settled":true,"ms":40,"frames":3,"touch":{"down":100,"up":640}}}`})
	plan := panPlan(t, 500, 0, -300)
	for i := range 2 {
		if err := dev.PerformGesture(context.Background(), plan); err != nil {
			t.Fatal(err)
		}
		if g := dev.LastGesture(); g.ObservedMs != 540 || g.DriftMs != 0 || actionsMs(t, f, i) != 500 {
			t.Errorf("gesture %d: %+v, %d ms sent", i, g, actionsMs(t, f, i))
		}
	}
}

// A page that saw no whole touch leaves the correction alone.
func TestGestureDriftIgnoresUnseenTouches(t *testing.T) {
	t.Parallel()
	dev, _ := remote(t, map[string]any{"browserName": "chrome", "flow:calibrate": true},
		rule{match: "/execute/async", body: `{"value":{"settled":true,"ms":40,"frames":3,"touch":{"down":100,"up":null}}}`})
	plan := panPlan(t, 500, 0, -300)
	for range 2 {
		if err := dev.PerformGesture(context.Background(), plan); err != nil {
			t.Fatal(err)
		}
	}
	if g := dev.LastGesture(); g.ObservedMs != 0 || g.DriftMs != 0 {
		t.Errorf("%+v", g)
	}
}

// touchEvent is one Input.dispatchTouchEvent the fake received.
type touchEvent struct {
	Type   string `json:"type"`
	Points []struct {
		X, Y float64
		ID   int
	} `json:"touchPoints"`
}

func touchEvents(t *testing.T, f *fakeW3C) []touchEvent {
	t.Helper()
	var out []touchEvent
	for _, b := range f.bodies["POST /session/s1/goog/cdp/execute"] {
		var call struct {
			Cmd    string     `json:"cmd"`
			Params touchEvent `json:"params"`
		}
		if err := json.Unmarshal([]byte(b), &call); err != nil {
			t.Fatal(err)
		}
		if call.Cmd == "Input.dispatchTouchEvent" {
			out = append(out, call.Params)
		}
	}
	return out
}

// With DevTools dispatch a gesture is touch events, not an action
// sequence: every contact down at the plan's start, moves along the plan
// toward its end, a last move onto the plan's last samples, the release.
func TestDevToolsDispatchFollowsThePlan(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome", "flow:multiTouch": true, "flow:touchDispatch": "devtools"},
		rule{match: "/goog/cdp/execute", body: `{"value":{}}`})
	if dev.TouchDispatch() != webdriver.DispatchDevTools {
		t.Fatalf("dispatch %s", dev.TouchDispatch())
	}
	p := pinchPlan(t)
	if err := dev.PerformGesture(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if n := len(f.bodies["POST /session/s1/actions"]); n != 0 {
		t.Errorf("%d action sequences sent", n)
	}
	ev := touchEvents(t, f)
	if len(ev) < 4 || ev[0].Type != "touchStart" || ev[len(ev)-1].Type != "touchEnd" || len(ev[len(ev)-1].Points) != 0 {
		t.Fatalf("events %+v", ev)
	}
	for i, ptr := range p.Pointers {
		first, last := ptr.Samples[0].Point, ptr.Samples[len(ptr.Samples)-1].Point
		down, end := ev[0].Points[i], ev[len(ev)-2].Points[i]
		if down.ID != ptr.PointerID || down.X != first.X || down.Y != first.Y || end.X != last.X || end.Y != last.Y {
			t.Errorf("pointer %d went down at %+v and last moved to %+v; the plan says %+v → %+v", i, down, end, first, last)
		}
	}
	// A pinch closes: each move brings the contacts no further apart.
	gap := func(e touchEvent) float64 {
		return math.Hypot(e.Points[1].X-e.Points[0].X, e.Points[1].Y-e.Points[0].Y)
	}
	for i := 1; i < len(ev)-1; i++ {
		if ev[i].Type != "touchMove" || len(ev[i].Points) != 2 || gap(ev[i]) > gap(ev[i-1])+1e-9 {
			t.Fatalf("event %d: %+v after %+v", i, ev[i], ev[i-1])
		}
	}
}

// A dispatch that fails once the touch is down cancels the touch and
// reports the failure.
func TestDevToolsDispatchCancelsOnFailure(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome", "flow:touchDispatch": "devtools"},
		rule{match: "/goog/cdp/execute", body: `{"value":{}}`, failFrom: 3})
	err := dev.PerformGesture(context.Background(), panPlan(t, 500, 0, -300))
	if err == nil || !strings.Contains(err.Error(), "the browser went away") {
		t.Fatalf("got %v", err)
	}
	ev := touchEvents(t, f)
	if len(ev) != 4 || ev[0].Type != "touchStart" || ev[3].Type != "touchCancel" {
		t.Errorf("events %+v; want start, two moves, cancel", ev)
	}
}

// DevTools dispatch needs Chromium's bridge, and the capability takes only
// its two values.
func TestTouchDispatchCapability(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		caps map[string]any
		want string
	}{
		{map[string]any{"browserName": "firefox", "flow:touchDispatch": "devtools"}, "needs a Chromium endpoint"},
		{map[string]any{"browserName": "chrome", "flow:touchDispatch": "cdp"}, `use "devtools"`},
	} {
		f := newFake(t, rule{match: "POST /session", body: strings.Replace(sessionOK, "chrome", c.caps["browserName"].(string), 1)},
			rule{match: "DELETE /session/s1", body: `{"value":null}`})
		_, err := webdriver.Open(context.Background(), webdriver.Config{URL: f.srv.URL, Capabilities: c.caps})
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeInvalidArgs || !strings.Contains(ce.Message+" "+ce.Hint, c.want) {
			t.Errorf("%v: got %v", c.caps, err)
		}
		if f.count("DELETE /session/s1") != 1 {
			t.Errorf("%v: the session was left open: %v", c.caps, f.seen)
		}
	}
	dev, _ := remote(t, map[string]any{"browserName": "chrome"})
	if dev.TouchDispatch() != webdriver.DispatchActions {
		t.Errorf("a remote endpoint defaults to %s", dev.TouchDispatch())
	}
}

// setLocation reaches the page as Maestro's web driver sends it: DevTools
// Emulation.setGeolocationOverride with accuracy 0 (WebDriver.kt
// setLocation). Without DevTools it is refused before anything is sent.
func TestSetLocationOverridesGeolocation(t *testing.T) {
	t.Parallel()
	dev, f := remote(t, map[string]any{"browserName": "chrome"}, rule{match: "/goog/cdp/execute", body: `{"value":{}}`})
	if err := dev.SetLocation(context.Background(), 52.52, -13.405); err != nil {
		t.Fatal(err)
	}
	bodies := f.bodies["POST /session/s1/goog/cdp/execute"]
	if len(bodies) != 1 {
		t.Fatalf("%d DevTools calls: %v", len(bodies), f.seen)
	}
	var got struct {
		Cmd    string
		Params map[string]float64
	}
	if err := json.Unmarshal([]byte(bodies[0]), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"latitude": 52.52, "longitude": -13.405, "accuracy": 0}
	if got.Cmd != "Emulation.setGeolocationOverride" || len(got.Params) != 3 ||
		got.Params["latitude"] != want["latitude"] || got.Params["longitude"] != want["longitude"] || got.Params["accuracy"] != 0 {
		t.Errorf("sent %s", bodies[0])
	}

	f2 := newFake(t, rule{match: "POST /session", body: strings.Replace(sessionOK, "chrome", "firefox", 1)},
		rule{match: "DELETE /session/s1", body: `{"value":null}`})
	ff, err := webdriver.Open(context.Background(), webdriver.Config{URL: f2.srv.URL, Capabilities: map[string]any{"browserName": "firefox", "flow:calibrate": false}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ff.Close(context.Background()) })
	err = ff.SetLocation(context.Background(), 1, 2)
	if canonical.CodeOf(err) != canonical.CodeUnsupportedOperation || f2.count("/goog/cdp/execute") != 0 {
		t.Errorf("firefox: %v, requests %v", err, f2.seen)
	}
}

// The runner finds setLocation (and travel) on the web device.
var _ exec.Locator = (*webdriver.Device)(nil)
