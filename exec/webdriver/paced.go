package webdriver

import (
	"context"
	"math"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Touch dispatch. W3C pointer actions are one request per gesture, but
// chromedriver times them tick by tick: every tick waits for the page's
// next frame, so a late frame makes every later tick late, and Chromium
// holds a gesture's first move back by two frames in about one gesture in
// six. Calibration and drift correction cannot foresee that; the error is
// up to three frames. Sent through Chromium's DevTools instead, one touch
// event at a time, each move is placed by the wall clock and a late one
// delays nothing after it: gestures then last their plan to within half a
// frame (docs/performance.md). That costs a round trip per frame, cheap
// next to a local browser and far too slow across a network.
const (
	// CapTouchDispatch (string) chooses how gestures reach the browser:
	// DispatchDevTools or DispatchActions. The default is DevTools for the
	// local Chromium and actions for a remote endpoint.
	CapTouchDispatch = "flow:touchDispatch"
	// DispatchDevTools paces each touch event by the wall clock through
	// chromedriver's DevTools bridge (Input.dispatchTouchEvent).
	DispatchDevTools = "devtools"
	// DispatchActions sends each gesture as one W3C action sequence,
	// interpolated and budgeted with the session's calibration.
	DispatchActions = "actions"
)

// endGuardMs is how early before its planned end a paced gesture sends its
// last move: a move is answered at the page's next frame, so a move sent
// later would hold the release up behind it.
const endGuardMs = 1.5 * frameMs

// touchPoint is one contact of Input.dispatchTouchEvent.
type touchPoint struct {
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
	ID int     `json:"id"`
}

// dispatchPaced performs the plan through Input.dispatchTouchEvent: every
// contact goes down together, then, until endGuardMs before the plan's
// end, each move puts every contact where the plan has it at the moment it
// is sent (nothing is sent while no contact moves), then a move to the
// plan's last samples, and the release at the planned end. A failure after
// the touch went down cancels it, so no contact stays down.
func (d *Device) dispatchPaced(ctx context.Context, plan planner.Plan) (err error) {
	send := func(ctx context.Context, kind string, pts []touchPoint) error {
		if pts == nil {
			pts = []touchPoint{}
		}
		return d.client.ChromiumCDP(ctx, "Input.dispatchTouchEvent", map[string]any{"type": kind, "touchPoints": pts}, nil)
	}
	total := float64(plan.DurationMs)
	start := time.Now()
	last := pointsAt(plan, 0)
	if err := send(ctx, "touchStart", last); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = send(context.WithoutCancel(ctx), "touchCancel", nil)
		}
	}()
	elapsed := func() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
	for t := elapsed(); t < total-endGuardMs; t = elapsed() {
		if err := ctx.Err(); err != nil {
			return err
		}
		pts := pointsAt(plan, t)
		if samePoints(pts, last) {
			// A hold: wait a frame, or until the last move is due.
			if err := sleep(ctx, math.Min(frameMs, total-endGuardMs-t)); err != nil {
				return err
			}
			continue
		}
		if err := send(ctx, "touchMove", pts); err != nil {
			return err
		}
		last = pts
	}
	if end := pointsAt(plan, total); !samePoints(end, last) {
		if err := send(ctx, "touchMove", end); err != nil {
			return err
		}
	}
	if err := sleep(ctx, total-elapsed()); err != nil {
		return err
	}
	return send(ctx, "touchEnd", nil)
}

// pointsAt is every contact's position at plan offset t (ms), on the
// straight line between the samples around t.
func pointsAt(plan planner.Plan, t float64) []touchPoint {
	out := make([]touchPoint, len(plan.Pointers))
	for i, p := range plan.Pointers {
		out[i] = touchPoint{ID: p.PointerID}
		out[i].X, out[i].Y = sampleAt(p.Samples, t)
	}
	return out
}

func sampleAt(s []planner.Sample, t float64) (x, y float64) {
	if t <= float64(s[0].OffsetMs) {
		return s[0].Point.X, s[0].Point.Y
	}
	for j := 1; j < len(s); j++ {
		a, b := s[j-1], s[j]
		if t <= float64(b.OffsetMs) {
			u := (t - float64(a.OffsetMs)) / float64(b.OffsetMs-a.OffsetMs)
			return lerp(a.Point, b.Point, u)
		}
	}
	last := s[len(s)-1].Point
	return last.X, last.Y
}

func lerp(a, b canonical.Point, u float64) (x, y float64) {
	return a.X + (b.X-a.X)*u, a.Y + (b.Y-a.Y)*u
}

// samePoints says no contact moved by a tenth of a pixel or more.
func samePoints(a, b []touchPoint) bool {
	for i := range a {
		if math.Abs(a[i].X-b[i].X) >= 0.1 || math.Abs(a[i].Y-b[i].Y) >= 0.1 {
			return false
		}
	}
	return true
}

func sleep(ctx context.Context, ms float64) error {
	if ms <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(ms * float64(time.Millisecond)))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
