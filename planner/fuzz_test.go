package planner_test

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// FuzzGesture feeds arbitrary numbers to every intent: planning never
// panics, and every outcome satisfies the plan invariants.
func FuzzGesture(fz *testing.F) {
	fz.Add(uint8(0), 200.0, 420.0, 0.0, -80.0, 500.0, 0.5, 35.0, 390.0, 844.0, uint8(1))
	fz.Add(uint8(3), 1.0, 1.0, 1e308, 1e308, 16.0, 1e-300, 1e300, 1e-3, 1e9, uint8(0))
	fz.Add(uint8(5), -5.0, 0.0, 3.0, 4.0, 10000.0, 2.0, -720.0, 320.0, 320.0, uint8(2))
	fz.Fuzz(func(t *testing.T, kind uint8, x, y, dx, dy, dur, scale, deg, w, h float64, plat uint8) {
		vp := canonical.Viewport{Width: w, Height: h}
		platform := []planner.Platform{planner.Android, planner.IOS, planner.Web}[int(plat)%3]
		var g canonical.Gesture
		switch kind % 7 {
		case 0:
			g = canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(x, y), Delta: pt(dx, dy), DurationMs: &dur}
		case 1:
			g = canonical.Gesture{Intent: canonical.IntentPan, PointerCount: f(2), Origin: pt(x, y), Delta: pt(dx, dy), DurationMs: &dur}
		case 2:
			g = canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionDown, Origin: pt(x, y), Distance: &dx}
		case 3:
			g = canonical.Gesture{Intent: canonical.IntentPinch, Scale: &scale, Origin: pt(x, y)}
		case 4:
			g = canonical.Gesture{Intent: canonical.IntentRotate, Degrees: &deg, Origin: pt(x, y)}
		case 5:
			g = canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(x, y), Delta: pt(dx, dy), Scale: &scale, Degrees: &deg, DurationMs: &dur}
		default:
			g = canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetLeftEdge}
		}
		checkPlan(t, g, vp, platform)
	})
}
