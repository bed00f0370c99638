package webdriver_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

const frame = 1000.0 / 60

// chromedriver is the lowering a local Chromium session uses for
// one-contact plans with the default calibration; chromedriverFor picks the
// two-contact one (no slop) when the plan needs it.
func chromedriver() webdriver.Options {
	return webdriver.Options{Interpolate: true, TickCostMs: frame, LeadMs: frame, SlopPx: 15, SlopCostMs: frame, IntegerPoints: true}
}

func chromedriverFor(plan planner.Plan) webdriver.Options {
	if plan.Topology == planner.Two {
		return webdriver.Options{Interpolate: true, TickCostMs: frame, IntegerPoints: true}
	}
	return chromedriver()
}

// posAt is the plan's position of every pointer at offset t, interpolated
// linearly between samples: the trajectory the ticks must stay on.
func posAt(plan planner.Plan, t float64) []canonical.Point {
	out := make([]canonical.Point, len(plan.Pointers))
	for i, p := range plan.Pointers {
		s := p.Samples
		j := 1
		for j < len(s)-1 && float64(s[j].OffsetMs) < t {
			j++
		}
		a, b := s[j-1], s[j]
		u := math.Min(1, (t-float64(a.OffsetMs))/float64(b.OffsetMs-a.OffsetMs))
		out[i] = canonical.Point{X: a.Point.X + (b.Point.X-a.Point.X)*u, Y: a.Point.Y + (b.Point.Y-a.Point.Y)*u}
	}
	return out
}

// checkTicks holds for every schedule: times increase and end at the plan's
// end, every move lies on the planned trajectory, the last tick lands
// exactly on the last samples, durations are never negative, and the
// lowered sources have equal tick counts.
func checkTicks(t *testing.T, plan planner.Plan, o webdriver.Options, ticks []webdriver.Tick) {
	t.Helper()
	if len(ticks) == 0 {
		t.Fatal("no ticks")
	}
	prev := 0.0
	for i, tk := range ticks {
		if tk.AtMs <= prev || tk.DurationMs < 0 {
			t.Fatalf("tick %d at %.3f after %.3f, duration %d", i, tk.AtMs, prev, tk.DurationMs)
		}
		prev = tk.AtMs
		if tk.Pause {
			continue
		}
		want := posAt(plan, tk.AtMs)
		for p := range want {
			if math.Abs(tk.Points[p].X-want[p].X) > 1e-9 || math.Abs(tk.Points[p].Y-want[p].Y) > 1e-9 {
				t.Fatalf("tick %d pointer %d at %v, off the trajectory (%v at %.3f ms)", i, p, tk.Points[p], want[p], tk.AtMs)
			}
		}
	}
	last := ticks[len(ticks)-1]
	if last.AtMs != float64(plan.DurationMs) {
		t.Fatalf("the last tick is at %.3f, the plan ends at %d", last.AtMs, plan.DurationMs)
	}
	if !last.Pause {
		for p, ptr := range plan.Pointers {
			if last.Points[p] != ptr.Samples[len(ptr.Samples)-1].Point {
				t.Fatalf("pointer %d ends at %v, the plan at %v", p, last.Points[p], ptr.Samples[len(ptr.Samples)-1].Point)
			}
		}
	}
	a, err := webdriver.LowerActions(plan, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range a.Actions {
		if len(src.Actions) != len(ticks)+3 {
			t.Fatalf("source %s has %d actions for %d ticks", src.ID, len(src.Actions), len(ticks))
		}
	}
}

func totalDuration(ticks []webdriver.Tick) int {
	n := 0
	for _, tk := range ticks {
		n += tk.DurationMs
	}
	return n
}

// With no costs to budget, the durations of every schedule add up to the
// plan's duration exactly, and moves are about a frame apart.
func TestScheduleWithoutCostsKeepsThePlannedDuration(t *testing.T) {
	o := webdriver.Options{Interpolate: true}
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		ticks := webdriver.Schedule(plan, o)
		checkTicks(t, plan, o, ticks)
		if got := totalDuration(ticks); got != plan.DurationMs {
			t.Errorf("durations add up to %d ms, the plan lasts %d", got, plan.DurationMs)
		}
		if math.Abs(webdriver.ExpectedMs(ticks)-float64(plan.DurationMs)) > 1e-9 {
			t.Errorf("expected %.3f ms for a %d ms plan", webdriver.ExpectedMs(ticks), plan.DurationMs)
		}
		for _, tk := range ticks {
			if !tk.Pause && tk.DurationMs > 25 {
				t.Errorf("a move tick lasts %d ms; moves should be about a frame apart", tk.DurationMs)
			}
		}
	})
}

// With chromedriver's costs, the expected time on the page is the planned
// duration: the costs are subtracted from the ticks' durations.
func TestScheduleBudgetsTheMeasuredCosts(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		o := chromedriverFor(plan)
		ticks := webdriver.Schedule(plan, o)
		checkTicks(t, plan, o, ticks)
		got := webdriver.ExpectedMs(ticks)
		if math.Abs(got-float64(plan.DurationMs)) > frame/2+1 {
			t.Errorf("expected %.1f ms on the page for a %d ms plan", got, plan.DurationMs)
		}
	})
}

func panPlan(t *testing.T, ms, dx, dy float64) planner.Plan {
	t.Helper()
	p, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 600), Delta: pt(dx, dy), DurationMs: f(ms)},
		canonical.Viewport{Width: 390, Height: 844}, planner.Web)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The budget of a 500 ms, 300 px pan with the costs a session measured,
// where touch-action is not none (no slop cost): the lead (29 ms) and 28
// one-frame ticks fill the 500 ms, every tick is sent with a duration of
// (nearly) 0 and the driver's own frame paces it.
func TestScheduleBudgetExample(t *testing.T) {
	o := chromedriver()
	o.LeadMs = 29
	o.SlopCostMs = 0
	plan := panPlan(t, 500, 0, -300)
	ticks := webdriver.Schedule(plan, o)
	if len(ticks) != 28 {
		t.Errorf("%d ticks, want round((500-29)/16.67) = 28", len(ticks))
	}
	for i, tk := range ticks {
		if tk.DurationMs > 3 {
			t.Errorf("tick %d lasts %d ms; the frame is the tick", i, tk.DurationMs)
		}
	}
	if got := webdriver.ExpectedMs(ticks); math.Abs(got-500) > 1 {
		t.Errorf("expected %.1f ms", got)
	}
	if first := ticks[0].CostMs; math.Abs(first-(29+frame)) > 1 {
		t.Errorf("the first tick costs %.1f ms, want the lead plus a frame", first)
	}
}

// A driver that keeps time itself and costs 2 ms a tick: one tick a frame,
// each lasting the frame less the 2 ms.
func TestScheduleCheapDriver(t *testing.T) {
	o := webdriver.Options{Interpolate: true, TickCostMs: 2}
	plan := panPlan(t, 500, 0, -300)
	ticks := webdriver.Schedule(plan, o)
	checkTicks(t, plan, o, ticks)
	if len(ticks) != 30 {
		t.Errorf("%d ticks, want 30", len(ticks))
	}
	if got := totalDuration(ticks); got < 440-1 || got > 440+1 {
		t.Errorf("durations add up to %d ms, want 500 - 30×2", got)
	}
}

// A slow drag on a truncating driver: ticks that would not change the
// pixel sent are merged, so every sent move is a real move, and ticks
// inside the touch slop are budgeted a frame more.
func TestScheduleSlowDragOnWholePixels(t *testing.T) {
	o := chromedriver()
	plan := panPlan(t, 1000, 0, -40)
	ticks := webdriver.Schedule(plan, o)
	checkTicks(t, plan, o, ticks)
	if len(ticks) >= 60 {
		t.Errorf("%d ticks for a 40 px drag; ticks that do not change the pixel must merge", len(ticks))
	}
	prev := math.Trunc(plan.Start().Y)
	slop := 0
	for i, tk := range ticks[:len(ticks)-1] {
		y := math.Trunc(tk.Points[0].Y)
		if y == prev {
			t.Errorf("tick %d does not change the pixel (%v)", i, y)
		}
		prev = y
		if math.Abs(tk.Points[0].Y-plan.Start().Y) <= 15 {
			slop++
			if tk.CostMs < 2*frame-1e-9 {
				t.Errorf("tick %d inside the slop costs %.1f ms, want two frames at least", i, tk.CostMs)
			}
		}
	}
	if slop == 0 {
		t.Errorf("no tick inside the slop")
	}
	if got := webdriver.ExpectedMs(ticks); math.Abs(got-1000) > frame/2+1 {
		t.Errorf("expected %.1f ms", got)
	}
	// Where touch-action is not none, moves in the slop cost nothing extra.
	o.SlopCostMs = 0
	if got := webdriver.ExpectedMs(webdriver.Schedule(plan, o)); math.Abs(got-1000) > frame/2+1 {
		t.Errorf("without slop costs: expected %.1f ms", got)
	}
}

// A drag's holds are one pause each; its move is interpolated.
func TestScheduleDragHoldsArePauses(t *testing.T) {
	plan, err := planner.Drag(planner.DragPoints{From: canonical.Point{X: 100, Y: 300}, To: canonical.Point{X: 300, Y: 650},
		SourceHoldMs: f(300), MoveMs: f(200), DestinationHoldMs: f(100)}, canonical.Viewport{Width: 390, Height: 844})
	if err != nil {
		t.Fatal(err)
	}
	o := webdriver.Options{Interpolate: true}
	ticks := webdriver.Schedule(plan, o)
	checkTicks(t, plan, o, ticks)
	if !ticks[0].Pause || ticks[0].DurationMs != 300 || !ticks[len(ticks)-1].Pause || ticks[len(ticks)-1].DurationMs != 100 {
		t.Errorf("holds: first %+v, last %+v", ticks[0], ticks[len(ticks)-1])
	}
	moves := ticks[1 : len(ticks)-1]
	if len(moves) != 12 {
		t.Errorf("%d moves over 200 ms, want 12", len(moves))
	}
	a, err := webdriver.LowerActions(plan, o)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(a.Actions[0].Actions[2])
	if string(data) != `{"type":"pause","duration":300}` {
		t.Errorf("the hold is sent as %s", data)
	}
}

// With whole-pixel pacing the pointer that travels furthest is sent last,
// because chromedriver waits only for the last source's move.
func TestSourceOrderPutsTheFurthestPointerLast(t *testing.T) {
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 210), Delta: pt(30, 20),
		Scale: f(1.4), Degrees: f(40), DurationMs: f(1000)}, canonical.Viewport{Width: 390, Height: 844}, planner.Web)
	if err != nil {
		t.Fatal(err)
	}
	travel := func(p planner.Pointer) float64 {
		d := 0.0
		for j := 1; j < len(p.Samples); j++ {
			d += math.Hypot(p.Samples[j].Point.X-p.Samples[j-1].Point.X, p.Samples[j].Point.Y-p.Samples[j-1].Point.Y)
		}
		return d
	}
	far := 1
	if travel(plan.Pointers[0]) > travel(plan.Pointers[1]) {
		far = 0
	}
	got := webdriver.SourceOrder(plan, chromedriver())
	if got[1] != far {
		t.Errorf("order %v; pointer %d travels furthest", got, far)
	}
	if got := webdriver.SourceOrder(plan, webdriver.Options{Interpolate: true}); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("without whole-pixel pacing the order is %v", got)
	}
	a, err := webdriver.LowerActions(plan, chromedriver())
	if err != nil {
		t.Fatal(err)
	}
	if a.Actions[1].ID != "gesture-pointer-"+string(rune('0'+far)) {
		t.Errorf("last source %s", a.Actions[1].ID)
	}
}

// The interpolated bodies a local Chromium session sends with the default
// calibration, pinned for the 390×844 phone.
func TestLowerActionsInterpolatedSnapshots(t *testing.T) {
	for _, c := range everyIntent() {
		t.Run(c.Name, func(t *testing.T) {
			plan, err := c.Plan(device{Name: "web", Platform: planner.Web, Viewport: canonical.Viewport{Width: 390, Height: 844}})
			if err != nil {
				t.Fatal(err)
			}
			a, err := webdriver.LowerActions(plan, chromedriverFor(plan))
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			snaps.MatchSnapshot(t, strings.ReplaceAll(wireLines(data), `,{"type":"pause"`, ",\n  "+`{"type":"pause"`))
		})
	}
}
