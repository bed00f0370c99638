package sim

import (
	"math"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Scroll physics. Content follows the finger one to one while it is down;
// at lift the release velocity v (grid units per ms along the container's
// axis) carries it on by v × decelerationMs, then it stops at the content
// edge. So a fast fling scrolls further than a slow pan of the same length,
// and a finger that rested before lifting throws nothing.
const (
	// decelerationMs is UIKit's normal deceleration rate, 0.998 per ms: a
	// throw at v travels v·0.998/(1−0.998) ≈ 499 ms × v before it stops.
	decelerationMs = 499.0
	// velocityWindowMs is how far back the release velocity looks, the
	// horizon of Android's VelocityTracker.
	velocityWindowMs = 100.0
	// stoppedAfterMs is how long a finger must rest before lift for its
	// velocity to count as zero (Android's ASSUME_POINTER_STOPPED_TIME).
	stoppedAfterMs = 40.0
	// minThrowVelocity and maxThrowVelocity are Android's minimum and
	// maximum fling velocities (50 and 8000 dp/s) at about 3x density.
	minThrowVelocity = 0.15
	maxThrowVelocity = 24.0
	// iosFastSwipeMs is when iOS's fast-swipe (the endpoint-hold profile)
	// reaches the endpoint; the finger rests there for the rest of the
	// planned duration (ADR 0013).
	iosFastSwipeMs = 100
)

// timed is a finger position at a time in ms from pointer-down.
type timed struct {
	t float64
	p canonical.Point
}

// trajectory is how the finger of a one-contact plan actually moves on the
// device's platform. Samples are linear between them; an endpoint-hold
// plan on iOS reaches its end in 100 ms and rests there (so a Maestro swipe
// releases with no velocity and a 100 ms fling throws), elsewhere it moves
// linearly over the whole duration, as the Android transport lowers it.
func trajectory(plan planner.Plan, platform string) []timed {
	s := plan.Pointers[0].Samples
	if plan.ExecutionProfile == canonical.ProfileEndpointHold && platform == "ios" && plan.DurationMs > iosFastSwipeMs {
		start, end := s[0].Point, s[len(s)-1].Point
		return []timed{{0, start}, {iosFastSwipeMs, end}, {float64(plan.DurationMs), end}}
	}
	out := make([]timed, len(s))
	for i, smp := range s {
		out[i] = timed{float64(smp.OffsetMs), smp.Point}
	}
	return out
}

// positionAt interpolates the trajectory at time t.
func positionAt(tr []timed, t float64) canonical.Point {
	if t <= tr[0].t {
		return tr[0].p
	}
	for i := 1; i < len(tr); i++ {
		a, b := tr[i-1], tr[i]
		if t <= b.t {
			if b.t == a.t {
				return b.p
			}
			f := (t - a.t) / (b.t - a.t)
			return canonical.Point{X: a.p.X + (b.p.X-a.p.X)*f, Y: a.p.Y + (b.p.Y-a.p.Y)*f}
		}
	}
	return tr[len(tr)-1].p
}

// releaseVelocity is the finger's velocity at lift: its displacement over
// the last velocityWindowMs divided by that time, or zero when it rested
// for stoppedAfterMs before lifting.
func releaseVelocity(tr []timed) canonical.Point {
	end := tr[len(tr)-1]
	if end.t <= 0 {
		return canonical.Point{}
	}
	if end.t >= stoppedAfterMs && positionAt(tr, end.t-stoppedAfterMs) == end.p {
		return canonical.Point{}
	}
	w := math.Min(velocityWindowMs, end.t)
	from := positionAt(tr, end.t-w)
	return canonical.Point{X: (end.p.X - from.X) / w, Y: (end.p.Y - from.Y) / w}
}

// throwVelocity limits a release velocity component to the fling range.
func throwVelocity(v float64) float64 {
	switch a := math.Abs(v); {
	case a < minThrowVelocity:
		return 0
	case a > maxThrowVelocity:
		return math.Copysign(maxThrowVelocity, v)
	}
	return v
}

// scroll moves the scroll container under the first point by the finger's
// travel plus its throw, along the container's axis; finger up means the
// offset grows.
func (d *Device) scroll(proc *process, nodes []*placed, tr []timed) {
	start, end := tr[0].p, tr[len(tr)-1].p
	travel := canonical.Point{X: end.X - start.X, Y: end.Y - start.Y}
	c := container(nodes, start, travel)
	if c == nil {
		return
	}
	v := releaseVelocity(tr)
	along, speed := travel.Y, v.Y
	if c.el.Scroll.Axis == AxisHorizontal {
		along, speed = travel.X, v.X
	}
	moved := -(along + throwVelocity(speed)*decelerationMs)
	st := c.st
	next := int(math.Round(float64(st.offset) + moved))
	next = max(0, min(next, maxOffset(c.el)))
	if next == st.offset {
		return
	}
	st.offset = next
	off := offsetPoint(c.el, next)
	d.observe(c.el, "scroll", map[string]any{"offset": map[string]int{"x": off.X, "y": off.Y}})
}

// maxOffset is the content size minus the container's size along its axis.
func maxOffset(el *Element) int {
	size := el.Bounds.Height()
	if el.Scroll.Axis == AxisHorizontal {
		size = el.Bounds.Width()
	}
	return max(0, el.Scroll.ContentSize-size)
}

// container picks the scroll container a drag from start moves: the
// deepest enabled one under start whose axis is the drag's dominant axis,
// else the deepest one the drag moves at all along its axis (a diagonal
// drag still scrolls a vertical list, a horizontal one does not).
func container(nodes []*placed, start, travel canonical.Point) *placed {
	along := func(axis string) float64 {
		if axis == AxisHorizontal {
			return travel.X
		}
		return travel.Y
	}
	dominant := AxisVertical
	if math.Abs(travel.X) > math.Abs(travel.Y) {
		dominant = AxisHorizontal
	}
	scrolls := func(want string) func(n *placed) bool {
		return func(n *placed) bool {
			s := n.el.Scroll
			return s != nil && n.el.Enabled && along(s.Axis) != 0 && (want == "" || s.Axis == want)
		}
	}
	if c := handlerAt(nodes, start, scrolls(dominant)); c != nil {
		return c
	}
	return handlerAt(nodes, start, scrolls(""))
}
