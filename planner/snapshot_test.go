package planner_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

type intentCase struct {
	name string
	g    canonical.Gesture
}

// everyIntent covers each intent and each of its forms with inputs that fit
// both phone viewports.
func everyIntent() []intentCase {
	return []intentCase{
		{"pan_default_duration", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(0, -80)}},
		{"pan_timed_1200ms", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(100, 300), Delta: pt(150, 200), DurationMs: f(1200)}},
		{"pan_endpoint_hold_seam", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 700), Delta: pt(0, -500), DurationMs: f(400),
			ExecutionProfile: canonical.ProfileEndpointHold}},
		{"pan_two_pointers", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(80, -40), PointerCount: f(2), DurationMs: f(100)}},
		{"fling_up_default_distance", canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp, Origin: pt(195, 600)}},
		{"fling_left_distance_120", canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionLeft, Origin: pt(300, 500), Distance: f(120)}},
		{"fling_preset_left", canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetLeft}},
		{"fling_preset_right", canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetRight}},
		{"fling_preset_left_edge", canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetLeftEdge}},
		{"fling_preset_right_edge", canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetRightEdge}},
		{"fling_from_to", canonical.Gesture{Intent: canonical.IntentFling, From: pt(300, 700), To: pt(60, 700)}},
		{"pinch_in_center", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)}},
		{"pinch_out_at_point", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(1.5), Origin: pt(195, 450)}},
		{"rotate_35", canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(35), Origin: pt(195, 450)}},
		{"rotate_minus_90_center", canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(-90)}},
		{"transform_all_components", canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 450), Delta: pt(40, -30),
			Scale: f(1.3), Degrees: f(20), DurationMs: f(160)}},
		{"transform_default_duration", canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 450), Delta: pt(0, 0),
			Scale: f(0.8), Degrees: f(-45)}},
	}
}

func TestPlanSnapshots(t *testing.T) {
	t.Parallel()
	for _, platform := range []planner.Platform{planner.Android, planner.IOS} {
		vp := iPhone()
		if platform == planner.Android {
			vp = canonical.Viewport{Width: 390, Height: 844}
		}
		for _, tc := range everyIntent() {
			t.Run(string(platform)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				p, err := planner.Gesture(tc.g, vp, platform)
				if err != nil {
					t.Fatalf("plan: %v", err)
				}
				snaps.MatchSnapshot(t, renderPlan(p))
			})
		}
	}
}

func TestDragSnapshots(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   planner.DragPoints
	}{
		{"defaults", planner.DragPoints{From: canonical.Point{X: 110, Y: 130}, To: canonical.Point{X: 300, Y: 600}}},
		{"with_destination_hold", planner.DragPoints{From: canonical.Point{X: 110, Y: 130}, To: canonical.Point{X: 300, Y: 600},
			SourceHoldMs: f(40), MoveMs: f(64), DestinationHoldMs: f(32)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := planner.Drag(tc.in, iPhone())
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			snaps.MatchSnapshot(t, renderPlan(p))
		})
	}
}

func TestSwipeSeriesSnapshot(t *testing.T) {
	t.Parallel()
	in, err := canonical.ParseSwipeArgs([]string{"320", "500", "40", "500"},
		canonical.SwipeFlags{Count: f(3), PauseMs: f(30), Pattern: strp(canonical.PatternPingPong)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := planner.SwipeSeries(in, iPhone(), planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "count=%d pauseMs=%d pattern=%s durationMs=%d\n", s.Count, s.PauseMs, s.Pattern, s.DurationMs)
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "step at %dms: %s", st.StartMs, renderPlan(st.Plan))
	}
	snaps.MatchSnapshot(t, b.String())
}

func strp(s string) *string { return &s }

// errorCases are plans that must fail; the snapshot pins code, message, hint
// and every detail.
func errorCases() []intentCase {
	return []intentCase{
		{"pan_out_of_bounds_end", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(0, -420)}},
		{"pan_origin_on_inset_edge", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(0.99, 420), Delta: pt(10, 0)}},
		{"pan_bad_pointer_count", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(0, 10), PointerCount: f(3)}},
		{"pan_duration_too_short", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(0, 10), DurationMs: f(15)}},
		{"pan_end_overflows", canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(1e308, 420), Delta: pt(1e308, 0)}},
		{"two_pointer_non_finite", canonical.Gesture{Intent: canonical.IntentPan, PointerCount: f(2), Origin: pt(1e308, 420), Delta: pt(1e308, 0)}},
		{"pinch_span_below_floor", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.1)}},
		{"pinch_zero_scale", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0)}},
		{"pinch_too_close_to_edge", canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(195, 100)}},
		{"rotate_off_screen", canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(90), Origin: pt(195, 60)}},
		{"transform_missing_duration_range", canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 450), Delta: pt(0, 0),
			Scale: f(1), Degrees: f(0), DurationMs: f(10001)}},
		{"fling_zero_distance", canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionDown, Origin: pt(100, 100), Distance: f(0)}},
		{"fling_past_bottom", canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionDown, Origin: pt(100, 800)}},
	}
}

func TestPlanErrorSnapshots(t *testing.T) {
	t.Parallel()
	for _, tc := range errorCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := planner.Gesture(tc.g, iPhone(), planner.IOS)
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("want a coded error, got %v", err)
			}
			data, _ := json.Marshal(ce)
			snaps.MatchJSON(t, data)
		})
	}
}

func TestViewportErrorSnapshots(t *testing.T) {
	t.Parallel()
	g := canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)}
	for name, vp := range map[string]canonical.Viewport{
		"zero_width":   {Width: 0, Height: 800},
		"negative":     {Width: 300, Height: -1},
		"nan_x":        {X: nan(), Width: 300, Height: 800},
		"infinite_hgt": {Width: 300, Height: inf()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := planner.Gesture(g, vp, planner.IOS)
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("want a coded error, got %v", err)
			}
			data, _ := json.Marshal(ce)
			snaps.MatchJSON(t, data)
		})
	}
}

// TestPlanJSONShape pins the wire shape of contracts §4 once per topology.
func TestPlanJSONShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []intentCase{everyIntent()[0], everyIntent()[3]} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := planner.Gesture(tc.g, iPhone(), planner.IOS)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			snaps.MatchSnapshot(t, string(data))
		})
	}
}

// TestDragErrorSnapshots pins every drag refusal.
func TestDragErrorSnapshots(t *testing.T) {
	t.Parallel()
	from, to := canonical.Point{X: 110, Y: 130}, canonical.Point{X: 300, Y: 600}
	cases := map[string]planner.DragPoints{
		"source_hold_zero":       {From: from, To: to, SourceHoldMs: f(0)},
		"move_too_short":         {From: from, To: to, MoveMs: f(15)},
		"move_fractional":        {From: from, To: to, MoveMs: f(100.5)},
		"destination_hold_over":  {From: from, To: to, DestinationHoldMs: f(10001)},
		"total_over_10s":         {From: from, To: to, SourceHoldMs: f(9000), MoveMs: f(1000), DestinationHoldMs: f(1)},
		"destination_off_screen": {From: from, To: canonical.Point{X: 300, Y: 2000}},
		"source_not_finite":      {From: canonical.Point{X: nan(), Y: 1}, To: to},
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := planner.Drag(in, iPhone())
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("want a coded error, got %v", err)
			}
			data, _ := json.Marshal(ce)
			snaps.MatchJSON(t, data)
		})
	}
}

// TestIntentAndPlatformErrorSnapshots pins refusals of inputs only internal
// callers can build.
func TestIntentAndPlatformErrorSnapshots(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		g canonical.Gesture
		p planner.Platform
	}{
		"unknown_intent":          {canonical.Gesture{Intent: "wiggle"}, planner.IOS},
		"unknown_platform":        {canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)}, "tvos"},
		"transform_no_origin":     {canonical.Gesture{Intent: canonical.IntentTransform, Scale: f(1), Degrees: f(0)}, planner.IOS},
		"fling_unknown_direction": {canonical.Gesture{Intent: canonical.IntentFling, Direction: "north", Origin: pt(100, 100)}, planner.IOS},
		"rotate_nan":              {canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(nan())}, planner.IOS},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := planner.Gesture(tc.g, iPhone(), tc.p)
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("want a coded error, got %v", err)
			}
			data, _ := json.Marshal(ce)
			snaps.MatchJSON(t, data)
		})
	}
}
