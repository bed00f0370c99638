package planner

import "github.com/flow-runner/flow/canonical"

// Step is one fling of a repeated swipe and when it starts in the series.
type Step struct {
	StartMs int  `json:"startMs"`
	Plan    Plan `json:"plan"`
}

// Series is the whole schedule of a repeated coordinate swipe: what
// `flow plan -- swipe ...` prints. At run time each step is planned again
// against a freshly read viewport; the schedule shows what will happen if the
// viewport does not change.
type Series struct {
	Count      int    `json:"count"`
	PauseMs    int    `json:"pauseMs"`
	Pattern    string `json:"pattern"`
	DurationMs int    `json:"durationMs"`
	Steps      []Step `json:"steps"`
}

// SwipeSeries plans every fling of a validated repeated swipe.
func SwipeSeries(in canonical.SwipeInput, vp canonical.Viewport, platform Platform) (Series, error) {
	s := Series{Count: in.Count, PauseMs: in.PauseMs, Pattern: in.Pattern, DurationMs: in.SeriesMs()}
	start := 0
	for i := range in.Count {
		p, err := Gesture(in.Gesture(i), vp, platform)
		if err != nil {
			return Series{}, err
		}
		s.Steps = append(s.Steps, Step{StartMs: start, Plan: p})
		start += p.DurationMs + in.PauseMs
	}
	return s, nil
}
