package planner_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// checkPlan asserts what every plan or planning error must satisfy, whatever
// the input: a coded INVALID_ARGS error whose bounds details are true, or a
// plan with a consistent timeline entirely inside the inset viewport.
func checkPlan(t *testing.T, g canonical.Gesture, vp canonical.Viewport, platform planner.Platform) {
	t.Helper()
	p, err := planner.Gesture(g, vp, platform)
	if err != nil {
		checkPlanError(t, err)
		return
	}
	again, _ := planner.Gesture(g, vp, platform)
	a, _ := json.Marshal(p)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatalf("planning is not deterministic:\n%s\n%s", a, b)
	}
	checkTimeline(t, p)
	switch p.Topology {
	case planner.Single:
		if len(p.Pointers) != 1 || len(p.Pointers[0].Samples) != 2 {
			t.Fatalf("one-contact plan must carry exactly its two endpoints: %s", a)
		}
		if p.ExecutionProfile == "" {
			t.Fatalf("one-contact plan without execution profile: %s", a)
		}
	case planner.Two:
		if len(p.Pointers) != 2 {
			t.Fatalf("two-contact plan with %d pointers", len(p.Pointers))
		}
		if p.ExecutionProfile != "" {
			t.Fatalf("two-contact plan carries a single-pointer profile: %s", a)
		}
		checkFrames(t, p, platform)
		checkSpans(t, p)
	default:
		t.Fatalf("unknown topology %q", p.Topology)
	}
}

func checkPlanError(t *testing.T, err error) {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeInvalidArgs {
		t.Fatalf("planning error must be coded INVALID_ARGS, got %#v", err)
	}
	if ce.Message == "" {
		t.Fatal("empty error message")
	}
	if ce.Reason() == canonical.ReasonOutOfBounds {
		if ce.Hint == "" {
			t.Fatal("out-of-bounds error without hint")
		}
		s, hasSample := ce.Details["sample"].(planner.Sample)
		vp, _ := ce.Details["viewport"].(canonical.Viewport)
		if hasSample && insideInset(s.Point, vp) {
			t.Fatalf("reported out-of-bounds sample %+v is inside %+v", s, vp)
		}
		if !hasSample {
			lo := math.Min(ce.Details["initialSpan"].(float64), ce.Details["finalSpan"].(float64))
			if lo >= planner.MinimumReliableSpan {
				t.Fatalf("span failure with spans >= 48: %v", ce.Details)
			}
		}
	}
}

func insideInset(p canonical.Point, v canonical.Viewport) bool {
	return p.X >= v.X+1 && p.X <= v.X+v.Width-1 && p.Y >= v.Y+1 && p.Y <= v.Y+v.Height-1
}

func checkTimeline(t *testing.T, p planner.Plan) {
	t.Helper()
	ref := p.Pointers[0].Samples
	for id, ptr := range p.Pointers {
		if ptr.PointerID != id {
			t.Fatalf("pointer ids out of order: %d at %d", ptr.PointerID, id)
		}
		s := ptr.Samples
		if s[0].OffsetMs != 0 || s[len(s)-1].OffsetMs != p.DurationMs {
			t.Fatalf("pointer %d runs %d..%d, plan lasts %d", id, s[0].OffsetMs, s[len(s)-1].OffsetMs, p.DurationMs)
		}
		for i := range s {
			if i > 0 && s[i].OffsetMs <= s[i-1].OffsetMs {
				t.Fatalf("offsets do not strictly increase at %d: %d then %d", i, s[i-1].OffsetMs, s[i].OffsetMs)
			}
			if s[i].OffsetMs != ref[i].OffsetMs {
				t.Fatalf("pointer %d offset %d differs from pointer 0 (%d)", id, s[i].OffsetMs, ref[i].OffsetMs)
			}
			if !insideInset(s[i].Point, p.Viewport) {
				t.Fatalf("sample %+v of pointer %d outside the inset viewport %+v", s[i], id, p.Viewport)
			}
		}
	}
}

// checkFrames recomputes the frame count rule: Android rounds duration/16,
// everyone else truncates, never fewer than 3 frames.
func checkFrames(t *testing.T, p planner.Plan, platform planner.Platform) {
	t.Helper()
	r := float64(p.DurationMs) / 16
	frames := math.Floor(r)
	if platform == planner.Android {
		frames = math.Floor(r + 0.5)
	}
	want := int(math.Max(3, frames)) + 1
	if got := len(p.Pointers[0].Samples); got != want {
		t.Fatalf("%s plan of %d ms has %d samples, want %d", platform, p.DurationMs, got, want)
	}
}

// checkSpans: the larger of the initial and final spans is the base span,
// 40% of the shorter viewport side for pinch and 25% otherwise.
func checkSpans(t *testing.T, p planner.Plan) {
	t.Helper()
	dist := func(i int) float64 {
		a, b := p.Pointers[0].Samples[i].Point, p.Pointers[1].Samples[i].Point
		return math.Hypot(a.X-b.X, a.Y-b.Y)
	}
	last := len(p.Pointers[0].Samples) - 1
	fraction := 0.25
	if p.Intent == canonical.IntentPinch {
		fraction = 0.40
	}
	base := math.Min(p.Viewport.Width, p.Viewport.Height) * fraction
	larger := math.Max(dist(0), dist(last))
	if math.Abs(larger-base) > 1e-9*math.Max(1, base) {
		t.Fatalf("larger span %v, want base span %v", larger, base)
	}
	if math.Min(dist(0), dist(last)) < planner.MinimumReliableSpan-1e-9 {
		t.Fatalf("span below the reliability floor: %v", math.Min(dist(0), dist(last)))
	}
}

// randomGesture draws any intent with values around a viewport, including
// ones that fail.
func randomGesture(r *rand.Rand, vp canonical.Viewport) canonical.Gesture {
	x := func() float64 { return vp.X - 40 + r.Float64()*(vp.Width+80) }
	y := func() float64 { return vp.Y - 40 + r.Float64()*(vp.Height+80) }
	d := func() *float64 { v := float64(16 + r.IntN(2000)); return &v }
	switch r.IntN(7) {
	case 0:
		return canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(x(), y()), Delta: pt(r.NormFloat64()*150, r.NormFloat64()*150), DurationMs: d()}
	case 1:
		return canonical.Gesture{Intent: canonical.IntentPan, PointerCount: f(2), Origin: pt(x(), y()), Delta: pt(r.NormFloat64()*60, r.NormFloat64()*60), DurationMs: d()}
	case 2:
		dirs := []canonical.Direction{"up", "down", "left", "right"}
		return canonical.Gesture{Intent: canonical.IntentFling, Direction: dirs[r.IntN(4)], Origin: pt(x(), y()), Distance: f(float64(1 + r.IntN(400)))}
	case 3:
		presets := []canonical.Preset{"left", "right", "left-edge", "right-edge"}
		return canonical.Gesture{Intent: canonical.IntentFling, Preset: presets[r.IntN(4)]}
	case 4:
		return canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.2 + r.Float64()*2.5), Origin: pt(x(), y())}
	case 5:
		return canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(r.NormFloat64() * 200), Origin: pt(x(), y())}
	default:
		return canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(x(), y()), Delta: pt(r.NormFloat64()*50, r.NormFloat64()*50),
			Scale: f(0.4 + r.Float64()*1.6), Degrees: f(r.NormFloat64() * 90), DurationMs: d()}
	}
}

func TestPlanInvariants(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 2026))
	viewports := []canonical.Viewport{
		{Width: 1080, Height: 2400}, {X: 0, Y: 47, Width: 390, Height: 797},
		{X: 12.5, Y: 30.25, Width: 800.5, Height: 600.75}, {Width: 120, Height: 140},
	}
	planned := 0
	for i := 0; i < 20000; i++ {
		vp := viewports[r.IntN(len(viewports))]
		platform := []planner.Platform{planner.Android, planner.IOS, planner.Web, ""}[r.IntN(4)]
		g := randomGesture(r, vp)
		checkPlan(t, g, vp, platform)
		if _, err := planner.Gesture(g, vp, platform); err == nil {
			planned++
		}
	}
	// The generator must exercise both outcomes or the invariants prove little.
	if planned < 5000 || planned > 19000 {
		t.Fatalf("%d of 20000 random gestures planned; the generator is lopsided", planned)
	}
}

func TestDragInvariants(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	vp := iPhone()
	for i := 0; i < 5000; i++ {
		in := planner.DragPoints{
			From: canonical.Point{X: r.Float64() * 400, Y: r.Float64() * 900},
			To:   canonical.Point{X: r.Float64() * 400, Y: r.Float64() * 900},
		}
		if r.IntN(2) == 0 {
			in.SourceHoldMs, in.MoveMs, in.DestinationHoldMs = f(float64(1+r.IntN(4000))), f(float64(16+r.IntN(4000))), f(float64(r.IntN(4000)))
		}
		p, err := planner.Drag(in, vp)
		if err != nil {
			checkPlanError(t, err)
			continue
		}
		checkTimeline(t, p)
		n := len(p.Pointers[0].Samples)
		if n != 3 && n != 4 {
			t.Fatalf("drag has %d samples", n)
		}
		if p.Start() != in.From || p.End() != in.To || p.ExecutionProfile != canonical.ProfileTimedPan {
			t.Fatalf("drag endpoints or profile wrong: %+v", p)
		}
		if p.Pointers[0].Samples[1].Point != in.From {
			t.Fatal("drag must hold at the source before moving")
		}
	}
}

func TestBoundsInsetEdges(t *testing.T) {
	t.Parallel()
	vp := canonical.Viewport{Width: 390, Height: 844}
	cases := []struct {
		x    float64
		fits bool
	}{{0.99, false}, {1, true}, {389, true}, {389.01, false}}
	for _, tc := range cases {
		_, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, From: pt(tc.x, 400), To: pt(200, 400)}, vp, planner.IOS)
		if (err == nil) != tc.fits {
			t.Errorf("x=%v: fits=%v, err=%v", tc.x, tc.fits, err)
		}
	}
}
