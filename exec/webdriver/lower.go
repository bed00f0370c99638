package webdriver

import (
	"encoding/json"
	"strconv"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Options tunes the lowering. The zero value produces exactly the §7 body
// agent-device sends: one timed pointerMove per planned segment, which a
// driver that interpolates a move itself turns into a smooth gesture.
//
// chromedriver does not interpolate: it jumps to a move's target at the
// start of the tick and then waits the duration out, and every tick that
// moves a touch costs about a frame on top of its duration
// (webdriver-chromium.md). Interpolate makes the lowering produce the
// intermediate moves itself and budget them with measured costs, so the page
// observes the planned duration. The other fields apply only with
// Interpolate.
type Options struct {
	// Interpolate resamples every moving stretch of the plan into ticks at
	// least StepMs apart, on the plan's own piecewise-linear trajectory,
	// and lowers every stretch where no contact moves to one pause.
	Interpolate bool
	// StepMs is the shortest interval between two moves; 0 means one frame
	// at 60 Hz (16.67 ms).
	StepMs float64
	// TickCostMs is the measured cost of a move tick of duration 0: the
	// driver's own time per tick (one frame on chromedriver). It is
	// subtracted from each tick's duration, and no tick is planned shorter
	// than it.
	TickCostMs float64
	// LeadMs is a measured fixed cost paid once, between pointerDown and the
	// first move of the gesture (Chromium spends an extra frame on the
	// first touchmove it delivers).
	LeadMs float64
	// SlopPx and SlopCostMs model touch slop: until pointer 0 first moves
	// further than SlopPx from where it went down, each move tick costs
	// SlopCostMs more (Chromium suppresses those touchmoves and spends an
	// extra frame on each). Zero disables the model.
	SlopPx, SlopCostMs float64
	// IntegerPoints models a driver that truncates coordinates to whole
	// pixels and waits for a frame only when the last source's position
	// changed in a tick (chromedriver: the other sources' touches are
	// dispatched without waiting, and a move to where a touch already is
	// costs nothing). A tick that would change no contact's pixel is merged
	// into the next; a tick in which only an earlier contact changes is
	// merged too, unless that would hold the contact still for more than
	// three frames, and then it costs only its duration. The contact that
	// travels furthest is sent as the last source (see SourceOrder).
	IntegerPoints bool
}

// frameMs is one frame at 60 Hz, the default interval between moves.
const frameMs = 1000.0 / 60

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
	Pause       ActionType = "pause"
)

// PointerAction is one tick of a pointer source. A pointerMove carries
// Duration (ms) and X/Y; pointerDown and pointerUp carry Button; a pause
// carries Duration.
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

type pauseJSON struct {
	Type     ActionType `json:"type"`
	Duration int        `json:"duration"`
}

// MarshalJSON writes only the fields that belong to the action's type.
func (a PointerAction) MarshalJSON() ([]byte, error) {
	switch a.Type {
	case PointerMove:
		return json.Marshal(moveJSON{Type: a.Type, Duration: a.Duration, X: a.X, Y: a.Y})
	case Pause:
		return json.Marshal(pauseJSON{Type: a.Type, Duration: a.Duration})
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
// pointer, a zero-duration move to the first sample, pointerDown, then the
// ticks, then pointerUp. With the zero Options there is one pointerMove per
// later sample lasting the offset difference, coordinates unrounded: a
// one-contact endpoint plan is one timed move and a drag's holds are
// stationary moves. The execution profile is ignored, as on every driver
// that interpolates itself. With Options.Interpolate the ticks come from
// [Schedule] instead.
func LowerActions(plan planner.Plan, opts Options) (Actions, error) {
	if err := validate(plan); err != nil {
		return Actions{}, err
	}
	if opts.Interpolate {
		return fromTicks(plan, Schedule(plan, opts), SourceOrder(plan, opts)), nil
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
		sources[i] = newSource(ptr.PointerID, actions)
	}
	return Actions{Actions: sources}, nil
}

func newSource(id int, actions []PointerAction) Source {
	return Source{Type: sourceType, ID: sourcePrefix + strconv.Itoa(id),
		Parameters: Parameters{PointerType: pointerTouch}, Actions: actions}
}

// fromTicks builds one source per pointer from a schedule, in the given
// order: every source gets the same ticks, so the contacts of a
// two-contact plan move together.
func fromTicks(plan planner.Plan, ticks []Tick, order []int) Actions {
	sources := make([]Source, 0, len(plan.Pointers))
	for _, i := range order {
		ptr := plan.Pointers[i]
		first := ptr.Samples[0].Point
		actions := make([]PointerAction, 0, len(ticks)+3)
		actions = append(actions,
			PointerAction{Type: PointerMove, Duration: 0, X: first.X, Y: first.Y},
			PointerAction{Type: PointerDown, Button: primary})
		for _, t := range ticks {
			if t.Pause {
				actions = append(actions, PointerAction{Type: Pause, Duration: t.DurationMs})
				continue
			}
			p := t.Points[i]
			actions = append(actions, PointerAction{Type: PointerMove, Duration: t.DurationMs, X: p.X, Y: p.Y})
		}
		actions = append(actions, PointerAction{Type: PointerUp, Button: primary})
		sources = append(sources, newSource(ptr.PointerID, actions))
	}
	return Actions{Actions: sources}
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
