package android_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/planner"
)

// renderSchedule is the snapshot form of a schedule: one line per injected
// event, with its action code, so a reviewer reads a changed event as a
// one-line diff.
func renderSchedule(events []android.MotionEvent) string {
	var b strings.Builder
	for _, e := range events {
		wait := "async"
		if e.WaitForDispatch {
			wait = "sync"
		}
		fmt.Fprintf(&b, "%6dms %-12s 0x%03x sample=%-3d %-5s", e.OffsetMs, e.Action, int(e.Action), e.SampleIndex, wait)
		for _, c := range e.Pointers {
			fmt.Fprintf(&b, " p%d(%v, %v)", c.ID, c.X, c.Y)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestScheduleSnapshots(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		snaps.MatchSnapshot(t, renderSchedule(android.Schedule(lower(t, plan))))
	})
}

// step is the description PointerEventScheduleTest.java asserts:
// action:sampleIndex:pointerCount:offsetMs:waitForDispatch.
func step(e android.MotionEvent) string {
	return fmt.Sprintf("%s:%d:%d:%d:%t", e.Action, e.SampleIndex, len(e.Pointers), e.OffsetMs, e.WaitForDispatch)
}

// The helper's own unit test of its two-pointer schedule.
func TestScheduleMatchesHelperFixture(t *testing.T) {
	tp := lower(t, validTwo()) // offsets 0, 16, 32
	want := []string{
		"DOWN:0:1:0:true",
		"POINTER_DOWN:0:2:8:true",
		"MOVE:1:2:16:false",
		"MOVE:2:2:32:true",
		"POINTER_UP:2:2:32:true",
		"UP:2:1:40:true",
	}
	events := android.Schedule(tp)
	var got []string
	for _, e := range events {
		got = append(got, step(e))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("schedule\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	codes := []android.Action{0, 0x105, 2, 2, 0x106, 1}
	for i, e := range events {
		if e.Action != codes[i] {
			t.Errorf("event %d action %#x, want %#x", i, int(e.Action), int(codes[i]))
		}
	}
}

// A second contact that lands at 1 ms still lands after the first, and one
// that would land after the first move is pulled before it.
func TestSchedulePointerDownOffset(t *testing.T) {
	for _, c := range []struct{ firstMove, want int }{{2, 1}, {5, 4}, {9, 8}, {16, 8}, {31, 8}} {
		plan := validTwo()
		plan.Pointers[0].Samples[1].OffsetMs = c.firstMove
		plan.Pointers[1].Samples[1].OffsetMs = c.firstMove
		events := android.Schedule(lower(t, plan))
		if events[1].Action != android.ActionPointerDown || events[1].OffsetMs != c.want {
			t.Errorf("first move at %d ms: %s, want POINTER_DOWN at %d ms", c.firstMove, step(events[1]), c.want)
		}
	}
}

func TestScheduleInvariants(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		tp := lower(t, plan)
		ptrs := tp.Pointers()
		events := android.Schedule(tp)
		n, count := len(ptrs[0].Samples), len(ptrs)
		wantEvents := n + 1
		if count == 2 {
			wantEvents = n + 3
		}
		if len(events) != wantEvents {
			t.Fatalf("%d events for %d pointers of %d samples, want %d", len(events), count, n, wantEvents)
		}
		if first := events[0]; first.Action != android.ActionDown || first.OffsetMs != 0 || len(first.Pointers) != 1 {
			t.Errorf("first event %s, want DOWN of pointer 0 at 0 ms", step(first))
		}
		if last := events[len(events)-1]; last.Action != android.ActionUp || len(last.Pointers) != 1 || last.SampleIndex != n-1 {
			t.Errorf("last event %s, want UP of pointer 0 at its last sample", step(last))
		}
		moves := 0
		for i, e := range events {
			if i > 0 && e.OffsetMs < events[i-1].OffsetMs {
				t.Errorf("event %d at %d ms goes back in time", i, e.OffsetMs)
			}
			for _, c := range e.Pointers {
				s := ptrs[c.ID].Samples[e.SampleIndex]
				if c.X != float32(s.X) || c.Y != float32(s.Y) {
					t.Errorf("event %d pointer %d at (%v,%v), sample is (%v,%v)", i, c.ID, c.X, c.Y, s.X, s.Y)
				}
			}
			if e.Action == android.ActionMove {
				moves++
				if e.OffsetMs != ptrs[0].Samples[e.SampleIndex].OffsetMs || len(e.Pointers) != count {
					t.Errorf("move %s does not carry every pointer at its sample's offset", step(e))
				}
			}
		}
		if moves != n-1 {
			t.Errorf("%d moves for %d samples", moves, n)
		}
		if count == 2 {
			up := events[len(events)-1]
			if up.OffsetMs != tp.DurationMs()+8 {
				t.Errorf("two-pointer UP at %d ms, want %d", up.OffsetMs, tp.DurationMs()+8)
			}
		}
	})
}

// Injected coordinates are Java floats: the schedule reports what the
// device receives, not the payload's doubles.
func TestScheduleCoordinatesAreFloat32(t *testing.T) {
	plan := validSingle()
	plan.Pointers[0].Samples[0].Point = canonical.Point{X: 213.6, Y: 1000.1}
	events := android.Schedule(lower(t, plan))
	if got := events[0].Pointers[0]; float64(got.X) == 213.6 || got.X != float32(213.6) || got.Y != float32(1000.1) {
		t.Fatalf("DOWN at (%v,%v), want the float32 of (213.6, 1000.1)", got.X, got.Y)
	}
}
