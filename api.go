package flow

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// PlanOptions say what a gesture is planned for.
type PlanOptions struct {
	// Platform is the planning profile: planner.Android, planner.IOS,
	// planner.Web…; empty is agent-device's platform-neutral profile, which
	// plans as iOS does.
	Platform planner.Platform
	// Viewport is the screen area gestures must fit; nil is a phone of the
	// platform (Android 1080×2400, others 390×844), as flow plan uses.
	Viewport *canonical.Viewport
}

// DefaultViewport is the phone flow plans for when no viewport is given.
func DefaultViewport(p planner.Platform) canonical.Viewport {
	if p == planner.Android {
		return canonical.Viewport{Width: 1080, Height: 2400}
	}
	return canonical.Viewport{Width: 390, Height: 844}
}

// GestureInput normalizes structured gesture input as every surface does:
// a canonical.GestureInput as it is, anything else (a map as
// encoding/json decodes it, a struct with json tags, json.RawMessage or
// []byte holding JSON) through its JSON. Removed forms and
// executionProfile are refused with the CLI's errors.
func GestureInput(input any) (canonical.GestureInput, error) {
	switch v := input.(type) {
	case canonical.GestureInput:
		return v, nil
	case *canonical.GestureInput:
		return *v, nil
	}
	var data []byte
	switch v := input.(type) {
	case json.RawMessage:
		data = v
	case []byte:
		data = v
	default:
		b, err := json.Marshal(input)
		if err != nil {
			return canonical.GestureInput{}, canonical.Errorf(canonical.CodeInvalidArgs, "gesture input is not JSON: %v", err).
				WithHint(`pass a value such as map[string]any{"kind": "pinch", "scale": 0.5}`)
		}
		data = b
	}
	raw, err := canonical.DecodeJSON(data)
	if err != nil {
		return canonical.GestureInput{}, err
	}
	return canonical.NormalizeGesture(raw)
}

// PlanGesture plans structured gesture input (contracts §3) as flow plan
// does, with no device: the same plan, or the same coded error, as the
// CLI, .ad and flow mcp give for it.
func PlanGesture(input any, o PlanOptions) (planner.Plan, error) {
	in, err := GestureInput(input)
	if err != nil {
		return planner.Plan{}, err
	}
	return PlanInput(in, o)
}

// PlanInput plans normalized gesture input.
func PlanInput(in canonical.GestureInput, o PlanOptions) (planner.Plan, error) {
	p, err := planner.ParsePlatform(string(o.Platform))
	if err != nil {
		return planner.Plan{}, err
	}
	vp := DefaultViewport(p)
	if o.Viewport != nil {
		vp = *o.Viewport
	}
	g, err := in.Gesture(canonical.Internal{})
	if err != nil {
		return planner.Plan{}, err
	}
	return planner.Gesture(g, vp, p)
}

// act runs one action and turns a failed one into its error, for the
// convenience methods: their callers want an error, not a result to read.
func (s *Session) act(ctx context.Context, command string, args ...string) (Outcome, error) {
	out, err := s.Do(ctx, command, args...)
	if err == nil && out.Result.Error != nil {
		err = out.Result.Error
	}
	return out, err
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Launch launches an app as Maestro's launchApp does: stopped first, its
// permissions allowed.
func (s *Session) Launch(ctx context.Context, appID string) (Outcome, error) {
	return s.act(ctx, "open", appID)
}

// Press taps the element a selector finds (.ad syntax: text="Log in",
// id=email, label=…, or a ref @e3 from the last Snapshot).
func (s *Session) Press(ctx context.Context, selector string) (Outcome, error) {
	return s.act(ctx, "press", selector)
}

// PressAt taps a point.
func (s *Session) PressAt(ctx context.Context, x, y float64) (Outcome, error) {
	return s.act(ctx, "press", num(x), num(y))
}

// Fill taps the field a selector finds and types text into it.
func (s *Session) Fill(ctx context.Context, selector, text string) (Outcome, error) {
	return s.act(ctx, "fill", selector, text)
}

// Type types text into the focused field.
func (s *Session) Type(ctx context.Context, text string) (Outcome, error) {
	return s.act(ctx, "type", text)
}

// Swipe flings from (x1,y1) to (x2,y2) in 100 ms, as `flow swipe` does.
func (s *Session) Swipe(ctx context.Context, x1, y1, x2, y2 float64) (Outcome, error) {
	return s.act(ctx, "swipe", num(x1), num(y1), num(x2), num(y2))
}

// Scroll scrolls up, down, left or right.
func (s *Session) Scroll(ctx context.Context, direction string) (Outcome, error) {
	return s.act(ctx, "scroll", direction)
}

// Gesture performs structured gesture input (see [GestureInput]) as its
// exact .ad line, so it is planned, performed and recorded as `flow
// gesture` would do it; Outcome.Plans holds the plan performed.
func (s *Session) Gesture(ctx context.Context, input any) (Outcome, error) {
	in, err := GestureInput(input)
	if err != nil {
		return Outcome{}, err
	}
	a, why := ad.GestureAction(in)
	if len(why) > 0 {
		return Outcome{}, canonical.Errorf(canonical.CodeInvalidArgs, "this gesture has no .ad form: %v", why).
			WithHint("use the kinds and fields of contracts §3")
	}
	out, err := s.DoLine(ctx, "gesture", ad.EncodeAction(a))
	if err == nil && out.Result.Error != nil {
		err = out.Result.Error
	}
	return out, err
}

// Back presses back (nothing on iOS, as in Maestro).
func (s *Session) Back(ctx context.Context) (Outcome, error) { return s.act(ctx, "back") }

// Home leaves the app for the home screen.
func (s *Session) Home(ctx context.Context) (Outcome, error) { return s.act(ctx, "home") }

// Wait waits until the element a selector finds is visible, at most
// timeout (0: the CLI's default).
func (s *Session) Wait(ctx context.Context, selector string, timeout time.Duration) (Outcome, error) {
	if timeout > 0 {
		return s.act(ctx, "wait", selector, strconv.FormatInt(timeout.Milliseconds(), 10))
	}
	return s.act(ctx, "wait", selector)
}

// Is checks an element: predicate is visible, hidden, exists or absent;
// a check that does not hold is an error (ASSERTION_FAILED).
func (s *Session) Is(ctx context.Context, predicate, selector string) (Outcome, error) {
	return s.act(ctx, "is", predicate, selector)
}

// Screenshot is a PNG of the screen.
func (s *Session) Screenshot(ctx context.Context) ([]byte, error) {
	dev, err := s.Device(ctx)
	if err != nil {
		return nil, err
	}
	return dev.Screenshot(ctx)
}
