package android

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Protocol names the payload format the helper accepts; it refuses any other.
const Protocol = "android-touch-plan-v1"

// Kind is the helper's gesture kind. It fixes how many pointer paths the
// helper expects, which is why it is derived from the plan's topology and
// never chosen by a caller.
type Kind string

// The helper's gesture kinds.
const (
	KindSwipe     Kind = "swipe"     // one contact
	KindTransform Kind = "transform" // two contacts
)

// The helper's own duration limits (TouchPlan.java). They are wider than the
// planner's 16..10000 ms because the same helper also runs scroll and
// long-press movement.
const (
	helperMinDurationMs = 0
	helperMaxDurationMs = 120000
)

// Helper timeouts of §5.2: long enough for a cold instrumentation start plus
// the gesture itself.
const (
	minHelperTimeoutMs   = 45000
	helperTimeoutSlackMs = 15000
)

// Sample is one transport sample: a pointer's position at an integer
// millisecond offset from the first DOWN.
type Sample struct {
	OffsetMs int     `json:"offsetMs"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

// Pointer is one contact's complete transport trajectory.
type Pointer struct {
	PointerID int      `json:"pointerId"`
	Samples   []Sample `json:"samples"`
}

// TransportPlan is the helper payload of agent-device §5.2. Its fields are
// unexported so that only [Lower] can build one: a function that injects a
// TransportPlan is thereby guaranteed a validated and, for one contact,
// densified plan. The zero value is the only other TransportPlan that can
// exist; it marshals to an error and schedules no events.
type TransportPlan struct {
	kind       Kind
	durationMs int
	pointers   []Pointer
}

// Kind is "swipe" for one contact and "transform" for two.
func (p TransportPlan) Kind() Kind { return p.kind }

// DurationMs is the offset of the last sample of every pointer.
func (p TransportPlan) DurationMs() int { return p.durationMs }

// Pointers returns a copy of the trajectories, so a caller cannot edit a
// plan after it was validated.
func (p TransportPlan) Pointers() []Pointer {
	out := make([]Pointer, len(p.pointers))
	for i, ptr := range p.pointers {
		out[i] = Pointer{PointerID: ptr.PointerID, Samples: slices.Clone(ptr.Samples)}
	}
	return out
}

// HelperTimeoutMs is how long the host waits for the helper to inject the
// plan: max(45000, durationMs + 15000).
func (p TransportPlan) HelperTimeoutMs() int {
	return max(minHelperTimeoutMs, p.durationMs+helperTimeoutSlackMs)
}

// payload fixes the key order of the wire format.
type payload struct {
	Protocol   string    `json:"protocol"`
	Kind       Kind      `json:"kind"`
	DurationMs int       `json:"durationMs"`
	Pointers   []Pointer `json:"pointers"`
}

// MarshalJSON writes exactly the helper payload:
// {"protocol":"android-touch-plan-v1","kind":…,"durationMs":…,"pointers":[…]}.
func (p TransportPlan) MarshalJSON() ([]byte, error) {
	if p.kind == "" {
		// A zero value was never validated; sending it would make the helper,
		// not flow, report the mistake.
		return nil, canonical.NewError(canonical.CodeInternal, "android transport plan was not built by android.Lower").
			WithHint("lower the gesture plan with android.Lower before sending it to the helper")
	}
	return json.Marshal(payload{Protocol: Protocol, Kind: p.kind, DurationMs: p.durationMs, Pointers: p.pointers})
}

// PayloadBase64 is the payloadBase64 argument of the helper: standard base64
// of the UTF-8 JSON payload.
func (p TransportPlan) PayloadBase64() (string, error) {
	data, err := p.MarshalJSON()
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// Lower validates a plan with the helper's own rules and lowers it to the
// transport: one-contact plans are densified to the Android sampling profile
// with linear movement inside each planned segment, two-contact plans keep
// their exact planned samples. The execution profile is ignored on Android:
// an endpoint-hold fling is a linear move like any other (§2).
func Lower(plan planner.Plan) (TransportPlan, error) {
	return lower(plan, linear)
}

// progress maps the linear progress u through a planned segment lasting
// segmentMs to the fraction of the segment the contact has covered. Gestures
// move linearly; scroll's controlled release (§5.1) is the one other
// progress a transport plan will need, and it eases by segment duration.
type progress func(u float64, segmentMs int) float64

func linear(u float64, _ int) float64 { return u }

// LowerScroll lowers the physical movement of a scroll with a controlled
// release: inside each segment the contact accelerates over the first frame
// (at most half the segment), then decelerates to rest at the segment end,
// so the content stops where the finger lifts instead of flinging on.
// Gestures never use it; the scroll command's Android path does (§5.1, §5.4).
func LowerScroll(plan planner.Plan) (TransportPlan, error) {
	return lower(plan, controlledRelease)
}

// controlledRelease is the §5.1 ease: with n = min(16/D, 0.5), quadratic
// acceleration until n, then a quadratic approach to the end.
func controlledRelease(u float64, segmentMs int) float64 {
	n := math.Min(16/float64(segmentMs), 0.5)
	if u < n {
		return float64(u*u) / n
	}
	return 1 - float64((1-u)*(1-u))/(1-n)
}

func lower(plan planner.Plan, move progress) (TransportPlan, error) {
	kind := kindOf(plan.Topology)
	pointers := fromPlan(plan.Pointers)
	if err := validate(kind, plan.DurationMs, pointers); err != nil {
		return TransportPlan{}, err
	}
	if kind == KindSwipe {
		dense, err := densify(pointers[0], plan.DurationMs, move)
		if err != nil {
			return TransportPlan{}, err
		}
		pointers = []Pointer{dense}
	}
	return TransportPlan{kind: kind, durationMs: plan.DurationMs, pointers: pointers}, nil
}

// kindOf derives the helper kind from the topology. An unknown topology
// becomes an unknown kind so that the helper's own "Unsupported kind" rule
// refuses it.
func kindOf(t planner.Topology) Kind {
	switch t {
	case planner.Single:
		return KindSwipe
	case planner.Two:
		return KindTransform
	}
	return Kind(t)
}

func fromPlan(in []planner.Pointer) []Pointer {
	out := make([]Pointer, len(in))
	for i, ptr := range in {
		samples := make([]Sample, len(ptr.Samples))
		for j, s := range ptr.Samples {
			samples[j] = Sample{OffsetMs: s.OffsetMs, X: s.Point.X, Y: s.Point.Y}
		}
		out[i] = Pointer{PointerID: ptr.PointerID, Samples: samples}
	}
	return out
}

func helperRefusal(msg string, kind Kind) *canonical.Error {
	return canonical.NewError(canonical.CodeInvalidArgs, msg).
		With("kind", string(kind)).
		WithHint("plan the gesture with the planner: the Android helper would refuse this plan")
}

// validate applies the helper's payload rules (TouchPlan.java) in the
// helper's order and with its messages, so a plan that would fail on the
// device fails here first, before anything is sent. The helper's "offsetMs
// must be a finite integer" rule needs no check: offsets are Go ints.
func validate(kind Kind, durationMs int, pointers []Pointer) error {
	if kind != KindSwipe && kind != KindTransform {
		return helperRefusal("Unsupported kind: "+string(kind), kind)
	}
	if durationMs < helperMinDurationMs || durationMs > helperMaxDurationMs {
		return helperRefusal(fmt.Sprintf("durationMs must be between %d and %d", helperMinDurationMs, helperMaxDurationMs), kind)
	}
	want := 1
	if kind == KindTransform {
		want = 2
	}
	if len(pointers) != want {
		return helperRefusal(fmt.Sprintf("Planned %s gesture requires exactly %d pointer paths", kind, want), kind)
	}
	for i, ptr := range pointers {
		if ptr.PointerID != i {
			return helperRefusal("Planned pointer ids must be ordered from 0", kind)
		}
		if len(ptr.Samples) < 2 {
			return helperRefusal("Planned pointer path requires at least two samples", kind)
		}
		previous := -1
		for _, s := range ptr.Samples {
			if !canonical.IsFinite(s.X) || !canonical.IsFinite(s.Y) {
				return helperRefusal("Planned sample coordinates must be finite", kind)
			}
			// A zero-duration plan (a stationary touch) may repeat offset 0;
			// every other plan must move forward in time.
			if s.OffsetMs < previous || (s.OffsetMs == previous && durationMs != 0) {
				return helperRefusal("Planned sample offsets must be strictly increasing", kind)
			}
			previous = s.OffsetMs
		}
		if ptr.Samples[0].OffsetMs != 0 || ptr.Samples[len(ptr.Samples)-1].OffsetMs != durationMs {
			return helperRefusal("Pointer path must start at 0 and end at durationMs", kind)
		}
	}
	if want == 2 {
		first, second := pointers[0].Samples, pointers[1].Samples
		if len(first) != len(second) {
			return helperRefusal("Planned pointer paths must have matching samples", kind)
		}
		for i := range first {
			if first[i].OffsetMs != second[i].OffsetMs {
				return helperRefusal("Planned pointer sample offsets must match", kind)
			}
		}
	}
	return nil
}

// densify resamples one validated pointer path onto the union of the
// Android sampling timeline and the path's own offsets. Keeping the planned
// offsets keeps holds exact: a drag's source hold ends at precisely the
// planned millisecond rather than somewhere inside a frame.
func densify(ptr Pointer, durationMs int, move progress) (Pointer, error) {
	// The planner's own Android timeline (ADR 0013: one sampling profile).
	offsets, err := planner.SampleOffsets(durationMs, planner.Android)
	if err != nil {
		return Pointer{}, err
	}
	for _, s := range ptr.Samples {
		offsets = append(offsets, s.OffsetMs)
	}
	slices.Sort(offsets)
	offsets = slices.Compact(offsets)

	planned := ptr.Samples
	out := make([]Sample, len(offsets))
	seg := 0
	for i, e := range offsets {
		for seg < len(planned)-2 && e > planned[seg+1].OffsetMs {
			seg++
		}
		out[i] = pointAt(planned[seg], planned[seg+1], e, move)
	}
	return Pointer{PointerID: ptr.PointerID, Samples: out}, nil
}

// pointAt interpolates inside the segment a→b at offset e. The segment's end
// is returned exactly rather than recomputed, so planned endpoints survive
// lowering bit for bit.
func pointAt(a, b Sample, e int, move progress) Sample {
	segmentMs := b.OffsetMs - a.OffsetMs
	if e == b.OffsetMs || segmentMs == 0 {
		return Sample{OffsetMs: e, X: b.X, Y: b.Y}
	}
	u := float64(e-a.OffsetMs) / float64(segmentMs)
	t := move(u, segmentMs)
	// The products are wrapped so that no platform fuses them into FMA
	// instructions and drifts from agent-device's numbers.
	return Sample{
		OffsetMs: e,
		X:        a.X + float64((b.X-a.X)*t),
		Y:        a.Y + float64((b.Y-a.Y)*t),
	}
}
