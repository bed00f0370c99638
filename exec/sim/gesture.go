package sim

import (
	"context"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// PerformGesture replays a planned gesture. One contact pans or flings the
// scroll container under its first point; two contacts pinch and rotate
// the zoomable element under their first centroid, or pan like one finger
// where there is none. The clock advances by the plan's duration. A plan
// that leaves the screen is refused before anything moves: the planner
// already guarantees this, and sim checks again against its own viewport.
func (d *Device) PerformGesture(ctx context.Context, plan planner.Plan) error {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return err
	}
	if err := checkPlan(plan, d.viewport()); err != nil {
		return err
	}
	if err := d.spend(ctx, plan.DurationMs); err != nil {
		return err
	}
	proc := d.front
	if proc == nil {
		return nil
	}
	nodes := layout(proc, d.clock.Now())
	if len(plan.Pointers) == 1 {
		d.scroll(proc, nodes, trajectory(plan, d.platform()))
		return nil
	}
	d.twoFinger(proc, nodes, plan)
	return nil
}

// checkPlan refuses malformed plans and any sample off the screen.
func checkPlan(plan planner.Plan, vp canonical.Viewport) error {
	want := map[planner.Topology]int{planner.Single: 1, planner.Two: 2}[plan.Topology]
	if want == 0 || len(plan.Pointers) != want {
		return badPlan("gesture plan has topology %q and %d pointers", plan.Topology, len(plan.Pointers))
	}
	first := plan.Pointers[0].Samples
	for id, ptr := range plan.Pointers {
		s := ptr.Samples
		if len(s) < 2 {
			return badPlan("pointer %d of the gesture plan has %d samples; a trajectory needs at least 2", id, len(s))
		}
		if want == 2 && len(s) != len(first) {
			return badPlan("the two pointers of the gesture plan have %d and %d samples; they must be synchronized", len(first), len(s))
		}
		prev := 0
		for i, smp := range s {
			if smp.OffsetMs < prev || smp.OffsetMs > plan.DurationMs || (want == 2 && smp.OffsetMs != first[i].OffsetMs) {
				return badPlan("sample %d of pointer %d is at %d ms, out of order in a %d ms plan", i, id, smp.OffsetMs, plan.DurationMs)
			}
			prev = smp.OffsetMs
			if err := checkSample(smp, id, plan.Intent, vp); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkSample(s planner.Sample, pointerID int, intent canonical.Intent, vp canonical.Viewport) error {
	p := s.Point
	if !canonical.IsFinite(p.X) || !canonical.IsFinite(p.Y) {
		return canonical.NewError(canonical.CodeInvalidArgs, "gesture plan has a non-finite pointer coordinate").
			WithHint("reduce the requested rotation, translation or scale").
			With("intent", intent).With("pointerId", pointerID).With("reason", canonical.ReasonNonFinite)
	}
	if p.X < vp.X || p.Y < vp.Y || p.X >= vp.X+vp.Width || p.Y >= vp.Y+vp.Height {
		return canonical.Errorf(canonical.CodeInvalidArgs, "gesture sample (%g, %g) lies outside the %gx%g sim screen", p.X, p.Y, vp.Width, vp.Height).
			WithHint("plan the gesture against the sim's own viewport; move it away from the edge or make it smaller").
			With("intent", intent).With("pointerId", pointerID).With("viewport", vp).With("sample", s).
			With("reason", canonical.ReasonOutOfBounds)
	}
	return nil
}

func badPlan(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).
		WithHint("pass plans made by the planner (planner.Gesture, planner.Drag) unchanged")
}
