package canonical

// Limits of the repeated coordinate swipe (agent-device.md §4). Each is a
// bound on its own field; MaxSwipeSeriesMs bounds the whole schedule so that
// valid fields cannot compose into an unbounded device lock.
const (
	MaxSwipeCount    = 200
	MaxSwipePauseMs  = 10000
	MaxSwipeSeriesMs = 60000
)

// Swipe patterns.
const (
	PatternOneWay   = "one-way"
	PatternPingPong = "ping-pong"
)

// SwipeInput is a validated top-level "swipe x1 y1 x2 y2" command: a fixed
// 100 ms fling between two points, optionally repeated.
type SwipeInput struct {
	From    Point  `json:"from"`
	To      Point  `json:"to"`
	Count   int    `json:"count"`
	PauseMs int    `json:"pauseMs"`
	Pattern string `json:"pattern"`
}

// SeriesMs is the planned wall time of the whole series: every fling plus
// the pauses between them (none after the last).
func (s SwipeInput) SeriesMs() int {
	return s.Count*FlingDurationMs + max(0, s.Count-1)*s.PauseMs
}

// Gesture is the fling of iteration i; ping-pong swaps the endpoints on odd
// iterations.
func (s SwipeInput) Gesture(i int) Gesture {
	from, to := s.From, s.To
	if s.Pattern == PatternPingPong && i%2 == 1 {
		from, to = to, from
	}
	return Gesture{Intent: IntentFling, From: &from, To: &to}
}

// SwipeFlags are the optional flags of the swipe command; nil means absent.
type SwipeFlags struct {
	Count   *float64
	PauseMs *float64
	Pattern *string
}

func swipePoint(o object, key, name string) (Point, error) {
	p, ok := o.m[key].(map[string]any)
	if !ok {
		return Point{}, invalidf("%s must be a point", name)
	}
	x, okx := p["x"].(float64)
	if !okx || !IsFinite(x) {
		return Point{}, invalidf("%s x must be finite", name)
	}
	y, oky := p["y"].(float64)
	if !oky || !IsFinite(y) {
		return Point{}, invalidf("%s y must be finite", name)
	}
	return Point{X: x, Y: y}, nil
}

// NormalizeSwipe validates a structured swipe {from, to, count?, pauseMs?,
// pattern?} with agent-device's daemon rules, including the 60 s series cap.
func NormalizeSwipe(raw any) (SwipeInput, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return SwipeInput{}, NewError(CodeInvalidArgs, "swipe requires structured object input")
	}
	o := object{m: m}
	if o.has("durationMs") {
		return SwipeInput{}, removed("swipe does not accept durationMs; use gesture pan for timed movement", "durationMs")
	}
	s := SwipeInput{Count: 1, Pattern: PatternOneWay}
	if v, present := o.m["pattern"]; present {
		p, _ := v.(string)
		if p != PatternOneWay && p != PatternPingPong {
			return s, NewError(CodeInvalidArgs, "swipe pattern must be one-way or ping-pong").
				WithHint("use --pattern one-way or --pattern ping-pong")
		}
		s.Pattern = p
	}
	var err error
	if s.From, err = swipePoint(o, "from", "swipe from"); err != nil {
		return s, err
	}
	if s.To, err = swipePoint(o, "to", "swipe to"); err != nil {
		return s, err
	}
	count, err := o.integer("count", bound(1), bound(MaxSwipeCount))
	if err != nil {
		return s, err
	}
	pause, err := o.integer("pauseMs", bound(0), bound(MaxSwipePauseMs))
	if err != nil {
		return s, err
	}
	if count != nil {
		s.Count = int(*count)
	}
	if pause != nil {
		s.PauseMs = int(*pause)
	}
	if total := s.SeriesMs(); total > MaxSwipeSeriesMs {
		return s, invalidf("Swipe series must fit within %dms.", MaxSwipeSeriesMs).
			With("count", s.Count).With("pauseMs", s.PauseMs).
			With("gestureDurationMs", FlingDurationMs).With("scheduledDurationMs", total).
			WithHint("Reduce --count or --pause-ms.")
	}
	return s, nil
}

// ParseSwipeArgs turns "swipe x1 y1 x2 y2" plus its flags into a validated
// [SwipeInput], checking arity against the one table first.
func ParseSwipeArgs(args []string, flags SwipeFlags) (SwipeInput, error) {
	if err := CheckArity("swipe", args, ""); err != nil {
		return SwipeInput{}, err
	}
	o := map[string]any{
		"from": map[string]any{"x": numberAt(args, 0), "y": numberAt(args, 1)},
		"to":   map[string]any{"x": numberAt(args, 2), "y": numberAt(args, 3)},
	}
	if flags.Count != nil {
		o["count"] = *flags.Count
	}
	if flags.PauseMs != nil {
		o["pauseMs"] = *flags.PauseMs
	}
	if flags.Pattern != nil {
		o["pattern"] = *flags.Pattern
	}
	return NormalizeSwipe(o)
}
