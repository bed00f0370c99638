package planner_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// checkPlanJSON: Plan.AppendJSON writes what encoding/json writes for the
// plan, byte for byte, and refuses what it refuses.
func checkPlanJSON(t *testing.T, p planner.Plan) {
	t.Helper()
	want, wantErr := json.Marshal(p)
	got, err := p.AppendJSON([]byte("prefix"))
	if wantErr != nil {
		if err == nil {
			t.Fatalf("encoding/json refuses the plan (%v); AppendJSON wrote %s", wantErr, got)
		}
		return
	}
	if err != nil || string(got) != "prefix"+string(want) {
		t.Fatalf("AppendJSON (err %v) wrote\n  %s\nencoding/json\n  %s", err, got, want)
	}
}

// TestPlanAppendJSONEveryIntent encodes a real plan of every intent on every
// platform profile.
func TestPlanAppendJSONEveryIntent(t *testing.T) {
	t.Parallel()
	n := 0
	for _, platform := range []planner.Platform{planner.Android, planner.IOS, planner.Web, planner.MacOS, ""} {
		for _, vp := range []canonical.Viewport{iPhone(), androidPhone(), {X: 0.5, Y: 1e-7, Width: 389.999, Height: 844.0000001}} {
			for _, tc := range everyIntent() {
				p, err := planner.Gesture(tc.g, vp, platform)
				if err != nil {
					continue
				}
				n++
				checkPlanJSON(t, p)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d plans were made; the cases no longer plan", n)
	}
}

// planFrom builds an arbitrary plan from fuzz bytes: any strings, sizes,
// nil and empty slices, and any float bits including -0, subnormals, huge
// values, NaN and ±Inf.
func planFrom(data []byte) planner.Plan {
	next := func() uint64 {
		var buf [8]byte
		n := copy(buf[:], data)
		data = data[n:]
		return binary.LittleEndian.Uint64(buf[:])
	}
	f64 := func() float64 {
		v := next()
		switch v % 4 {
		case 0:
			return math.Float64frombits(v)
		case 1:
			return float64(int64(v)>>40) / 64 // plain coordinates
		case 2:
			return float64(int32(v >> 8))
		}
		return math.Float64frombits(v) * 1e-300
	}
	str := func() string {
		v := next()
		return []string{"", "two", "single", "pinch", "<&>", "\u2028", "\xff", "timed-pan"}[v%8]
	}
	p := planner.Plan{
		Topology: planner.Topology(str()), Intent: canonical.Intent(str()), ExecutionProfile: canonical.ExecutionProfile(str()),
		DurationMs: int(int64(next())),
		Viewport:   canonical.Viewport{X: f64(), Y: f64(), Width: f64(), Height: f64()},
	}
	if n := next() % 4; n > 0 {
		p.Pointers = make([]planner.Pointer, n-1)
		for i := range p.Pointers {
			p.Pointers[i].PointerID = int(int64(next()))
			if m := next() % 5; m > 0 {
				p.Pointers[i].Samples = make([]planner.Sample, m-1)
				for j := range p.Pointers[i].Samples {
					p.Pointers[i].Samples[j] = planner.Sample{OffsetMs: int(int64(next())), Point: canonical.Point{X: f64(), Y: f64()}}
				}
			}
		}
	}
	return p
}

// FuzzPlanAppendJSON: any plan, real or not, encodes as encoding/json
// encodes it.
func FuzzPlanAppendJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("\x05\x00\x00\x00\x00\x00\x00\x80\x01\x00\x00\x00\x00\x00\xf8\x7f\x03\x00\x00\x00\x00\x00\x00\x00\x04"))
	f.Fuzz(func(t *testing.T, data []byte) { checkPlanJSON(t, planFrom(data)) })
}

// TestSampleAppendJSONInDetails: a sample inside error details (the
// out-of-bounds error carries one) encodes as encoding/json encodes it.
func TestSampleAppendJSONInDetails(t *testing.T) {
	t.Parallel()
	_, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(5, 5)}, iPhone(), planner.IOS)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Details["sample"] == nil {
		t.Fatalf("want an out-of-bounds error with a sample, got %v", err)
	}
	want, _ := json.Marshal(map[string]any{"error": ce})
	got, aerr := ce.AppendJSON([]byte(`{"error":`))
	if aerr != nil || string(got)+"}" != string(want) {
		t.Fatalf("AppendJSON (err %v) wrote\n  %s}\nencoding/json\n  %s", aerr, got, want)
	}
}
