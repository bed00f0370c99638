package plancases

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

func f(v float64) *float64 { return &v }

func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

// Device is one planning platform with a phone viewport: a 1080x2400 Android
// phone, and a 390x844 iPhone whose app frame starts below a 47 pt status
// bar. Every case below fits both.
type Device struct {
	Name     string
	Platform planner.Platform
	Viewport canonical.Viewport
}

func Devices() []Device {
	return []Device{
		{"android", planner.Android, canonical.Viewport{Width: 1080, Height: 2400}},
		{"ios", planner.IOS, canonical.Viewport{Y: 47, Width: 390, Height: 797}},
	}
}

type Case struct {
	Name string
	Plan func(d Device) (planner.Plan, error)
}

func gesture(g canonical.Gesture) func(Device) (planner.Plan, error) {
	return func(d Device) (planner.Plan, error) { return planner.Gesture(g, d.Viewport, d.Platform) }
}

func drag(in planner.DragPoints) func(Device) (planner.Plan, error) {
	return func(d Device) (planner.Plan, error) { return planner.Drag(in, d.Viewport) }
}

// EveryIntent covers every intent and form the planner produces.
func EveryIntent() []Case {
	return []Case{
		{"pan_one_pointer", gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 600), Delta: pt(0, -300), DurationMs: f(300)})},
		{"pan_one_pointer_endpoint_hold", gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(195, 700), Delta: pt(0, -500),
			DurationMs: f(400), ExecutionProfile: canonical.ProfileEndpointHold})},
		{"pan_two_pointers", gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(80, -40),
			PointerCount: f(2), DurationMs: f(100)})},
		{"fling_direction_up", gesture(canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp, Origin: pt(195, 600)})},
		{"fling_preset_left", gesture(canonical.Gesture{Intent: canonical.IntentFling, Preset: canonical.PresetLeft})},
		{"fling_from_to", gesture(canonical.Gesture{Intent: canonical.IntentFling, From: pt(300, 700), To: pt(60, 700)})},
		{"pinch_in", gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)})},
		{"rotate_45", gesture(canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(45), Origin: pt(195, 450)})},
		{"transform", gesture(canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 450), Delta: pt(40, -30),
			Scale: f(1.5), Degrees: f(30), DurationMs: f(160)})},
		{"drag_without_destination_hold", drag(planner.DragPoints{From: canonical.Point{X: 100, Y: 300}, To: canonical.Point{X: 300, Y: 650},
			SourceHoldMs: f(100), MoveMs: f(200)})},
		{"drag_with_destination_hold", drag(planner.DragPoints{From: canonical.Point{X: 100, Y: 300}, To: canonical.Point{X: 300, Y: 650},
			SourceHoldMs: f(40), MoveMs: f(64), DestinationHoldMs: f(32)})},
	}
}

// Each runs fn as one named subtest per device and case.
func Each(t *testing.T, fn func(t *testing.T, plan planner.Plan)) {
	t.Helper()
	for _, d := range Devices() {
		for _, c := range EveryIntent() {
			t.Run(d.Name+"/"+c.Name, func(t *testing.T) {
				plan, err := c.Plan(d)
				if err != nil {
					t.Fatalf("planner refused the case: %v", err)
				}
				fn(t, plan)
			})
		}
	}
}

// WireLines is the snapshot form of a payload: its exact wire bytes, key
// order included, with a line break before each pointer and each sample so
// that a changed sample reads as a one-line diff. Removing the inserted line
// breaks and indentation gives back the payload byte for byte.
func WireLines(data []byte) string {
	return strings.NewReplacer(
		`[{"pointerId"`, "[\n {\"pointerId\"", `,{"pointerId"`, ",\n {\"pointerId\"",
		`[{"offsetMs"`, "[\n  {\"offsetMs\"", `,{"offsetMs"`, ",\n  {\"offsetMs\"",
	).Replace(string(data))
}
