package helperapk

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	android "github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/planner"
	"github.com/flow-runner/flow/planner/plancases"
)

// goldenDir holds what the Java tests check TouchPlan and
// PointerEventSchedule against: NAME.json is a payload; NAME.steps is
// exec/android.Schedule of it, or NAME.err the message validate refuses it
// with.
const goldenDir = "test/golden"

// stepLine is one scheduled event: action, sample index, pointer count,
// offset, sync, then each pointer as id=xbits,ybits (the float32 bits the
// helper hands to MotionEvent, so no decimal formatting can hide a
// difference).
func stepLine(e android.MotionEvent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d:%d:%t", e.Action, e.SampleIndex, len(e.Pointers), e.OffsetMs, e.WaitForDispatch)
	for _, p := range e.Pointers {
		fmt.Fprintf(&b, " %d=%08x,%08x", p.ID, math.Float32bits(p.X), math.Float32bits(p.Y))
	}
	return b.String()
}

func point(x, y float64) canonical.Point { return canonical.Point{X: x, Y: y} }

// path is a plan pointer through (offset, x, y) triples.
func path(id int, samples ...[3]float64) planner.Pointer {
	p := planner.Pointer{PointerID: id}
	for _, s := range samples {
		p.Samples = append(p.Samples, planner.Sample{OffsetMs: int(s[0]), Point: point(s[1], s[2])})
	}
	return p
}

// refusedPlans break each rule of exec/android lower.go validate once, in
// the order validate checks them.
func refusedPlans() map[string]planner.Plan {
	one := func(d int, ptrs ...planner.Pointer) planner.Plan {
		return planner.Plan{Topology: planner.Single, DurationMs: d, Pointers: ptrs}
	}
	two := func(d int, ptrs ...planner.Pointer) planner.Plan {
		return planner.Plan{Topology: planner.Two, DurationMs: d, Pointers: ptrs}
	}
	line := path(0, [3]float64{0, 100, 100}, [3]float64{50, 200, 200})
	return map[string]planner.Plan{
		"refused_kind":              {Topology: planner.Topology("drag"), DurationMs: 50, Pointers: []planner.Pointer{line}},
		"refused_duration_negative": one(-1, line),
		"refused_duration_long":     one(120001, path(0, [3]float64{0, 1, 1}, [3]float64{120001, 2, 2})),
		"refused_pointer_count":     one(50, line, path(1, [3]float64{0, 1, 1}, [3]float64{50, 2, 2})),
		"refused_transform_one":     two(50, line),
		"refused_pointer_ids":       one(50, path(1, [3]float64{0, 1, 1}, [3]float64{50, 2, 2})),
		"refused_one_sample":        one(0, path(0, [3]float64{0, 1, 1})),
		"refused_offsets_back":      one(50, path(0, [3]float64{0, 1, 1}, [3]float64{30, 2, 2}, [3]float64{20, 3, 3}, [3]float64{50, 4, 4})),
		"refused_offsets_repeat":    one(50, path(0, [3]float64{0, 1, 1}, [3]float64{20, 2, 2}, [3]float64{20, 3, 3}, [3]float64{50, 4, 4})),
		"refused_start":             one(50, path(0, [3]float64{10, 1, 1}, [3]float64{50, 2, 2})),
		"refused_end":               one(50, path(0, [3]float64{0, 1, 1}, [3]float64{40, 2, 2})),
		"refused_matching_samples": two(50, line,
			path(1, [3]float64{0, 1, 1}, [3]float64{25, 2, 2}, [3]float64{50, 3, 3})),
		"refused_matching_offsets": two(50, path(0, [3]float64{0, 1, 1}, [3]float64{20, 2, 2}, [3]float64{50, 3, 3}),
			path(1, [3]float64{0, 1, 1}, [3]float64{30, 2, 2}, [3]float64{50, 3, 3})),
	}
}

// goldenFiles computes every golden file from exec/android as it is today.
func goldenFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	accepted := func(name string, tp android.TransportPlan) {
		payload, err := tp.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var steps []string
		for _, e := range android.Schedule(tp) {
			steps = append(steps, stepLine(e))
		}
		files[name+".json"] = string(payload) + "\n"
		files[name+".steps"] = strings.Join(steps, "\n") + "\n"
	}
	var phone plancases.Device
	for _, d := range plancases.Devices() {
		if d.Platform == planner.Android {
			phone = d
		}
	}
	for _, c := range plancases.EveryIntent() {
		plan, err := c.Plan(phone)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		tp, err := android.Lower(plan)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		accepted(c.Name, tp)
		if plan.Topology == planner.Single {
			tp, err := android.LowerScroll(plan)
			if err != nil {
				t.Fatalf("scroll %s: %v", c.Name, err)
			}
			accepted("scroll_"+c.Name, tp)
		}
	}
	for name, hold := range map[string]int{"tap": 50, "long_press": 3000} {
		tp, err := android.Lower(stationary(canonical.Point{X: 540.5, Y: 1199.25}, hold))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		accepted(name, tp)
	}
	for name, plan := range refusedPlans() {
		_, err := android.Lower(plan)
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeInvalidArgs {
			t.Fatalf("%s: android.Lower answers %v, want a refusal", name, err)
		}
		payload, err := rawPayload(plan)
		if err != nil {
			t.Fatal(err)
		}
		files[name+".json"] = string(payload) + "\n"
		files[name+".err"] = ce.Message + "\n"
	}
	return files
}

// TestGoldenFiles holds test/golden to exec/android: a change to Lower,
// validate or Schedule fails here until the files are regenerated
// (FLOW_UPDATE_GOLDEN=1), and the Java tests then hold the helper to them.
func TestGoldenFiles(t *testing.T) {
	want := goldenFiles(t)
	if os.Getenv(updateEnv) != "" {
		if err := os.RemoveAll(goldenDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range want {
			if err := os.WriteFile(filepath.Join(goldenDir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d files to %s", len(want), goldenDir)
		return
	}
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatalf("%v (run with %s=1 to write the golden files)", err, updateEnv)
	}
	var have []string
	for _, e := range entries {
		have = append(have, e.Name())
		data, err := os.ReadFile(filepath.Join(goldenDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[e.Name()]
		if !ok {
			t.Errorf("%s/%s is no longer generated (run with %s=1)", goldenDir, e.Name(), updateEnv)
		} else if string(data) != w {
			t.Errorf("%s/%s differs from what exec/android produces today (run with %s=1)", goldenDir, e.Name(), updateEnv)
		}
	}
	for name := range want {
		if !slices.Contains(have, name) {
			t.Errorf("%s/%s is missing (run with %s=1)", goldenDir, name, updateEnv)
		}
	}
}
