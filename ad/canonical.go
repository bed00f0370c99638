package ad

import (
	"math"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// .ad actions as canonical commands: what flow's runtime executes. The
// mapping is deliberately narrow — a command or form with no canonical
// equivalent is refused as UNSUPPORTED_OPERATION naming the command and
// line, never approximated silently.
//
//	open <app> [url] [--relaunch] [--launch-url u]  LaunchApp (+ OpenLink)
//	open <scheme://url>                             OpenLink
//	close [app]                                     StopApp (the last opened app by default)
//	press|click <x> <y>                             Tap at "x,y"
//	press|click <selector>                          Tap; a || b alternatives become Selector.AnyOf
//	longpress <x y|selector> [ms]                   Tap, long-press mode, 800 ms by default
//	fill <x y|selector> <text>                      Tap, then InputText
//	type <text...>                                  InputText (words joined with a space)
//	swipe ... / gesture ...                         canonical.GestureCommand (ParseSwipeArgs/ParseGestureArgs)
//	scroll <up|down|left|right> [amount]            Swipe between viewport fractions
//	scroll <dir> --until <selector>                 ScrollUntilVisible
//	back / home / keyboard dismiss|enter|return     Simple back / PressKey Home / hideKeyboard / PressKey Enter
//	wait text <t> | wait <selector|text> [ms]       Assert visible
//	wait absent <selector> [ms]                     Assert not visible
//	wait stable                                     WaitForAnimation
//	is visible|exists|hidden|absent|selected|focused|text <selector> [value]   Assert, checked once
//	screenshot [path]                               TakeScreenshot
//	snapshot                                        nothing to do (a no-op step)
//
// Not supported yet: @ref targets (session-local), wait <ms>, wait stable
// with windows, scroll top|bottom and --pixels, is editable, keyboard
// status|get, --jitter-px, --button secondary|middle, --delay-ms, open's
// runtime hints (--platform, --metro-*, --bundle-url, --test-ime), back
// --in-app|--system, screenshot --crop-on|--fullscreen.

// Step is one unit the runtime executes for an action. Exactly one of
// Command, Gesture and NoOp is set.
type Step struct {
	Line    int                       `json:"line"`
	Command canonical.Command         `json:"-"`
	Gesture *canonical.GestureCommand `json:"gesture,omitempty"`
	// Dropped names the selector alternatives flow cannot express (role=,
	// hittable=, ...), left out of the match; the caller should warn.
	Dropped []string `json:"dropped,omitempty"`
	// DragSource and DragDestination are a drag's endpoints as flow
	// selectors, alternatives in order; the GestureInput keeps the
	// agent-device text.
	DragSource      []canonical.Selector `json:"dragSource,omitempty"`
	DragDestination []canonical.Selector `json:"dragDestination,omitempty"`
	// NoOp says why nothing runs (snapshot).
	NoOp string `json:"noop,omitempty"`
	// Target and Targets are the action's recorded identity evidence, for
	// the runtime to verify before it touches the element.
	Target  *TargetEvidence `json:"target,omitempty"`
	Targets *TargetPair     `json:"targets,omitempty"`
}

// Converter turns resolved actions into steps, in script order. It keeps
// the app the last open launched, which a bare close stops.
type Converter struct {
	app    string
	opened bool
}

// Defaults of agent-device commands that flow must materialize.
const (
	DefaultLongPressMs   = 800   // Android long-press hold (agent-device.md §5.4)
	DefaultScrollAmount  = 0.6   // fraction of the viewport
	DefaultTapIntervalMs = 100   // between repeated taps; agent-device leaves it to the backend
	DefaultStableWaitMs  = 15000 // wait stable
	MaxScrollTravel      = 0.8   // the scroll plan keeps 10% padding on both sides
)

// LiteralTemplate is a template whose value is exactly s. flow's templates
// evaluate ${...} as JavaScript, so every "${" that would start an
// expression gets a backslash, which the runtime removes again.
func LiteralTemplate(s string, pos canonical.Pos) canonical.Template {
	if !strings.Contains(s, "${") {
		return canonical.Text(s, pos)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && s[i+1] == '{' && closesBeforeDollar(s, i+2) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return canonical.Text(b.String(), pos)
}

// closesBeforeDollar reports whether a '}' comes before the next '$' from
// s[from:]: only then does the runtime read "${" as an expression.
func closesBeforeDollar(s string, from int) bool {
	limit := len(s)
	if j := strings.IndexByte(s[from:], '$'); j >= 0 {
		limit = from + j
	}
	return strings.IndexByte(s[from:limit], '}') >= 0
}

func unsupported(a Action, pos canonical.Pos, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeUnsupportedOperation, format, args...).At(pos).
		With("command", a.Command).With("line", a.Line)
}

func invalid(pos canonical.Pos, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(pos)
}

func meta(a Action) canonical.Meta { return canonical.Meta{Pos: a.Pos, Name: a.Command} }

// Steps converts one resolved action (see [Resolve]). Values are checked
// here, with the same rules whether they were written literally or came
// from a variable.
func (c *Converter) Steps(a Action) ([]Step, error) {
	if err := checkFlagsSupported(a); err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(a.Flags) {
		spec, _ := commandSpecs()[a.Command].flagByName(name)
		if _, err := checkFlagValue(spec, spec.spell[0], a.Flags[name]); err != nil {
			return nil, flagValueError(err, a.FlagPos(name), a.Line)
		}
	}
	steps, err := c.steps(a)
	if err != nil {
		return nil, err
	}
	for i := range steps {
		steps[i].Line = a.Line
		steps[i].Target, steps[i].Targets = a.Target, a.Targets
	}
	return steps, nil
}

func (s commandSpec) flagByName(name string) (flagSpec, bool) {
	for _, f := range s.flags {
		if f.name == name {
			return f, true
		}
	}
	return flagSpec{name: name, spell: []string{"--" + name}, kind: flagText}, false
}

func one(cmd canonical.Command) []Step { return []Step{{Command: cmd}} }

func (c *Converter) steps(a Action) ([]Step, error) {
	switch a.Command {
	case "open":
		return c.open(a)
	case "close":
		app := c.app
		if len(a.Positionals) > 0 {
			app = a.Positionals[0]
		}
		if app == "" {
			return nil, invalid(a.Pos, "close without an app needs an earlier open").
				WithHint("write close <app id>, or open the app earlier in the script")
		}
		return one(&canonical.StopApp{Meta: meta(a), AppID: LiteralTemplate(app, a.ArgPos(0))}), nil
	case "click", "press":
		return tapSteps(a)
	case "longpress":
		return longPressSteps(a)
	case "fill":
		return fillSteps(a)
	case "type":
		return one(&canonical.InputText{Meta: meta(a), Text: LiteralTemplate(strings.Join(a.Positionals, " "), a.ArgPos(0))}), nil
	case "swipe":
		return swipeSteps(a)
	case "gesture":
		return gestureSteps(a)
	case "scroll":
		return scrollSteps(a)
	case "back":
		return one(&canonical.Simple{Meta: meta(a), Action: "back"}), nil
	case "home":
		return one(&canonical.PressKey{Meta: meta(a), Key: "Home", AndroidCode: 3}), nil
	case "keyboard":
		return keyboardSteps(a)
	case "snapshot":
		return []Step{{NoOp: "flow reads the screen's hierarchy on every lookup, so a snapshot has nothing to do"}}, nil
	case "screenshot":
		path := "screenshot-line" + strconv.Itoa(a.Line)
		if len(a.Positionals) > 0 {
			path = a.Positionals[0]
		}
		// flow appends .png itself.
		if len(path) > 4 && strings.EqualFold(path[len(path)-4:], ".png") {
			path = path[:len(path)-4]
		}
		return one(&canonical.TakeScreenshot{Meta: meta(a), Path: LiteralTemplate(path, a.ArgPos(0))}), nil
	case "wait":
		return waitSteps(a)
	case "is":
		return isSteps(a)
	}
	return nil, unsupported(a, a.Pos, "%s has no flow equivalent (line %d)", a.Command, a.Line).
		WithHint("remove the line")
}

// checkFlagsSupported refuses flags flow has no equivalent for. It needs
// no values, so it also runs on actions that still hold ${VAR}.
func checkFlagsSupported(a Action) error {
	refuse := func(name, hint string) error {
		return unsupported(a, a.FlagPos(name), "%s --%s is not supported by flow (line %d)", a.Command, name, a.Line).
			WithHint(hint)
	}
	for _, name := range sortedKeys(a.Flags) {
		v := a.Flags[name]
		switch {
		case name == "jitter-px" && v != "0":
			return refuse(name, "remove --jitter-px: flow taps the exact point")
		case name == "button":
			return refuse(name, "flow presses the primary button only; remove --button")
		case name == "delay-ms":
			return refuse(name, "remove --delay-ms: flow types the text in one go")
		case a.Command == "open" && oneOf(name, []string{"platform", "metro-host", "metro-port", "bundle-url", "test-ime", "no-test-ime"}):
			return refuse(name, "choose the device with flow's own --platform/--device; Metro runtime hints are not supported")
		case a.Command == "scroll" && name == "pixels":
			return refuse(name, "give the distance as a fraction of the screen instead: scroll down 0.5")
		case a.Command == "back":
			return refuse(name, "write back without a flag")
		case a.Command == "screenshot":
			return refuse(name, "flow captures the whole screen; remove the flag")
		}
	}
	return nil
}

func (c *Converter) open(a Action) ([]Step, error) {
	pos, launch := a.Positionals, a.Flags["launch-url"]
	if len(pos) == 0 {
		if launch != "" {
			return one(&canonical.OpenLink{Meta: meta(a), Link: LiteralTemplate(launch, a.FlagPos("launch-url"))}), nil
		}
		return []Step{{NoOp: "open without an app only starts a session; flow's run is the session"}}, nil
	}
	app := pos[0]
	if app == "" {
		return nil, invalid(a.ArgPos(0), "open needs an app id or a URL, got an empty value").
			WithHint("check the variable the app id comes from")
	}
	if len(pos) == 1 && strings.Contains(app, "://") {
		if a.Flags["relaunch"] != "" {
			return nil, invalid(a.FlagPos("relaunch"), "open %s --relaunch: a URL cannot be relaunched", app).
				WithHint("open the app with --relaunch first, then the URL")
		}
		return one(&canonical.OpenLink{Meta: meta(a), Link: LiteralTemplate(app, a.ArgPos(0))}), nil
	}
	c.app, c.opened = app, true
	// flow has one launch: Maestro's, which grants every permission unless
	// told otherwise; .ad open and Maestro launchApp are the same command.
	steps := one(&canonical.LaunchApp{Meta: meta(a), AppID: LiteralTemplate(app, a.ArgPos(0)), StopApp: a.Flags["relaunch"] == "true",
		Permissions: map[string]string{"all": "allow"}})
	url, urlPos := "", a.Pos
	if len(pos) > 1 && pos[1] != "" {
		url, urlPos = pos[1], a.ArgPos(1)
	}
	if launch != "" {
		if url != "" {
			return nil, invalid(a.FlagPos("launch-url"), "open gives a URL twice: %s and --launch-url %s", url, launch).
				WithHint("keep one of them")
		}
		url, urlPos = launch, a.FlagPos("launch-url")
	}
	if url != "" {
		steps = append(steps, Step{Command: &canonical.OpenLink{Meta: meta(a), Link: LiteralTemplate(url, urlPos)}})
	}
	return steps, nil
}

// number reads positional i as a finite number (JavaScript's Number()).
func number(a Action, i int, what string) (float64, error) {
	f := canonical.ParseNumber(a.Positionals[i])
	if !canonical.IsFinite(f) || strings.TrimSpace(a.Positionals[i]) == "" {
		return 0, invalid(a.ArgPos(i), "%s %s must be a finite number, got %q", a.Command, what, a.Positionals[i]).
			WithHint("write a number such as 200")
	}
	return f, nil
}

// wholeMs reads positional i as a non-negative whole number of
// milliseconds.
func wholeMs(a Action, i int, what string) (int, error) {
	f, err := number(a, i, what)
	if err != nil {
		return 0, err
	}
	if !canonical.IsInteger(f) || f < 0 || f > 1e9 {
		return 0, invalid(a.ArgPos(i), "%s %s must be a whole number of milliseconds, got %q", a.Command, what, a.Positionals[i]).
			WithHint("write a whole number such as 5000")
	}
	return int(f), nil
}

func intFlagValue(a Action, name string) (int, bool) {
	v, ok := a.Flags[name]
	if !ok {
		return 0, false
	}
	n, _ := strconv.Atoi(v) // checked by checkFlagValue
	return n, true
}

func pointTemplate(a Action, i int) (*canonical.Template, error) {
	x, err := number(a, i, "x")
	if err != nil {
		return nil, err
	}
	y, err := number(a, i+1, "y")
	if err != nil {
		return nil, err
	}
	t := canonical.Text(canonical.FormatNumber(x)+","+canonical.FormatNumber(y), a.ArgPos(i))
	return &t, nil
}

func refUnsupported(a Action, i int) error {
	hint := "record with selectors, or write one such as label=\"Log in\""
	if a.RefLabel != "" {
		hint = "write the target as a selector instead, e.g. " + QuoteJSON("label="+QuoteJSON(a.RefLabel))
	}
	cmd := a.Command
	if cmd == "gesture" {
		cmd = "gesture " + a.Positionals[0]
	}
	return unsupported(a, a.ArgPos(i), "%s %s: snapshot refs belong to the recording session and cannot be replayed by flow (line %d)",
		cmd, a.Positionals[i], a.Line).WithHint(hint)
}

// withAlternatives makes alts the selector's AnyOf, so the runtime tries
// them in order when sel matches nothing.
func withAlternatives(sel *canonical.Selector, alts []canonical.Selector) *canonical.Selector {
	for i := range alts {
		sel.AnyOf = append(sel.AnyOf, &alts[i])
	}
	return sel
}

// selectorTarget parses positional i as a selector chain.
func selectorTarget(a Action, i int) (*canonical.Selector, []canonical.Selector, []string, error) {
	chain, err := ParseSelectorChain(a.Positionals[i])
	if err != nil {
		e := canonical.Coded(err).At(a.ArgPos(i))
		e.Hint = `write a selector such as text="Log in" or id="login"; ` + e.Hint
		return nil, nil, nil, e
	}
	sels, dropped, err := canonicalSelectors(chain, a.ArgPos(i))
	if err != nil {
		return nil, nil, nil, canonical.Coded(err).With("command", a.Command).With("line", a.Line)
	}
	return &sels[0], sels[1:], dropped, nil
}

// tapTarget is the Tap for a click/press/longpress/fill target: a point at
// positionals i, i+1 or a selector at i.
func tapTarget(a Action, point bool, i int) (*canonical.Tap, Step, error) {
	// One tap algorithm for every surface: Maestro's, retried once when the
	// screen did not change.
	t := &canonical.Tap{Meta: meta(a), Mode: canonical.TapSingle, Repeat: 1, DelayMs: DefaultTapIntervalMs, RetryIfNoChange: true}
	var st Step
	if strings.HasPrefix(a.Positionals[i], "@") {
		return nil, st, refUnsupported(a, i)
	}
	if point {
		p, err := pointTemplate(a, i)
		if err != nil {
			return nil, st, err
		}
		t.Point = p
		return t, st, nil
	}
	sel, alts, dropped, err := selectorTarget(a, i)
	if err != nil {
		return nil, st, err
	}
	t.Selector, st.Dropped = withAlternatives(sel, alts), dropped
	return t, st, nil
}

func tapSteps(a Action) ([]Step, error) {
	t, st, err := tapTarget(a, len(a.Positionals) == 2, 0)
	if err != nil {
		return nil, err
	}
	count, hasCount := intFlagValue(a, "count")
	if a.Flags["double-tap"] == "true" {
		if hasCount {
			return nil, unsupported(a, a.FlagPos("count"), "%s --double-tap with --count is not supported by flow (line %d)", a.Command, a.Line).
				WithHint("use either --double-tap or --count")
		}
		t.Mode, t.Repeat = canonical.TapDouble, 2
	}
	if hasCount {
		t.Repeat = count
	}
	if ms, ok := intFlagValue(a, "interval-ms"); ok {
		t.DelayMs = ms
	}
	if hold, ok := intFlagValue(a, "hold-ms"); ok && hold > 0 {
		if t.Repeat > 1 {
			return nil, unsupported(a, a.FlagPos("hold-ms"), "%s --hold-ms with repeated taps is not supported by flow (line %d)", a.Command, a.Line).
				WithHint("hold once (longpress), or tap repeatedly without --hold-ms")
		}
		t.Mode, t.HoldMs = canonical.TapLong, hold
	}
	st.Command = t
	return []Step{st}, nil
}

func longPressSteps(a Action) ([]Step, error) {
	p := a.Positionals
	point := len(p) >= 2 && isNumericToken(p[0]) && isNumericToken(p[1])
	msAt := 1
	if point {
		msAt = 2
	}
	if len(p) > msAt+1 {
		return nil, invalid(a.ArgPos(msAt+1), "longpress takes a target and an optional duration, got %d values (line %d)", len(p), a.Line).
			WithHint(`quote a selector with spaces as one value: longpress "label=\"Save\"" 800`)
	}
	t, st, err := tapTarget(a, point, 0)
	if err != nil {
		return nil, err
	}
	hold := DefaultLongPressMs
	if h, ok := intFlagValue(a, "hold-ms"); ok {
		hold = h
	}
	if len(p) > msAt {
		if _, ok := a.Flags["hold-ms"]; ok {
			return nil, invalid(a.ArgPos(msAt), "longpress gives the duration twice: %s and --hold-ms", p[msAt]).
				WithHint("keep one")
		}
		if hold, err = wholeMs(a, msAt, "durationMs"); err != nil {
			return nil, err
		}
	}
	if _, ok := a.Flags["count"]; ok {
		return nil, unsupported(a, a.FlagPos("count"), "longpress --count is not supported by flow (line %d)", a.Line).
			WithHint("repeat the longpress line")
	}
	t.Mode, t.HoldMs, t.DelayMs = canonical.TapLong, hold, 0
	st.Command = t
	return []Step{st}, nil
}

func fillSteps(a Action) ([]Step, error) {
	point := len(a.Positionals) == 3
	t, st, err := tapTarget(a, point, 0)
	if err != nil {
		return nil, err
	}
	textAt := 1
	if point {
		textAt = 2
	}
	st.Command = t
	typed := Step{Command: &canonical.InputText{Meta: meta(a), Text: LiteralTemplate(a.Positionals[textAt], a.ArgPos(textAt))}}
	return []Step{st, typed}, nil
}

func swipeSteps(a Action) ([]Step, error) {
	var f canonical.SwipeFlags
	for name, dst := range map[string]**float64{"count": &f.Count, "pause-ms": &f.PauseMs} {
		if v, ok := a.Flags[name]; ok {
			n := canonical.ParseNumber(v)
			*dst = &n
		}
	}
	if p, ok := a.Flags["pattern"]; ok {
		f.Pattern = &p
	}
	s, err := canonical.ParseSwipeArgs(a.Positionals, f)
	if err != nil {
		return nil, withActionPos(err, a)
	}
	return []Step{{Gesture: &canonical.GestureCommand{Swipe: &s}}}, nil
}

func gestureSteps(a Action) ([]Step, error) {
	var pc *float64
	if v, ok := a.Flags["pointer-count"]; ok {
		n := canonical.ParseNumber(v)
		pc = &n
	}
	g, err := canonical.ParseGestureArgs(a.Positionals, pc)
	if err != nil {
		return nil, withActionPos(err, a)
	}
	st := Step{Gesture: &canonical.GestureCommand{Gesture: &g}}
	if g.Kind == canonical.KindDrag {
		for i := 1; i <= 2; i++ {
			if strings.HasPrefix(a.Positionals[i], "@") {
				return nil, refUnsupported(a, i)
			}
			sel, alts, dropped, err := selectorTarget(a, i)
			if err != nil {
				return nil, err
			}
			all := append([]canonical.Selector{*sel}, alts...)
			if i == 1 {
				st.DragSource = all
			} else {
				st.DragDestination = all
			}
			st.Dropped = append(st.Dropped, dropped...)
		}
	}
	return []Step{st}, nil
}

// withActionPos stamps the action's position on a canonical error, which
// knows nothing about source files.
func withActionPos(err error, a Action) error {
	ce := canonical.Coded(err)
	if !ce.Pos.Known() {
		ce.Pos = a.Pos
	}
	if ce.Hint == "" {
		ce.Hint = "usage: " + a.Command + " " + commandSpecs()[a.Command].usage
	}
	return ce.With("line", a.Line)
}

// ScrollDirections are the directions scroll takes.
func ScrollDirections() []string { return []string{"up", "down", "left", "right"} }

// scrollSteps is scroll <dir> [amount]: agent-device's scroll plan moves
// the finger through the viewport centre over amount of the axis (at most
// 80%: 10% padding each side), "down" moving the finger up. As canonical
// fractions that is a Swipe; durations are agent-device's per platform.
func scrollSteps(a Action) ([]Step, error) {
	dir := a.Positionals[0]
	if dir == "top" || dir == "bottom" {
		return nil, unsupported(a, a.ArgPos(0), "scroll %s is not supported by flow (line %d)", dir, a.Line).
			WithHint("scroll up or down with an amount, or use --until <selector>")
	}
	if !oneOf(dir, ScrollDirections()) {
		e := invalid(a.ArgPos(0), "unknown scroll direction %q (line %d)", dir, a.Line)
		if s := canonical.Closest(dir, append(ScrollDirections(), "top", "bottom")); s != "" {
			return nil, e.WithHint("did you mean " + s + "?")
		}
		return nil, e.WithHint("scroll up, down, left or right")
	}
	if until, ok := a.Flags["until"]; ok {
		if len(a.Positionals) > 1 {
			return nil, unsupported(a, a.ArgPos(1), "scroll --until with an amount is not supported by flow (line %d)", a.Line).
				WithHint("drop the amount: scroll " + dir + " --until <selector>")
		}
		chain, err := ParseSelectorChain(until)
		if err != nil {
			return nil, canonical.Coded(err).At(a.FlagPos("until"))
		}
		sels, dropped, err := canonicalSelectors(chain, a.FlagPos("until"))
		if err != nil {
			return nil, err
		}
		s := &canonical.ScrollUntilVisible{Meta: meta(a), Element: *withAlternatives(&sels[0], sels[1:]), Direction: dir,
			TimeoutMs: canonical.Text("20000", a.Pos), Speed: canonical.Text("40", a.Pos), VisibilityPercentage: 100}
		return []Step{{Command: s, Dropped: dropped}}, nil
	}
	amount := DefaultScrollAmount
	if len(a.Positionals) > 1 {
		f, err := number(a, 1, "amount")
		if err != nil || f <= 0 {
			return nil, invalid(a.ArgPos(1), "scroll amount must be a positive number").
				WithHint("give a fraction of the screen, e.g. scroll down 0.6")
		}
		amount = f
	}
	half := round6(min(amount, MaxScrollTravel) / 2)
	from, to := canonical.Point{X: 0.5, Y: 0.5}, canonical.Point{X: 0.5, Y: 0.5}
	switch dir {
	case "up": // the finger moves down
		from.Y, to.Y = round6(0.5-half), round6(0.5+half)
	case "down":
		from.Y, to.Y = round6(0.5+half), round6(0.5-half)
	case "left":
		from.X, to.X = round6(0.5-half), round6(0.5+half)
	case "right":
		from.X, to.X = round6(0.5+half), round6(0.5-half)
	}
	ios, web := 400, 350
	duration := canonical.PlatformValue[int]{Default: 300, IOS: &ios, Web: &web}
	if ms, ok := intFlagValue(a, "duration-ms"); ok {
		duration = canonical.Same(max(ms, canonical.MinDurationMs))
	}
	frac := func(p canonical.Point) canonical.Anchor {
		v := canonical.Same(p)
		return canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &v}
	}
	return one(&canonical.Swipe{Meta: meta(a), Start: frac(from), End: frac(to), DurationMs: duration,
		Description: "scroll " + dir}), nil
}

// round6 keeps fractions readable (0.1, not 0.09999999999999998); a
// millionth of a viewport is far below a pixel.
func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func keyboardSteps(a Action) ([]Step, error) {
	sub := ""
	if len(a.Positionals) > 0 {
		sub = a.Positionals[0]
	}
	switch sub {
	case "dismiss":
		return one(&canonical.Simple{Meta: meta(a), Action: "hideKeyboard"}), nil
	case "enter", "return":
		return one(&canonical.PressKey{Meta: meta(a), Key: "Enter", AndroidCode: 66}), nil
	case "", "status", "get":
		return nil, keyboardQuery(a, sub)
	}
	e := invalid(a.ArgPos(0), "unknown keyboard action %q (line %d)", sub, a.Line)
	if s := canonical.Closest(sub, []string{"status", "get", "dismiss", "enter", "return"}); s != "" {
		return nil, e.WithHint("did you mean " + s + "?")
	}
	return nil, e.WithHint("keyboard takes status, get, dismiss, enter or return")
}

// keyboardQuery refuses keyboard status/get: flow has no query commands.
func keyboardQuery(a Action, sub string) error {
	what := "keyboard " + sub
	if sub == "" {
		what = "keyboard without an action (a status query)"
	}
	return unsupported(a, a.Pos, "%s is not supported by flow (line %d)", what, a.Line).
		WithHint("flow has no keyboard query; use keyboard dismiss, enter or return")
}

func timeoutTemplate(a Action, i int) (*canonical.Template, error) {
	if i >= len(a.Positionals) {
		return nil, nil
	}
	ms, err := wholeMs(a, i, "timeoutMs")
	if err != nil {
		return nil, err
	}
	t := canonical.Text(strconv.Itoa(ms), a.ArgPos(i))
	return &t, nil
}

func textSelector(text string, pos canonical.Pos) *canonical.Selector {
	p := canonical.Text(TextPattern(text), pos)
	return &canonical.Selector{Pos: pos, Text: &p}
}

func waitSteps(a Action) ([]Step, error) {
	p := a.Positionals
	switch {
	case p[0] == "text":
		if len(p) < 2 {
			return nil, invalid(a.Pos, "wait text needs the text to wait for (line %d)", a.Line).
				WithHint(`write wait text "Welcome" 5000`)
		}
		tm, err := timeoutTemplate(a, 2)
		if err != nil {
			return nil, err
		}
		return one(&canonical.Assert{Meta: meta(a), Visible: textSelector(p[1], a.ArgPos(1)), TimeoutMs: tm}), nil
	case p[0] == "absent":
		if len(p) < 2 {
			return nil, invalid(a.Pos, "wait absent needs a selector (line %d)", a.Line).
				WithHint(`write wait absent "label=\"Loading\"" 5000`)
		}
		sel, alts, dropped, err := selectorTarget(a, 1)
		if err != nil {
			return nil, err
		}
		if len(alts) > 0 {
			return nil, unsupported(a, a.ArgPos(1), "wait absent with selector alternatives is not supported by flow (line %d)", a.Line).
				WithHint("every alternative must be absent: write one wait absent line per alternative")
		}
		tm, err := timeoutTemplate(a, 2)
		if err != nil {
			return nil, err
		}
		return []Step{{Command: &canonical.Assert{Meta: meta(a), NotVisible: sel, TimeoutMs: tm}, Dropped: dropped}}, nil
	case p[0] == "stable":
		if len(p) > 1 {
			return nil, unsupported(a, a.ArgPos(1), "wait stable with a quiet window or timeout is not supported by flow (line %d)", a.Line).
				WithHint("write wait stable: flow waits until two screenshots in a row match")
		}
		return one(&canonical.WaitForAnimation{Meta: meta(a), TimeoutMs: DefaultStableWaitMs}), nil
	case strings.HasPrefix(p[0], "@"):
		return nil, refUnsupported(a, 0)
	case isNumericToken(p[0]) && len(p) == 1:
		return nil, unsupported(a, a.Pos, "wait %s (a fixed sleep) is not supported by flow yet (line %d)", p[0], a.Line).
			WithHint("wait for what the sleep stands for: wait text \"...\", wait <selector> or wait stable")
	}
	if len(p) > 2 {
		return nil, invalid(a.ArgPos(2), "wait takes a selector or text and an optional timeout, got %d values (line %d)", len(p), a.Line).
			WithHint(`quote text with spaces as one value: wait "Order summary" 5000`)
	}
	tm, err := timeoutTemplate(a, 1)
	if err != nil {
		return nil, err
	}
	if !looksLikeSelector(p[0]) {
		return one(&canonical.Assert{Meta: meta(a), Visible: textSelector(p[0], a.ArgPos(0)), TimeoutMs: tm}), nil
	}
	sel, alts, dropped, err := selectorTarget(a, 0)
	if err != nil {
		return nil, err
	}
	return []Step{{Command: &canonical.Assert{Meta: meta(a), Visible: withAlternatives(sel, alts), TimeoutMs: tm}, Dropped: dropped}}, nil
}

func isPredicates() []string {
	return []string{"visible", "hidden", "exists", "absent", "editable", "selected", "focused", "text"}
}

// isSteps is is <predicate> <selector> [value]: one immediate check, so the
// Assert has a zero timeout. The selector is every word after the
// predicate (but the last for text).
func isSteps(a Action) ([]Step, error) {
	pred, rest := a.Positionals[0], a.Positionals[1:]
	if !oneOf(pred, isPredicates()) {
		e := invalid(a.ArgPos(0), "unknown is predicate %q (line %d)", pred, a.Line)
		if s := canonical.Closest(pred, isPredicates()); s != "" {
			return nil, e.WithHint("did you mean " + s + "?")
		}
		return nil, e.WithHint("is takes " + strings.Join(isPredicates(), ", "))
	}
	if pred == "editable" {
		return nil, unsupported(a, a.ArgPos(0), "is editable is not supported by flow (line %d)", a.Line).
			WithHint("flow selectors cannot test editability yet")
	}
	value := ""
	if pred == "text" {
		if len(rest) < 2 {
			return nil, invalid(a.Pos, "is text needs a selector and the expected text (line %d)", a.Line).
				WithHint(`write is text "id=\"title\"" "Welcome"`)
		}
		value, rest = rest[len(rest)-1], rest[:len(rest)-1]
	}
	joined := a
	joined.Positionals = []string{strings.Join(rest, " ")}
	joined.argPos = []canonical.Pos{a.ArgPos(1)}
	sel, alts, dropped, err := selectorTarget(joined, 0)
	if err != nil {
		return nil, err
	}
	if len(alts) > 0 && (pred == "hidden" || pred == "absent") {
		return nil, unsupported(a, a.ArgPos(1), "is %s with selector alternatives is not supported by flow (line %d)", pred, a.Line).
			WithHint("check each alternative on its own line")
	}
	all := append([]canonical.Selector{*sel}, alts...)
	for i := range all {
		switch pred {
		case "selected":
			t := true
			all[i].Selected = &t
		case "focused":
			t := true
			all[i].Focused = &t
		case "text":
			if all[i].Text != nil {
				return nil, unsupported(a, a.ArgPos(1), "is text on a selector that already matches text is not supported by flow (line %d)", a.Line).
					WithHint(`select the element by id= instead, e.g. is text "id=\"title\"" "Welcome"`)
			}
			p := canonical.Text(TextPattern(value), a.ArgPos(len(a.Positionals)-1))
			all[i].Text = &p
		}
	}
	zero := canonical.Text("0", a.Pos)
	as := &canonical.Assert{Meta: meta(a), TimeoutMs: &zero}
	if pred == "hidden" || pred == "absent" {
		as.NotVisible = &all[0]
	} else {
		as.Visible = &all[0]
	}
	withAlternatives(&all[0], all[1:])
	return []Step{{Command: as, Dropped: dropped}}, nil
}

// CheckSupported decides, before anything runs, whether flow can run the
// script: every action whose values are all literal is converted in full
// (so bad values fail now); an action holding ${VAR} is checked as far as
// its literal parts allow (command form, flags, @refs), and its values are
// checked again right before the step runs.
func CheckSupported(s *Script) error {
	var c Converter
	empty := Scope{}
	for _, a := range s.Actions {
		if actionHasVars(a) {
			if err := c.checkShape(a); err != nil {
				return err
			}
			continue
		}
		r, err := Resolve(a, empty) // turns \${ escapes into ${
		if err != nil {
			return err
		}
		if _, err := c.Steps(r); err != nil {
			return err
		}
	}
	return nil
}

// checkShape is the value-free part of Steps for an action holding ${VAR}.
func (c *Converter) checkShape(a Action) error {
	if err := checkFlagsSupported(a); err != nil {
		return err
	}
	literal := func(i int) (string, bool) {
		if i < len(a.Positionals) && !HasVars(a.Positionals[i]) {
			return a.Positionals[i], true
		}
		return "", false
	}
	first, ok := literal(0)
	switch a.Command {
	case "open":
		if len(a.Positionals) > 0 {
			c.opened = true
			c.app = "${...}"
		}
	case "close":
		if len(a.Positionals) == 0 && !c.opened {
			return invalid(a.Pos, "close without an app needs an earlier open").
				WithHint("write close <app id>, or open the app earlier in the script")
		}
	case "click", "press", "longpress", "fill", "wait":
		if ok && strings.HasPrefix(first, "@") {
			return refUnsupported(a, 0)
		}
		if a.Command == "wait" && ok && isNumericToken(first) && len(a.Positionals) == 1 {
			return unsupported(a, a.Pos, "wait %s (a fixed sleep) is not supported by flow yet (line %d)", first, a.Line).
				WithHint("wait for what the sleep stands for: wait text \"...\", wait <selector> or wait stable")
		}
	case "scroll":
		if ok && (first == "top" || first == "bottom") {
			return unsupported(a, a.ArgPos(0), "scroll %s is not supported by flow (line %d)", first, a.Line).
				WithHint("scroll up or down with an amount, or use --until <selector>")
		}
	case "keyboard":
		if len(a.Positionals) == 0 || (ok && (first == "status" || first == "get")) {
			return keyboardQuery(a, first)
		}
	case "is":
		if ok && first == "editable" {
			return unsupported(a, a.ArgPos(0), "is editable is not supported by flow (line %d)", a.Line).
				WithHint("flow selectors cannot test editability yet")
		}
	}
	return nil
}
