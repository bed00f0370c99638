package planner

import "github.com/flow-runner/flow/canonical"

// DragPoints is a target-authored drag after both endpoints were resolved to
// points on the live screen. Nil durations take the defaults (800 ms source
// hold, 500 ms move, no destination hold).
type DragPoints struct {
	From              canonical.Point
	To                canonical.Point
	SourceHoldMs      *float64
	MoveMs            *float64
	DestinationHoldMs *float64
}

// Drag plans a target-authored drag: hold at the source, move over moveMs,
// optionally hold at the destination, then release — one uninterrupted
// single-pointer timed-pan plan with three or four samples. It has no
// platform parameter: its samples are the authored ones on every platform.
func Drag(in DragPoints, vp canonical.Viewport) (Plan, error) {
	v, err := checkViewport(vp)
	if err != nil {
		return Plan{}, err
	}
	hold, err := intInRange(in.SourceHoldMs, canonical.DefaultSourceHoldMs, 1, canonical.MaxDurationMs, "gesture drag sourceHoldMs")
	if err != nil {
		return Plan{}, err
	}
	move, err := durationOr(in.MoveMs, canonical.DefaultMoveMs, "gesture drag moveMs")
	if err != nil {
		return Plan{}, err
	}
	dhold, err := intInRange(in.DestinationHoldMs, 0, 0, canonical.MaxDurationMs, "gesture drag destinationHoldMs")
	if err != nil {
		return Plan{}, err
	}
	if hold+move+dhold > canonical.MaxDurationMs {
		return Plan{}, invalidf("gesture drag total duration must be at most %d", canonical.MaxDurationMs).
			WithHint("shorten the holds or the move so that they add up to 10000 ms or less")
	}
	from, to := in.From, in.To
	base, err := planSingle(canonical.IntentPan, &from, &to, move, v, canonical.ProfileTimedPan)
	if err != nil {
		return Plan{}, err
	}
	total := hold + move + dhold
	samples := []Sample{
		{OffsetMs: 0, Point: from},
		{OffsetMs: hold, Point: from},
		{OffsetMs: hold + move, Point: to},
	}
	if dhold > 0 {
		samples = append(samples, Sample{OffsetMs: total, Point: to})
	}
	base.DurationMs = total
	base.Pointers = []Pointer{{PointerID: 0, Samples: samples}}
	return base, nil
}
