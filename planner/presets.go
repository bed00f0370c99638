package planner

import (
	"math"

	"github.com/flow-runner/flow/canonical"
)

// presetEdgeMargin keeps preset swipe points 8 px from the viewport edges.
const presetEdgeMargin = 8

// presetPoints resolves a "gesture swipe" preset in viewport-relative
// percentages, then offsets by the viewport origin.
func presetPoints(p canonical.Preset, v canonical.Viewport) (from, to canonical.Point) {
	var x1, x2 float64
	switch p {
	case canonical.PresetLeft:
		x1, x2 = 85, 15
	case canonical.PresetRight:
		x1, x2 = 15, 85
	case canonical.PresetLeftEdge:
		x1, x2 = 99, 15
	default: // right-edge
		x1, x2 = 1, 85
	}
	a := clampToMargin(percentOf(v, x1, 50), v)
	b := clampToMargin(percentOf(v, x2, 50), v)
	return canonical.Point{X: v.X + a.X, Y: v.Y + a.Y}, canonical.Point{X: v.X + b.X, Y: v.Y + b.Y}
}

// percentOf multiplies before dividing and truncates, as agent-device does.
func percentOf(v canonical.Viewport, px, py float64) canonical.Point {
	x := math.Trunc(float64(v.Width*px) / 100)
	y := math.Trunc(float64(v.Height*py) / 100)
	if !canonical.IsFinite(x) {
		x = 0
	}
	if !canonical.IsFinite(y) {
		y = 0
	}
	return canonical.Point{X: x, Y: y}
}

func clampToMargin(p canonical.Point, v canonical.Viewport) canonical.Point {
	return canonical.Point{X: clampAxis(p.X, v.Width), Y: clampAxis(p.Y, v.Height)}
}

func clampAxis(value, ref float64) float64 {
	lo := canonical.JSRound(presetEdgeMargin)
	hi := math.Max(lo, canonical.JSRound(ref-presetEdgeMargin))
	if !canonical.IsFinite(hi) || !canonical.IsFinite(value) {
		return lo
	}
	return math.Min(hi, math.Max(lo, canonical.JSRound(value)))
}
