package canonical

import (
	"math"
	"strings"
)

// syntaxRule is one row of the public positional gesture syntax.
type syntaxRule struct {
	max     int
	usage   string
	retired string // the trailing positional that was removed, if any
	rewrite func(args []string, kept string) string
}

// publicGestureSyntax is THE arity table (ADR 0013 PUBLIC_GESTURE_SYNTAX).
// The CLI argv parser and the .ad line parser both consult it, so removing a
// form here removes it from both in the same edit. Forms are "swipe" and
// "gesture <kind>"; max counts positionals after the form's words.
func publicGestureSyntax(form string) (syntaxRule, bool) {
	throwOrPan := func(_ []string, kept string) string {
		return `use "` + kept + `", or gesture pan for timed movement.`
	}
	switch form {
	case "swipe":
		return syntaxRule{max: 4, usage: "swipe accepts 4 arguments: x1 y1 x2 y2",
			retired: "durationMs", rewrite: swipeRewrite}, true
	case "gesture pan":
		return syntaxRule{max: 5, usage: "gesture pan accepts at most 5 arguments: x y dx dy [durationMs]"}, true
	case "gesture fling":
		return syntaxRule{max: 4, usage: "gesture fling accepts at most 4 arguments: direction x y [distance]",
			retired: "durationMs", rewrite: throwOrPan}, true
	case "gesture swipe":
		return syntaxRule{max: 1, usage: "gesture swipe accepts 1 argument: preset",
			retired: "durationMs", rewrite: throwOrPan}, true
	case "gesture pinch":
		return syntaxRule{max: 3, usage: "gesture pinch accepts at most 3 arguments: scale [x] [y]"}, true
	case "gesture rotate":
		return syntaxRule{max: 3, usage: "gesture rotate accepts at most 3 arguments: degrees [x] [y]",
			retired: "velocity", rewrite: func(_ []string, kept string) string {
				return `use "` + kept + `"; rotation pacing derives from degrees.`
			}}, true
	case "gesture transform":
		return syntaxRule{max: 7, usage: "gesture transform accepts at most 7 arguments: x y dx dy scale degrees [durationMs]"}, true
	case "gesture drag":
		return syntaxRule{max: 5, usage: "gesture drag accepts at most 5 arguments: source destination [sourceHoldMs] [moveMs] [destinationHoldMs]"}, true
	}
	return syntaxRule{}, false
}

// swipeRewrite turns "swipe x1 y1 x2 y2 d" into the equivalent timed pan.
func swipeRewrite(args []string, kept string) string {
	dx := ParseNumber(args[2]) - ParseNumber(args[0])
	dy := ParseNumber(args[3]) - ParseNumber(args[1])
	if !IsFinite(dx) || !IsFinite(dy) {
		return `use "gesture pan x1 y1 dx dy durationMs" for the same timed drag, or "` + kept + `" for a default-duration swipe.`
	}
	return `use "gesture pan ` + args[0] + " " + args[1] + " " + FormatNumber(dx) + " " + FormatNumber(dy) + " " + args[4] +
		`" for the same timed drag, or "` + kept + `" for a default-duration swipe.`
}

// retirable reports whether a surplus token looks like the removed numeric
// positional: a number, or a ${VAR} that would have become one.
func retirable(tok string) bool {
	if strings.TrimSpace(tok) == "" {
		return false
	}
	return strings.HasPrefix(tok, "${") || IsFinite(ParseNumber(tok))
}

// CheckArity checks the positional count of a "swipe" or "gesture" command
// line against the one arity table. args are the tokens after the command
// word (for gesture, args[0] is the kind). loc, when set ("line 7"), is
// inserted after the usage as .ad scripts report it. Arity is the only thing
// decidable before ${VAR} resolution, which is why it is checked apart from
// value validation.
func CheckArity(command string, args []string, loc string) error {
	form, rest := command, args
	if command == "gesture" {
		if len(args) == 0 {
			return nil
		}
		form, rest = "gesture "+args[0], args[1:]
	}
	rule, ok := publicGestureSyntax(form)
	if !ok || len(rest) <= rule.max {
		return nil
	}
	msg := rule.usage
	if loc != "" {
		msg += " (" + loc + ")"
	}
	e := NewError(CodeInvalidArgs, "")
	if rule.retired != "" && len(rest) == rule.max+1 && retirable(rest[rule.max]) {
		kept := form + " " + strings.Join(rest[:rule.max], " ")
		rewrite := rule.rewrite(rest, kept)
		e.Message = msg + ". The trailing " + rule.retired + " positional was removed: " + rewrite
		e.Hint = "timed swipes, timed flings and rotate velocity were removed; write the rewrite above (timed movement is always gesture pan)"
		e.With("removed", rule.retired).With("rewrite", rewrite)
		return e
	}
	e.Message = msg + "."
	e.Hint = "Check command arguments and run --help for usage examples."
	return e
}

// optionalNumber is JS's `tok === undefined ? undefined : Number(tok)`.
func optionalNumber(args []string, i int) any {
	if i >= len(args) {
		return nil
	}
	return ParseNumber(args[i])
}

func numberAt(args []string, i int) float64 {
	if i >= len(args) {
		return math.NaN()
	}
	return ParseNumber(args[i])
}

func stringAt(args []string, i int) any {
	if i >= len(args) {
		return nil
	}
	return args[i]
}

// setIf stores v under key unless v is nil (JavaScript's undefined).
func setIf(o map[string]any, key string, v any) {
	if v != nil {
		o[key] = v
	}
}

func originPair(args []string, i int) (any, error) {
	hasX, hasY := i < len(args), i+1 < len(args)
	if hasX != hasY {
		return nil, NewError(CodeInvalidArgs, "gesture origin requires both x and y coordinates").
			WithHint("give both x and y, or neither to use the viewport centre")
	}
	if !hasX {
		return nil, nil
	}
	return map[string]any{"x": ParseNumber(args[i]), "y": ParseNumber(args[i+1])}, nil
}

// ParseGestureArgs turns the positional form "gesture <kind> args..." into a
// validated [GestureInput]. args start with the kind. pointerCount is the
// --pointer-count flag (nil when absent). Arity is checked first, then the
// same normalization structured input gets, so every surface shares one set
// of rules.
func ParseGestureArgs(args []string, pointerCount *float64) (GestureInput, error) {
	if err := CheckArity("gesture", args, ""); err != nil {
		return GestureInput{}, err
	}
	o := map[string]any{}
	if len(args) == 0 {
		return NormalizeGesture(o)
	}
	kind, r := args[0], args[1:]
	o["kind"] = kind
	if pointerCount != nil {
		if kind != string(KindPan) {
			return GestureInput{}, NewError(CodeInvalidArgs, "pointerCount is supported only for gesture pan").
				WithHint("remove --pointer-count, or use gesture pan for a two-finger translation")
		}
		o["pointerCount"] = *pointerCount
	}
	point := func(i int) map[string]any {
		return map[string]any{"x": numberAt(r, i), "y": numberAt(r, i+1)}
	}
	switch Kind(kind) {
	case KindPan:
		o["origin"], o["delta"] = point(0), point(2)
		setIf(o, "durationMs", optionalNumber(r, 4))
	case KindFling:
		setIf(o, "direction", stringAt(r, 0))
		o["origin"] = point(1)
		setIf(o, "distance", optionalNumber(r, 3))
	case KindSwipe:
		setIf(o, "preset", stringAt(r, 0))
	case KindPinch, KindRotate:
		key := "scale"
		if Kind(kind) == KindRotate {
			key = "degrees"
		}
		o[key] = numberAt(r, 0)
		origin, err := originPair(r, 1)
		if err != nil {
			return GestureInput{}, err
		}
		setIf(o, "origin", origin)
	case KindTransform:
		o["origin"], o["delta"] = point(0), point(2)
		o["scale"], o["degrees"] = numberAt(r, 4), numberAt(r, 5)
		setIf(o, "durationMs", optionalNumber(r, 6))
	case KindDrag:
		setIf(o, "source", stringAt(r, 0))
		setIf(o, "destination", stringAt(r, 1))
		setIf(o, "sourceHoldMs", optionalNumber(r, 2))
		setIf(o, "moveMs", optionalNumber(r, 3))
		setIf(o, "destinationHoldMs", optionalNumber(r, 4))
	}
	return NormalizeGesture(o)
}
