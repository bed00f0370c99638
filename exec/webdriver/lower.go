package webdriver

import (
	"encoding/json"
	"strconv"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Options tunes the lowering. The zero value produces exactly the §7 body
// agent-device sends. Interpolating long segments for drivers that do not
// interpolate a pointerMove themselves (chromedriver) will be a field here,
// off by default.
type Options struct{}

// Actions is the body of POST /session/:id/actions.
type Actions struct {
	Actions []Source `json:"actions"`
}

// Source is one W3C input source: one finger.
type Source struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	Parameters Parameters      `json:"parameters"`
	Actions    []PointerAction `json:"actions"`
}

// Parameters of a pointer source.
type Parameters struct {
	PointerType string `json:"pointerType"`
}

// ActionType is a W3C pointer action.
type ActionType string

// The pointer actions a gesture uses.
const (
	PointerMove ActionType = "pointerMove"
	PointerDown ActionType = "pointerDown"
	PointerUp   ActionType = "pointerUp"
)

// PointerAction is one tick of a pointer source. A pointerMove carries
// Duration (ms) and X/Y; pointerDown and pointerUp carry Button.
type PointerAction struct {
	Type     ActionType
	Duration int
	X, Y     float64
	Button   int
}

// The wire shapes of the two action kinds, in §7 key order. Separate structs
// rather than omitempty, because duration 0 and button 0 must be sent.
type moveJSON struct {
	Type     ActionType `json:"type"`
	Duration int        `json:"duration"`
	X        float64    `json:"x"`
	Y        float64    `json:"y"`
}

type buttonJSON struct {
	Type   ActionType `json:"type"`
	Button int        `json:"button"`
}

// MarshalJSON writes only the fields that belong to the action's type.
func (a PointerAction) MarshalJSON() ([]byte, error) {
	if a.Type == PointerMove {
		return json.Marshal(moveJSON{Type: a.Type, Duration: a.Duration, X: a.X, Y: a.Y})
	}
	return json.Marshal(buttonJSON{Type: a.Type, Button: a.Button})
}

// W3C constants of a touch gesture.
const (
	sourceType   = "pointer"
	pointerTouch = "touch"
	sourcePrefix = "gesture-pointer-"
	primary      = 0 // touch contacts press the primary button
)

// Operation is the provider capability a plan needs (§7): cloud WebDriver
// providers mark the multi-touch ones unsupported by default, so the caller
// checks it before lowering.
type Operation string

// The provider operations of §7.
const (
	OperationSwipe            Operation = "swipe"
	OperationTransformGesture Operation = "transformGesture"
	OperationPinch            Operation = "pinch"
	OperationRotateGesture    Operation = "rotateGesture"
)

// RequiredOperation is the capability a plan needs: every one-contact plan
// is a swipe, a two-contact plan needs the operation of its intent.
func RequiredOperation(plan planner.Plan) Operation {
	if plan.Topology == planner.Single {
		return OperationSwipe
	}
	switch plan.Intent {
	case canonical.IntentPinch:
		return OperationPinch
	case canonical.IntentRotate:
		return OperationRotateGesture
	}
	return OperationTransformGesture
}

// LowerActions turns a plan into synchronized W3C pointer sources: per
// pointer, a zero-duration move to the first sample, pointerDown, one
// pointerMove per later sample lasting the offset difference, pointerUp.
// Coordinates pass through unrounded. A one-contact endpoint plan is
// therefore one timed move; a drag's holds are stationary moves. The
// execution profile is ignored, as on every driver that interpolates itself.
func LowerActions(plan planner.Plan, _ Options) (Actions, error) {
	if err := validate(plan); err != nil {
		return Actions{}, err
	}
	sources := make([]Source, len(plan.Pointers))
	for i, ptr := range plan.Pointers {
		s := ptr.Samples
		actions := make([]PointerAction, 0, len(s)+2)
		actions = append(actions,
			PointerAction{Type: PointerMove, Duration: 0, X: s[0].Point.X, Y: s[0].Point.Y},
			PointerAction{Type: PointerDown, Button: primary})
		for j := 1; j < len(s); j++ {
			actions = append(actions, PointerAction{Type: PointerMove, Duration: s[j].OffsetMs - s[j-1].OffsetMs,
				X: s[j].Point.X, Y: s[j].Point.Y})
		}
		actions = append(actions, PointerAction{Type: PointerUp, Button: primary})
		sources[i] = Source{Type: sourceType, ID: sourcePrefix + strconv.Itoa(ptr.PointerID),
			Parameters: Parameters{PointerType: pointerTouch}, Actions: actions}
	}
	return Actions{Actions: sources}, nil
}

func refusal(msg string) *canonical.Error {
	return canonical.NewError(canonical.CodeInvalidArgs, msg).
		WithHint("plan the gesture with the planner: WebDriver would reject or misalign these pointer actions")
}

// validate refuses plans whose actions a driver would reject or run out of
// step: negative durations, sources with different tick counts, or
// coordinates JSON cannot carry. agent-device trusts its planner here; flow
// checks so a hand-built or corrupted plan fails before any HTTP request.
func validate(plan planner.Plan) error {
	want := 0
	switch plan.Topology {
	case planner.Single:
		want = 1
	case planner.Two:
		want = 2
	default:
		return refusal("webdriver gesture topology must be single or two")
	}
	if len(plan.Pointers) != want {
		return refusal("webdriver gesture pointer count does not match topology")
	}
	first := plan.Pointers[0].Samples
	for i, ptr := range plan.Pointers {
		if ptr.PointerID != i {
			return refusal("webdriver gesture requires pointer ids ordered from 0")
		}
		if len(ptr.Samples) < 2 {
			return refusal("webdriver gesture pointer paths require at least two samples")
		}
		if len(ptr.Samples) != len(first) {
			return refusal("webdriver gesture pointer paths require matching samples")
		}
		for j, s := range ptr.Samples {
			if s.OffsetMs != first[j].OffsetMs || (j > 0 && s.OffsetMs <= ptr.Samples[j-1].OffsetMs) {
				return refusal("webdriver gesture sample offsets must match and strictly increase")
			}
			if !canonical.IsFinite(s.Point.X) || !canonical.IsFinite(s.Point.Y) {
				return refusal("webdriver gesture sample coordinates must be finite")
			}
		}
		if ptr.Samples[0].OffsetMs != 0 || ptr.Samples[len(ptr.Samples)-1].OffsetMs != plan.DurationMs {
			return refusal("webdriver gesture pointer paths must start at 0 and end at durationMs")
		}
	}
	return nil
}
