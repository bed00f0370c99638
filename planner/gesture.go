package planner

import (
	"fmt"
	"math"

	"github.com/flow-runner/flow/canonical"
)

// Geometry constants of ADR 0013.
const (
	// MinimumReliableSpan is the smallest distance between two contacts that
	// recognizers reliably see as two fingers.
	MinimumReliableSpan = 48
	pinchSpanFraction   = 0.40
	otherSpanFraction   = 0.25
	frameMs             = 16
	minFrames           = 3
	// boundsInset keeps every sample one point inside the viewport edge.
	boundsInset = 1
)

const (
	hintOutOfBounds = "Move the gesture away from the edge or reduce its translation, scale, or rotation."
	hintNonFinite   = "Reduce the requested rotation, translation, or scale."
)

func invalidf(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...)
}

// Gesture plans a canonical gesture against a freshly resolved viewport.
func Gesture(g canonical.Gesture, vp canonical.Viewport, platform Platform) (Plan, error) {
	v, err := checkViewport(vp)
	if err != nil {
		return Plan{}, err
	}
	prof, err := profileFor(platform)
	if err != nil {
		return Plan{}, err
	}
	switch g.Intent {
	case canonical.IntentFling:
		return planFling(g, v)
	case canonical.IntentPan:
		return planPan(g, v, prof)
	case canonical.IntentPinch:
		scale, err := positive(g.Scale, "gesture pinch scale", "must be greater than 0")
		if err != nil {
			return Plan{}, err
		}
		return planTwo(twoContact{intent: canonical.IntentPinch, origin: originOrCenter(g.Origin, v),
			delta: &canonical.Point{}, scale: scale, degrees: 0, durationMs: canonical.PinchDurationMs}, v, prof)
	case canonical.IntentRotate:
		deg, err := finite(g.Degrees, "gesture rotate degrees")
		if err != nil {
			return Plan{}, err
		}
		return planTwo(twoContact{intent: canonical.IntentRotate, origin: originOrCenter(g.Origin, v),
			delta: &canonical.Point{}, scale: 1, degrees: deg, durationMs: rotateDurationMs(deg)}, v, prof)
	case canonical.IntentTransform:
		deg, err := finite(g.Degrees, "gesture transform degrees")
		if err != nil {
			return Plan{}, err
		}
		scale, err := positive(g.Scale, "gesture transform scale", "must be greater than 0")
		if err != nil {
			return Plan{}, err
		}
		d, err := durationOr(g.DurationMs, float64(rotateDurationMs(deg)), "gesture transform durationMs")
		if err != nil {
			return Plan{}, err
		}
		return planTwo(twoContact{intent: canonical.IntentTransform, origin: g.Origin, delta: g.Delta,
			scale: scale, degrees: deg, durationMs: d}, v, prof)
	}
	return Plan{}, invalidf("unknown gesture intent %q", string(g.Intent)).
		WithHint("use one of: pan, fling, pinch, rotate, transform")
}

func checkViewport(vp canonical.Viewport) (canonical.Viewport, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"x", vp.X}, {"y", vp.Y}, {"width", vp.Width}, {"height", vp.Height}} {
		if !canonical.IsFinite(f.v) {
			return vp, invalidf("gesture viewport %s must be a finite number", f.name).
				WithHint("the device reported an unusable viewport; pass --viewport X,Y,W,H with finite numbers")
		}
	}
	if vp.Width <= 0 || vp.Height <= 0 {
		return vp, invalidf("gesture viewport width and height must be positive").
			WithHint("the viewport must have a positive size, for example --viewport 0,0,390,844")
	}
	return vp, nil
}

func finite(v *float64, name string) (float64, error) {
	if v == nil || !canonical.IsFinite(*v) {
		return 0, notFinite(name)
	}
	return *v, nil
}

func positive(v *float64, name, rule string) (float64, error) {
	f, err := finite(v, name)
	if err != nil {
		return 0, err
	}
	if f <= 0 {
		return 0, invalidf("%s %s", name, rule).WithHint("use a value greater than 0")
	}
	return f, nil
}

// finitePoint checks both coordinates; the field is named "gesture <intent>
// <role> x" in the error, built only when there is one.
func finitePoint(p *canonical.Point, intent canonical.Intent, role string) (canonical.Point, error) {
	name := func(axis string) string { return "gesture " + string(intent) + " " + role + " " + axis }
	if p == nil {
		return canonical.Point{}, notFinite(name("x"))
	}
	if !canonical.IsFinite(p.X) {
		return canonical.Point{}, notFinite(name("x"))
	}
	if !canonical.IsFinite(p.Y) {
		return canonical.Point{}, notFinite(name("y"))
	}
	return *p, nil
}

func notFinite(name string) error {
	return invalidf("%s must be a finite number", name).
		WithHint("coordinates, scale and degrees must be ordinary numbers; the gesture arithmetic overflowed or a value is missing")
}

// intInRange reads an optional integer duration with its default.
func intInRange(v *float64, def float64, lo, hi int, name string) (int, error) {
	d := def
	if v != nil {
		d = *v
	}
	if !canonical.IsInteger(d) || d < float64(lo) || d > float64(hi) {
		return 0, invalidf("%s must be an integer between %d and %d", name, lo, hi).
			WithHint(fmt.Sprintf("use whole milliseconds from %d to %d", lo, hi))
	}
	return int(d), nil
}

func durationOr(v *float64, def float64, name string) (int, error) {
	return intInRange(v, def, canonical.MinDurationMs, canonical.MaxDurationMs, name)
}

func originOrCenter(p *canonical.Point, v canonical.Viewport) *canonical.Point {
	if p != nil {
		return p
	}
	c := v.Center()
	return &c
}

// rotateDurationMs paces rotation from its size: 16 ms per 3 degrees,
// between 300 ms and 2400 ms.
func rotateDurationMs(deg float64) int {
	d := math.Ceil(math.Abs(deg)/3) * frameMs
	return int(math.Min(math.Max(300, d), 2400))
}

func planFling(g canonical.Gesture, v canonical.Viewport) (Plan, error) {
	switch g.FlingMode() {
	case "preset":
		from, to := presetPoints(g.Preset, v)
		return planSingle(canonical.IntentFling, &from, &to, canonical.FlingDurationMs, v, canonical.ProfileEndpointHold)
	case "points":
		return planSingle(canonical.IntentFling, g.From, g.To, canonical.FlingDurationMs, v, canonical.ProfileEndpointHold)
	}
	origin, err := finitePoint(g.Origin, canonical.IntentFling, "origin")
	if err != nil {
		return Plan{}, err
	}
	dist := float64(canonical.DefaultFlingDistance)
	if g.Distance != nil {
		dist = *g.Distance
	}
	if dist, err = positive(&dist, "gesture fling distance", "must be a positive number"); err != nil {
		return Plan{}, err
	}
	vec, err := flingVector(g.Direction, dist)
	if err != nil {
		return Plan{}, err
	}
	to := origin.Add(vec)
	return planSingle(canonical.IntentFling, &origin, &to, canonical.FlingDurationMs, v, canonical.ProfileEndpointHold)
}

// flingVector is the finger's movement: "fling up" moves the finger up.
func flingVector(d canonical.Direction, dist float64) (canonical.Point, error) {
	switch d {
	case canonical.DirectionUp:
		return canonical.Point{Y: -dist}, nil
	case canonical.DirectionDown:
		return canonical.Point{Y: dist}, nil
	case canonical.DirectionLeft:
		return canonical.Point{X: -dist}, nil
	case canonical.DirectionRight:
		return canonical.Point{X: dist}, nil
	}
	return canonical.Point{}, invalidf("gesture fling direction %q must be one of: up, down, left, right", string(d)).
		WithHint("fling up moves the finger up; use up, down, left or right")
}

func planPan(g canonical.Gesture, v canonical.Viewport, prof profile) (Plan, error) {
	d, err := durationOr(g.DurationMs, canonical.DefaultPanDurationMs, "gesture pan durationMs")
	if err != nil {
		return Plan{}, err
	}
	pc := 1.0
	if g.PointerCount != nil {
		pc = *g.PointerCount
	}
	if pc == 1 {
		origin, err := finitePoint(g.Origin, canonical.IntentPan, "origin")
		if err != nil {
			return Plan{}, err
		}
		delta, err := finitePoint(g.Delta, canonical.IntentPan, "delta")
		if err != nil {
			return Plan{}, err
		}
		end := origin.Add(delta)
		profile := g.ExecutionProfile
		if profile == "" {
			profile = canonical.ProfileTimedPan
		}
		return planSingle(canonical.IntentPan, &origin, &end, d, v, profile)
	}
	if pc != 2 {
		return Plan{}, invalidf("gesture pan pointerCount must be 1 or 2").
			WithHint("omit pointerCount for one finger or pass 2 for a two-finger pan")
	}
	return planTwo(twoContact{intent: canonical.IntentPan, origin: g.Origin, delta: g.Delta,
		scale: 1, degrees: 0, durationMs: d}, v, prof)
}

// planSingle builds a one-contact plan: exactly its two endpoint samples.
// Densifying is a transport concern (Android lowers to ~16 ms samples).
func planSingle(intent canonical.Intent, from, to *canonical.Point, durationMs int, v canonical.Viewport,
	profile canonical.ExecutionProfile) (Plan, error) {
	start, err := finitePoint(from, intent, "start")
	if err != nil {
		return Plan{}, err
	}
	end, err := finitePoint(to, intent, "end")
	if err != nil {
		return Plan{}, err
	}
	samples := []Sample{{OffsetMs: 0, Point: start}, {OffsetMs: durationMs, Point: end}}
	if err := checkBounds(samples, v, intent, 0); err != nil {
		return Plan{}, err
	}
	return Plan{Topology: Single, Intent: intent, ExecutionProfile: profile, DurationMs: durationMs,
		Viewport: v, Pointers: []Pointer{{PointerID: 0, Samples: samples}}}, nil
}

type twoContact struct {
	intent     canonical.Intent
	origin     *canonical.Point
	delta      *canonical.Point
	scale      float64
	degrees    float64
	durationMs int
}

// planTwo builds two synchronized trajectories around a moving centroid.
// Translation, scale and rotation progress together in one uninterrupted
// sequence so recognizers observe every component.
func planTwo(in twoContact, v canonical.Viewport, prof profile) (Plan, error) {
	start, err := finitePoint(in.origin, in.intent, "origin")
	if err != nil {
		return Plan{}, err
	}
	delta, err := finitePoint(in.delta, in.intent, "delta")
	if err != nil {
		return Plan{}, err
	}
	end := start.Add(delta)
	fraction := otherSpanFraction
	if in.intent == canonical.IntentPinch {
		fraction = pinchSpanFraction
	}
	base := float64(math.Min(v.Width, v.Height) * fraction)
	initial := base
	if in.scale > 1 {
		initial = base / in.scale
	}
	final := float64(initial * in.scale)
	if math.Min(initial, final) < MinimumReliableSpan {
		return Plan{}, canonical.NewError(canonical.CodeInvalidArgs, "Gesture trajectory does not fit inside the viewport").
			WithHint(hintOutOfBounds).
			With("intent", in.intent).With("viewport", v).
			With("initialSpan", initial).With("finalSpan", final).
			With("minimumReliableSpan", MinimumReliableSpan).
			With("reason", canonical.ReasonOutOfBounds)
	}
	frames, err := frameCount(float64(in.durationMs), prof)
	if err != nil {
		return Plan{}, err
	}
	startDeg := -90.0
	if in.intent == canonical.IntentPinch {
		startDeg = prof.pinchAxisDegrees
	}
	radius := initial / 2
	// Both contacts share the centroid, radius and angle of each frame (the
	// second is the first mirrored through the centroid), so each is
	// computed once; with no rotation the angle is the same for every frame
	// and its trig is computed once for the whole plan. The arithmetic per
	// point is unchanged, so results are bit-identical to per-pointer
	// evaluation.
	n := frames + 1
	backing := make([]Sample, 2*n)
	first, second := backing[:n:n], backing[n:]
	// math.Sincos gives the same bits as math.Sin and math.Cos (the same
	// reduction and polynomials, math/sincos.go) for one reduction instead
	// of two.
	fixedSin, fixedCos := 0.0, 0.0
	if in.degrees == 0 {
		theta := float64(startDeg*math.Pi) / 180
		fixedSin, fixedCos = math.Sincos(theta)
	}
	// The bounds are checked as the points are made; a plan with a point
	// outside (or not finite) is handed to checkBounds, which finds the same
	// first offender in the same order and words the error.
	minX, maxX := v.X+boundsInset, v.X+v.Width-boundsInset
	minY, maxY := v.Y+boundsInset, v.Y+v.Height-boundsInset
	inside := true
	offsets := newFrameOffsets(in.durationMs, frames)
	for i := range n {
		off := offsets.at(i)
		t := float64(off) / float64(in.durationMs)
		cx := start.X + float64((end.X-start.X)*t)
		cy := start.Y + float64((end.Y-start.Y)*t)
		r := float64(radius * float64(1+float64((in.scale-1)*t)))
		sin, cos := fixedSin, fixedCos
		if in.degrees != 0 {
			theta := float64(float64(startDeg+float64(in.degrees*t))*math.Pi) / 180
			sin, cos = math.Sincos(theta)
		}
		dx, dy := float64(cos*r), float64(sin*r)
		x1, y1 := cx+dx, cy+dy
		x2, y2 := cx+float64(-dx), cy+float64(-dy)
		first[i] = Sample{OffsetMs: off, Point: canonical.Point{X: x1, Y: y1}}
		second[i] = Sample{OffsetMs: off, Point: canonical.Point{X: x2, Y: y2}}
		// NaN fails every comparison, so a non-finite point is not inside;
		// ±Inf is outside any finite viewport.
		inside = inside && x1 >= minX && x1 <= maxX && y1 >= minY && y1 <= maxY &&
			x2 >= minX && x2 <= maxX && y2 >= minY && y2 <= maxY
	}
	if !inside || !canonical.IsFinite(minX) || !canonical.IsFinite(maxX) || !canonical.IsFinite(minY) || !canonical.IsFinite(maxY) {
		if err := checkBounds(first, v, in.intent, 0); err != nil {
			return Plan{}, err
		}
		if err := checkBounds(second, v, in.intent, 1); err != nil {
			return Plan{}, err
		}
	}
	pointers := []Pointer{{PointerID: 0, Samples: first}, {PointerID: 1, Samples: second}}
	return Plan{Topology: Two, Intent: in.intent, DurationMs: in.durationMs, Viewport: v, Pointers: pointers}, nil
}

// SampleOffsets is the frame timeline of a platform's sampling profile:
// about one frame per 16 ms, at least three frames, Android rounding and
// every other platform truncating the frame count. Two-contact plans use it,
// and the Android transport densifies one-contact plans with the same
// timeline (ADR 0013), so there is one definition.
func SampleOffsets(durationMs int, platform Platform) ([]int, error) {
	prof, err := profileFor(platform)
	if err != nil {
		return nil, err
	}
	frames, err := frameCount(float64(durationMs), prof)
	if err != nil {
		return nil, err
	}
	out := make([]int, frames+1)
	offsets := newFrameOffsets(durationMs, frames)
	for i := range out {
		out[i] = offsets.at(i)
	}
	return out, nil
}

func frameCount(durationMs float64, prof profile) (int, error) {
	if !canonical.IsFinite(durationMs) || durationMs <= 0 {
		return 0, invalidf("gesture sample duration must be a positive finite number").
			WithHint("use a duration from 16 to 10000 ms")
	}
	r := durationMs / frameMs
	var frames float64
	if prof.roundFrames {
		frames = canonical.JSRound(r)
	} else {
		frames = math.Floor(r)
	}
	return int(math.Max(minFrames, frames)), nil
}

// frameOffset is frame i of n on the integer timeline: round(d*i/n), all
// positive, so Math.round and JSRound agree.
func frameOffset(durationMs, i, frames int) int {
	return int(canonical.JSRound(float64(float64(durationMs)*float64(i)) / float64(frames)))
}

// frameOffsets walks frameOffset(d, 0..n, n) without a division per frame:
// round-half-up of d*i/n is floor((2*d*i + n) / (2*n)), carried on as a
// quotient and remainder that grow by 2*d each frame. It is exact where the
// float form is: d*i/n's fraction is a multiple of 1/n, so it is either
// exactly one half (which the float quotient represents exactly) or at
// least 1/(2n) away from it, far more than the quotient's rounding error
// while d*n stays under 2^40. Outside that range it defers to frameOffset.
// TestFrameOffsetsMatchFrameOffset holds the two equal.
type frameOffsets struct {
	d, frames  int
	q, r       int // quotient and remainder of (2*d*i + n) / (2*n)
	qStep, rSt int // 2*d / (2*n) and its remainder
	exact      bool
}

func newFrameOffsets(durationMs, frames int) frameOffsets {
	f := frameOffsets{d: durationMs, frames: frames}
	if durationMs > 0 && frames > 0 && durationMs <= 1<<20 && frames <= 1<<20 {
		den := 2 * frames
		f.exact = true
		f.q, f.r = frames/den, frames%den
		f.qStep, f.rSt = (2*durationMs)/den, (2*durationMs)%den
	}
	return f
}

// at returns frame i's offset; with exact, calls must come in order 0, 1, 2, ...
func (f *frameOffsets) at(i int) int {
	if !f.exact {
		return frameOffset(f.d, i, f.frames)
	}
	if i > 0 {
		f.q += f.qStep
		f.r += f.rSt
		if f.r >= 2*f.frames {
			f.r -= 2 * f.frames
			f.q++
		}
	}
	return f.q
}

// checkBounds refuses a trajectory with any sample outside the viewport's
// 1-point inset, reporting non-finite points first.
func checkBounds(samples []Sample, v canonical.Viewport, intent canonical.Intent, pointerID int) error {
	maxX, maxY := v.X+v.Width-boundsInset, v.Y+v.Height-boundsInset
	for _, s := range samples {
		x, y := s.Point.X, s.Point.Y
		if !canonical.IsFinite(x) || !canonical.IsFinite(y) {
			return canonical.NewError(canonical.CodeInvalidArgs, "Gesture motion produces non-finite pointer coordinates").
				WithHint(hintNonFinite).
				With("intent", intent).With("pointerId", pointerID).
				With("reason", canonical.ReasonNonFinite)
		}
		if x < v.X+boundsInset || x > maxX || y < v.Y+boundsInset || y > maxY {
			return canonical.NewError(canonical.CodeInvalidArgs, "Gesture trajectory does not fit inside the viewport").
				WithHint(hintOutOfBounds).
				With("intent", intent).With("pointerId", pointerID).With("viewport", v).
				With("sample", s).
				With("reason", canonical.ReasonOutOfBounds)
		}
	}
	return nil
}
