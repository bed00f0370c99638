package sim_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

func item(t *testing.T, opts sim.Options) *rig {
	r := newRig(t, opts)
	r.launch(shop)
	r.openLink("shop://item/trail-running-shoes")
	return r
}

// observedSince is the log after its first n lines.
func (r *rig) observedSince(n int) string { return strings.Join(r.lines()[n:], "\n") }

func TestPinchAndRotateZoomable(t *testing.T) {
	t.Parallel()
	for _, platform := range []planner.Platform{planner.Android, planner.IOS} {
		t.Run(string(platform), func(t *testing.T) {
			t.Parallel()
			r := item(t, sim.Options{Platform: string(platform)})
			photo := r.centre("product_photo")
			before := len(r.lines())
			shot := r.shot()
			for _, g := range []canonical.Gesture{
				{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: &photo},
				{Intent: canonical.IntentPinch, Scale: f(3), Origin: &photo},
				{Intent: canonical.IntentRotate, Degrees: f(45), Origin: &photo},
				{Intent: canonical.IntentRotate, Degrees: f(-90), Origin: &photo},
				{Intent: canonical.IntentRotate, Degrees: f(270), Origin: &photo},
				{Intent: canonical.IntentTransform, Origin: &photo, Delta: pt(40, -30), Scale: f(0.8), Degrees: f(30), DurationMs: f(400)},
			} {
				r.gesture(plan(t, g, platform))
			}
			// Each gesture lasts its planned duration on the clock: 300 ms
			// pinches, rotations 16 ms per 3° (at least 300 ms).
			want := strings.Join([]string{
				`{"t":500,"type":"observed","element":"product_photo","event":"pinch","scale":0.5}`,
				`{"t":800,"type":"observed","element":"product_photo","event":"pinch","scale":1.5}`,
				`{"t":1100,"type":"observed","element":"product_photo","event":"rotate","rotation":45}`,
				`{"t":1580,"type":"observed","element":"product_photo","event":"rotate","rotation":-45}`,
				`{"t":3020,"type":"observed","element":"product_photo","event":"rotate","rotation":225}`,
				`{"t":3420,"type":"observed","element":"product_photo","event":"pinch","scale":1.2}`,
				`{"t":3420,"type":"observed","element":"product_photo","event":"rotate","rotation":255}`,
			}, "\n")
			if got := r.observedSince(before); got != want {
				t.Fatalf("observations:\n%s\nwant:\n%s", got, want)
			}
			if string(r.shot()) == string(shot) {
				t.Fatal("the screenshot shows the zoom state")
			}
		})
	}
}

// TestTwoFingerPanScrolls: with no zoomable element under the fingers, a
// two-finger pan moves the list like one finger at their centroid.
func TestTwoFingerPanScrolls(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	r.gesture(plan(t, canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(540, 1500), Delta: pt(0, -600),
		PointerCount: f(2), DurationMs: f(500)}, planner.Android))
	// 600 px at 1.2 px/ms: 600 + 1.2 × 499 = 1198.8.
	if got := r.lastY("product_list"); got != 1199 {
		t.Fatalf("offset %v, want 1199", got)
	}
	before := len(r.lines())
	r.gesture(plan(t, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(540, 1500)}, planner.Android))
	if len(r.lines()) != before {
		t.Fatalf("a pinch on a list changes nothing:\n%s", r.observedSince(before))
	}
}
