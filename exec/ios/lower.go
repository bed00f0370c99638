package ios

import (
	"math"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// CommandGesture is the runner command that performs a canonical plan.
const CommandGesture = "gesture"

// RunnerRequest is the body of POST /command for a planned gesture (§6.2).
// The plan travels whole, viewport and execution profile included, because
// the runner picks its schedule from the profile and converts points against
// the viewport. The transport adds commandId when it sends the request.
type RunnerRequest struct {
	Command     string       `json:"command"`
	GesturePlan planner.Plan `json:"gesturePlan"`
	// AppBundleID is omitted when empty, as JSON.stringify omits an
	// undefined bundle id: the runner then targets the app in front.
	AppBundleID string `json:"appBundleId,omitempty"`
}

// LowerRequest builds the runner request for a one- or two-contact plan
// after checking it with the runner's own rules. It does not apply the
// simulator-only multi-touch gate: that is a capability of the device, which
// the caller admits before lowering.
func LowerRequest(plan planner.Plan, appBundleID string) (RunnerRequest, error) {
	if err := validate(plan); err != nil {
		return RunnerRequest{}, err
	}
	return RunnerRequest{Command: CommandGesture, GesturePlan: plan, AppBundleID: appBundleID}, nil
}

// The runner's duration limits for a planned gesture.
const (
	runnerMinDurationMs = 16
	runnerMaxDurationMs = 10000
)

func runnerRefusal(msg string, plan planner.Plan) *canonical.Error {
	return canonical.NewError(canonical.CodeInvalidArgs, msg).
		With("intent", string(plan.Intent)).
		WithHint("plan the gesture with the planner: the iOS runner would refuse this plan")
}

// validate is the runner's plannedGestureValidationError, check for check
// and in its order, with its messages. It is looser than the planner in one
// way on purpose: samples may touch the viewport edges (inclusive, no
// 1-point inset), so a valid plan is never refused for rounding at the edge.
func validate(plan planner.Plan) error {
	if plan.Topology != planner.Single && plan.Topology != planner.Two {
		return runnerRefusal("planned gesture topology must be single or two", plan)
	}
	if !intentFits(plan) {
		return runnerRefusal("planned gesture has unsupported intent for its topology", plan)
	}
	if plan.Topology == planner.Single {
		if plan.ExecutionProfile != canonical.ProfileEndpointHold && plan.ExecutionProfile != canonical.ProfileTimedPan {
			return runnerRefusal("single-pointer gesture requires a supported execution profile", plan)
		}
	} else if plan.ExecutionProfile != "" {
		return runnerRefusal("multi-touch gesture cannot define a single-pointer execution profile", plan)
	}
	if plan.DurationMs < runnerMinDurationMs || plan.DurationMs > runnerMaxDurationMs {
		return runnerRefusal("planned gesture durationMs must be between 16 and 10000", plan)
	}
	vp := plan.Viewport
	if !canonical.IsFinite(vp.X) || !canonical.IsFinite(vp.Y) || !canonical.IsFinite(vp.Width) ||
		!canonical.IsFinite(vp.Height) || vp.Width <= 0 || vp.Height <= 0 {
		return runnerRefusal("planned gesture viewport must be finite and positive", plan)
	}
	want := 1
	if plan.Topology == planner.Two {
		want = 2
	}
	if len(plan.Pointers) != want {
		return runnerRefusal("planned gesture pointer count does not match topology", plan)
	}
	for i, ptr := range plan.Pointers {
		if ptr.PointerID != i {
			return runnerRefusal("planned gesture requires ordered pointer ids", plan)
		}
	}
	first := plan.Pointers[0].Samples
	if len(first) < 2 {
		return runnerRefusal("planned pointer paths require at least two samples", plan)
	}
	for _, ptr := range plan.Pointers {
		if len(ptr.Samples) != len(first) {
			return runnerRefusal("planned pointer paths require matching samples", plan)
		}
		previous := -1
		for i, s := range ptr.Samples {
			if s.OffsetMs != first[i].OffsetMs || s.OffsetMs <= previous {
				return runnerRefusal("planned pointer sample offsets must match and strictly increase", plan)
			}
			// Written so that NaN fails every comparison and lands outside.
			p := s.Point
			if !(p.X >= vp.X && p.X <= vp.X+vp.Width && p.Y >= vp.Y && p.Y <= vp.Y+vp.Height) {
				return runnerRefusal("planned pointer sample lies outside the viewport", plan).
					With("pointerId", ptr.PointerID).With("sample", s)
			}
			previous = s.OffsetMs
		}
		if ptr.Samples[0].OffsetMs != 0 || ptr.Samples[len(ptr.Samples)-1].OffsetMs != plan.DurationMs {
			return runnerRefusal("planned pointer paths must start at 0 and end at durationMs", plan)
		}
	}
	if plan.Topology == planner.Two {
		a, b := first[0].Point, plan.Pointers[1].Samples[0].Point
		if !(math.Hypot(a.X-b.X, a.Y-b.Y) > 0) {
			return runnerRefusal("planned pointer paths require a positive initial span", plan)
		}
	}
	return nil
}

func intentFits(plan planner.Plan) bool {
	switch plan.Intent {
	case canonical.IntentFling:
		return plan.Topology == planner.Single
	case canonical.IntentPan:
		return true
	case canonical.IntentPinch, canonical.IntentRotate, canonical.IntentTransform:
		return plan.Topology == planner.Two
	}
	return false
}
