package planner_test

import (
	"math"

	"github.com/flow-runner/flow/canonical"
)

// gestureFromIntentJSON reads a planner intent as agent-device's planGesture
// takes it ({"intent":"pinch","scale":0.5,...}). It is how the fixture and
// the side-by-side benchmark feed internal seams (fling from/to, pan with
// endpoint-hold) that public input cannot express. Non-numbers become NaN so
// the planner refuses them as agent-device does.
func gestureFromIntentJSON(m map[string]any) canonical.Gesture {
	g := canonical.Gesture{Intent: canonical.Intent(str(m["intent"]))}
	g.Origin, g.Delta = pointOf(m, "origin"), pointOf(m, "delta")
	g.From, g.To = pointOf(m, "from"), pointOf(m, "to")
	g.Direction = canonical.Direction(str(m["direction"]))
	g.Preset = canonical.Preset(str(m["preset"]))
	if _, ok := m["preset"]; ok && g.Preset == "" {
		g.Preset = "?"
	}
	g.Distance, g.PointerCount, g.DurationMs = numOf(m, "distance"), numOf(m, "pointerCount"), numOf(m, "durationMs")
	g.Scale, g.Degrees = numOf(m, "scale"), numOf(m, "degrees")
	g.ExecutionProfile = canonical.ExecutionProfile(str(m["executionProfile"]))
	return g
}

func str(v any) string { s, _ := v.(string); return s }

func numOf(m map[string]any, k string) *float64 {
	v, ok := m[k]
	if !ok || v == nil {
		return nil
	}
	f, ok := v.(float64)
	if !ok {
		f = math.NaN()
	}
	return &f
}

func pointOf(m map[string]any, k string) *canonical.Point {
	v, ok := m[k]
	if !ok || v == nil {
		return nil
	}
	p, _ := v.(map[string]any)
	x, y := math.NaN(), math.NaN()
	if f, ok := p["x"].(float64); ok {
		x = f
	}
	if f, ok := p["y"].(float64); ok {
		y = f
	}
	return &canonical.Point{X: x, Y: y}
}

func viewportOf(v any) canonical.Viewport {
	m, _ := v.(map[string]any)
	get := func(k string) float64 {
		if f, ok := m[k].(float64); ok {
			return f
		}
		return math.NaN()
	}
	return canonical.Viewport{X: get("x"), Y: get("y"), Width: get("width"), Height: get("height")}
}
