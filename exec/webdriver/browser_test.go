package webdriver_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/internal/browsertest"
	"github.com/flow-runner/flow/planner"
)

// The browser tests share one headless Chromium for the whole test binary:
// starting a session costs about a second and a half, and CI has two
// cores. They never run in parallel with each other, and the binary holds
// the machine's browser lock (internal/browsertest) from the first browser
// test to the end, so no other package's browsers share the cores with the
// timing tests. Without chromium and chromedriver they skip with the
// reason; FLOW_REQUIRE_BROWSER=1 (CI) turns the skip into a failure.
var shared struct {
	once   sync.Once
	dev    *webdriver.Device
	srv    *httptest.Server
	open   time.Duration
	err    error
	unlock func()
}

func browser(t testing.TB) (*webdriver.Device, string) {
	t.Helper()
	browsertest.Require(t)
	shared.once.Do(func() {
		if shared.unlock, shared.err = browsertest.Lock(); shared.err != nil {
			return
		}
		shared.srv = httptest.NewServer(http.FileServer(http.Dir("testdata")))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		start := time.Now()
		shared.dev, shared.err = webdriver.Open(ctx, webdriver.Config{})
		shared.open = time.Since(start)
	})
	if shared.err != nil {
		t.Fatalf("open the browser: %v", shared.err)
	}
	return shared.dev, shared.srv.URL
}

// withActions is a second shared session on the same browser binaries that
// sends gestures as W3C action sequences (the dispatch remote endpoints
// get) instead of pacing them through DevTools.
var withActions struct {
	once sync.Once
	dev  *webdriver.Device
	err  error
}

func actionsBrowser(t testing.TB) (*webdriver.Device, string) {
	t.Helper()
	_, base := browser(t)
	withActions.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		withActions.dev, withActions.err = webdriver.Open(ctx, webdriver.Config{
			Capabilities: map[string]any{webdriver.CapTouchDispatch: webdriver.DispatchActions}})
	})
	if withActions.err != nil {
		t.Fatalf("open the browser with W3C actions: %v", withActions.err)
	}
	return withActions.dev, base
}

// closeBrowser ends the shared sessions; TestMain calls it.
func closeBrowser() {
	if withActions.dev != nil {
		_ = withActions.dev.Close(context.Background())
	}
	if shared.dev != nil {
		_ = shared.dev.Close(context.Background())
	}
	if shared.srv != nil {
		shared.srv.Close()
	}
	if shared.unlock != nil {
		shared.unlock()
	}
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// load opens a test page and clears its event log.
func load(t testing.TB, dev *webdriver.Device, url string) {
	t.Helper()
	if err := dev.LaunchApp(ctxFor(t), exec.LaunchOptions{AppID: url, StopApp: true}); err != nil {
		t.Fatalf("launch %s: %v", url, err)
	}
}

// entry is one event the gesture page recorded.
type entry struct {
	Type        string      `json:"type"`
	TS          float64     `json:"ts"`
	Now         float64     `json:"now"`
	Target      string      `json:"target"`
	Touches     [][]float64 `json:"touches"`
	Changed     [][]float64 `json:"changed"`
	PointerID   int         `json:"pointerId"`
	PointerType string      `json:"pointerType"`
}

func pageLog(t testing.TB, dev *webdriver.Device) []entry {
	t.Helper()
	var log []entry
	if err := dev.Client().Execute(ctxFor(t), "return window.__log", nil, true, &log); err != nil {
		t.Fatal(err)
	}
	return log
}

func resetPage(t testing.TB, dev *webdriver.Device) {
	t.Helper()
	var v any
	if err := dev.Client().Execute(ctxFor(t), "window.__reset(); return 0", nil, false, &v); err != nil {
		t.Fatal(err)
	}
}

// observed is what the page saw of one gesture.
type observed struct {
	starts, ends, moves int
	durationMs          float64 // first touchstart to last touchend, by the events' own timestamps
	maxTouches          int
	firstMove, lastMove []float64 // touches of the first and last touchmove
	twoTouchMoves       int
	// stallMs is the longest wait between two touch events the page
	// received once the touch was moving (from the first touchmove to the
	// last touchend).
	stallMs float64
}

func observe(log []entry) observed {
	var o observed
	var first, last, moved float64
	for _, e := range log {
		switch e.Type {
		case "touchstart":
			o.starts += len(e.Changed)
			if first == 0 {
				first = e.TS
			}
		case "touchend", "touchcancel":
			o.ends += len(e.Changed)
			last = e.TS
			if moved > 0 {
				o.stallMs = max(o.stallMs, e.TS-moved)
			}
		case "touchmove":
			if moved > 0 {
				o.stallMs = max(o.stallMs, e.TS-moved)
			}
			moved = e.TS
			o.moves++
			if o.firstMove == nil {
				o.firstMove = flatten(e.Touches)
			}
			o.lastMove = flatten(e.Touches)
			if len(e.Touches) == 2 {
				o.twoTouchMoves++
			}
		}
		o.maxTouches = max(o.maxTouches, len(e.Touches))
	}
	o.durationMs = last - first
	return o
}

func flatten(ts [][]float64) []float64 {
	var out []float64
	for _, t := range ts {
		out = append(out, t[1:]...)
	}
	return out
}

func spread(p []float64) float64 {
	if len(p) < 4 {
		return 0
	}
	return math.Hypot(p[2]-p[0], p[3]-p[1])
}

func plan(t testing.TB, dev *webdriver.Device, g canonical.Gesture) planner.Plan {
	t.Helper()
	vp, err := dev.Viewport(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Gesture(g, vp, planner.Web)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

// gestureOn performs a plan on the gesture page and returns what the page
// observed.
func gestureOn(t testing.TB, dev *webdriver.Device, p planner.Plan) observed {
	t.Helper()
	resetPage(t, dev)
	time.Sleep(100 * time.Millisecond) // let the page go idle, as a user's finger would arrive
	if err := dev.PerformGesture(ctxFor(t), p); err != nil {
		t.Fatalf("perform: %v", err)
	}
	return observe(pageLog(t, dev))
}

// timed performs p and returns what the page observed and the error
// against the plan. The device's own record of the gesture (which its
// drift correction learns from) must agree with the page's recorder.
//
// A gesture paced through DevTools sends a move every frame, so a page
// that received none for more than stallMs, once the touch moved, saw
// the browser stall: the events were late however they were sent, about
// one gesture in fifty on the shared CI machine. Such a gesture, if it
// missed two frames, is performed once more, and the second must not
// miss; a late adapter fails both times.
func timed(t testing.TB, dev *webdriver.Device, p planner.Plan) (observed, float64) {
	t.Helper()
	o := gestureOn(t, dev, p)
	if g := dev.LastGesture(); math.Abs(g.ObservedMs-o.durationMs) > 0.5 {
		t.Errorf("the device saw the gesture last %.1f ms, the page's recorder %.1f ms", g.ObservedMs, o.durationMs)
	}
	diff := o.durationMs - float64(p.DurationMs)
	// A browser the machine starved (a frame gap over stallMs on the
	// page) says nothing of our pacing: perform again, up to three times
	// on a busy CI host. An attempt that is off without a stall fails.
	for again := 0; again < 3 && math.Abs(diff) > 33 && o.stallMs > stallMs && dev.TouchDispatch() == webdriver.DispatchDevTools; again++ {
		t.Logf("the browser stalled %.0f ms during a %d ms gesture (%+.1f ms): performed again", o.stallMs, p.DurationMs, diff)
		o = gestureOn(t, dev, p)
		diff = o.durationMs - float64(p.DurationMs)
	}
	return o, diff
}

// stallMs is two and a half frames.
const stallMs = 2.5 * 1000 / 60

// dispatches are the two ways a local browser can be sent gestures: the
// default, paced through DevTools, and W3C action sequences. The shape of
// a gesture (touches, moves) must be the same either way; the two-frame
// timing bound is asserted for the default, and the action sequences'
// timing is measured by BenchmarkGestureTiming.
func dispatches(t testing.TB) []struct {
	name  string
	dev   *webdriver.Device
	timed bool
} {
	dev, _ := browser(t)
	acts, _ := actionsBrowser(t)
	return []struct {
		name  string
		dev   *webdriver.Device
		timed bool
	}{{webdriver.DispatchDevTools, dev, true}, {webdriver.DispatchActions, acts, false}}
}

// (a) A one-contact 500 ms pan is one touch lasting 500 ± 33 ms, with
// intermediate moves.
func TestBrowserPanIsOneTimedTouch(t *testing.T) {
	_, base := browser(t)
	for _, d := range dispatches(t) {
		t.Run(d.name, func(t *testing.T) {
			load(t, d.dev, base+"/gestures.html")
			p := plan(t, d.dev, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 400), Delta: pt(0, -360), DurationMs: f(500)})
			o, diff := timed(t, d.dev, p)
			if o.starts != 1 || o.ends != 1 || o.maxTouches != 1 {
				t.Fatalf("page saw %d touchstarts, %d touchends, up to %d touches; want one touch", o.starts, o.ends, o.maxTouches)
			}
			if o.moves < 10 {
				t.Errorf("page saw %d touchmoves; want intermediate moves (at least 10 over 500 ms)", o.moves)
			}
			if d.timed && math.Abs(diff) > 33 {
				t.Errorf("the touch lasted %.1f ms, not 500 ± 33", o.durationMs)
			}
			t.Logf("500 ms pan: observed %.1f ms, %d touchmoves", o.durationMs, o.moves)
		})
	}
}

// (b) A pinch is two touches whose distance shrinks.
func TestBrowserPinchIsTwoTouchesClosing(t *testing.T) {
	_, base := browser(t)
	for _, d := range dispatches(t) {
		t.Run(d.name, func(t *testing.T) {
			load(t, d.dev, base+"/gestures.html")
			p := plan(t, d.dev, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.4), Origin: pt(195, 210)})
			o, diff := timed(t, d.dev, p)
			if o.starts != 2 || o.ends != 2 || o.maxTouches != 2 {
				t.Fatalf("page saw %d touchstarts, %d touchends, up to %d touches; want two touches", o.starts, o.ends, o.maxTouches)
			}
			if o.twoTouchMoves < 5 {
				t.Errorf("only %d touchmoves carried both touches", o.twoTouchMoves)
			}
			a, b := spread(o.firstMove), spread(o.lastMove)
			if !(b < a*0.7) {
				t.Errorf("distance between the touches went %.1f → %.1f px; a pinch-in must shrink it", a, b)
			}
			if d.timed && math.Abs(diff) > 33 {
				t.Errorf("the pinch lasted %.1f ms, not %d ± 33", o.durationMs, p.DurationMs)
			}
			t.Logf("pinch: %.1f → %.1f px over %.1f ms (planned %d), %d two-touch moves",
				a, b, o.durationMs, p.DurationMs, o.twoTouchMoves)
		})
	}
}

func scrollTop(t *testing.T, dev *webdriver.Device) float64 {
	t.Helper()
	var v float64
	if err := dev.Client().Execute(ctxFor(t), "return document.getElementById('scroller').scrollTop", nil, true, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// (c) A fast fling scrolls further than a slow pan of the same length, and
// the device waits for the fling to stop before it returns.
func TestBrowserFlingScrollsFurtherThanSlowPan(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/gestures.html")
	fling := plan(t, dev, canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp, Origin: pt(195, 790), Distance: f(300)})
	slow := plan(t, dev, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 790), Delta: pt(0, -300), DurationMs: f(1000)})
	// measure performs the slow pan and the fling, each on a fresh page,
	// and returns how far each scrolled and what the page saw of the fling.
	measure := func() (panned, flung float64, o observed) {
		gestureOn(t, dev, slow)
		panned = scrollTop(t, dev)
		o = gestureOn(t, dev, fling)
		flung = scrollTop(t, dev)
		time.Sleep(300 * time.Millisecond)
		if later := scrollTop(t, dev); later != flung {
			t.Errorf("the page still scrolled after the gesture returned: %.0f → %.0f", flung, later)
		}
		return panned, flung, o
	}
	panned, flung, o := measure()
	for try := 1; try < 4; try++ {
		late := math.Abs(o.durationMs - float64(fling.DurationMs))
		if flung > panned+50 || !(o.stallMs > stallMs || late > 33) {
			break
		}
		// A browser that stalls mid-fling (timed's rule: more than two and
		// a half frames without an event, or the touch two frames off its
		// plan) measures a slower finger, so Chromium rightly throws it
		// less far: the pair is measured again, up to three more times on
		// a loaded machine, and the first unstalled pair must hold.
		t.Logf("the browser stalled %.0f ms during the fling, which lasted %.0f ms (%.0f px against the pan's %.0f): performed again",
			o.stallMs, o.durationMs, flung, panned)
		panned, flung, o = measure()
	}
	if !(flung > panned+50) {
		t.Errorf("the fling scrolled %.0f px, the slow pan %.0f px; a fling must go further", flung, panned)
	}
	// The pan lifts while still moving at 0.3 px/ms, as a finger would,
	// so Chromium may let the content glide a little past the drag (less
	// the 15 px touch slop); it must not fling.
	if panned < 250 || panned > 400 {
		t.Errorf("a 300 px slow pan scrolled %.0f px; want about the drag: 285 px and at most a short glide", panned)
	}
	t.Logf("300 px: slow pan (1000 ms) scrolled %.0f px, fling (%d ms) %.0f px", panned, fling.DurationMs, flung)
}

// timing is one row of the planned-versus-observed table.
type timing struct {
	name     string
	gesture  canonical.Gesture
	contacts int
}

func timings() []timing {
	one := func(ms, dy float64) canonical.Gesture {
		return canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 400), Delta: pt(0, -dy), DurationMs: f(ms)}
	}
	two := func(ms float64) canonical.Gesture {
		return canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 260), Delta: pt(60, -120), PointerCount: f(2), DurationMs: f(ms)}
	}
	return []timing{
		{"one/pan 300 ms", one(300, 300), 1},
		{"one/pan 700 ms", one(700, 300), 1},
		{"one/pan 1000 ms", one(1000, 300), 1},
		{"one/slow drag 1000 ms, 60 px", one(1000, 60), 1},
		{"two/pan 300 ms", two(300), 2},
		{"two/pan 700 ms", two(700), 2},
		{"two/pan 1000 ms", two(1000), 2},
		{"two/pinch 300 ms", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(195, 210)}, 2},
		{"two/transform 1000 ms", canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 210), Delta: pt(30, 20),
			Scale: f(1.4), Degrees: f(40), DurationMs: f(1000)}, 2},
	}
}

// (d) One- and two-contact gestures of 300–1000 ms last their planned
// duration on the page within two frames (33 ms), every time: each is
// performed twice, and neither may miss.
func TestBrowserGestureTimingWithinTwoFrames(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/gestures.html")
	var errs []float64
	for _, c := range timings() {
		t.Run(c.name, func(t *testing.T) {
			p := plan(t, dev, c.gesture)
			for range 2 {
				o, diff := timed(t, dev, p)
				if o.starts != c.contacts || o.ends != c.contacts {
					t.Fatalf("page saw %d touchstarts and %d touchends; want %d", o.starts, o.ends, c.contacts)
				}
				errs = append(errs, math.Abs(diff))
				t.Logf("planned %4d ms, observed %6.1f ms (%+5.1f), %d touchmoves", p.DurationMs, o.durationMs, diff, o.moves)
				if math.Abs(diff) > 33 {
					t.Errorf("a %d ms plan lasted %.1f ms on the page: more than two frames off", p.DurationMs, o.durationMs)
				}
			}
		})
	}
	sort.Float64s(errs)
	if n := len(errs); n > 0 {
		t.Logf("absolute error: median %.1f ms, max %.1f ms over %d gestures", errs[n/2], errs[n-1], n)
	}
}

// BenchmarkGestureTiming measures planned-versus-observed duration over the
// timing table for each dispatch, for docs/performance.md:
//
//	go test ./exec/webdriver -run '^$' -bench GestureTiming -benchtime 5x
//
// Each iteration performs the whole table once; the metrics are over every
// gesture of every iteration.
func BenchmarkGestureTiming(b *testing.B) {
	for _, d := range dispatches(b) {
		b.Run(d.name, func(b *testing.B) {
			_, base := browser(b)
			load(b, d.dev, base+"/gestures.html")
			var errs []float64
			within := 0
			for range b.N {
				for _, c := range timings() {
					p := plan(b, d.dev, c.gesture)
					diff := gestureOn(b, d.dev, p).durationMs - float64(p.DurationMs)
					errs = append(errs, math.Abs(diff))
					if math.Abs(diff) <= 33 {
						within++
					}
				}
			}
			sort.Float64s(errs)
			n := len(errs)
			b.ReportMetric(errs[n/2], "median-abs-err-ms")
			b.ReportMetric(errs[n*9/10], "p90-abs-err-ms")
			b.ReportMetric(errs[n-1], "max-abs-err-ms")
			b.ReportMetric(100*float64(within)/float64(n), "%-within-33ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// The local session paces gestures through DevTools and measures nothing
// at the start. A session with W3C actions opens uncalibrated; its
// calibration runs before the first gesture, in a tab of its own, and
// leaves the page the session shows as it was. Both costs are reported.
// The test opens its own session, so what it sees does not depend on which
// test ran first.
func TestBrowserSessionStart(t *testing.T) {
	_, base := browser(t)
	ctx := ctxFor(t)
	start := time.Now()
	dev, err := webdriver.Open(ctx, webdriver.Config{Capabilities: map[string]any{webdriver.CapTouchDispatch: webdriver.DispatchActions}})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(context.Background())
	open := time.Since(start)
	if c := dev.Calibration(); c.Measured || c.Ms != 0 {
		t.Errorf("the session was calibrated before any gesture: %+v", c)
	}
	load(t, dev, base+"/login.html")
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, find(root, byID("email")).Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	if err := dev.InputText(ctx, "kept@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := dev.Calibrate(ctx); err != nil {
		t.Fatal(err)
	}
	c := dev.Calibration()
	if !c.Measured {
		t.Errorf("the calibration failed: %s", c.Problem)
	}
	if c.One.TickCostMs < 10 || c.One.TickCostMs > 50 || c.Two.TickCostMs < 10 || c.Two.TickCostMs > 50 {
		t.Errorf("implausible tick costs: %+v", c)
	}
	// Focus comes back to the tab asynchronously once the calibration's
	// tab is closed; on a loaded machine that takes a while, so poll.
	var state []string
	for deadline := time.Now().Add(3 * time.Second); ; {
		if err := dev.Client().Execute(ctx, "return [location.pathname, document.getElementById('email').value, String(document.hasFocus())]",
			nil, true, &state); err != nil {
			t.Fatal(err)
		}
		if strings.Join(state, " ") == "/login.html kept@example.com true" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Join(state, " ") != "/login.html kept@example.com true" {
		t.Errorf("after calibrating, the page is %q; want the login page as it was, focused", state)
	}
	if handles, err := dev.Client().WindowHandles(ctx); err != nil || len(handles) != 1 {
		t.Errorf("after calibrating, the session has tabs %v (%v); want one", handles, err)
	}
	if c := shared.dev.Calibration(); c.Measured || c.Ms != 0 {
		t.Errorf("the DevTools session measured a calibration it does not use: %+v", c)
	}
	info, _ := dev.Info(context.Background())
	t.Logf("%s: open %s (the shared DevTools session: %s); calibration %d ms; one contact: tick %.2f ms, lead %.1f ms; two contacts: tick %.2f ms, lead %.1f ms",
		info.Name, open.Round(time.Millisecond), shared.open.Round(time.Millisecond), c.Ms, c.One.TickCostMs, c.One.LeadMs, c.Two.TickCostMs, c.Two.LeadMs)
}

// The latency of the device's primitives, for docs/performance.md: the
// median of ten calls each (go test -run TestBrowserLatencies -v).
func TestBrowserLatencies(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	measure := func(name string, n int, f func() error) {
		t.Helper()
		var ds []float64
		for range n {
			start := time.Now()
			if err := f(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ds = append(ds, float64(time.Since(start).Microseconds())/1000)
		}
		sort.Float64s(ds)
		t.Logf("%-34s median %6.1f ms, max %6.1f ms (n=%d)", name, ds[len(ds)/2], ds[len(ds)-1], n)
	}
	measure("hierarchy (login page)", 10, func() error { _, err := dev.Hierarchy(ctx); return err })
	measure("settled read (still page)", 10, func() error { dev.Client(); _, err := dev.ReadSettled(ctx, time.Second); return err })
	measure("tap (touch down/up)", 10, func() error { return dev.Tap(ctx, canonical.Point{X: 5, Y: 800}) })
	measure("screenshot (1170×2532 PNG)", 5, func() error { _, err := dev.Screenshot(ctx); return err })
	measure("inputText (10 characters)", 5, func() error { return dev.InputText(ctx, "abcdefghij") })
	measure("launchApp (local page)", 5, func() error {
		return dev.LaunchApp(ctx, exec.LaunchOptions{AppID: base + "/login.html", StopApp: true})
	})
	load(t, dev, base+"/gestures.html")
	p := plan(t, dev, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 400), Delta: pt(0, -300), DurationMs: f(300)})
	measure("300 ms pan (3 round trips)", 5, func() error { return dev.PerformGesture(ctx, p) })
	t.Logf("last settle %+v", dev.LastSettle())
}
