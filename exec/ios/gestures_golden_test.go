package ios_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/planner"
	"github.com/flow-runner/flow/planner/plancases"
)

// gesturesGolden is where the Swift runner's unit tests read what this
// package decides for each plan: the refusal message, or the event record.
// It sits beside testdata/wire, not in it, because its lines are cases,
// not a request/response session.
const gesturesGolden = "../../ios-runner/testdata/gestures.jsonl"

type goldenApp struct {
	Orientation ios.Orientation    `json:"orientation"`
	Window      canonical.Viewport `json:"window"`
}

type goldenGesture struct {
	Name   string           `json:"name"`
	Plan   planner.Plan     `json:"plan"`
	App    goldenApp        `json:"app"`
	Error  string           `json:"error,omitempty"`
	Record *ios.EventRecord `json:"record,omitempty"`
}

// goldenGestures is every plan of the shared plan table in portrait, one
// endpoint-hold and one sampled plan in every orientation with a window
// that is not at the origin, and each malformed plan that JSON can carry
// (NaN cannot travel, so those cases stay in the Go tests only).
func goldenGestures(t *testing.T) []goldenGesture {
	t.Helper()
	var out []goldenGesture
	add := func(name string, plan planner.Plan, app ios.AppState) {
		g := goldenGesture{Name: name, Plan: plan, App: goldenApp{Orientation: app.Orientation, Window: app.Window}}
		r, err := ios.Synthesize(plan, app)
		if err != nil {
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("%s: %v", name, err)
			}
			g.Error = ce.Message
		} else {
			g.Record = &r
		}
		out = append(out, g)
	}
	for _, d := range plancases.Devices() {
		for _, c := range plancases.EveryIntent() {
			plan, err := c.Plan(d)
			if err != nil {
				t.Fatalf("%s/%s: %v", d.Name, c.Name, err)
			}
			add(d.Name+"/"+c.Name, plan, portrait(plan.Viewport))
		}
	}
	vp := canonical.Viewport{X: 12, Y: 47, Width: 390, Height: 797}
	fling, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, From: pt(300, 700), To: pt(60, 650)}, vp, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	pinch, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(200, 420)}, vp, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	window := canonical.Viewport{X: 0, Y: 0, Width: 402, Height: 874}
	for _, o := range []ios.Orientation{ios.OrientationUnknown, ios.Portrait, ios.PortraitUpsideDown, ios.LandscapeRight, ios.LandscapeLeft} {
		add(fmt.Sprintf("orientation_%d/fling", o), fling, ios.AppState{Orientation: o, Window: window})
		add(fmt.Sprintf("orientation_%d/pinch", o), pinch, ios.AppState{Orientation: o, Window: window})
	}
	for _, c := range malformedPlans() {
		plan := c.plan()
		c.mutate(&plan)
		if _, err := json.Marshal(plan); err != nil {
			continue
		}
		add("malformed/"+c.name, plan, ios.AppState{Orientation: ios.Portrait, Window: plan.Viewport})
	}
	return out
}

// TestGesturesGolden holds the file the Swift runner's tests replay
// (ios-runner/FlowRunnerCore) to this package's validation and schedules:
// a change here that the file does not show fails, and
// FLOW_UPDATE_GOLDEN=1 rewrites it.
func TestGesturesGolden(t *testing.T) {
	var buf bytes.Buffer
	names := map[string]bool{}
	for _, g := range goldenGestures(t) {
		if names[g.Name] {
			t.Fatalf("two cases named %s", g.Name)
		}
		names[g.Name] = true
		line, err := json.Marshal(g)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	path := filepath.FromSlash(gesturesGolden)
	if os.Getenv("FLOW_UPDATE_GOLDEN") == "1" && os.Getenv("CI") == "" {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (FLOW_UPDATE_GOLDEN=1 writes it)", err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Fatalf("%s is stale: rerun with FLOW_UPDATE_GOLDEN=1 and commit it with the change", gesturesGolden)
	}
}

// The golden file must carry both outcomes for every rule and every
// schedule, or the Swift tests replaying it would prove little.
func TestGesturesGoldenCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range goldenGestures(t) {
		if g.Record != nil {
			seen["record "+g.Record.Name] = true
			continue
		}
		seen["error "+g.Error] = true
	}
	want := []string{"record " + ios.RecordSwipe, "record " + ios.RecordGesturePlan}
	for _, c := range malformedPlans() {
		want = append(want, "error "+c.want)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no golden case gives %q", w)
		}
	}
}
