package sim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

// scrolls lists the offsets the app observed for container id, in order.
func (r *rig) scrolls(id string) []canonical.Point {
	r.t.Helper()
	var out []canonical.Point
	for _, line := range r.lines() {
		var ev struct {
			Element string
			Event   string
			Offset  *canonical.Point
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			r.t.Fatalf("bad log line %q: %v", line, err)
		}
		if ev.Element == id && ev.Event == "scroll" {
			out = append(out, *ev.Offset)
		}
	}
	return out
}

// lastY is the container's last observed vertical offset, 0 when it never
// scrolled.
func (r *rig) lastY(id string) float64 {
	s := r.scrolls(id)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].Y
}

// heldDrag moves 600 px up in 100 ms and rests holdMs before lifting.
func heldDrag(holdMs float64) func(t *testing.T) planner.Plan {
	return func(t *testing.T) planner.Plan {
		p, err := planner.Drag(planner.DragPoints{From: canonical.Point{X: 540, Y: 1800}, To: canonical.Point{X: 540, Y: 1200},
			SourceHoldMs: f(100), MoveMs: f(100), DestinationHoldMs: f(holdMs)}, phone())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func catalog(t *testing.T, opts sim.Options) *rig {
	r := newRig(t, opts)
	r.launch(shop)
	r.openLink("shop://catalog")
	return r
}

// TestFlingGoesFurtherThanSlowPan: the same 600 px of finger travel scrolls
// further the faster the finger leaves, and not at all further when it
// rested before lifting.
func TestFlingGoesFurtherThanSlowPan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		plan func(t *testing.T) planner.Plan
		want float64
	}{
		// 600 px in 100 ms leaves at 6 px/ms: 600 + 6 × 499.
		{"fling", func(t *testing.T) planner.Plan { return fling(t, 540, 1800, 540, 1200) }, 3594},
		// 600 px in 2 s leaves at 0.3 px/ms: 600 + 0.3 × 499 = 749.7.
		{"slow_pan", func(t *testing.T) planner.Plan { return pan(t, 540, 1800, 0, -600, 2000) }, 750},
		// 0.06 px/ms is below the minimum fling velocity: no throw.
		{"crawl", func(t *testing.T) planner.Plan { return pan(t, 540, 1800, 0, -600, 10000) }, 600},
		// A drag that rests 300 ms at the end releases with no velocity.
		{"drag_with_hold", func(t *testing.T) planner.Plan {
			p, err := planner.Drag(planner.DragPoints{From: canonical.Point{X: 540, Y: 1800}, To: canonical.Point{X: 540, Y: 1200},
				SourceHoldMs: f(100), MoveMs: f(100), DestinationHoldMs: f(300)}, phone())
			if err != nil {
				t.Fatal(err)
			}
			return p
		}, 600},
		// A 50 ms rest is longer than the 40 ms after which a finger counts
		// as stopped: no throw, though the 100 ms window still sees motion.
		{"drag_with_short_hold", heldDrag(50), 600},
		// After a 20 ms rest the last 100 ms still hold 80 ms of the 6 px/ms
		// move: 480 px / 100 ms = 4.8 px/ms, so 600 + 4.8 × 499 = 2995.2.
		{"drag_with_brief_hold", heldDrag(20), 2995},
		// A Maestro swipe on Android moves linearly for its whole 400 ms:
		// 600 + 1.5 × 499 = 1348.5, rounded half away from zero.
		{"maestro_swipe_android", func(t *testing.T) planner.Plan { return swipe(t, 540, 1800, 0, -600, 400, planner.Android) }, 1349},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := catalog(t, sim.Options{})
			r.gesture(tc.plan(t))
			if got := r.lastY("product_list"); got != tc.want {
				t.Fatalf("offset %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMaestroSwipeOnIOSHolds: on iOS the endpoint-hold profile reaches the
// end in 100 ms and rests, so a Maestro swipe moves exactly its travel,
// while a 100 ms fling still throws. The demo shop is in points there.
func TestMaestroSwipeOnIOSHolds(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{Platform: "ios"})
	r.gesture(swipe(t, 195, 650, 0, -200, 400, planner.IOS))
	if got := r.lastY("product_list"); got != 200 {
		t.Fatalf("swipe: offset %v, want 200", got)
	}
	// 200 pt in 100 ms: 2 pt/ms, thrown on for 2 × 499 = 998 pt.
	r.gesture(plan(t, canonical.Gesture{Intent: canonical.IntentFling, From: pt(195, 650), To: pt(195, 450)}, planner.IOS))
	if got := r.lastY("product_list"); got != 200+200+998 {
		t.Fatalf("fling: offset %v, want %v", got, 200+200+998)
	}
}

func TestScrollClampsAtContentEdges(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	r.gesture(fling(t, 540, 1200, 540, 1800)) // already at the top
	if len(r.scrolls("product_list")) != 0 {
		t.Fatal("flinging past the top moves nothing and is not observed")
	}
	for range 4 { // 300 px at 3 px/ms: 300 + 3 × 499 = 1797 each
		r.gesture(fling(t, 540, 1500, 540, 1200))
	}
	// 7200 px of content in a 1900 px list: the offset stops at 5300, and
	// the fourth fling, which moves nothing, is not observed.
	want := []canonical.Point{{Y: 1797}, {Y: 3594}, {Y: 5300}}
	if got := r.scrolls("product_list"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("offsets %v, want %v", got, want)
	}
	end := r.node("list_end")
	if end == nil || end.Bounds.Y != 400+7020-5300 {
		t.Fatalf("the last row sits at the bottom: %+v", end)
	}
	r.gesture(fling(t, 540, 600, 540, 2000))
	if got := r.lastY("product_list"); got != 0 || !r.has("product_00") {
		t.Fatalf("back to the top: %v", got)
	}
}

func TestHorizontalScroll(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://item/trail-running-shoes")
	if r.has("related_3") {
		t.Fatal("the fourth card starts off to the right")
	}
	r.gesture(pan(t, 540, 1640, 0, 300, 500)) // vertical: nothing on item scrolls vertically
	r.gesture(fling(t, 900, 1640, 300, 1640)) // finger left: content moves left
	got := r.scrolls("related")
	if len(got) != 1 || got[0] != (canonical.Point{X: 820}) {
		t.Fatalf("offsets %v, want one at x=820 (1900 - 1080)", got)
	}
	card := r.node("related_3")
	if card == nil || card.Bounds.X != 1140-820 {
		t.Fatalf("related_3 moved into view: %+v", card)
	}
	p, err := planner.Drag(planner.DragPoints{From: canonical.Point{X: 300, Y: 1640}, To: canonical.Point{X: 500, Y: 1640},
		DestinationHoldMs: f(200)}, phone())
	r.must(err)
	r.gesture(p)
	if got := r.scrolls("related"); got[len(got)-1] != (canonical.Point{X: 620}) {
		t.Fatalf("a held drag of 200 px right: %v", got)
	}
}

// TestDragAxisPicksContainer: a horizontal swipe on a vertical list moves
// nothing; a diagonal one scrolls it by its vertical part.
func TestDragAxisPicksContainer(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	r.gesture(fling(t, 900, 1500, 200, 1500))
	if len(r.scrolls("product_list")) != 0 {
		t.Fatal("a horizontal fling does not scroll a vertical list")
	}
	p, err := planner.Drag(planner.DragPoints{From: canonical.Point{X: 800, Y: 1600}, To: canonical.Point{X: 400, Y: 1300},
		DestinationHoldMs: f(100)}, phone())
	r.must(err)
	r.gesture(p)
	if got := r.lastY("product_list"); got != 300 {
		t.Fatalf("diagonal drag: offset %v, want 300", got)
	}
}

// TestGestureOffTheListMovesNothing: a drag that starts outside any scroll
// container scrolls nothing, even if it ends on one.
func TestGestureOffTheListMovesNothing(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	r.gesture(pan(t, 540, 300, 0, 1500, 300))
	if len(r.scrolls("product_list")) != 0 {
		t.Fatal("the drag started above the list")
	}
}
