package ios

import (
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Record names the runner gives its XCSynthesizedEventRecords; they appear in
// the runner's log, which is how live evidence tells the schedules apart.
const (
	RecordSwipe          = "flow-swipe"
	RecordGesturePlan    = "flow-gesture-plan"
	RecordContinuousDrag = "flow-continuous-drag"
	RecordTap            = "flow-tap"
)

// Runner timing constants (RunnerSynthesizedGesture.m).
const (
	// swipeMoveSeconds is fastSwipe's throw: XCTest's proven swipe reaches
	// the endpoint in 100 ms, and that speed is what lets UIKit tell a fling
	// from a timed pan.
	swipeMoveSeconds = 0.1
	tapLiftSeconds   = 0.05
	dragFrameMs      = 16.0
	dragMinFrames    = 3
	// The runner clamps a synthesized drag's duration to these bounds.
	dragMinDurationMs = 16.0
	dragMaxDurationMs = 10000.0
)

// EventType is one XCPointerEventPath call.
type EventType string

// The pointer path calls: initForTouchAtPoint:offset:, moveToPoint:atOffset:
// and liftUpAtOffset:.
const (
	EventTouch EventType = "touch"
	EventMove  EventType = "move"
	EventLift  EventType = "lift"
)

// PathEvent is one call on a finger's path. Offset is in seconds from the
// record's start, as XCTest takes it; Point is in native portrait space and
// absent for a lift, which has none.
type PathEvent struct {
	Type   EventType        `json:"type"`
	Offset float64          `json:"offset"`
	Point  *canonical.Point `json:"point,omitempty"`
}

// PointerPath is one finger: a touch, its moves and a lift.
type PointerPath struct {
	Events []PathEvent `json:"events"`
}

// EventRecord describes the XCSynthesizedEventRecord the runner synthesizes:
// its name, the interface orientation it is created with, and one path per
// finger.
type EventRecord struct {
	Name                 string        `json:"name"`
	InterfaceOrientation Orientation   `json:"interfaceOrientation"`
	Paths                []PointerPath `json:"paths"`
}

// AppState is what the runner reads from the live app when it synthesizes:
// the interface orientation, and the frame of the app window it resolves
// (resolveRunnerWindow). Coordinate schedules — fastSwipe, smoothstep, tap —
// convert against Window; sampled plans convert against their own viewport,
// which is what the planner and validation used. The two differ when the
// viewport was trimmed above a keyboard or supplied by the caller (Maestro's
// paired viewport); only in non-portrait orientations does a difference in
// size move a converted point.
type AppState struct {
	Orientation Orientation
	Window      canonical.Viewport
}

func touch(p canonical.Point, offset float64) PathEvent {
	return PathEvent{Type: EventTouch, Offset: offset, Point: &p}
}

func move(p canonical.Point, offset float64) PathEvent {
	return PathEvent{Type: EventMove, Offset: offset, Point: &p}
}

func lift(offset float64) PathEvent { return PathEvent{Type: EventLift, Offset: offset} }

func seconds(offsetMs int) float64 { return float64(offsetMs) / 1000 }

// Synthesize is the event record the runner builds for a validated plan
// (§6.4). A one-contact endpoint-hold plan gets fastSwipe: touch at the
// start, reach the end at 0.1 s, hold there for the planned duration, lift.
// Every other plan — timed pan, target-authored drag, every two-contact
// plan — is sampled: each finger's authored samples unchanged, holds as
// stationary moves. Points are converted to native space for app.Orientation.
func Synthesize(plan planner.Plan, app AppState) (EventRecord, error) {
	if err := validate(plan); err != nil {
		return EventRecord{}, err
	}
	if plan.Topology == planner.Single && plan.ExecutionProfile == canonical.ProfileEndpointHold {
		return fastSwipe(plan.Start(), plan.End(), float64(plan.DurationMs), app)
	}
	return sampled(plan, app.Orientation), nil
}

// fastSwipe uses only the plan's endpoints: the authored duration becomes
// the hold at the end, not the movement.
func fastSwipe(start, end canonical.Point, durationMs float64, app AppState) (EventRecord, error) {
	if !resolved(app.Window) {
		return EventRecord{}, unresolvedWindow("drag")
	}
	d := clampDuration(durationMs)
	path := PointerPath{Events: []PathEvent{
		touch(ToNative(start, app.Window, app.Orientation), 0),
		move(ToNative(end, app.Window, app.Orientation), swipeMoveSeconds),
		lift(swipeMoveSeconds + d/1000),
	}}
	return EventRecord{Name: RecordSwipe, InterfaceOrientation: app.Orientation, Paths: []PointerPath{path}}, nil
}

func sampled(plan planner.Plan, o Orientation) EventRecord {
	paths := make([]PointerPath, len(plan.Pointers))
	for i, ptr := range plan.Pointers {
		s := ptr.Samples
		events := make([]PathEvent, 0, len(s)+1)
		events = append(events, touch(ToNative(s[0].Point, plan.Viewport, o), seconds(s[0].OffsetMs)))
		for _, sample := range s[1:] {
			events = append(events, move(ToNative(sample.Point, plan.Viewport, o), seconds(sample.OffsetMs)))
		}
		events = append(events, lift(seconds(s[len(s)-1].OffsetMs)))
		paths[i] = PointerPath{Events: events}
	}
	return EventRecord{Name: RecordGesturePlan, InterfaceOrientation: o, Paths: paths}
}

// SmoothstepDrag is the runner's coordinate drag (the drag command and its
// AX-free fallbacks): about one move per 16 ms, frames max(3, trunc(d/16)),
// positioned by smoothstep s(t) = 3t² − 2t³ at d·i/frames, then a lift at d.
// Unlike a planned linear segment, smoothstep starts and ends with zero
// slope and peaks at 1.5 times the average speed, so identical endpoints
// and durations release differently; that is why plans never use it.
// durationMs is clamped to 16..10000 as the runner does.
func SmoothstepDrag(start, end canonical.Point, durationMs float64, app AppState) (EventRecord, error) {
	if !finitePoint(start) || !finitePoint(end) {
		return EventRecord{}, canonical.NewError(canonical.CodeInvalidArgs, "drag requires finite coordinates").
			WithHint("pass finite x, y, x2 and y2 values")
	}
	if !canonical.IsFinite(durationMs) {
		return EventRecord{}, canonical.NewError(canonical.CodeInvalidArgs, "drag durationMs must be a finite number").
			WithHint("pass a duration in milliseconds between 16 and 10000")
	}
	if !resolved(app.Window) {
		return EventRecord{}, unresolvedWindow("drag")
	}
	d := clampDuration(durationMs)
	s, e := ToNative(start, app.Window, app.Orientation), ToNative(end, app.Window, app.Orientation)
	frames := max(dragMinFrames, int(d/dragFrameMs))
	total := d / 1000
	events := make([]PathEvent, 0, frames+2)
	events = append(events, touch(s, 0))
	for i := 1; i <= frames; i++ {
		t := float64(i) / float64(frames)
		// Same expression and order as the runner, t*t*(3-2t), with the
		// products kept unfused.
		eased := float64(t*t) * float64(3-float64(2*t))
		p := canonical.Point{X: s.X + float64((e.X-s.X)*eased), Y: s.Y + float64((e.Y-s.Y)*eased)}
		events = append(events, move(p, float64(total*t)))
	}
	events = append(events, lift(total))
	return EventRecord{Name: RecordContinuousDrag, InterfaceOrientation: app.Orientation,
		Paths: []PointerPath{{Events: events}}}, nil
}

// Tap is the runner's synthesized tap: touch, lift 50 ms later.
func Tap(p canonical.Point, app AppState) (EventRecord, error) {
	if !finitePoint(p) {
		return EventRecord{}, canonical.NewError(canonical.CodeInvalidArgs, "synthesized coordinate tap requires finite coordinates").
			WithHint("pass finite x and y values")
	}
	if !resolved(app.Window) {
		return EventRecord{}, unresolvedWindow("tap")
	}
	path := PointerPath{Events: []PathEvent{touch(ToNative(p, app.Window, app.Orientation), 0), lift(tapLiftSeconds)}}
	return EventRecord{Name: RecordTap, InterfaceOrientation: app.Orientation, Paths: []PointerPath{path}}, nil
}

func clampDuration(d float64) float64 { return min(max(d, dragMinDurationMs), dragMaxDurationMs) }

func finitePoint(p canonical.Point) bool { return canonical.IsFinite(p.X) && canonical.IsFinite(p.Y) }

// resolved reports whether a window frame can anchor a coordinate
// conversion: without one the runner refuses rather than guessing a frame.
func resolved(w canonical.Viewport) bool {
	return canonical.IsFinite(w.X) && canonical.IsFinite(w.Y) && canonical.IsFinite(w.Width) &&
		canonical.IsFinite(w.Height) && w.Width > 0 && w.Height > 0
}

func unresolvedWindow(kind string) *canonical.Error {
	return canonical.Errorf(canonical.CodeUnsupportedOperation,
		"synthesized coordinate %s could not resolve an app window with a finite screen frame", kind).
		WithHint("retry after the app is foregrounded, or use a plain screenshot to choose coordinates")
}
