package ad

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/flow-runner/flow/canonical"
)

// flagKind says what a flag carries.
type flagKind int

const (
	flagSwitch   flagKind = iota // present or not
	flagInt                      // a whole number
	flagEnum                     // one of a fixed set
	flagText                     // any text
	flagDrop                     // a switch accepted and dropped (agent-device ignores it too)
	flagDropWord                 // a flag whose value is accepted and dropped
)

// flagSpec is one flag of an action line.
type flagSpec struct {
	name  string   // the key in Action.Flags
	spell []string // accepted spellings; the first is what the writer emits
	kind  flagKind
	enum  []string
	lo    int    // flagInt: smallest value
	hi    int    // flagInt: largest value; 0 means no bound
	def   string // a value that means "absent" and is dropped (--button primary)
	cli   bool   // reject with the CLI's "Invalid <name>: <value>" message
}

// commandSpec is the grammar of one command's line.
type commandSpec struct {
	usage   string
	flags   []flagSpec // in the order the writer emits them
	minArgs int
	maxArgs int // -1: no bound
	// shape turns the tokens left after flags into the action's
	// positionals (click joins a selector, fill joins text, refs lose
	// their ~sN pin). nil keeps them verbatim.
	shape func(l srcLine, command string, args []token, a *Action) error
}

func intFlag(name string, lo, hi int, spell ...string) flagSpec {
	return flagSpec{name: name, spell: spell, kind: flagInt, lo: lo, hi: hi}
}

func switchFlag(name string, spell ...string) flagSpec {
	return flagSpec{name: name, spell: spell, kind: flagSwitch}
}

func textFlag(name string, spell ...string) flagSpec {
	return flagSpec{name: name, spell: spell, kind: flagText}
}

// tapFlags are the flags of click, press and longpress (§3.3).
func tapFlags() []flagSpec {
	return []flagSpec{
		intFlag("count", 1, 0, "--count"),
		intFlag("interval-ms", 0, 0, "--interval-ms"),
		intFlag("hold-ms", 0, 0, "--hold-ms"),
		intFlag("jitter-px", 0, 0, "--jitter-px"),
		switchFlag("double-tap", "--double-tap"),
		{name: "button", spell: []string{"--button"}, kind: flagEnum, enum: []string{"primary", "secondary", "middle"}, def: "primary"},
	}
}

// commandSpecs is every command flow runs from a .ad script, with the
// grammar agent-device 0.21.5 gives its line (agent-device.md §3.3, §3.8).
// It is built once: building it for every line was a third of the time
// spent parsing a long script. Callers must not modify what it returns
// (a documented exception to "no globals": it is immutable once built).
var commandSpecs = sync.OnceValue(buildCommandSpecs)

func buildCommandSpecs() map[string]commandSpec {
	click := commandSpec{usage: "<x y|@ref|selector> [--count n] [--interval-ms n] [--hold-ms n] [--jitter-px n] [--double-tap] [--button primary|secondary|middle]",
		flags: tapFlags(), minArgs: 1, maxArgs: -1, shape: shapeClick}
	typing := []flagSpec{intFlag("delay-ms", 0, 0, "--delay-ms")}
	return map[string]commandSpec{
		"open": {usage: "[app|url] [url] [--relaunch] [--launch-url url]", maxArgs: 2, flags: []flagSpec{
			switchFlag("relaunch", "--relaunch"),
			switchFlag("test-ime", "--test-ime"),
			switchFlag("no-test-ime", "--no-test-ime"),
			{name: "platform", spell: []string{"--platform"}, kind: flagEnum, enum: []string{"ios", "android", "harmonyos"}},
			textFlag("metro-host", "--metro-host"),
			intFlag("metro-port", 0, 65535, "--metro-port"),
			textFlag("bundle-url", "--bundle-url"),
			textFlag("launch-url", "--launch-url"),
		}},
		"close": {usage: "[app]", maxArgs: 1},
		"press": click,
		"click": click,
		"longpress": {usage: "<x y|@ref|selector> [durationMs]", flags: tapFlags(), minArgs: 1, maxArgs: 3,
			shape: shapeRefPins},
		"fill": {usage: "<x> <y> <text> | <@ref|selector> <text> [--delay-ms ms]", flags: typing, minArgs: 2, maxArgs: -1,
			shape: shapeFill},
		"type": {usage: "<text> [--delay-ms ms]", flags: typing, minArgs: 1, maxArgs: -1},
		"swipe": {usage: "<x1> <y1> <x2> <y2> [--count n] [--pause-ms ms] [--pattern one-way|ping-pong]", maxArgs: -1,
			flags: []flagSpec{
				{name: "count", spell: []string{"--count"}, kind: flagInt, lo: 1, hi: canonical.MaxSwipeCount, cli: true},
				{name: "pause-ms", spell: []string{"--pause-ms"}, kind: flagInt, lo: 0, hi: canonical.MaxSwipePauseMs, cli: true},
				{name: "pattern", spell: []string{"--pattern"}, kind: flagEnum, enum: []string{canonical.PatternOneWay, canonical.PatternPingPong}, cli: true},
			}},
		"scroll": {usage: "<up|down|left|right|top|bottom> [amount] [--until selector] [--pixels n] [--duration-ms ms]",
			minArgs: 1, maxArgs: 2, flags: []flagSpec{
				textFlag("until", "--until"),
				intFlag("pixels", 1, 0, "--pixels"),
				intFlag("duration-ms", 0, 0, "--duration-ms"),
			}},
		"gesture": {usage: "<pan|fling|swipe|pinch|rotate|transform|drag> ... [--pointer-count 1|2]", minArgs: 1, maxArgs: -1,
			flags: []flagSpec{intFlag("pointer-count", 1, 2, "--pointer-count")}},
		"back": {usage: "[--in-app|--system]", flags: []flagSpec{
			switchFlag("in-app", "--in-app"),
			switchFlag("system", "--system"),
		}},
		"home": {usage: ""},
		"snapshot": {usage: "[-i] [-d N] [-s scope] [--raw] [--force-full]", flags: []flagSpec{
			switchFlag("interactive", "-i"),
			intFlag("depth", 0, 0, "-d", "--depth"),
			textFlag("scope", "-s", "--scope"),
			switchFlag("raw", "--raw"),
			switchFlag("force-full", "--force-full"),
			{name: "compact", spell: []string{"-c"}, kind: flagDrop},
			{name: "backend", spell: []string{"--backend"}, kind: flagDropWord},
		}},
		"screenshot": {usage: "[path] [--crop-on selector] [--fullscreen]", maxArgs: 1, flags: []flagSpec{
			textFlag("crop-on", "--crop-on"),
			switchFlag("fullscreen", "--fullscreen"),
		}},
		"wait": {usage: "<ms> | text <text> [timeoutMs] | <@ref|selector> [timeoutMs] | absent <selector> [timeoutMs] | stable [quietMs] [timeoutMs]",
			minArgs: 1, maxArgs: 3, shape: shapeRefPins},
		"is":       {usage: "<visible|hidden|exists|absent|editable|selected|focused|text> <selector> [value]", minArgs: 2, maxArgs: -1},
		"keyboard": {usage: "[status|get|dismiss|enter|return]", maxArgs: 1},
	}
}

// supportedCommands lists the commands flow runs, sorted.
func supportedCommands() []string {
	specs := commandSpecs()
	out := make([]string, 0, len(specs))
	for k := range specs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// otherAgentDeviceCommands are agent-device commands a script may hold
// that flow does not run. They fail as UNSUPPORTED_OPERATION, not as
// unknown: the script is valid agent-device, flow just cannot run it.
func otherAgentDeviceCommands() []string {
	return []string{"alert", "app-switcher", "fold", "find", "focus", "get", "hover", "orientation",
		"react-native", "record", "reinstall", "runtime", "scrollintoview", "settings", "trace"}
}

// SupportedCommands are the .ad commands flow runs.
func SupportedCommands() []string { return supportedCommands() }

func (s commandSpec) flag(spelling string) (flagSpec, bool) {
	for _, f := range s.flags {
		for _, sp := range f.spell {
			if sp == spelling {
				return f, true
			}
		}
	}
	return flagSpec{}, false
}

func (s commandSpec) flagSpelling() []string {
	var out []string
	for _, f := range s.flags {
		if f.kind != flagDrop && f.kind != flagDropWord {
			out = append(out, f.spell...)
		}
	}
	return out
}

// isFlagWord reports whether an unquoted token is written as a flag for
// this command: "--name" always, "-x" only where the command declares a
// short spelling (snapshot), so "-80" stays a number everywhere.
func (s commandSpec) isFlagWord(t token) bool {
	if t.quoted {
		return false
	}
	if strings.HasPrefix(t.text, "--") && len(t.text) > 2 {
		return true
	}
	_, ok := s.flag(t.text)
	return ok
}

// parseAction parses an action line's tokens (toks[0] is the command).
func parseAction(l srcLine, toks []token) (Action, error) {
	cmd := toks[0].text
	spec, ok := commandSpecs()[cmd]
	if !ok {
		return Action{}, unknownCommand(l, toks[0])
	}
	a := Action{Command: cmd, Pos: l.pos(toks[0].off), Line: l.n, Raw: l.raw}
	args, err := splitFlags(l, cmd, spec, toks[1:], &a)
	if err != nil {
		return Action{}, err
	}
	if spec.shape != nil {
		if err := spec.shape(l, cmd, args, &a); err != nil {
			return Action{}, err
		}
	} else {
		if len(args) > 0 {
			a.Positionals = make([]string, 0, len(args))
			a.argPos = make([]canonical.Pos, 0, len(args))
		}
		for _, t := range args {
			a.Positionals = append(a.Positionals, t.text)
			a.argPos = append(a.argPos, l.pos(t.off))
		}
	}
	if n := len(a.Positionals); n < spec.minArgs || (spec.maxArgs >= 0 && n > spec.maxArgs) {
		return Action{}, arityError(l, cmd, spec, n, args)
	}
	if cmd == "swipe" || cmd == "gesture" {
		if err := checkGestureArity(l, &a); err != nil {
			return Action{}, err
		}
	}
	return a, nil
}

func unknownCommand(l srcLine, t token) error {
	cmd := t.text
	for _, c := range otherAgentDeviceCommands() {
		if c == cmd {
			return canonical.Errorf(canonical.CodeUnsupportedOperation,
				"%s is an agent-device command flow does not run (line %d)", cmd, l.n).
				At(l.pos(t.off)).With("command", cmd).With("line", l.n).
				WithHint("remove the line, or replace it with one of: " + strings.Join(supportedCommands(), ", "))
		}
	}
	e := l.errorf(t.off, "unknown command %q (line %d)", cmd, l.n).With("command", cmd).With("line", l.n)
	if s := canonical.Closest(cmd, append(supportedCommands(), "context", "env")); s != "" {
		return e.WithHint("did you mean " + s + "?")
	}
	return e.WithHint(".ad commands flow runs: " + strings.Join(supportedCommands(), ", "))
}

func arityError(l srcLine, cmd string, spec commandSpec, n int, args []token) error {
	usage := strings.TrimSpace(cmd + " " + spec.usage)
	off := 0
	if len(args) > 0 {
		off = args[0].off
	}
	switch {
	case spec.maxArgs == 0:
		return l.errorf(off, "%s takes no arguments, got %d (line %d)", cmd, n, l.n).
			WithHint("usage: " + usage)
	case n < spec.minArgs:
		return l.errorf(0, "%s needs at least %d argument%s, got %d (line %d)", cmd, spec.minArgs, plural(spec.minArgs), n, l.n).
			WithHint("usage: " + usage)
	}
	if spec.maxArgs < len(args) {
		off = args[spec.maxArgs].off
	}
	return l.errorf(off, "%s accepts at most %d argument%s, got %d (line %d)", cmd, spec.maxArgs, plural(spec.maxArgs), n, l.n).
		WithHint("usage: " + usage + `; quote text with spaces as one "JSON string"`)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkGestureArity runs the one arity table (canonical.CheckArity, shared
// with the CLI) with " (line N)" so a removed positional fails when the
// script is parsed, before any device action. The error points at the
// first surplus token, found by asking the same table.
func checkGestureArity(l srcLine, a *Action) error {
	loc := "line " + strconv.Itoa(l.n)
	err := canonical.CheckArity(a.Command, a.Positionals, loc)
	if err == nil {
		return nil
	}
	ce := canonical.Coded(err)
	pos := a.Pos
	for n := 1; n <= len(a.Positionals); n++ {
		if canonical.CheckArity(a.Command, a.Positionals[:n], loc) != nil {
			pos = a.ArgPos(n - 1)
			break
		}
	}
	ce.Pos = pos
	return ce.With("line", l.n)
}

// splitFlags separates the command's flags from its positionals. flow is
// stricter than agent-device here, so that a script means one thing:
//   - an unquoted --word that is not one of the command's flags is an
//     error (agent-device keeps it as a positional); quote it to pass it
//     as text;
//   - a quoted token is never a flag, so any text survives a round trip;
//   - a bad value is an error (agent-device leaves "--count -1" as two
//     positionals and drops an unknown --pattern silently);
//   - a flag given twice is an error (agent-device keeps the last);
//   - --name=value is refused: agent-device does not read it.
//
// A value holding ${VAR} is checked once the variable is resolved.
func splitFlags(l srcLine, cmd string, spec commandSpec, toks []token, a *Action) ([]token, error) {
	var args []token
	if len(toks) > 0 {
		args = make([]token, 0, len(toks)) // sized once: a line can hold millions of words
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !spec.isFlagWord(t) {
			args = append(args, t)
			continue
		}
		f, ok := spec.flag(t.text)
		if !ok {
			return nil, unknownFlag(l, cmd, spec, t)
		}
		if f.kind == flagDrop {
			continue
		}
		value := "true"
		valuePos := l.pos(t.off)
		if f.kind != flagSwitch {
			if i+1 >= len(toks) {
				return nil, l.errorf(t.off, "%s needs a value (line %d)", t.text, l.n).
					WithHint("usage: " + strings.TrimSpace(cmd+" "+spec.usage))
			}
			i++
			value = toks[i].text
			valuePos = l.pos(toks[i].off)
			if f.kind == flagDropWord {
				continue
			}
			v, err := checkFlagValue(f, t.text, value)
			if err != nil {
				return nil, flagValueError(err, valuePos, l.n)
			}
			value = v
		}
		if _, dup := a.Flags[f.name]; dup {
			return nil, l.errorf(t.off, "%s is given more than once (line %d)", t.text, l.n).
				WithHint("keep one " + f.spell[0])
		}
		if f.def != "" && value == f.def {
			continue
		}
		if a.Flags == nil {
			a.Flags = map[string]string{}
			a.flagPos = map[string]canonical.Pos{}
		}
		a.Flags[f.name] = value
		a.flagPos[f.name] = valuePos
	}
	return args, nil
}

func unknownFlag(l srcLine, cmd string, spec commandSpec, t token) error {
	name, _, hasValue := strings.Cut(t.text, "=")
	if _, ok := spec.flag(name); ok && hasValue {
		return l.errorf(t.off, "%s: write the value as the next word (line %d)", t.text, l.n).
			WithHint(".ad flags take their value as the next word: " + name + " " + t.text[len(name)+1:])
	}
	e := l.errorf(t.off, "%s does not accept %s (line %d)", cmd, t.text, l.n)
	quote := ""
	if oneOf(cmd, []string{"click", "press", "longpress", "fill", "type", "wait", "is", "open", "close", "screenshot"}) {
		quote = `; to pass the word as text, quote it: "` + t.text + `"`
	}
	names := spec.flagSpelling()
	switch s := canonical.Closest(t.text, names); {
	case len(names) == 0:
		return e.WithHint(cmd + " takes no flags" + quote)
	case s != "":
		return e.WithHint("did you mean " + s + "?" + quote)
	}
	return e.WithHint(cmd + " accepts " + strings.Join(names, ", ") + quote)
}

// checkFlagValue validates a flag value and returns it in canonical form
// (a whole number without leading zeros). A value holding ${VAR} is kept
// as written and checked again after resolution.
func checkFlagValue(f flagSpec, spelling, v string) (string, error) {
	if HasVars(v) {
		return v, nil
	}
	name := spelling
	switch f.kind {
	case flagInt:
		n, err := strconv.Atoi(v)
		ok := err == nil && allDigits(v) && n >= f.lo && (f.hi == 0 || n <= f.hi)
		if !ok {
			if f.cli {
				return "", canonical.Errorf(canonical.CodeInvalidArgs, "Invalid %s: %s", strings.TrimPrefix(name, "--"), v).
					WithHint(name + " takes a whole number " + rangeText(f))
			}
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "%s must be a whole number %s, got %q", name, rangeText(f), v).
				WithHint("write digits only, e.g. " + name + " " + strconv.Itoa(max(f.lo, 1)))
		}
		return strconv.Itoa(n), nil
	case flagEnum:
		for _, e := range f.enum {
			if v == e {
				return v, nil
			}
		}
		if f.cli {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "Invalid %s: %s", strings.TrimPrefix(name, "--"), v).
				WithHint(name + " is one of: " + strings.Join(f.enum, ", "))
		}
		return "", canonical.Errorf(canonical.CodeInvalidArgs, "%s must be one of %s, got %q", name, strings.Join(f.enum, ", "), v).
			WithHint(name + " is one of: " + strings.Join(f.enum, ", "))
	}
	return v, nil
}

// flagValueError places a flag value error and names its line, as every
// .ad message does.
func flagValueError(err error, pos canonical.Pos, line int) error {
	ce := canonical.Coded(err).At(pos).With("line", line)
	ce.Message += " (line " + strconv.Itoa(line) + ")"
	return ce
}

func rangeText(f flagSpec) string {
	if f.hi == 0 {
		return "of at least " + strconv.Itoa(f.lo)
	}
	return "from " + strconv.Itoa(f.lo) + " to " + strconv.Itoa(f.hi)
}

// isNumericToken is agent-device's test for the x y of a point: any
// non-empty text JavaScript's Number() reads as a number.
func isNumericToken(s string) bool {
	if s == "" {
		return false
	}
	f := canonical.ParseNumber(s)
	return f == f // not NaN
}

// stripRefPin drops a recorded ref's ~sN generation pin (@e12~s3 → @e12):
// generations belong to the recording session. Only a well-formed pin is
// stripped, so stripping twice changes nothing.
func stripRefPin(s string) string {
	if !strings.HasPrefix(s, "@") {
		return s
	}
	i := strings.LastIndex(s, "~s")
	if i <= 1 || !allDigits(s[i+2:]) || strings.Contains(s[:i], "~") {
		return s
	}
	return s[:i]
}

func (a *Action) addArg(l srcLine, text string, off int) {
	a.Positionals = append(a.Positionals, text)
	a.argPos = append(a.argPos, l.pos(off))
}

func joinTokens(ts []token) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// shapeClick is click/press: "@ref [label]", "x y", or every token joined
// with a space as one selector. flow refuses the tokens agent-device drops
// silently (a third word after x y, a second after the ref label).
func shapeClick(l srcLine, cmd string, args []token, a *Action) error {
	if len(args) == 0 {
		return nil
	}
	first := args[0]
	switch {
	case strings.HasPrefix(first.text, "@"):
		a.addArg(l, stripRefPin(first.text), first.off)
		if len(args) > 2 {
			return l.errorf(args[2].off, "%s %s takes at most a label after the ref (line %d)", cmd, first.text, l.n).
				WithHint(`quote the label as one value: ` + cmd + ` ` + first.text + ` "Log in"`)
		}
		if len(args) == 2 {
			a.RefLabel = args[1].text
		}
	case len(args) >= 2 && isNumericToken(first.text) && isNumericToken(args[1].text):
		if len(args) > 2 {
			return l.errorf(args[2].off, "%s at a point takes two numbers, x and y, got %d values (line %d)", cmd, len(args), l.n).
				WithHint("write " + cmd + " <x> <y>, or quote a selector as one value")
		}
		a.addArg(l, first.text, first.off)
		a.addArg(l, args[1].text, args[1].off)
	default:
		a.addArg(l, joinTokens(args), first.off)
	}
	return nil
}

// shapeFill is fill: "x y text...", "@ref [label] text", or
// "selector text..."; text tokens are joined with a space.
func shapeFill(l srcLine, cmd string, args []token, a *Action) error {
	if len(args) < 2 {
		for _, t := range args {
			a.addArg(l, t.text, t.off)
		}
		return nil
	}
	if isNumericToken(args[0].text) && isNumericToken(args[1].text) {
		a.addArg(l, args[0].text, args[0].off)
		a.addArg(l, args[1].text, args[1].off)
		off := args[1].off
		if len(args) > 2 {
			off = args[2].off
		}
		a.addArg(l, joinTokens(args[2:]), off)
		return nil
	}
	first := args[0]
	if strings.HasPrefix(first.text, "@") {
		a.addArg(l, stripRefPin(first.text), first.off)
		if len(args) > 2 {
			a.RefLabel = args[1].text
			a.addArg(l, joinTokens(args[2:]), args[2].off)
			return nil
		}
		a.addArg(l, args[1].text, args[1].off)
		return nil
	}
	a.addArg(l, first.text, first.off)
	a.addArg(l, joinTokens(args[1:]), args[1].off)
	return nil
}

// shapeRefPins keeps positionals verbatim but strips recorded ref pins
// (longpress, wait).
func shapeRefPins(l srcLine, cmd string, args []token, a *Action) error {
	for _, t := range args {
		a.addArg(l, stripRefPin(t.text), t.off)
	}
	return nil
}
