package phone

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// touchProtocol is the payload format the helper accepts (exec/android
// Protocol); the fake reads it from the wire as the Java helper does,
// without exec/android's types, so a payload flow builds wrongly is refused
// here rather than fixed up.
const touchProtocol = "android-touch-plan-v1"

// The helper's duration limits (TouchPlan.java; exec/android lower.go).
const (
	touchMinDurationMs = 0
	touchMaxDurationMs = 120000
)

// wirePlan is the payload as JSON numbers, so that integer rules can be
// checked on what arrived rather than on a float it was rounded into.
type wirePlan struct {
	Protocol   *string       `json:"protocol"`
	Kind       *string       `json:"kind"`
	DurationMs *json.Number  `json:"durationMs"`
	Pointers   []wirePointer `json:"pointers"`
}

type wirePointer struct {
	PointerID *json.Number `json:"pointerId"`
	Samples   []wireSample `json:"samples"`
}

type wireSample struct {
	OffsetMs *json.Number `json:"offsetMs"`
	X        *json.Number `json:"x"`
	Y        *json.Number `json:"y"`
}

// parseTouch validates a received plan with the helper's rules, in the
// helper's order and with its messages (exec/android lower.go validate, and
// the wire-level rules validate does not need because Go types enforce
// them), and rebuilds the canonical plan it carries: samples unchanged.
func parseTouch(raw json.RawMessage) (planner.Plan, error) {
	if len(raw) == 0 {
		return planner.Plan{}, invalid("missing required field: plan")
	}
	var w wirePlan
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return planner.Plan{}, invalid("plan is not a touch plan object: %v", err)
	}
	if w.Protocol == nil || *w.Protocol != touchProtocol {
		got := "(none)"
		if w.Protocol != nil {
			got = *w.Protocol
		}
		return planner.Plan{}, invalid("Unsupported protocol: %s", got)
	}
	kind := ""
	if w.Kind != nil {
		kind = *w.Kind
	}
	want := map[string]int{"swipe": 1, "transform": 2}[kind]
	if want == 0 {
		return planner.Plan{}, invalid("Unsupported kind: %s", kind)
	}
	duration, ok := wireInt(w.DurationMs)
	if !ok || duration < touchMinDurationMs || duration > touchMaxDurationMs {
		return planner.Plan{}, invalid("durationMs must be between %d and %d", touchMinDurationMs, touchMaxDurationMs)
	}
	if len(w.Pointers) != want {
		return planner.Plan{}, invalid("Planned %s gesture requires exactly %d pointer paths", kind, want)
	}
	plan := planner.Plan{Topology: planner.Single, Intent: canonical.IntentPan, DurationMs: duration}
	if want == 2 {
		plan.Topology, plan.Intent = planner.Two, canonical.IntentTransform
	}
	for i, ptr := range w.Pointers {
		if id, ok := wireInt(ptr.PointerID); !ok || id != i {
			return planner.Plan{}, invalid("Planned pointer ids must be ordered from 0")
		}
		if len(ptr.Samples) < 2 {
			return planner.Plan{}, invalid("Planned pointer path requires at least two samples")
		}
		out := planner.Pointer{PointerID: i}
		previous := -1
		for _, s := range ptr.Samples {
			x, okx := wireFloat(s.X)
			y, oky := wireFloat(s.Y)
			if !okx || !oky {
				return planner.Plan{}, invalid("Planned sample coordinates must be finite")
			}
			off, ok := wireInt(s.OffsetMs)
			if !ok {
				return planner.Plan{}, invalid("offsetMs must be a finite integer")
			}
			if off < previous || (off == previous && duration != 0) {
				return planner.Plan{}, invalid("Planned sample offsets must be strictly increasing")
			}
			previous = off
			out.Samples = append(out.Samples, planner.Sample{OffsetMs: off, Point: canonical.Point{X: x, Y: y}})
		}
		if out.Samples[0].OffsetMs != 0 || out.Samples[len(out.Samples)-1].OffsetMs != duration {
			return planner.Plan{}, invalid("Pointer path must start at 0 and end at durationMs")
		}
		plan.Pointers = append(plan.Pointers, out)
	}
	if want == 2 {
		a, b := plan.Pointers[0].Samples, plan.Pointers[1].Samples
		if len(a) != len(b) {
			return planner.Plan{}, invalid("Planned pointer paths must have matching samples")
		}
		for i := range a {
			if a[i].OffsetMs != b[i].OffsetMs {
				return planner.Plan{}, invalid("Planned pointer sample offsets must match")
			}
		}
	}
	return plan, nil
}

// wireInt reads a JSON number that must be an integer (Java's rule: a
// finite number equal to its integer part, so 50.0 is 50).
func wireInt(n *json.Number) (int, bool) {
	if n == nil {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(*n), 10, 32); err == nil {
		return int(i), true
	}
	f, err := strconv.ParseFloat(string(*n), 64)
	if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

func wireFloat(n *json.Number) (float64, bool) {
	if n == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(*n), 64)
	return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// stationary says the plan is one finger that never moves: a tap or a long
// press, which flow sends as touch too (helper-apk/PROTOCOL.md).
func stationary(plan planner.Plan) bool {
	if len(plan.Pointers) != 1 {
		return false
	}
	s := plan.Pointers[0].Samples
	return !slices.ContainsFunc(s, func(x planner.Sample) bool { return x.Point != s[0].Point })
}

// touch performs a received plan on sim. A stationary one-contact plan is a
// tap or a long press by its duration (sim's threshold is Android's 500 ms
// long-press timeout); anything else is a gesture with the samples as they
// arrived, which sim moves through linearly, as the helper injects them.
func (p *Phone) touch(ctx context.Context, raw json.RawMessage) (response, error) {
	p.mu.Lock()
	p.touches = append(p.touches, slices.Clone([]byte(raw)))
	n := len(p.touches)
	p.mu.Unlock()
	plan, err := parseTouch(raw)
	if err != nil {
		return nil, err
	}
	if p.faults.TouchRefusedAt == n {
		// The Java helper's words for a refused injection (TouchInjector).
		return nil, &opError{code: "COMMAND_FAILED", message: "injectInputEvent refused an event; ACTION_CANCEL sent",
			hint: "another app may own the screen (a system dialog, a pinned app); look at the device and retry"}
	}
	start := time.Now()
	// The DOWN of the first touch after a transition waits (API 30+);
	// the helper re-anchors the rest of the schedule on its return, so
	// the gesture itself runs as planned, only later.
	wait := p.takeDownWait()
	if wait > 0 {
		if err := p.clock.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	switch {
	case stationary(plan) && plan.DurationMs < longPressTimeoutMs:
		err = p.dev.Tap(ctx, plan.Start())
	case stationary(plan):
		err = p.dev.LongPress(ctx, plan.Start(), time.Duration(plan.DurationMs)*time.Millisecond)
	default:
		err = p.dev.PerformGesture(ctx, plan)
	}
	if err != nil {
		return nil, err
	}
	p.bump()
	// The schedule exec/android.Schedule builds: DOWN, a MOVE per later
	// sample and UP; two contacts add POINTER_DOWN and POINTER_UP.
	events := len(plan.Pointers[0].Samples) + 1
	if len(plan.Pointers) == 2 {
		events += 2
	}
	// downWaitMs: how long the first DOWN waited for window animations
	// before the schedule was re-anchored (helper-apk TouchInjector, issue
	// 19 M2); 0 unless Options.DownWaitAfterTransition delays it.
	return response{"injectedEvents": events, "elapsedMs": time.Since(start).Milliseconds(), "lateMs": 0, "downWaitMs": wait.Milliseconds()}, nil
}

// longPressTimeoutMs is Android's ViewConfiguration long-press timeout, the
// threshold sim itself uses (exec/sim device.go).
const longPressTimeoutMs = 500
