package sim

import (
	"math"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Changes smaller than these are float noise in a plan that meant none (a
// rotate keeps its span, a pinch its angle) and are not observed.
const (
	scaleEpsilon    = 1e-6
	rotationEpsilon = 1e-6
)

// twoFinger applies a two-contact plan. On a zoomable element under the
// first centroid the element's scale is multiplied by finalSpan/initialSpan
// and its rotation grows by the angle the contacts turned through (summed
// frame by frame, so turns past 180° count in full). Elsewhere the centroid
// pans like one finger, as a two-finger drag scrolls on both platforms.
func (d *Device) twoFinger(proc *process, nodes []*placed, plan planner.Plan) {
	a, b := plan.Pointers[0].Samples, plan.Pointers[1].Samples
	centroid := func(i int) canonical.Point {
		return canonical.Point{X: (a[i].Point.X + b[i].Point.X) / 2, Y: (a[i].Point.Y + b[i].Point.Y) / 2}
	}
	z := handlerAt(nodes, centroid(0), func(n *placed) bool { return n.el.Zoomable && n.el.Enabled })
	if z == nil {
		tr := make([]timed, len(a))
		for i := range a {
			tr[i] = timed{float64(a[i].OffsetMs), centroid(i)}
		}
		d.scroll(proc, nodes, tr)
		return
	}
	last := len(a) - 1
	ratio := 1.0
	if s0 := span(a[0].Point, b[0].Point); s0 > 0 {
		ratio = span(a[last].Point, b[last].Point) / s0
	}
	turned := 0.0
	for i := 1; i <= last; i++ {
		turned += normalizeDegrees(angle(a[i].Point, b[i].Point) - angle(a[i-1].Point, b[i-1].Point))
	}
	st := z.st
	if math.Abs(ratio-1) > scaleEpsilon {
		st.scale *= ratio
		d.observe(z.el, "pinch", map[string]any{"scale": round(st.scale, 4)})
	}
	if math.Abs(turned) > rotationEpsilon {
		st.rotation += turned
		d.observe(z.el, "rotate", map[string]any{"rotation": round(st.rotation, 2)})
	}
}

func span(p, q canonical.Point) float64 { return math.Hypot(q.X-p.X, q.Y-p.Y) }

// angle is the direction from p to q in degrees, clockwise on screen.
func angle(p, q canonical.Point) float64 { return math.Atan2(q.Y-p.Y, q.X-p.X) * 180 / math.Pi }

// normalizeDegrees maps a frame's turn into (-180, 180].
func normalizeDegrees(deg float64) float64 {
	deg = math.Mod(deg, 360)
	switch {
	case deg > 180:
		deg -= 360
	case deg <= -180:
		deg += 360
	}
	return deg
}

// round keeps digits decimals, so logged values read 0.5, not 0.49999999.
func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	r := math.Round(v*p) / p
	if r == 0 {
		return 0 // no "-0" in the log
	}
	return r
}
