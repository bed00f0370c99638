package sim_test

import (
	"math"
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

// TestPlanOutsideViewportRefused: a plan for a bigger screen (valid for
// its own viewport) must not reach the sim's smaller one.
func TestPlanOutsideViewportRefused(t *testing.T) {
	t.Parallel()
	r := demo(t)
	tablet := canonical.Viewport{Width: 2000, Height: 3000}
	p, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(1500, 2800), Delta: pt(0, -500)}, tablet, planner.Android)
	r.must(err)
	before := r.clock.Now()
	err = r.dev.PerformGesture(r.ctx, p)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Reason() != canonical.ReasonOutOfBounds {
		t.Fatalf("want INVALID_ARGS %s, got %#v", canonical.ReasonOutOfBounds, err)
	}
	if r.clock.Now() != before || len(r.lines()) != 1 {
		t.Fatal("a refused plan takes no time and moves nothing")
	}
	snaps.MatchJSON(t, err)
}

func TestMalformedPlansRefused(t *testing.T) {
	t.Parallel()
	good := func() planner.Plan { return pan(t, 540, 1800, 0, -600, 500) }
	two := func() planner.Plan {
		return plan(t, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)}, planner.Android)
	}
	for _, tc := range []struct {
		name   string
		plan   func() planner.Plan
		reason string
	}{
		{"non_finite", func() planner.Plan { p := good(); p.Pointers[0].Samples[1].Point.X = math.NaN(); return p }, canonical.ReasonNonFinite},
		{"negative", func() planner.Plan { p := good(); p.Pointers[0].Samples[0].Point.Y = -1; return p }, canonical.ReasonOutOfBounds},
		{"on_right_edge", func() planner.Plan { p := good(); p.Pointers[0].Samples[0].Point.X = 1080; return p }, canonical.ReasonOutOfBounds},
		{"second_pointer_off_screen", func() planner.Plan { p := two(); p.Pointers[1].Samples[3].Point.Y = 2400; return p }, canonical.ReasonOutOfBounds},
		{"no_pointers", func() planner.Plan { p := good(); p.Pointers = nil; return p }, ""},
		{"topology_mismatch", func() planner.Plan { p := two(); p.Topology = planner.Single; return p }, ""},
		{"one_sample", func() planner.Plan { p := good(); p.Pointers[0].Samples = p.Pointers[0].Samples[:1]; return p }, ""},
		{"time_runs_back", func() planner.Plan { p := good(); p.Pointers[0].Samples[1].OffsetMs = -5; return p }, ""},
		{"past_duration", func() planner.Plan { p := good(); p.Pointers[0].Samples[1].OffsetMs = 900; return p }, ""},
		{"unsynchronized", func() planner.Plan { p := two(); p.Pointers[1].Samples = p.Pointers[1].Samples[1:]; return p }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := catalog(t, sim.Options{})
			err := r.dev.PerformGesture(r.ctx, tc.plan())
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Reason() != tc.reason || ce.Hint == "" {
				t.Fatalf("want INVALID_ARGS (reason %q) with a hint, got %#v", tc.reason, err)
			}
			if len(r.scrolls("product_list")) != 0 {
				t.Fatal("nothing moves")
			}
		})
	}
}

func TestGestureAdvancesClockByDuration(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	before := r.clock.Now()
	r.gesture(pan(t, 540, 1800, 0, -600, 1234))
	if got := r.clock.Now().Sub(before); got != 1234*time.Millisecond {
		t.Fatalf("the pan took %v", got)
	}
}
