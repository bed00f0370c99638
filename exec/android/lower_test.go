package android_test

import (
	"encoding/base64"
	"math"
	"slices"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android"
	"github.com/flow-runner/flow/planner"
)

func lower(t *testing.T, plan planner.Plan) android.TransportPlan {
	t.Helper()
	tp, err := android.Lower(plan)
	if err != nil {
		t.Fatalf("Lower: %v", err)
	}
	return tp
}

func payload(t *testing.T, tp android.TransportPlan) []byte {
	t.Helper()
	data, err := tp.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	return data
}

func TestLowerSnapshots(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		snaps.MatchSnapshot(t, wireLines(payload(t, lower(t, plan))))
	})
}

func offsetsOf(p android.Pointer) []int {
	out := make([]int, len(p.Samples))
	for i, s := range p.Samples {
		out[i] = s.OffsetMs
	}
	return out
}

// The verified examples of agent-device §5.1, produced by the real 0.21.5
// lowerer.
func TestLowerVerifiedPan(t *testing.T) {
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(540, 1500), Delta: pt(0, -600), DurationMs: f(100)},
		canonical.Viewport{Width: 1080, Height: 2340}, planner.Android)
	if err != nil {
		t.Fatal(err)
	}
	tp := lower(t, plan)
	if tp.Kind() != android.KindSwipe || tp.DurationMs() != 100 {
		t.Fatalf("kind %q duration %d, want swipe 100", tp.Kind(), tp.DurationMs())
	}
	want := []android.Sample{
		{OffsetMs: 0, X: 540, Y: 1500}, {OffsetMs: 17, X: 540, Y: 1398}, {OffsetMs: 33, X: 540, Y: 1302},
		{OffsetMs: 50, X: 540, Y: 1200}, {OffsetMs: 67, X: 540, Y: 1098}, {OffsetMs: 83, X: 540, Y: 1002},
		{OffsetMs: 100, X: 540, Y: 900},
	}
	ptrs := tp.Pointers()
	if len(ptrs) != 1 || !slices.Equal(ptrs[0].Samples, want) {
		t.Fatalf("samples\n got %v\nwant %v", ptrs, want)
	}
	const wire = `{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":100,"pointers":[{"pointerId":0,"samples":[` +
		`{"offsetMs":0,"x":540,"y":1500},{"offsetMs":17,"x":540,"y":1398},{"offsetMs":33,"x":540,"y":1302},` +
		`{"offsetMs":50,"x":540,"y":1200},{"offsetMs":67,"x":540,"y":1098},{"offsetMs":83,"x":540,"y":1002},` +
		`{"offsetMs":100,"x":540,"y":900}]}]}`
	if got := string(payload(t, tp)); got != wire {
		t.Fatalf("payload\n got %s\nwant %s", got, wire)
	}
	b64, err := tp.PayloadBase64()
	if err != nil {
		t.Fatal(err)
	}
	if b64 != base64.StdEncoding.EncodeToString([]byte(wire)) {
		t.Fatalf("payloadBase64 %s does not encode the payload", b64)
	}
}

func TestLowerVerifiedDrag(t *testing.T) {
	from, to := canonical.Point{X: 300, Y: 1200}, canonical.Point{X: 700, Y: 1200}
	plan, err := planner.Drag(planner.DragPoints{From: from, To: to, SourceHoldMs: f(40), MoveMs: f(64), DestinationHoldMs: f(32)},
		canonical.Viewport{Width: 1080, Height: 2340})
	if err != nil {
		t.Fatal(err)
	}
	ptr := lower(t, plan).Pointers()[0]
	wantOffsets := []int{0, 15, 30, 40, 45, 60, 76, 91, 104, 106, 121, 136}
	if got := offsetsOf(ptr); !slices.Equal(got, wantOffsets) {
		t.Fatalf("offsets %v, want %v", got, wantOffsets)
	}
	for _, s := range ptr.Samples {
		switch {
		case s.OffsetMs <= 40: // source hold: stationary at the source
			if s.X != from.X || s.Y != from.Y {
				t.Errorf("%d ms: (%v,%v) moved during the source hold", s.OffsetMs, s.X, s.Y)
			}
		case s.OffsetMs >= 104: // destination hold: stationary at the destination
			if s.X != to.X || s.Y != to.Y {
				t.Errorf("%d ms: (%v,%v) moved during the destination hold", s.OffsetMs, s.X, s.Y)
			}
		default: // the move is linear in time
			want := from.X + (to.X-from.X)*float64(s.OffsetMs-40)/64
			if math.Abs(s.X-want) > 1e-9 || s.Y != from.Y {
				t.Errorf("%d ms: (%v,%v), want (%v,%v)", s.OffsetMs, s.X, s.Y, want, from.Y)
			}
		}
	}
}

// frames is the Android frame count of a duration, written independently of
// the lowerer: round half up of d/16, at least 3.
func frames(d int) int { return max(3, int(math.Floor(float64(d)/16+0.5))) }

func TestLowerInvariants(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		tp := lower(t, plan)
		ptrs := tp.Pointers()
		if len(ptrs) != len(plan.Pointers) {
			t.Fatalf("%d pointers, plan has %d", len(ptrs), len(plan.Pointers))
		}
		wantKind := map[planner.Topology]android.Kind{planner.Single: android.KindSwipe, planner.Two: android.KindTransform}[plan.Topology]
		if tp.Kind() != wantKind {
			t.Errorf("kind %q for topology %q", tp.Kind(), plan.Topology)
		}
		first := offsetsOf(ptrs[0])
		for i, ptr := range ptrs {
			if ptr.PointerID != i {
				t.Errorf("pointer %d has id %d", i, ptr.PointerID)
			}
			offs := offsetsOf(ptr)
			if offs[0] != 0 || offs[len(offs)-1] != plan.DurationMs {
				t.Errorf("pointer %d spans %d..%d, want 0..%d", i, offs[0], offs[len(offs)-1], plan.DurationMs)
			}
			for j := 1; j < len(offs); j++ {
				if offs[j] <= offs[j-1] {
					t.Errorf("pointer %d offsets not strictly increasing at %d: %v", i, j, offs)
				}
			}
			if !slices.Equal(offs, first) {
				t.Errorf("pointer %d offsets %v differ from pointer 0 %v", i, offs, first)
			}
		}
		if plan.Topology == planner.Two {
			// Two-contact geometry is the planner's contract: passed through exactly.
			for i, ptr := range ptrs {
				for j, s := range ptr.Samples {
					ps := plan.Pointers[i].Samples[j]
					if s.OffsetMs != ps.OffsetMs || s.X != ps.Point.X || s.Y != ps.Point.Y {
						t.Fatalf("pointer %d sample %d: %+v, planned %+v", i, j, s, ps)
					}
				}
			}
			return
		}
		checkDensified(t, plan, ptrs[0])
	})
}

// checkDensified checks a lowered one-contact path against its plan: every
// planned sample survives exactly, the frame cadence is kept and every other
// sample lies on its planned segment at the matching fraction of time.
func checkDensified(t *testing.T, plan planner.Plan, ptr android.Pointer) {
	t.Helper()
	planned := plan.Pointers[0].Samples
	if len(ptr.Samples) < frames(plan.DurationMs)+1 {
		t.Errorf("%d samples, fewer than the %d frames of %d ms", len(ptr.Samples), frames(plan.DurationMs)+1, plan.DurationMs)
	}
	for j := 1; j < len(ptr.Samples); j++ {
		// Every case here lasts long enough that a frame is at most 17 ms.
		if gap := ptr.Samples[j].OffsetMs - ptr.Samples[j-1].OffsetMs; gap > 17 {
			t.Errorf("gap of %d ms before %d ms", gap, ptr.Samples[j].OffsetMs)
		}
	}
	byOffset := map[int]android.Sample{}
	for _, s := range ptr.Samples {
		byOffset[s.OffsetMs] = s
	}
	for _, ps := range planned {
		s, ok := byOffset[ps.OffsetMs]
		if !ok || s.X != ps.Point.X || s.Y != ps.Point.Y {
			t.Errorf("planned sample %+v lowered to %+v (present %v)", ps, s, ok)
		}
	}
	seg := 0
	for _, s := range ptr.Samples {
		for s.OffsetMs > planned[seg+1].OffsetMs {
			seg++
		}
		a, b := planned[seg], planned[seg+1]
		u := float64(s.OffsetMs-a.OffsetMs) / float64(b.OffsetMs-a.OffsetMs)
		dx, dy := b.Point.X-a.Point.X, b.Point.Y-a.Point.Y
		// On the segment: inside its bounding box and collinear with it.
		if s.X < math.Min(a.Point.X, b.Point.X) || s.X > math.Max(a.Point.X, b.Point.X) ||
			s.Y < math.Min(a.Point.Y, b.Point.Y) || s.Y > math.Max(a.Point.Y, b.Point.Y) {
			t.Errorf("%d ms: (%v,%v) outside segment %+v..%+v", s.OffsetMs, s.X, s.Y, a.Point, b.Point)
		}
		if cross := dx*(s.Y-a.Point.Y) - dy*(s.X-a.Point.X); math.Abs(cross) > 1e-6 {
			t.Errorf("%d ms: (%v,%v) off the segment line (cross %v)", s.OffsetMs, s.X, s.Y, cross)
		}
		// At the matching fraction: linear movement in time.
		if math.Abs(s.X-(a.Point.X+dx*u)) > 1e-9 || math.Abs(s.Y-(a.Point.Y+dy*u)) > 1e-9 {
			t.Errorf("%d ms: (%v,%v) is not %v of the way along its segment", s.OffsetMs, s.X, s.Y, u)
		}
	}
}

// The Android frame timeline for every planner duration: n+1 samples for a
// two-sample plan, each gap within a millisecond of d/n.
func TestLowerCadenceForEveryDuration(t *testing.T) {
	vp := canonical.Viewport{Width: 1080, Height: 2400}
	for d := canonical.MinDurationMs; d <= canonical.MaxDurationMs; d++ {
		plan := planner.Plan{Topology: planner.Single, Intent: canonical.IntentPan, ExecutionProfile: canonical.ProfileTimedPan,
			DurationMs: d, Viewport: vp, Pointers: []planner.Pointer{{Samples: []planner.Sample{
				{OffsetMs: 0, Point: canonical.Point{X: 100, Y: 2000}}, {OffsetMs: d, Point: canonical.Point{X: 900, Y: 300}}}}}}
		tp, err := android.Lower(plan)
		if err != nil {
			t.Fatalf("%d ms: %v", d, err)
		}
		s := tp.Pointers()[0].Samples
		n := frames(d)
		if len(s) != n+1 {
			t.Fatalf("%d ms: %d samples, want %d", d, len(s), n+1)
		}
		lo, hi := d/n, (d+n-1)/n
		for j := 1; j < len(s); j++ {
			gap := s[j].OffsetMs - s[j-1].OffsetMs
			if gap < lo || gap > hi || gap > 19 {
				t.Fatalf("%d ms: gap %d before %d ms outside %d..%d", d, gap, s[j].OffsetMs, lo, hi)
			}
		}
	}
}

func TestLowerDoesNotShareSamplesWithCallers(t *testing.T) {
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5)},
		canonical.Viewport{Width: 1080, Height: 2400}, planner.Android)
	if err != nil {
		t.Fatal(err)
	}
	tp := lower(t, plan)
	before := string(payload(t, tp))
	plan.Pointers[0].Samples[1].Point.X = math.NaN() // the caller edits its plan afterwards
	tp.Pointers()[0].Samples[1].X = -1               // or the accessor's result
	if after := string(payload(t, tp)); after != before {
		t.Fatalf("a validated transport plan changed after Lower:\n%s\n%s", before, after)
	}
}

func TestHelperTimeout(t *testing.T) {
	for _, c := range []struct{ durationMs, want int }{{100, 45000}, {30000, 45000}, {30001, 45001}, {120000, 135000}} {
		plan := planner.Plan{Topology: planner.Two, Intent: canonical.IntentPan, DurationMs: c.durationMs, Pointers: []planner.Pointer{
			{PointerID: 0, Samples: []planner.Sample{{OffsetMs: 0}, {OffsetMs: c.durationMs}}},
			{PointerID: 1, Samples: []planner.Sample{{OffsetMs: 0}, {OffsetMs: c.durationMs}}},
		}}
		if got := lower(t, plan).HelperTimeoutMs(); got != c.want {
			t.Errorf("%d ms plan: timeout %d, want %d", c.durationMs, got, c.want)
		}
	}
}

func TestZeroTransportPlanIsRefused(t *testing.T) {
	var zero android.TransportPlan
	if _, err := zero.MarshalJSON(); canonical.CodeOf(err) != canonical.CodeInternal {
		t.Errorf("MarshalJSON of the zero plan: %v, want INTERNAL", err)
	}
	if _, err := zero.PayloadBase64(); err == nil {
		t.Error("PayloadBase64 of the zero plan succeeded")
	}
	if ev := android.Schedule(zero); ev != nil {
		t.Errorf("Schedule of the zero plan: %v", ev)
	}
}

// validTwo is a well-formed two-contact plan to break one rule at a time.
func validTwo() planner.Plan {
	p0 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 500, Y: 1000}}, {OffsetMs: 16, Point: canonical.Point{X: 510, Y: 990}},
		{OffsetMs: 32, Point: canonical.Point{X: 520, Y: 980}}}
	p1 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 500, Y: 1200}}, {OffsetMs: 16, Point: canonical.Point{X: 510, Y: 1190}},
		{OffsetMs: 32, Point: canonical.Point{X: 520, Y: 1180}}}
	return planner.Plan{Topology: planner.Two, Intent: canonical.IntentPan, DurationMs: 32,
		Viewport: canonical.Viewport{Width: 1080, Height: 2400},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: p0}, {PointerID: 1, Samples: p1}}}
}

func validSingle() planner.Plan {
	return planner.Plan{Topology: planner.Single, Intent: canonical.IntentFling, ExecutionProfile: canonical.ProfileEndpointHold,
		DurationMs: 100, Viewport: canonical.Viewport{Width: 1080, Height: 2400},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: []planner.Sample{
			{OffsetMs: 0, Point: canonical.Point{X: 900, Y: 1200}}, {OffsetMs: 100, Point: canonical.Point{X: 100, Y: 1200}}}}}}
}

func TestLowerRejectsMalformedPlans(t *testing.T) {
	for _, c := range []struct {
		name   string
		plan   func() planner.Plan
		mutate func(p *planner.Plan)
		want   string
	}{
		{"unknown_topology", validTwo, func(p *planner.Plan) { p.Topology = "three" }, "Unsupported kind: three"},
		{"duration_above_helper_limit", validSingle, func(p *planner.Plan) {
			p.DurationMs = 120001
			p.Pointers[0].Samples[1].OffsetMs = 120001
		}, "durationMs must be between 0 and 120000"},
		{"negative_duration", validSingle, func(p *planner.Plan) { p.DurationMs = -1 }, "durationMs must be between 0 and 120000"},
		{"swipe_with_two_pointers", validTwo, func(p *planner.Plan) { p.Topology = planner.Single },
			"Planned swipe gesture requires exactly 1 pointer paths"},
		{"transform_with_one_pointer", validTwo, func(p *planner.Plan) { p.Pointers = p.Pointers[:1] },
			"Planned transform gesture requires exactly 2 pointer paths"},
		{"pointer_ids_swapped", validTwo, func(p *planner.Plan) { p.Pointers[0].PointerID, p.Pointers[1].PointerID = 1, 0 },
			"Planned pointer ids must be ordered from 0"},
		{"pointer_id_not_from_zero", validSingle, func(p *planner.Plan) { p.Pointers[0].PointerID = 1 },
			"Planned pointer ids must be ordered from 0"},
		{"one_sample", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples = p.Pointers[0].Samples[:1] },
			"Planned pointer path requires at least two samples"},
		{"nan_coordinate", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples[1].Point.Y = math.NaN() },
			"Planned sample coordinates must be finite"},
		{"infinite_coordinate", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[0].Point.X = math.Inf(1) },
			"Planned sample coordinates must be finite"},
		{"repeated_offset", validTwo, func(p *planner.Plan) { p.Pointers[0].Samples[1].OffsetMs = 0 },
			"Planned sample offsets must be strictly increasing"},
		{"decreasing_offset", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[2].OffsetMs = 10 },
			"Planned sample offsets must be strictly increasing"},
		{"late_start", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples[0].OffsetMs = 5 },
			"Pointer path must start at 0 and end at durationMs"},
		{"early_end", validSingle, func(p *planner.Plan) { p.DurationMs = 120 },
			"Pointer path must start at 0 and end at durationMs"},
		{"sample_counts_differ", validTwo, func(p *planner.Plan) {
			p.Pointers[1].Samples = append(p.Pointers[1].Samples[:1:1], p.Pointers[1].Samples[2])
		}, "Planned pointer paths must have matching samples"},
		{"offsets_differ", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[1].OffsetMs = 17 },
			"Planned pointer sample offsets must match"},
		// The helper admits a zero-duration stationary path; a one-contact
		// plan still cannot be sampled over no time at all.
		{"zero_duration_swipe", validSingle, func(p *planner.Plan) {
			p.DurationMs = 0
			p.Pointers[0].Samples[1].OffsetMs = 0
		}, "gesture sample duration must be a positive finite number"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := c.plan()
			if _, err := android.Lower(plan); err != nil {
				t.Fatalf("the unbroken plan is refused: %v", err)
			}
			c.mutate(&plan)
			tp, err := android.Lower(plan)
			ce, ok := canonical.AsError(err)
			if !ok {
				t.Fatalf("Lower accepted the plan: %s", payload(t, tp))
			}
			if ce.Code != canonical.CodeInvalidArgs || ce.Message != c.want {
				t.Fatalf("got %s: %s, want INVALID_ARGS: %s", ce.Code, ce.Message, c.want)
			}
			if ce.Hint == "" {
				t.Error("refusal has no hint")
			}
		})
	}
}

// TestLowerScrollControlledRelease checks §5.1's verified controlled-release
// example: a 100 ms pan from y 1500 to 900 eases to rest.
func TestLowerScrollControlledRelease(t *testing.T) {
	t.Parallel()
	d := 100.0
	p, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: &canonical.Point{X: 540, Y: 1500},
		Delta: &canonical.Point{X: 0, Y: -600}, DurationMs: &d}, canonical.Viewport{Width: 1080, Height: 2400}, planner.Android)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := android.LowerScroll(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1500, 1392.07, 1220.64, 1078.57, 977.79, 920.64, 900}
	got := tp.Pointers()[0].Samples
	if len(got) != len(want) {
		t.Fatalf("%d samples, want %d", len(got), len(want))
	}
	for i, s := range got {
		if math.Abs(s.Y-want[i]) > 0.01 {
			t.Errorf("sample %d at %d ms: y=%v, want %v", i, s.OffsetMs, s.Y, want[i])
		}
	}
}
