package webdriver_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

func lower(t *testing.T, plan planner.Plan) webdriver.Actions {
	t.Helper()
	a, err := webdriver.LowerActions(plan, webdriver.Options{})
	if err != nil {
		t.Fatalf("LowerActions: %v", err)
	}
	return a
}

func body(t *testing.T, a webdriver.Actions) string {
	t.Helper()
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestLowerActionsSnapshots(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		snaps.MatchSnapshot(t, wireLines([]byte(body(t, lower(t, plan)))))
	})
}

// The one-contact example of agent-device §7, byte for byte.
func TestLowerActionsPresetFlingExample(t *testing.T) {
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetLeft},
		canonical.Viewport{Width: 390, Height: 844}, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"actions":[{"type":"pointer","id":"gesture-pointer-0","parameters":{"pointerType":"touch"},` +
		`"actions":[{"type":"pointerMove","duration":0,"x":331,"y":422},{"type":"pointerDown","button":0},` +
		`{"type":"pointerMove","duration":100,"x":58,"y":422},{"type":"pointerUp","button":0}]}]}`
	if got := body(t, lower(t, plan)); got != want {
		t.Fatalf("body\n got %s\nwant %s", got, want)
	}
}

// The two-contact example of §7: a 100 ms two-finger pan planned for iOS.
// Two-contact points come from trigonometry, which V8 and Go may round
// differently in the last bit, so they are compared to 1e-9.
func TestLowerActionsTwoFingerPanExample(t *testing.T) {
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(80, -40),
		PointerCount: f(2), DurationMs: f(100)}, canonical.Viewport{Width: 390, Height: 844}, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	a := lower(t, plan)
	type tick struct {
		duration int
		x, y     float64
	}
	want := map[int][]tick{
		0: {{0, 200, 371.25}, {17, 213.6, 364.45}, {16, 226.4, 358.05}, {17, 240, 351.25}, {17, 253.6, 344.45}, {16, 266.4, 338.05}, {17, 280, 331.25}},
		1: {{0, 200, 468.75}, {17, 213.6, 461.95}, {}, {}, {}, {}, {17, 280, 428.75}},
	}
	for id, ticks := range want {
		src := a.Actions[id]
		if src.ID != "gesture-pointer-"+string(rune('0'+id)) || len(src.Actions) != 9 {
			t.Fatalf("source %d: %s with %d actions", id, src.ID, len(src.Actions))
		}
		moves := []webdriver.PointerAction{src.Actions[0]}
		moves = append(moves, src.Actions[2:8]...)
		for i, w := range ticks {
			if w == (tick{}) {
				continue // §7 elides these
			}
			m := moves[i]
			if m.Type != webdriver.PointerMove || m.Duration != w.duration || math.Abs(m.X-w.x) > 1e-9 || math.Abs(m.Y-w.y) > 1e-9 {
				t.Errorf("source %d move %d: %+v, want %+v", id, i, m, w)
			}
		}
	}
}

// A target-authored drag: the source hold is a stationary timed move.
func TestLowerActionsDragExample(t *testing.T) {
	from, to := canonical.Point{X: 100, Y: 300}, canonical.Point{X: 300, Y: 650}
	plan, err := planner.Drag(planner.DragPoints{From: from, To: to}, canonical.Viewport{Width: 390, Height: 844})
	if err != nil {
		t.Fatal(err)
	}
	acts := lower(t, plan).Actions[0].Actions
	want := []webdriver.PointerAction{
		{Type: webdriver.PointerMove, Duration: 0, X: from.X, Y: from.Y},
		{Type: webdriver.PointerDown},
		{Type: webdriver.PointerMove, Duration: 800, X: from.X, Y: from.Y},
		{Type: webdriver.PointerMove, Duration: 500, X: to.X, Y: to.Y},
		{Type: webdriver.PointerUp},
	}
	if len(acts) != len(want) {
		t.Fatalf("%d actions, want %d: %+v", len(acts), len(want), acts)
	}
	for i := range want {
		if acts[i] != want[i] {
			t.Errorf("action %d: %+v, want %+v", i, acts[i], want[i])
		}
	}
}

func TestLowerActionsInvariants(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		a := lower(t, plan)
		if len(a.Actions) != len(plan.Pointers) {
			t.Fatalf("%d sources for %d pointers", len(a.Actions), len(plan.Pointers))
		}
		ticks := len(a.Actions[0].Actions)
		for i, src := range a.Actions {
			if src.Type != "pointer" || src.Parameters.PointerType != "touch" || src.ID != "gesture-pointer-"+string(rune('0'+i)) {
				t.Errorf("source %d: %s %s %s", i, src.Type, src.ID, src.Parameters.PointerType)
			}
			// Equal tick counts keep the two fingers on the same W3C ticks.
			if len(src.Actions) != ticks {
				t.Errorf("source %d has %d ticks, source 0 has %d", i, len(src.Actions), ticks)
			}
			acts := src.Actions
			if acts[0].Type != webdriver.PointerMove || acts[0].Duration != 0 ||
				acts[1].Type != webdriver.PointerDown || acts[len(acts)-1].Type != webdriver.PointerUp {
				t.Errorf("source %d is not move(0), down, ..., up: %+v", i, acts)
			}
			samples := plan.Pointers[i].Samples
			if len(acts) != len(samples)+2 {
				t.Errorf("source %d: %d actions for %d samples", i, len(acts), len(samples))
			}
			total := 0
			for j, act := range append(acts[:1:1], acts[2:len(acts)-1]...) {
				if act.Type != webdriver.PointerMove || act.Duration < 0 {
					t.Errorf("source %d tick %d: %+v", i, j, act)
				}
				total += act.Duration
				// Unrounded: each move lands exactly on its sample.
				if act.X != samples[j].Point.X || act.Y != samples[j].Point.Y {
					t.Errorf("source %d tick %d at (%v,%v), sample at %v", i, j, act.X, act.Y, samples[j].Point)
				}
			}
			if total != plan.DurationMs {
				t.Errorf("source %d durations sum to %d ms, plan lasts %d", i, total, plan.DurationMs)
			}
		}
	})
}

func TestRequiredOperation(t *testing.T) {
	want := map[string]webdriver.Operation{
		"pan_one_pointer": webdriver.OperationSwipe, "pan_one_pointer_endpoint_hold": webdriver.OperationSwipe,
		"pan_two_pointers": webdriver.OperationTransformGesture, "fling_direction_up": webdriver.OperationSwipe,
		"fling_preset_left": webdriver.OperationSwipe, "fling_from_to": webdriver.OperationSwipe,
		"pinch_in": webdriver.OperationPinch, "rotate_45": webdriver.OperationRotateGesture,
		"transform": webdriver.OperationTransformGesture, "drag_without_destination_hold": webdriver.OperationSwipe,
		"drag_with_destination_hold": webdriver.OperationSwipe,
	}
	for _, d := range devices() {
		for _, c := range everyIntent() {
			plan, err := c.Plan(d)
			if err != nil {
				t.Fatal(err)
			}
			if got := webdriver.RequiredOperation(plan); got != want[c.Name] {
				t.Errorf("%s/%s: %s, want %s", d.Name, c.Name, got, want[c.Name])
			}
		}
	}
}

func validTwo() planner.Plan {
	p0 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 380}}, {OffsetMs: 20, Point: canonical.Point{X: 210, Y: 370}},
		{OffsetMs: 40, Point: canonical.Point{X: 220, Y: 360}}}
	p1 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 460}}, {OffsetMs: 20, Point: canonical.Point{X: 210, Y: 450}},
		{OffsetMs: 40, Point: canonical.Point{X: 220, Y: 440}}}
	return planner.Plan{Topology: planner.Two, Intent: canonical.IntentPan, DurationMs: 40,
		Viewport: canonical.Viewport{Width: 390, Height: 844},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: p0}, {PointerID: 1, Samples: p1}}}
}

func TestLowerActionsRejectsMalformedPlans(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutate func(p *planner.Plan)
		want   string
	}{
		{"unknown_topology", func(p *planner.Plan) { p.Topology = "" }, "webdriver gesture topology must be single or two"},
		{"single_with_two_pointers", func(p *planner.Plan) { p.Topology = planner.Single },
			"webdriver gesture pointer count does not match topology"},
		{"pointer_ids_swapped", func(p *planner.Plan) { p.Pointers[0].PointerID, p.Pointers[1].PointerID = 1, 0 },
			"webdriver gesture requires pointer ids ordered from 0"},
		{"one_sample", func(p *planner.Plan) {
			p.Pointers[0].Samples = p.Pointers[0].Samples[:1]
			p.Pointers[1].Samples = p.Pointers[1].Samples[:1]
		}, "webdriver gesture pointer paths require at least two samples"},
		{"sample_counts_differ", func(p *planner.Plan) { p.Pointers[1].Samples = p.Pointers[1].Samples[:2] },
			"webdriver gesture pointer paths require matching samples"},
		{"offsets_differ", func(p *planner.Plan) { p.Pointers[1].Samples[1].OffsetMs = 21 },
			"webdriver gesture sample offsets must match and strictly increase"},
		{"time_goes_back", func(p *planner.Plan) {
			p.Pointers[0].Samples[1].OffsetMs = 50
			p.Pointers[1].Samples[1].OffsetMs = 50
		}, "webdriver gesture sample offsets must match and strictly increase"},
		{"nan_coordinate", func(p *planner.Plan) { p.Pointers[1].Samples[2].Point.X = math.NaN() },
			"webdriver gesture sample coordinates must be finite"},
		{"late_start", func(p *planner.Plan) {
			p.Pointers[0].Samples[0].OffsetMs = 5
			p.Pointers[1].Samples[0].OffsetMs = 5
		}, "webdriver gesture pointer paths must start at 0 and end at durationMs"},
		{"early_end", func(p *planner.Plan) { p.DurationMs = 60 },
			"webdriver gesture pointer paths must start at 0 and end at durationMs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := validTwo()
			if _, err := webdriver.LowerActions(plan, webdriver.Options{}); err != nil {
				t.Fatalf("the unbroken plan is refused: %v", err)
			}
			c.mutate(&plan)
			a, err := webdriver.LowerActions(plan, webdriver.Options{})
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("LowerActions accepted the plan: %s", body(t, a))
			}
			if ce.Code != canonical.CodeInvalidArgs || ce.Message != c.want || ce.Hint == "" {
				t.Fatalf("got %s: %s (hint %q), want INVALID_ARGS: %s", ce.Code, ce.Message, ce.Hint, c.want)
			}
		})
	}
}
