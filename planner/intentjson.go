package planner

import (
	"math"

	"github.com/flow-runner/flow/canonical"
)

// DecodeIntent reads a planner intent in agent-device's wire form
// ({"intent":"pinch","scale":0.5,...}), as decoded by canonical.DecodeJSON.
// It is NOT a public input surface (public input goes through
// canonical.NormalizeGesture, which refuses executionProfile): the
// agreement fixture and the side-by-side benchmark use it to feed internal
// seams such as fling from/to and the endpoint-hold pan. Non-numbers become
// NaN so the planner refuses them as agent-device's planner does.
func DecodeIntent(m map[string]any) canonical.Gesture {
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

// DecodeViewport reads {"x","y","width","height"}; a missing or non-numeric
// field becomes NaN, which the planner refuses with agent-device's message.
func DecodeViewport(v any) canonical.Viewport {
	m, _ := v.(map[string]any)
	get := func(k string) float64 {
		if f, ok := m[k].(float64); ok {
			return f
		}
		return math.NaN()
	}
	return canonical.Viewport{X: get("x"), Y: get("y"), Width: get("width"), Height: get("height")}
}
