package webdriver

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"sort"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Calibration is the timing a device lowers gestures with, measured once
// per session (see Options).
type Calibration struct {
	// One and Two are the lowering options for one- and two-contact plans.
	One, Two Options
	// Measured is false when the defaults are used (calibration disabled or
	// impossible on the endpoint).
	Measured bool
	// Ms is how long measuring took.
	Ms int64
	// Problem says why the defaults are used, if measuring failed.
	Problem string `json:",omitempty"`
}

// defaultCalibration is what this package's browser tests measure on
// chromedriver 156 with frames flowing: a move tick costs a frame, a
// one-contact gesture about a frame and a half more (22–36 ms; two
// contacts 5–20 ms), and where touch-action is none each move inside
// Chromium's 15 px touch slop costs another frame. It is used when a local
// measurement fails.
func defaultCalibration() Calibration {
	return Calibration{
		One: Options{Interpolate: true, TickCostMs: frameMs, LeadMs: 25, SlopPx: touchSlopPx, SlopCostMs: frameMs, IntegerPoints: true},
		Two: Options{Interpolate: true, TickCostMs: frameMs, LeadMs: 10, IntegerPoints: true},
	}
}

// touchSlopPx is Chromium's touch slop for touchscreens (CSS px at zoom 1):
// a single touch's moves are suppressed until it leaves this radius.
const touchSlopPx = 15

// Calibration gestures: calibrationReps gestures of calibrationTicks move
// ticks each, sent in one action sequence per contact count.
const (
	calibrationTicks = 6
	calibrationReps  = 3
	twoContactStepPx = 4
)

// Calibrate measures the per-tick cost now, unless it was measured or is
// turned off (CapCalibrate). PerformGesture calls it before the first
// gesture of a session, so a session that never swipes never pays for it.
// It runs in a tab of its own, which is closed afterwards, so the page the
// session shows keeps its state. An endpoint that cannot open tabs keeps
// the defaults (Calibration.Problem says why); an error means the session
// could not return to its tab.
func (d *Device) Calibrate(ctx context.Context) error {
	if !d.calibPending {
		return nil
	}
	d.calibPending = false
	start := time.Now()
	defer func() { d.calib.Ms = time.Since(start).Milliseconds() }()
	home, err := d.client.WindowHandle(ctx)
	var tab string
	if err == nil {
		tab, err = d.client.NewWindow(ctx, "tab")
	}
	if err != nil {
		d.calib.Problem = "the endpoint cannot open a tab to calibrate in: " + err.Error()
		return nil
	}
	d.changed()
	if err := d.client.SwitchToWindow(ctx, tab); err != nil {
		return err
	}
	d.front(ctx)
	d.calibrate(ctx)
	// Closing the tab also drops the stale touch routing the two-contact
	// gestures leave behind (see Device.multiTouched).
	if err := d.client.CloseWindow(ctx); err != nil {
		return err
	}
	if err := d.client.SwitchToWindow(ctx, home); err != nil {
		return err
	}
	d.front(ctx)
	d.changed()
	return nil
}

// front focuses the current tab on Chromium: switching does not, and an
// unfocused page gets no keyboard input and paces touch input
// differently.
func (d *Device) front(ctx context.Context) {
	if d.chromium {
		_ = d.client.ChromiumCDP(ctx, "Page.bringToFront", nil, nil)
	}
}

// calibrate measures the per-tick cost on a blank page in the current
// tab: calibrationReps one-contact gestures of calibrationTicks ticks of
// duration 0, each tick moving far enough to leave the touch slop at once,
// timed by the page's own event timestamps; then the same with two
// contacts when multi-touch is on. Per gesture, the cost of a tick is the
// time from the second tick to touchend over the ticks in between (the
// median is kept), and the lead is what the gesture took beyond its ticks
// (the mean is kept).
// Any failure keeps the defaults and says why in Calibration.Problem.
func (d *Device) calibrate(ctx context.Context) {
	fail := func(why string) { d.calib.Problem = why }
	if err := d.client.Navigate(ctx, "data:text/html;charset=utf-8,"+url.PathEscape(calibrationPage)); err != nil {
		fail("cannot open the calibration page: " + err.Error())
		return
	}
	vp, err := d.Viewport(ctx)
	if err != nil {
		fail(err.Error())
		return
	}
	step := math.Min(20, (vp.Width-40)/calibrationTicks)
	if step <= touchSlopPx || vp.Height < 100 {
		fail("the viewport is too small to calibrate in")
		return
	}
	measured := d.calib
	one, err := d.measure(ctx, []float64{vp.Height / 2}, step)
	if err != nil {
		fail(err.Error())
		return
	}
	measured.One = Options{Interpolate: true, TickCostMs: one.tick, LeadMs: one.lead, IntegerPoints: true}
	if d.chromium {
		// Chromium's slop suppression; other browsers are not known to
		// charge for it.
		measured.One.SlopPx, measured.One.SlopCostMs = touchSlopPx, one.tick
	}
	if d.multiTouch {
		// Two contacts move a few pixels a tick, as pinches and two-finger
		// pans do: Chromium's lead grows with smaller moves (about 20 ms
		// at 2–5 px a tick against 10 ms at 20 px).
		two, err := d.measure(ctx, []float64{vp.Height / 3, 2 * vp.Height / 3}, twoContactStepPx)
		if err != nil {
			fail(err.Error())
			return
		}
		measured.Two = Options{Interpolate: true, TickCostMs: two.tick, LeadMs: two.lead, IntegerPoints: true}
	}
	measured.Measured = true
	d.calib = measured
}

type tickCost struct{ tick, lead float64 }

// measure runs the calibration gestures with a contact per y and reads the
// page's record.
func (d *Device) measure(ctx context.Context, ys []float64, step float64) (tickCost, error) {
	const x0 = 20.0
	var sources []Source
	for i, y := range ys {
		var acts []PointerAction
		for r := range calibrationReps {
			if r > 0 {
				acts = append(acts, PointerAction{Type: Pause, Duration: 10})
			}
			acts = append(acts, PointerAction{Type: PointerMove, X: x0, Y: y}, PointerAction{Type: PointerDown, Button: primary})
			for k := 1; k <= calibrationTicks; k++ {
				acts = append(acts, PointerAction{Type: PointerMove, X: x0 + step*float64(k), Y: y})
			}
			acts = append(acts, PointerAction{Type: PointerUp, Button: primary})
		}
		sources = append(sources, newSource(i, acts))
	}
	var discard []any
	if err := d.client.Execute(ctx, calibrationEvents, nil, false, &discard); err != nil {
		return tickCost{}, err
	}
	if _, _, err := d.keepFrames(ctx, time.Duration(calibrationReps)*time.Second/2, canonical.Point{X: x0, Y: ys[0]}, false); err != nil {
		return tickCost{}, err
	}
	if err := d.perform(ctx, Actions{Actions: sources}, time.Duration(calibrationReps)*time.Second); err != nil {
		return tickCost{}, err
	}
	var events [][]any
	if err := d.client.Execute(ctx, calibrationEvents, nil, false, &events); err != nil {
		return tickCost{}, err
	}
	// Split the record into gestures: each starts with the first
	// touchstart and ends with the touchend that lifts the last contact.
	type gesture struct{ down, second, up float64 }
	var gs []gesture
	var g *gesture
	for _, e := range events {
		if len(e) < 4 {
			continue
		}
		kind, _ := e[0].(string)
		ts, _ := e[1].(float64)
		x, _ := e[2].(float64)
		touches, _ := e[3].(float64)
		switch {
		case kind == "touchstart" && g == nil:
			g = &gesture{down: ts}
		case g == nil:
		case kind == "touchmove" && g.second == 0 && math.Round((x-x0)/step) >= 2:
			g.second = ts
		case kind == "touchend" && touches == 0:
			g.up = ts
			if g.second > 0 && g.up > g.second {
				gs = append(gs, *g)
			}
			g = nil
		}
	}
	if len(gs) == 0 {
		return tickCost{}, fmt.Errorf("the calibration page saw %d touch events and no whole gesture", len(events))
	}
	ticks := make([]float64, len(gs))
	for i, g := range gs {
		ticks[i] = (g.up - g.second) / (calibrationTicks - 1)
	}
	tick := snapToFrames(median(ticks))
	// The lead is bimodal (Chromium sometimes spends one more frame early in
	// a gesture), so the mean is kept, each gesture's lead clamped to three
	// frames so one disturbed gesture cannot skew it.
	lead := 0.0
	for _, g := range gs {
		lead += math.Min(math.Max((g.up-g.down)-calibrationTicks*tick, 0), 3*frameMs)
	}
	lead /= float64(len(gs))
	if tick < 0.5 || tick > 200 || lead < -tick || lead > 500 {
		return tickCost{}, fmt.Errorf("implausible calibration: %.1f ms per tick, %.1f ms lead", tick, lead)
	}
	return tickCost{tick: tick, lead: math.Max(0, lead)}, nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// snapToFrames rounds a measured tick cost to a whole number of 60 Hz
// frames when it lies within a quarter of a frame of one. With frames
// flowing, Chromium delivers one touch move per frame, so the true cost is
// a whole number of frames; a measurement off by more than noise usually
// means another process held the CPU for part of the calibration, and
// carrying that error into every gesture of the session would add up to
// tens of milliseconds over a 60-tick gesture. Costs that are not near a
// frame multiple (a driver that does not pace by frames) are kept.
func snapToFrames(ms float64) float64 {
	k := math.Round(ms / frameMs)
	if k >= 1 && math.Abs(ms-k*frameMs) <= 0.25*frameMs {
		return k * frameMs
	}
	return ms
}
