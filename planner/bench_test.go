package planner_test

import (
	"bufio"
	"os"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

func benchGesture(b *testing.B, g canonical.Gesture, vp canonical.Viewport, platform planner.Platform) {
	b.Helper()
	if _, err := planner.Gesture(g, vp, platform); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planner.Gesture(g, vp, platform); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIntent plans one representative gesture of each intent.
func BenchmarkIntent(b *testing.B) {
	for _, platform := range []planner.Platform{planner.Android, planner.IOS} {
		vp := canonical.Viewport{Width: 390, Height: 844}
		for _, tc := range everyIntent() {
			b.Run(string(platform)+"/"+tc.name, func(b *testing.B) { benchGesture(b, tc.g, vp, platform) })
		}
	}
}

func BenchmarkDrag(b *testing.B) {
	in := planner.DragPoints{From: canonical.Point{X: 110, Y: 130}, To: canonical.Point{X: 300, Y: 600}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planner.Drag(in, iPhone()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSwipeSeries(b *testing.B) {
	in, err := canonical.ParseSwipeArgs([]string{"320", "500", "40", "500"}, canonical.SwipeFlags{Count: f(200)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := planner.SwipeSeries(in, iPhone(), planner.IOS); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanFile plans the inputs of FLOW_BENCH_INPUTS round-robin, one
// plan per op: the Go half of bench/planner-side-by-side.sh, which runs
// agent-device's planner on the same file.
func BenchmarkPlanFile(b *testing.B) {
	path := os.Getenv("FLOW_BENCH_INPUTS")
	if path == "" {
		b.Skip("FLOW_BENCH_INPUTS is not set; bench/planner-side-by-side.sh sets it")
	}
	type input struct {
		g  canonical.Gesture
		vp canonical.Viewport
		p  planner.Platform
	}
	fh, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	var inputs []input
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		raw, err := canonical.DecodeJSON(sc.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		m := raw.(map[string]any)
		intent, _ := m["intent"].(map[string]any)
		in := input{g: planner.DecodeIntent(intent), vp: planner.DecodeViewport(m["viewport"]), p: planner.Platform(platformOf(m))}
		if _, err := planner.Gesture(in.g, in.vp, in.p); err != nil {
			b.Fatalf("benchmark input does not plan: %v", err)
		}
		inputs = append(inputs, in)
	}
	if len(inputs) == 0 {
		b.Fatal("no inputs")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		in := inputs[i%len(inputs)]
		if _, err := planner.Gesture(in.g, in.vp, in.p); err != nil {
			b.Fatal(err)
		}
	}
}

func platformOf(m map[string]any) string { s, _ := m["platform"].(string); return s }
