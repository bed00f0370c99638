package exec

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// perform plans a canonical gesture against the viewport read now and hands
// the plan to the device: the one path every gesture takes (ADR 0013).
func (r *run) perform(ctx context.Context, g canonical.Gesture, vp canonical.Viewport) error {
	plan, err := planner.Gesture(g, vp, planner.Platform(r.info.Platform))
	if err != nil {
		return err
	}
	r.interaction()
	r.event("gesture", map[string]any{"plan": plan})
	if err := r.dev.PerformGesture(ctx, plan); err != nil {
		return deviceErr(err, "perform the gesture")
	}
	return nil
}

// swipe resolves both ends against a fresh viewport (an element end is
// found first), then runs the canonical pan with the endpoint-hold profile.
func (r *run) swipe(ctx context.Context, s *canonical.Swipe) error {
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return deviceErr(err, "read the viewport")
	}
	var element *canonical.Point
	if s.Start.Kind == canonical.AnchorElement {
		f, _, err := r.findOrFail(ctx, s.Start.Element, s.Optional)
		if err != nil {
			return err
		}
		c := f.node.Bounds.Center()
		element = &c
	}
	percent := func(a canonical.Anchor) (string, error) {
		if a.Kind != canonical.AnchorPercent {
			return "", nil
		}
		return r.str(ctx, *a.Percent)
	}
	ps, err := percent(s.Start)
	if err != nil {
		return err
	}
	pe, err := percent(s.End)
	if err != nil {
		return err
	}
	from, err := s.Start.Resolve(vp, r.info.Platform, ps, nil, element)
	if err != nil {
		return err
	}
	to, err := s.End.Resolve(vp, r.info.Platform, pe, &from, element)
	if err != nil {
		return err
	}
	g, err := s.Pan(from, to, r.info.Platform)
	if err != nil {
		return err
	}
	if err := r.perform(ctx, g, vp); err != nil {
		return err
	}
	_, err = r.settleFor(ctx, s.WaitToSettleTimeoutMs)
	return err
}

// swipeDuration is Maestro's speed-to-duration rule for scrollUntilVisible:
// floor(1000*(100-speed)/100)+1 ms; a negative result becomes 40 ms.
func swipeDuration(speed float64) int {
	d := math.Floor(1000*(100-speed)/100) + 1
	switch {
	case d < 0 || d != d:
		return 40
	case d > math.MaxInt32:
		// Kotlin's toLong saturates; no swipe lasts longer than this.
		return math.MaxInt32
	}
	return int(d)
}

// contentToSwipe maps scrollUntilVisible's content direction to the swipe
// that brings that content into view: DOWN means swipe up.
func contentToSwipe(direction string) string {
	switch direction {
	case "down":
		return "UP"
	case "up":
		return "DOWN"
	case "left":
		return "RIGHT"
	}
	return "LEFT"
}

// scrollUntilVisible is Maestro's loop (§5.4): probe for the element for up
// to 500 ms; if it is visible enough, done; otherwise swipe from the centre
// of the viewport and try again until the timeout. It always probes once
// and swipes after every failed probe.
func (r *run) scrollUntilVisible(ctx context.Context, s *canonical.ScrollUntilVisible) error {
	// Maestro counts it as mutating when it succeeds, even without a swipe.
	r.interaction()
	q, err := r.compile(ctx, &s.Element)
	if err != nil {
		return err
	}
	speedText, err := r.str(ctx, s.Speed)
	if err != nil {
		return err
	}
	speed, perr := strconv.ParseFloat(strings.TrimSpace(speedText), 64)
	if perr != nil {
		return errorf(canonical.CodeInvalidArgs, "speed %q is not a number", speedText).At(s.Speed.Pos).WithHint("speed: 40")
	}
	timeoutText, err := r.str(ctx, s.TimeoutMs)
	if err != nil {
		return err
	}
	timeoutMs, perr := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(timeoutText), "_", ""), 64)
	if perr != nil {
		return errorf(canonical.CodeInvalidArgs, "timeout %q is not a number", timeoutText).At(s.TimeoutMs.Pos).WithHint("timeout: 20000")
	}
	if timeoutMs < 0 {
		timeoutMs = 20000
	}
	// Maestro divides integers: any visibility below 100% means "found".
	required := float64(s.VisibilityPercentage / 100)
	swipeDir := contentToSwipe(s.Direction)
	duration := swipeDuration(speed)
	deadline := r.clock.Now().Add(millis(timeoutMs))
	centerTries := 0
	for {
		f, scr, err := r.find(ctx, q, 500*time.Millisecond)
		if err != nil {
			return err
		}
		if f != nil {
			w, h := int(scr.vp.X+scr.vp.Width), int(scr.vp.Y+scr.vp.Height)
			vis := visiblePercentage(*f.node.Bounds, w, h)
			if s.CenterElement && vis > 0.1 && centerTries <= 4 {
				if nearCenter(*f.node.Bounds, swipeDir, w, h) {
					return nil
				}
				centerTries++
			} else if vis >= required {
				return nil
			}
		}
		if err := r.swipeFromCenter(ctx, swipeDir, duration, s.WaitToSettleTimeoutMs); err != nil {
			return err
		}
		if !r.clock.Now().Before(deadline) {
			return errorf(canonical.CodeElementNotFound, "No visible element found: %s", q.describe()).
				With("selector", q.describe()).
				WithHint("the element did not come into view within the timeout; check direction (the way the content moves into view) or raise timeout")
		}
	}
}

func nearCenter(b Rect, swipeDir string, w, h int) bool {
	c := b.Center()
	switch swipeDir {
	case "RIGHT":
		return c.X > float64(w/2-w/5)
	case "LEFT":
		return c.X < float64(w/2+w/5)
	case "UP":
		return c.Y < float64(h/2+h/5)
	}
	return c.Y > float64(h/2-h/5)
}

// swipeFromCenter swipes from the viewport centre towards an edge fraction,
// with the endpoint-hold profile, as scrollUntilVisible does.
func (r *run) swipeFromCenter(ctx context.Context, dir string, durationMs int, settleMs *int) error {
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return deviceErr(err, "read the viewport")
	}
	from := canonical.Point{X: vp.X + math.Trunc(vp.Width/2), Y: vp.Y + math.Trunc(vp.Height/2)}
	to := from
	switch dir {
	case "UP":
		to.Y = vp.Y + math.Trunc(vp.Height*0.1)
	case "DOWN":
		to.Y = vp.Y + math.Trunc(vp.Height*0.9)
	case "RIGHT":
		to.X = vp.X + math.Trunc(vp.Width*0.9)
	case "LEFT":
		to.X = vp.X + math.Trunc(vp.Width*0.1)
	}
	d := min(max(durationMs, canonical.MinDurationMs), canonical.MaxDurationMs)
	sw := &canonical.Swipe{DurationMs: canonical.Same(d)}
	g, err := sw.Pan(from, to, r.info.Platform)
	if err != nil {
		return err
	}
	if err := r.perform(ctx, g, vp); err != nil {
		return err
	}
	_, err = r.settleFor(ctx, settleMs)
	return err
}

// haversine is the great-circle distance in metres.
func haversine(a, b canonical.Point) float64 {
	const earth = 6371000.0
	rad := math.Pi / 180
	dLat, dLng := (b.X-a.X)*rad, (b.Y-a.Y)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.X*rad)*math.Cos(b.X*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earth * math.Asin(math.Sqrt(h))
}

// gestureStep plans a gesture written in flow's gesture syntax against a
// fresh viewport.
func (r *run) gestureStep(ctx context.Context, t *canonical.GestureStep) error {
	g, err := t.Input.Gesture(canonical.Internal{})
	if err != nil {
		return err
	}
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return deviceErr(err, "read the viewport")
	}
	if err := r.perform(ctx, g, vp); err != nil {
		return err
	}
	_, err = r.settle(ctx)
	return err
}

// swipeSeries runs each fling of a repeated swipe, reading the viewport
// again for every one and pausing only between them.
func (r *run) swipeSeries(ctx context.Context, t *canonical.SwipeSeries) error {
	for i := 0; i < t.Swipe.Count; i++ {
		if i > 0 && t.Swipe.PauseMs > 0 {
			if err := r.clock.Sleep(ctx, time.Duration(t.Swipe.PauseMs)*time.Millisecond); err != nil {
				return err
			}
		}
		vp, err := r.dev.Viewport(ctx)
		if err != nil {
			return deviceErr(err, "read the viewport")
		}
		if err := r.perform(ctx, t.Swipe.Gesture(i), vp); err != nil {
			return err
		}
	}
	_, err := r.settle(ctx)
	return err
}

// drag resolves both endpoints before pointer-down, then performs one
// hold-move-hold plan between their centres.
func (r *run) drag(ctx context.Context, t *canonical.Drag) error {
	src, _, err := r.findOrFail(ctx, &t.Source, t.Optional)
	if err != nil {
		return err
	}
	dst, _, err := r.findOrFail(ctx, &t.Destination, t.Optional)
	if err != nil {
		return err
	}
	if err := verifyIdentity("source", t.ExpectSource, src.node, t.Source.Pos); err != nil {
		return err
	}
	if err := verifyIdentity("destination", t.ExpectDestination, dst.node, t.Destination.Pos); err != nil {
		return err
	}
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return deviceErr(err, "read the viewport")
	}
	f := func(v *int) *float64 {
		if v == nil {
			return nil
		}
		x := float64(*v)
		return &x
	}
	plan, err := planner.Drag(planner.DragPoints{From: src.node.Bounds.Center(), To: dst.node.Bounds.Center(),
		SourceHoldMs: f(t.SourceHoldMs), MoveMs: f(t.MoveMs), DestinationHoldMs: f(t.DestinationHoldMs)}, vp)
	if err != nil {
		return err
	}
	r.interaction()
	r.event("gesture", map[string]any{"plan": plan,
		"targets": map[string]any{"source": IdentityOf(src.node), "destination": IdentityOf(dst.node)}})
	if err := r.dev.PerformGesture(ctx, plan); err != nil {
		return deviceErr(err, "drag")
	}
	_, err = r.settle(ctx)
	return err
}

// IdentityOf is the identity a recording keeps for an element: its id and
// its label, else its text.
func IdentityOf(n *Node) canonical.Identity {
	label := n.Label
	if label == "" {
		label = n.Text
	}
	return canonical.Identity{ID: n.ID, Label: label}
}

// verifyIdentity refuses a drag endpoint that resolved to another element
// than the one recorded, before anything touches the screen.
func verifyIdentity(end string, want *canonical.Identity, n *Node, pos canonical.Pos) error {
	if want == nil {
		return nil
	}
	got := IdentityOf(n)
	if (want.ID == "" || want.ID == got.ID) && (want.Label == "" || want.Label == got.Label) {
		return nil
	}
	return errorf(canonical.CodeAssertionFailed, "the drag %s is not the recorded element: recorded id %q label %q, found id %q label %q",
		end, want.ID, want.Label, got.ID, got.Label).At(pos).
		With("expected", *want).With("found", got).
		WithHint("the screen no longer matches the recording, so nothing was dragged; re-record the drag or fix the selector")
}
