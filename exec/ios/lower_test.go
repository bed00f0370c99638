package ios_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/planner"
)

const bundleID = "com.example.app"

func request(t *testing.T, plan planner.Plan) []byte {
	t.Helper()
	req, err := ios.LowerRequest(plan, bundleID)
	if err != nil {
		t.Fatalf("LowerRequest: %v", err)
	}
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestLowerRequestSnapshots(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		snaps.MatchSnapshot(t, wireLines(request(t, plan)))
	})
}

// The request wraps the whole plan: the runner picks its schedule from the
// execution profile and converts points against the viewport, so both must
// survive, and a two-contact plan must not grow a profile.
func TestLowerRequestWireShape(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		body := string(request(t, plan))
		if !strings.HasPrefix(body, `{"command":"gesture","gesturePlan":{"topology":"`) ||
			!strings.HasSuffix(body, `]}]},"appBundleId":"com.example.app"}`) {
			t.Fatalf("request keys out of order: %s", body)
		}
		if !strings.Contains(body, `,"viewport":{"x":`) {
			t.Errorf("request lacks the plan's viewport: %s", body)
		}
		hasProfile := strings.Contains(body, `"executionProfile":"`)
		if hasProfile != (plan.Topology == planner.Single) {
			t.Errorf("%s plan: executionProfile present = %v", plan.Topology, hasProfile)
		}
	})
	plan := validSingle()
	req, err := ios.LowerRequest(plan, "")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(req); strings.Contains(string(data), "appBundleId") {
		t.Errorf("an empty bundle id is sent: %s", data)
	}
}

// renderRecord is the snapshot form of an event record: a header and one
// line per path call with its exact offset in seconds and native point.
func renderRecord(r ios.EventRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s orientation=%d\n", r.Name, r.InterfaceOrientation)
	for i, p := range r.Paths {
		fmt.Fprintf(&b, "finger %d\n", i)
		for _, e := range p.Events {
			offset := strconv.FormatFloat(e.Offset, 'g', -1, 64)
			if e.Point == nil {
				fmt.Fprintf(&b, "  %-5s %s\n", e.Type, offset)
				continue
			}
			fmt.Fprintf(&b, "  %-5s %-8s (%s, %s)\n", e.Type, offset, num(e.Point.X), num(e.Point.Y))
		}
	}
	return b.String()
}

func num(x float64) string { return canonical.FormatNumber(x) }

func portrait(vp canonical.Viewport) ios.AppState {
	return ios.AppState{Orientation: ios.Portrait, Window: vp}
}

func synthesize(t *testing.T, plan planner.Plan, app ios.AppState) ios.EventRecord {
	t.Helper()
	r, err := ios.Synthesize(plan, app)
	if err != nil {
		t.Fatalf("Synthesize: %v", err)
	}
	return r
}

func TestSynthesizeSnapshots(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		snaps.MatchSnapshot(t, renderRecord(synthesize(t, plan, portrait(plan.Viewport))))
	})
}

// One fastSwipe and one sampled plan in every orientation, so a change to
// the rotation table shows as a snapshot diff.
func TestSynthesizeOrientationSnapshots(t *testing.T) {
	vp := canonical.Viewport{Y: 47, Width: 390, Height: 797}
	fling, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, From: pt(300, 700), To: pt(60, 650)}, vp, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	pan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentPan, Origin: pt(200, 420), Delta: pt(80, -40),
		PointerCount: f(2), DurationMs: f(48)}, vp, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []ios.Orientation{ios.OrientationUnknown, ios.Portrait, ios.PortraitUpsideDown, ios.LandscapeRight, ios.LandscapeLeft} {
		for name, plan := range map[string]planner.Plan{"fling": fling, "pan_two_pointers": pan} {
			t.Run(fmt.Sprintf("%s/orientation_%d", name, o), func(t *testing.T) {
				snaps.MatchSnapshot(t, renderRecord(synthesize(t, plan, ios.AppState{Orientation: o, Window: vp})))
			})
		}
	}
}

func endpointHold(plan planner.Plan) bool {
	return plan.Topology == planner.Single && plan.ExecutionProfile == canonical.ProfileEndpointHold
}

func TestFastSwipe(t *testing.T) {
	// Lift is 100 ms after the planned duration: a 100 ms fling lifts at
	// 0.2 s, a Maestro 400 ms swipe at 0.5 s.
	lifts := map[int]float64{100: 0.2, 400: 0.5}
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		if !endpointHold(plan) {
			t.Skip("not an endpoint-hold plan")
		}
		app := portrait(plan.Viewport)
		r := synthesize(t, plan, app)
		if r.Name != ios.RecordSwipe || len(r.Paths) != 1 {
			t.Fatalf("%s with %d paths, want one %s path", r.Name, len(r.Paths), ios.RecordSwipe)
		}
		ev := r.Paths[0].Events
		want, ok := lifts[plan.DurationMs]
		if !ok {
			t.Fatalf("no expected lift for %d ms", plan.DurationMs)
		}
		if len(ev) != 3 || ev[0].Type != ios.EventTouch || ev[1].Type != ios.EventMove || ev[2].Type != ios.EventLift {
			t.Fatalf("events %v, want touch, move, lift", ev)
		}
		if ev[0].Offset != 0 || ev[1].Offset != 0.1 || ev[2].Offset != want {
			t.Errorf("offsets %v, %v, %v; want 0, 0.1, %v", ev[0].Offset, ev[1].Offset, ev[2].Offset, want)
		}
		start, end := plan.Start(), plan.End()
		vp := plan.Viewport
		if *ev[0].Point != (canonical.Point{X: start.X - vp.X, Y: start.Y - vp.Y}) ||
			*ev[1].Point != (canonical.Point{X: end.X - vp.X, Y: end.Y - vp.Y}) {
			t.Errorf("points %v -> %v, want the plan's endpoints in window space", *ev[0].Point, *ev[1].Point)
		}
	})
}

// fastSwipe converts against the app window, not the plan's viewport; a
// sampled plan never needs the window.
func TestSynthesizeWindow(t *testing.T) {
	plan := validSingle()
	if _, err := ios.Synthesize(plan, ios.AppState{Orientation: ios.Portrait}); canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
		t.Errorf("fastSwipe without a window: %v, want UNSUPPORTED_OPERATION", err)
	}
	window := canonical.Viewport{Width: 390, Height: 844} // the viewport was trimmed above a keyboard
	plan.Viewport = canonical.Viewport{Width: 390, Height: 500}
	r := synthesize(t, plan, ios.AppState{Orientation: ios.PortraitUpsideDown, Window: window})
	if got := *r.Paths[0].Events[0].Point; got != (canonical.Point{X: 390 - 300, Y: 844 - 400}) {
		t.Errorf("upside-down start %v, want it converted against the 844-high window", got)
	}
	plan.ExecutionProfile = canonical.ProfileTimedPan
	r = synthesize(t, plan, ios.AppState{Orientation: ios.PortraitUpsideDown})
	if got := *r.Paths[0].Events[0].Point; got != (canonical.Point{X: 390 - 300, Y: 500 - 400}) {
		t.Errorf("sampled upside-down start %v, want it converted against the plan's viewport", got)
	}
}

func TestSampledEqualsAuthored(t *testing.T) {
	eachPlan(t, func(t *testing.T, plan planner.Plan) {
		if endpointHold(plan) {
			t.Skip("fastSwipe plan")
		}
		for _, o := range []ios.Orientation{ios.Portrait, ios.PortraitUpsideDown, ios.LandscapeRight, ios.LandscapeLeft} {
			r := synthesize(t, plan, ios.AppState{Orientation: o})
			if r.Name != ios.RecordGesturePlan || r.InterfaceOrientation != o || len(r.Paths) != len(plan.Pointers) {
				t.Fatalf("orientation %d: %s/%d with %d paths", o, r.Name, r.InterfaceOrientation, len(r.Paths))
			}
			for i, path := range r.Paths {
				samples := plan.Pointers[i].Samples
				ev := path.Events
				if len(ev) != len(samples)+1 || ev[0].Type != ios.EventTouch || ev[len(ev)-1].Type != ios.EventLift {
					t.Fatalf("finger %d: %d events for %d samples", i, len(ev), len(samples))
				}
				for j, s := range samples {
					if want := ios.EventMove; j > 0 && ev[j].Type != want {
						t.Errorf("finger %d event %d is %s", i, j, ev[j].Type)
					}
					if ev[j].Offset != float64(s.OffsetMs)/1000 {
						t.Errorf("finger %d event %d at %v s, sample at %d ms", i, j, ev[j].Offset, s.OffsetMs)
					}
					back := ios.FromNative(*ev[j].Point, plan.Viewport, o)
					if math.Abs(back.X-s.Point.X) > 1e-9 || math.Abs(back.Y-s.Point.Y) > 1e-9 {
						t.Errorf("finger %d event %d at %v is not the authored %v", i, j, back, s.Point)
					}
				}
				if last := ev[len(ev)-1]; last.Offset != float64(plan.DurationMs)/1000 || last.Point != nil {
					t.Errorf("finger %d lifts at %v s with point %v", i, last.Offset, last.Point)
				}
			}
		}
	})
	// With a zero-origin viewport in portrait the authored points pass
	// through bit for bit.
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(35)},
		canonical.Viewport{Width: 390, Height: 844}, planner.IOS)
	if err != nil {
		t.Fatal(err)
	}
	r := synthesize(t, plan, ios.AppState{Orientation: ios.Portrait})
	for i, path := range r.Paths {
		for j, s := range plan.Pointers[i].Samples {
			if *path.Events[j].Point != s.Point {
				t.Fatalf("finger %d sample %d: %v, authored %v", i, j, *path.Events[j].Point, s.Point)
			}
		}
	}
}

func TestToNativeTable(t *testing.T) {
	frame := canonical.Viewport{X: 10, Y: 47, Width: 390, Height: 797}
	p := canonical.Point{X: 110, Y: 247} // local (100, 200)
	for _, c := range []struct {
		o    ios.Orientation
		want canonical.Point
	}{
		{ios.OrientationUnknown, canonical.Point{X: 100, Y: 200}},
		{ios.Portrait, canonical.Point{X: 100, Y: 200}},
		{ios.PortraitUpsideDown, canonical.Point{X: 290, Y: 597}},
		{ios.LandscapeRight, canonical.Point{X: 597, Y: 100}},
		{ios.LandscapeLeft, canonical.Point{X: 200, Y: 290}},
		{ios.Orientation(7), canonical.Point{X: 100, Y: 200}}, // unnamed: no rotation
	} {
		if got := ios.ToNative(p, frame, c.o); got != c.want {
			t.Errorf("orientation %d: %v, want %v", c.o, got, c.want)
		}
	}
}

func TestOrientationRoundTrip(t *testing.T) {
	frames := []canonical.Viewport{
		{Width: 390, Height: 844},
		{Y: 47, Width: 390, Height: 797},
		{X: 12.5, Y: 20.25, Width: 844, Height: 390},
		{X: 100, Y: 0, Width: 1024, Height: 1366},
	}
	orientations := []ios.Orientation{ios.OrientationUnknown, ios.Portrait, ios.PortraitUpsideDown, ios.LandscapeRight, ios.LandscapeLeft}
	for _, frame := range frames {
		for _, o := range orientations {
			for _, fx := range []float64{0, 0.001, 0.25, 0.5, 1 / 3.0, 0.999, 1} {
				for _, fy := range []float64{0, 0.1, 0.5, 2 / 3.0, 1} {
					p := canonical.Point{X: frame.X + frame.Width*fx, Y: frame.Y + frame.Height*fy}
					n := ios.ToNative(p, frame, o)
					// A point of the frame lands inside the native frame,
					// whose sides a quarter turn swaps.
					w, h := frame.Width, frame.Height
					if o == ios.LandscapeLeft || o == ios.LandscapeRight {
						w, h = h, w
					}
					if n.X < -1e-9 || n.X > w+1e-9 || n.Y < -1e-9 || n.Y > h+1e-9 {
						t.Errorf("frame %v orientation %d: %v -> %v outside the native %vx%v", frame, o, p, n, w, h)
					}
					back := ios.FromNative(n, frame, o)
					if math.Abs(back.X-p.X) > 1e-9 || math.Abs(back.Y-p.Y) > 1e-9 {
						t.Errorf("frame %v orientation %d: %v -> %v -> %v", frame, o, p, n, back)
					}
					if again := ios.ToNative(back, frame, o); math.Abs(again.X-n.X) > 1e-9 || math.Abs(again.Y-n.Y) > 1e-9 {
						t.Errorf("frame %v orientation %d: native %v does not round-trip (%v)", frame, o, n, again)
					}
				}
			}
		}
	}
}

func TestSmoothstepDrag(t *testing.T) {
	app := ios.AppState{Orientation: ios.Portrait, Window: canonical.Viewport{Width: 390, Height: 844}}
	start, end := canonical.Point{X: 100, Y: 700}, canonical.Point{X: 100, Y: 100}
	r, err := ios.SmoothstepDrag(start, end, 250, app)
	if err != nil {
		t.Fatal(err)
	}
	snaps.MatchSnapshot(t, renderRecord(r))
	if r.Name != ios.RecordContinuousDrag || len(r.Paths) != 1 {
		t.Fatalf("%s with %d paths", r.Name, len(r.Paths))
	}
	ev := r.Paths[0].Events
	// 250 ms: trunc(250/16) = 15 frames, so touch, 15 moves, lift.
	if len(ev) != 17 || ev[0].Type != ios.EventTouch || *ev[0].Point != start || ev[16].Type != ios.EventLift || ev[16].Offset != 0.25 {
		t.Fatalf("events %v", ev)
	}
	for i := 1; i <= 15; i++ {
		if math.Abs(ev[i].Offset-0.25*float64(i)/15) > 1e-15 {
			t.Errorf("move %d at %v s, want %v", i, ev[i].Offset, 0.25*float64(i)/15)
		}
	}
	if last := *ev[15].Point; math.Abs(last.Y-end.Y) > 1e-9 || last.X != end.X {
		t.Errorf("last move at %v, want the end %v", last, end)
	}
}

func TestSmoothstepVelocityShape(t *testing.T) {
	app := ios.AppState{Window: canonical.Viewport{Width: 390, Height: 844}}
	// 1600 ms is 100 frames: enough to see the curve's shape.
	r, err := ios.SmoothstepDrag(canonical.Point{X: 50, Y: 800}, canonical.Point{X: 50, Y: 0}, 1600, app)
	if err != nil {
		t.Fatal(err)
	}
	ev := r.Paths[0].Events
	var steps []float64
	prev := ev[0].Point.Y
	for _, e := range ev[1 : len(ev)-1] {
		steps = append(steps, prev-e.Point.Y)
		prev = e.Point.Y
	}
	if len(steps) != 100 {
		t.Fatalf("%d moves, want 100", len(steps))
	}
	average, peak := 800/100.0, 0.0
	for _, s := range steps {
		if s <= 0 {
			t.Fatalf("the drag stops or reverses: steps %v", steps)
		}
		peak = math.Max(peak, s)
	}
	// Zero slope at both ends, and a peak 1.5 times the average speed.
	if steps[0] > average/10 || steps[len(steps)-1] > average/10 {
		t.Errorf("first/last steps %v/%v are not near zero (average %v)", steps[0], steps[len(steps)-1], average)
	}
	if ratio := peak / average; math.Abs(ratio-1.5) > 0.01 {
		t.Errorf("peak speed is %v times the average, want 1.5", ratio)
	}
	// Halfway in time is halfway in space.
	if mid := ev[50].Point.Y; math.Abs(mid-400) > 1e-9 {
		t.Errorf("halfway point %v, want 400", mid)
	}
}

func TestSmoothstepDurationClamp(t *testing.T) {
	app := ios.AppState{Window: canonical.Viewport{Width: 390, Height: 844}}
	for _, c := range []struct {
		durationMs float64
		moves      int
		lift       float64
	}{{5, 3, 0.016}, {47, 3, 0.047}, {64, 4, 0.064}, {20000, 625, 10}} {
		r, err := ios.SmoothstepDrag(canonical.Point{X: 10, Y: 10}, canonical.Point{X: 300, Y: 10}, c.durationMs, app)
		if err != nil {
			t.Fatal(err)
		}
		ev := r.Paths[0].Events
		if len(ev) != c.moves+2 || ev[len(ev)-1].Offset != c.lift {
			t.Errorf("%v ms: %d events lifting at %v s, want %d moves lifting at %v s", c.durationMs, len(ev), ev[len(ev)-1].Offset, c.moves, c.lift)
		}
	}
}

func TestTap(t *testing.T) {
	app := ios.AppState{Orientation: ios.LandscapeLeft, Window: canonical.Viewport{Width: 844, Height: 390}}
	r, err := ios.Tap(canonical.Point{X: 700, Y: 100}, app)
	if err != nil {
		t.Fatal(err)
	}
	ev := r.Paths[0].Events
	if r.Name != ios.RecordTap || len(ev) != 2 || ev[0].Offset != 0 || ev[1].Type != ios.EventLift || ev[1].Offset != 0.05 {
		t.Fatalf("tap record %+v", r)
	}
	if *ev[0].Point != (canonical.Point{X: 100, Y: 144}) {
		t.Errorf("landscape-left tap at %v, want (100, 144)", *ev[0].Point)
	}
}

func TestCoordinateSchedulesRefuse(t *testing.T) {
	window := canonical.Viewport{Width: 390, Height: 844}
	nan := math.NaN()
	for _, c := range []struct {
		name string
		err  error
		code canonical.Code
		msg  string
	}{
		{"drag_nan_point", recordErr(ios.SmoothstepDrag(canonical.Point{X: nan}, canonical.Point{}, 250, ios.AppState{Window: window})),
			canonical.CodeInvalidArgs, "drag requires finite coordinates"},
		{"drag_infinite_duration", recordErr(ios.SmoothstepDrag(canonical.Point{}, canonical.Point{}, math.Inf(1), ios.AppState{Window: window})),
			canonical.CodeInvalidArgs, "drag durationMs must be a finite number"},
		{"drag_without_window", recordErr(ios.SmoothstepDrag(canonical.Point{}, canonical.Point{X: 1}, 250, ios.AppState{})),
			canonical.CodeUnsupportedOperation, "synthesized coordinate drag could not resolve an app window with a finite screen frame"},
		{"tap_nan_point", recordErr(ios.Tap(canonical.Point{Y: nan}, ios.AppState{Window: window})),
			canonical.CodeInvalidArgs, "synthesized coordinate tap requires finite coordinates"},
		{"tap_without_window", recordErr(ios.Tap(canonical.Point{}, ios.AppState{Window: canonical.Viewport{Width: 390}})),
			canonical.CodeUnsupportedOperation, "synthesized coordinate tap could not resolve an app window with a finite screen frame"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ce, ok := canonical.AsError(c.err)
			if !ok || ce.Code != c.code || ce.Message != c.msg {
				t.Fatalf("got %v, want %s: %s", c.err, c.code, c.msg)
			}
		})
	}
}

func recordErr(_ ios.EventRecord, err error) error { return err }

// validSingle is a well-formed endpoint-hold plan in a 390x844 viewport.
func validSingle() planner.Plan {
	return planner.Plan{Topology: planner.Single, Intent: canonical.IntentFling, ExecutionProfile: canonical.ProfileEndpointHold,
		DurationMs: 100, Viewport: canonical.Viewport{Width: 390, Height: 844},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: []planner.Sample{
			{OffsetMs: 0, Point: canonical.Point{X: 300, Y: 400}}, {OffsetMs: 100, Point: canonical.Point{X: 60, Y: 400}}}}}}
}

// validTwo is a well-formed two-contact plan to break one rule at a time.
func validTwo() planner.Plan {
	p0 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 380}}, {OffsetMs: 20, Point: canonical.Point{X: 210, Y: 370}},
		{OffsetMs: 40, Point: canonical.Point{X: 220, Y: 360}}}
	p1 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 460}}, {OffsetMs: 20, Point: canonical.Point{X: 210, Y: 450}},
		{OffsetMs: 40, Point: canonical.Point{X: 220, Y: 440}}}
	return planner.Plan{Topology: planner.Two, Intent: canonical.IntentPinch, DurationMs: 40,
		Viewport: canonical.Viewport{Width: 390, Height: 844},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: p0}, {PointerID: 1, Samples: p1}}}
}

// malformedCase breaks one runner rule of an otherwise valid plan.
type malformedCase struct {
	name   string
	plan   func() planner.Plan
	mutate func(p *planner.Plan)
	want   string
}

// malformedPlans breaks each of the runner's rules once, in its order.
func malformedPlans() []malformedCase {
	return []malformedCase{
		{"unknown_topology", validTwo, func(p *planner.Plan) { p.Topology = "three" }, "planned gesture topology must be single or two"},
		{"pinch_with_one_contact", validSingle, func(p *planner.Plan) { p.Intent = canonical.IntentPinch },
			"planned gesture has unsupported intent for its topology"},
		{"fling_with_two_contacts", validTwo, func(p *planner.Plan) { p.Intent = canonical.IntentFling },
			"planned gesture has unsupported intent for its topology"},
		{"unknown_intent", validTwo, func(p *planner.Plan) { p.Intent = "swipe" },
			"planned gesture has unsupported intent for its topology"},
		{"single_without_profile", validSingle, func(p *planner.Plan) { p.ExecutionProfile = "" },
			"single-pointer gesture requires a supported execution profile"},
		{"single_with_unknown_profile", validSingle, func(p *planner.Plan) { p.ExecutionProfile = "smoothstep" },
			"single-pointer gesture requires a supported execution profile"},
		{"two_with_profile", validTwo, func(p *planner.Plan) { p.ExecutionProfile = canonical.ProfileTimedPan },
			"multi-touch gesture cannot define a single-pointer execution profile"},
		{"duration_too_short", validSingle, func(p *planner.Plan) {
			p.DurationMs = 15
			p.Pointers[0].Samples[1].OffsetMs = 15
		}, "planned gesture durationMs must be between 16 and 10000"},
		{"duration_too_long", validSingle, func(p *planner.Plan) {
			p.DurationMs = 10001
			p.Pointers[0].Samples[1].OffsetMs = 10001
		}, "planned gesture durationMs must be between 16 and 10000"},
		{"viewport_not_finite", validSingle, func(p *planner.Plan) { p.Viewport.X = math.NaN() },
			"planned gesture viewport must be finite and positive"},
		{"viewport_empty", validTwo, func(p *planner.Plan) { p.Viewport.Height = 0 },
			"planned gesture viewport must be finite and positive"},
		{"single_with_two_pointers", validTwo, func(p *planner.Plan) {
			p.Topology, p.Intent, p.ExecutionProfile = planner.Single, canonical.IntentPan, canonical.ProfileTimedPan
		}, "planned gesture pointer count does not match topology"},
		{"two_with_one_pointer", validTwo, func(p *planner.Plan) { p.Pointers = p.Pointers[:1] },
			"planned gesture pointer count does not match topology"},
		{"pointer_ids_swapped", validTwo, func(p *planner.Plan) { p.Pointers[0].PointerID, p.Pointers[1].PointerID = 1, 0 },
			"planned gesture requires ordered pointer ids"},
		{"one_sample", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples = p.Pointers[0].Samples[:1] },
			"planned pointer paths require at least two samples"},
		{"sample_counts_differ", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples = p.Pointers[1].Samples[:2] },
			"planned pointer paths require matching samples"},
		{"offsets_differ", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[1].OffsetMs = 21 },
			"planned pointer sample offsets must match and strictly increase"},
		{"offsets_repeat", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples[1].OffsetMs = 0 },
			"planned pointer sample offsets must match and strictly increase"},
		{"sample_left_of_viewport", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples[1].Point.X = -0.01 },
			"planned pointer sample lies outside the viewport"},
		{"sample_below_viewport", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[2].Point.Y = 844.5 },
			"planned pointer sample lies outside the viewport"},
		{"sample_nan", validTwo, func(p *planner.Plan) { p.Pointers[0].Samples[0].Point.X = math.NaN() },
			"planned pointer sample lies outside the viewport"},
		{"late_start", validSingle, func(p *planner.Plan) { p.Pointers[0].Samples[0].OffsetMs = 1 },
			"planned pointer paths must start at 0 and end at durationMs"},
		{"early_end", validTwo, func(p *planner.Plan) { p.DurationMs = 50 },
			"planned pointer paths must start at 0 and end at durationMs"},
		{"contacts_start_together", validTwo, func(p *planner.Plan) { p.Pointers[1].Samples[0].Point = p.Pointers[0].Samples[0].Point },
			"planned pointer paths require a positive initial span"},
	}
}

func TestValidationRejectsMalformedPlans(t *testing.T) {
	for _, c := range malformedPlans() {
		t.Run(c.name, func(t *testing.T) {
			plan := c.plan()
			if _, err := ios.LowerRequest(plan, bundleID); err != nil {
				t.Fatalf("the unbroken plan is refused: %v", err)
			}
			c.mutate(&plan)
			for name, err := range map[string]error{
				"LowerRequest": requestErr(ios.LowerRequest(plan, bundleID)),
				"Synthesize":   recordErr(ios.Synthesize(plan, ios.AppState{Window: plan.Viewport})),
			} {
				ce, ok := canonical.AsError(err)
				if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Message != c.want {
					t.Errorf("%s: got %v, want INVALID_ARGS: %s", name, err, c.want)
				}
			}
		})
	}
}

func requestErr(_ ios.RunnerRequest, err error) error { return err }

// The runner's edges are inclusive with no inset: a sample exactly on the
// viewport's edge is accepted even though the planner would not produce it.
func TestValidationEdgesAreInclusive(t *testing.T) {
	plan := validSingle()
	plan.Pointers[0].Samples[0].Point = canonical.Point{X: 0, Y: 0}
	plan.Pointers[0].Samples[1].Point = canonical.Point{X: 390, Y: 844}
	if _, err := ios.LowerRequest(plan, bundleID); err != nil {
		t.Fatalf("a sample on the edge is refused: %v", err)
	}
}
