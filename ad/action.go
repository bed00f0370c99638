package ad

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// Escape writes literal text as .ad text: every ${ becomes \${, which
// [Resolve] turns back into ${.
func Escape(s string) string { return strings.ReplaceAll(s, "${", `\${`) }

// StepCommand is the canonical command a converted step runs; nil for a
// no-op step. A drag recorded with targets-v1 carries both endpoints'
// identities, which the runtime verifies before pointer-down.
func StepCommand(s Step, a Action) (canonical.Command, error) {
	meta := canonical.Meta{Pos: a.Pos, Name: a.Command}
	switch {
	case s.NoOp != "":
		return nil, nil
	case s.Command != nil:
		return s.Command, nil
	case s.Gesture != nil && s.Gesture.Swipe != nil:
		return &canonical.SwipeSeries{Meta: meta, Swipe: *s.Gesture.Swipe}, nil
	case s.Gesture != nil && s.Gesture.Gesture != nil && s.Gesture.Gesture.Kind == canonical.KindDrag:
		if len(s.DragSource) == 0 || len(s.DragDestination) == 0 {
			return nil, canonical.NewError(canonical.CodeUnsupportedOperation, "this drag's endpoints cannot be expressed as flow selectors").
				At(a.Pos).WithHint("use id=, text= or label= selectors for both endpoints")
		}
		g := s.Gesture.Gesture
		d := &canonical.Drag{Meta: meta, Source: s.DragSource[0], Destination: s.DragDestination[0],
			SourceHoldMs: g.SourceHoldMs, MoveMs: g.MoveMs, DestinationHoldMs: g.DestinationHoldMs}
		if s.Targets != nil {
			d.ExpectSource = &canonical.Identity{ID: s.Targets.Source.ID, Label: s.Targets.Source.Label}
			d.ExpectDestination = &canonical.Identity{ID: s.Targets.Destination.ID, Label: s.Targets.Destination.Label}
		}
		return d, nil
	case s.Gesture != nil && s.Gesture.Gesture != nil:
		return &canonical.GestureStep{Meta: meta, Input: *s.Gesture.Gesture}, nil
	}
	return nil, canonical.Errorf(canonical.CodeUnsupportedOperation, "%s cannot run yet", a.Command).At(a.Pos).
		WithHint("see flow convert for what .ad commands map to")
}

func act(command string, positionals ...string) Action {
	return Action{Command: command, Positionals: positionals}
}

// With is a with flag set to value (the flag map is shared with a, as
// every caller replaces a with the result).
func (a Action) With(flag, value string) Action {
	if a.Flags == nil {
		a.Flags = map[string]string{}
	}
	a.Flags[flag] = value
	return a
}

// GestureAction is a structured gesture's .ad action (what `flow gesture`
// takes on its command line), or the reasons it has none.
func GestureAction(g canonical.GestureInput) (Action, []string) {
	acts, why := gestureAction(g)
	if len(why) > 0 || len(acts) != 1 {
		return Action{}, why
	}
	return acts[0], nil
}

// gestureAction writes a gesture in the positional syntax.
func gestureAction(g canonical.GestureInput) ([]Action, []string) {
	n := canonical.FormatNumber
	pt := func(p *canonical.Point) []string {
		if p == nil {
			return nil
		}
		return []string{n(p.X), n(p.Y)}
	}
	ms := func(v *int) []string {
		if v == nil {
			return nil
		}
		return []string{strconv.Itoa(*v)}
	}
	a := act("gesture", string(g.Kind))
	add := func(s ...string) { a.Positionals = append(a.Positionals, s...) }
	switch g.Kind {
	case canonical.KindPan:
		add(pt(g.Origin)...)
		add(pt(g.Delta)...)
		add(ms(g.DurationMs)...)
		if g.PointerCount != nil {
			a = a.With("pointer-count", strconv.Itoa(*g.PointerCount))
		}
	case canonical.KindFling:
		add(string(g.Direction))
		add(pt(g.Origin)...)
		if g.Distance != nil {
			add(n(*g.Distance))
		}
	case canonical.KindSwipe:
		add(string(g.Preset))
	case canonical.KindPinch:
		add(n(g.Scale))
		add(pt(g.Origin)...)
	case canonical.KindRotate:
		add(n(g.Degrees))
		add(pt(g.Origin)...)
	case canonical.KindTransform:
		add(pt(g.Origin)...)
		add(pt(g.Delta)...)
		add(n(g.Scale), n(g.Degrees))
		add(ms(g.DurationMs)...)
	case canonical.KindDrag:
		add(Escape(g.Source), Escape(g.Destination))
		// The durations are positional: one left out before a given one is
		// written as its default, so the given one keeps its place.
		hold, move, dhold := g.SourceHoldMs, g.MoveMs, g.DestinationHoldMs
		if dhold != nil && move == nil {
			v := canonical.DefaultMoveMs
			move = &v
		}
		if move != nil && hold == nil {
			v := canonical.DefaultSourceHoldMs
			hold = &v
		}
		add(ms(hold)...)
		add(ms(move)...)
		add(ms(dhold)...)
	default:
		return nil, []string{fmt.Sprintf("unknown gesture kind %q", g.Kind)}
	}
	return []Action{a}, nil
}
