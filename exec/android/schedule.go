package android

import "fmt"

// Action is a MotionEvent action code as the helper passes it to
// MotionEvent.obtain.
type Action int

// The MotionEvent actions of §5.2. The pointer transitions carry pointer
// index 1 in bits 8..15 (ACTION_POINTER_INDEX_SHIFT): the second finger is
// always the one that lands late and lifts early.
const (
	ActionDown        Action = 0
	ActionUp          Action = 1
	ActionMove        Action = 2
	ActionCancel      Action = 3 // sent by the helper only when injection fails midway
	ActionPointerDown Action = 0x105
	ActionPointerUp   Action = 0x106
)

func (a Action) String() string {
	switch a {
	case ActionDown:
		return "DOWN"
	case ActionUp:
		return "UP"
	case ActionMove:
		return "MOVE"
	case ActionCancel:
		return "CANCEL"
	case ActionPointerDown:
		return "POINTER_DOWN"
	case ActionPointerUp:
		return "POINTER_UP"
	}
	return fmt.Sprintf("Action(%#x)", int(a))
}

// pointerTransitionDelayMs separates the second finger's landing and lifting
// from the first's, so recognizers see two distinct contacts rather than one
// event with two pointers appearing at once.
const pointerTransitionDelayMs = 8

// Coords is one pointer inside a MotionEvent. The helper stores coordinates
// as Java floats, so they are float32 here: what the device receives, not
// what the payload said.
type Coords struct {
	ID int     `json:"id"`
	X  float32 `json:"x"`
	Y  float32 `json:"y"`
}

// MotionEvent is one event the helper injects (PointerEventSchedule and
// TouchPlanInjector). Its event time is downTime + OffsetMs; every event is a
// finger on a touchscreen (source 0x1002) with pressure and size 1.
type MotionEvent struct {
	OffsetMs    int      `json:"offsetMs"`
	Action      Action   `json:"action"`
	SampleIndex int      `json:"sampleIndex"`
	Pointers    []Coords `json:"pointers"`
	// WaitForDispatch is injectInputEvent's sync argument. Two-pointer
	// moves do not wait (except the last) so that the helper keeps its
	// cadence instead of stalling on every frame.
	WaitForDispatch bool `json:"waitForDispatch"`
}

// Schedule is the MotionEvent sequence the helper injects for a plan:
// DOWN with pointer 0, for two pointers POINTER_DOWN shortly after, one MOVE
// per later sample, for two pointers POINTER_UP at the last sample, then UP
// (8 ms later for two pointers). It has N+1 events for one pointer of N
// samples and N+3 for two. The zero TransportPlan schedules nothing.
func Schedule(p TransportPlan) []MotionEvent {
	count := len(p.pointers)
	if count == 0 {
		return nil
	}
	offsets := make([]int, len(p.pointers[0].Samples))
	for i, s := range p.pointers[0].Samples {
		offsets[i] = s.OffsetMs
	}
	last := len(offsets) - 1
	events := make([]MotionEvent, 0, len(offsets)+2*count-1)
	add := func(action Action, sample, pointers, offset int, wait bool) {
		events = append(events, MotionEvent{OffsetMs: offset, Action: action, SampleIndex: sample,
			Pointers: coordsAt(p.pointers[:pointers], sample), WaitForDispatch: wait})
	}
	add(ActionDown, 0, 1, 0, true)
	if count == 2 {
		add(ActionPointerDown, 0, 2, max(1, min(pointerTransitionDelayMs, offsets[1]-1)), true)
	}
	for i := 1; i <= last; i++ {
		add(ActionMove, i, count, offsets[i], count == 1 || i == last)
	}
	upOffset := offsets[last]
	if count == 2 {
		add(ActionPointerUp, last, 2, offsets[last], true)
		upOffset += pointerTransitionDelayMs
	}
	add(ActionUp, last, 1, upOffset, true)
	return events
}

func coordsAt(pointers []Pointer, sample int) []Coords {
	out := make([]Coords, len(pointers))
	for i, ptr := range pointers {
		s := ptr.Samples[sample]
		out[i] = Coords{ID: i, X: float32(s.X), Y: float32(s.Y)}
	}
	return out
}
