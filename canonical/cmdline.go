package canonical

import (
	"strings"
)

// GestureCommand is a parsed "swipe ..." or "gesture ..." command line, the
// positional syntax shared by the CLI and .ad scripts. Exactly one field is
// set.
type GestureCommand struct {
	Gesture *GestureInput
	Swipe   *SwipeInput
}

// gestureLineFlags lists the flags each command line takes and whether the
// flag carries a value.
func gestureLineFlags(command string) map[string]bool {
	switch command {
	case "gesture":
		return map[string]bool{"pointer-count": true}
	case "swipe":
		return map[string]bool{"count": true, "pause-ms": true, "pattern": true}
	}
	return nil
}

// SplitFlags separates "--name value" and "--name=value" flags from
// positionals. Negative numbers stay positional: only tokens starting with
// "--" are flags. A flag that is not in allowed is an error naming the flags
// the command does take.
func SplitFlags(command string, tokens []string, allowed map[string]bool) ([]string, map[string]string, error) {
	var pos []string
	flags := map[string]string{}
	for i := 0; i < len(tokens); i++ {
		tok := tokens[i]
		if !strings.HasPrefix(tok, "--") || len(tok) == 2 {
			pos = append(pos, tok)
			continue
		}
		name, value, hasValue := strings.Cut(tok[2:], "=")
		takesValue, ok := allowed[name]
		if !ok {
			return nil, nil, Errorf(CodeInvalidArgs, "%s does not accept --%s", command, name).
				WithHint(flagHint(command, allowed))
		}
		if takesValue && !hasValue {
			if i+1 >= len(tokens) {
				return nil, nil, Errorf(CodeInvalidArgs, "--%s needs a value", name).
					WithHint(flagHint(command, allowed))
			}
			i++
			value = tokens[i]
		}
		if _, dup := flags[name]; dup {
			return nil, nil, Errorf(CodeInvalidArgs, "--%s is given more than once", name).
				WithHint("keep one --" + name)
		}
		flags[name] = value
	}
	return pos, flags, nil
}

func flagHint(command string, allowed map[string]bool) string {
	if len(allowed) == 0 {
		return command + " takes no flags"
	}
	var names []string
	for _, n := range []string{"pointer-count", "count", "pause-ms", "pattern"} {
		if _, ok := allowed[n]; ok {
			names = append(names, "--"+n)
		}
	}
	return command + " accepts " + strings.Join(names, ", ")
}

func numberFlag(flags map[string]string, name string) *float64 {
	v, ok := flags[name]
	if !ok {
		return nil
	}
	f := ParseNumber(v)
	return &f
}

// ParseGestureCommand parses a whole gesture command line; tokens[0] is
// "gesture" or "swipe". Arity is checked against the one table before any
// value, then the positionals go through the same normalization as
// structured input.
func ParseGestureCommand(tokens []string) (GestureCommand, error) {
	if len(tokens) == 0 {
		return GestureCommand{}, NewError(CodeInvalidArgs, "missing gesture command").
			WithHint(`give a command line such as "gesture pinch 0.5" or "swipe 100 800 100 200"`)
	}
	command := tokens[0]
	allowed := gestureLineFlags(command)
	if allowed == nil {
		return GestureCommand{}, Errorf(CodeInvalidArgs, "%q is not a gesture command", command).
			WithHint(`start the command line with "gesture <pan|fling|swipe|pinch|rotate|transform|drag>" or "swipe"`)
	}
	pos, flags, err := SplitFlags(command, tokens[1:], allowed)
	if err != nil {
		return GestureCommand{}, err
	}
	if command == "gesture" {
		g, err := ParseGestureArgs(pos, numberFlag(flags, "pointer-count"))
		if err != nil {
			return GestureCommand{}, err
		}
		return GestureCommand{Gesture: &g}, nil
	}
	sf := SwipeFlags{Count: numberFlag(flags, "count"), PauseMs: numberFlag(flags, "pause-ms")}
	if p, ok := flags["pattern"]; ok {
		sf.Pattern = &p
	}
	s, err := ParseSwipeArgs(pos, sf)
	if err != nil {
		return GestureCommand{}, err
	}
	return GestureCommand{Swipe: &s}, nil
}
