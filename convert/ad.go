package convert

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
)

// ToAd writes a flow as an .ad script: the flow's env as env directives
// (plain text values, or the ${NAME || 'default'} idiom), then one action
// line per command. Each line is the one the .ad codec ([ad.ParseScript],
// [ad.Resolve], [ad.Converter.Steps]) loads back as the same canonical command,
// which ToAd checks line by line; a tap followed by typing becomes one
// fill line. A command with no such line is a problem of the returned
// *ConvertError, which lists them all.
//
// Maestro ${...} is JavaScript and .ad ${VAR} plain substitution, so only
// a template made of text and ${NAME} references to env variables the
// script defines carries over; loading the script substitutes them, so
// the loaded command holds the values.
func ToAd(f *canonical.Flow) ([]byte, error) {
	w := &adWriter{vars: map[string]*adVar{}}
	w.env(f.Env)
	for _, hook := range []struct {
		name string
		cmds []canonical.Command
	}{{"onFlowStart", f.OnFlowStart}, {"onFlowComplete", f.OnFlowComplete}} {
		if len(hook.cmds) == 0 {
			continue
		}
		w.problems = append(w.problems, canonical.Errorf(canonical.CodeUnsupportedOperation,
			"%s has no .ad form: .ad scripts have no hooks", hook.name).
			At(hook.cmds[0].Base().Pos).With("command", hook.name).With("to", FormatAd).
			WithHint("move the hook's commands into the flow by hand (an onFlowComplete hook also runs after a failure; a script line does not)"))
	}
	var lines []adLine
	for _, c := range f.Commands {
		acts, reasons := w.command(c)
		if len(reasons) == 0 {
			if why := w.verify(acts, []canonical.Command{c}); why != "" {
				reasons = append(reasons, why)
			}
		}
		if len(reasons) > 0 {
			w.problems = append(w.problems, noForm(c, FormatAd, reasons, nearestHint(acts)))
			continue
		}
		for _, a := range acts {
			lines = append(lines, adLine{action: a, want: []canonical.Command{c}})
		}
	}
	if len(w.problems) > 0 {
		return nil, &ConvertError{To: FormatAd, Problems: w.problems}
	}
	lines = w.mergeFills(lines)

	var b strings.Builder
	b.WriteString("# Converted by flow convert")
	if f.File != "" {
		b.WriteString(" from " + f.File)
	}
	b.WriteString(".\n")
	if f.Name != "" && f.Name != fileStem(f.File) {
		b.WriteString("# name: " + oneLine(f.Name) + "\n")
	}
	if len(f.Tags) > 0 {
		b.WriteString("# tags: " + oneLine(strings.Join(f.Tags, ", ")) + "\n")
	}
	for _, v := range w.order {
		if v.why == "" {
			b.WriteString(ad.EncodeEnv(ad.EnvVar{Key: v.name, Value: v.value}) + "\n")
		}
	}
	for _, l := range lines {
		b.WriteString(ad.EncodeAction(l.action) + "\n")
	}
	return []byte(b.String()), nil
}

// adLine is one written action and the commands it must load back as.
type adLine struct {
	action ad.Action
	want   []canonical.Command
}

// adVar is one env variable of the flow and its .ad value; why says why
// it has none.
type adVar struct {
	name  string
	value string
	why   string
}

type adWriter struct {
	vars     map[string]*adVar
	order    []*adVar
	scope    ad.Scope
	problems []*canonical.Error
}

// env converts the flow's env block. A variable that cannot become an env
// directive is only a problem for the commands that use it.
func (w *adWriter) env(vars []canonical.EnvVar) {
	file := map[string]string{}
	for _, e := range vars {
		v := &adVar{name: e.Name}
		switch {
		case !ad.IsEnvKey(e.Name):
			v.why = e.Name + " is not a .ad env key (upper-case letters, digits and _)"
		case strings.HasPrefix(e.Name, "AD_"):
			v.why = "AD_* names are reserved for .ad built-ins"
		default:
			v.value, v.why = adEnvValue(e.Name, e.Value.Raw)
		}
		if _, dup := w.vars[e.Name]; !dup {
			w.order = append(w.order, v)
		}
		w.vars[e.Name] = v
		if v.why == "" {
			file[e.Name] = v.value
		}
	}
	w.scope, _ = ad.NewScope(ad.VarSources{File: file}) // no AD_ keys: refused above
}

// defaultIdiomRe() is Maestro's "CLI value or default" env idiom,
// NAME: ${NAME || 'default'}, which is what an .ad env directive means:
// -e NAME=... overrides it.
var defaultIdiomRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\|\|\s*(?:'([^'"\\$\r\n]*)'|"([^'"\\$\r\n]*)")\s*\}$`)
})

// adEnvValue is the .ad value of a Maestro env value: plain text, or the
// default of the ${NAME || 'default'} idiom. Backslashes and line breaks
// are refused: Maestro's JavaScript engines disagree about them.
func adEnvValue(name, raw string) (string, string) {
	if m := defaultIdiomRe().FindStringSubmatch(raw); m != nil && m[1] == name {
		return m[2] + m[3], ""
	}
	plain := !strings.Contains(raw, "${") && !strings.ContainsAny(raw, "\\") &&
		strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f || ad.IsLineTerminator(r) }) < 0
	if plain {
		return raw, ""
	}
	return "", fmt.Sprintf("its env value %q is not plain text (.ad env values are not JavaScript)", raw)
}

// value is a template as .ad text. It is empty-reasoned when exact: the
// text itself, its \${ escapes, and ${NAME} references to env variables
// the script defines.
func (w *adWriter) value(t canonical.Template, what string) (string, string) {
	raw := t.Raw
	if !strings.Contains(raw, "${") {
		return raw, ""
	}
	spans := maestroExprs(raw)
	if len(spans) == 0 {
		lit := unescapeTemplate(raw)
		if ad.LiteralTemplate(lit, canonical.Pos{}).Raw != raw {
			return ad.Escape(lit), fmt.Sprintf("%s %q escapes ${ where .ad text cannot", what, raw)
		}
		return ad.Escape(lit), ""
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		lit := raw[last:sp.start]
		if strings.Contains(lit, "${") {
			return raw, fmt.Sprintf("%s %q mixes ${...} with an escaped \\${", what, raw)
		}
		b.WriteString(lit)
		name := strings.TrimSpace(raw[sp.bodyStart:sp.bodyEnd])
		v, ok := w.vars[name]
		switch {
		case !identRe().MatchString(name):
			return raw, fmt.Sprintf("%s %q holds the JavaScript expression ${%s}; .ad ${...} only substitutes a variable", what, raw, name)
		case !ok:
			return raw, fmt.Sprintf("%s uses ${%s}, which the flow's env does not define", what, name)
		case v.why != "":
			return raw, fmt.Sprintf("%s uses ${%s}, but %s", what, name, v.why)
		}
		b.WriteString("${" + name + "}")
		last = sp.end
	}
	if tail := raw[last:]; strings.Contains(tail, "${") {
		return raw, fmt.Sprintf("%s %q mixes ${...} with ${ text", what, raw)
	}
	b.WriteString(raw[last:])
	return b.String(), ""
}

// unescapeTemplate is the text of a template without expressions, as the
// runtime reads it: each \${...} loses its backslash (Maestro's second
// pass); a \${ with no closing brace keeps it.
func unescapeTemplate(text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+2 < len(text); i++ {
		if text[i] != '\\' || text[i+1] != '$' || text[i+2] != '{' {
			continue
		}
		if end, ok := closingBrace(text, i+3); ok {
			b.WriteString(text[last:i])
			b.WriteString(text[i+1 : end])
			last = end
			i = end - 1
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// closingBrace is the end of a ${...} body starting at from: just past the
// last '}' before the next '$'.
func closingBrace(text string, from int) (int, bool) {
	limit := len(text)
	if j := strings.IndexByte(text[from:], '$'); j >= 0 {
		limit = from + j
	}
	k := strings.LastIndexByte(text[from:limit], '}')
	if k < 0 {
		return 0, false
	}
	return from + k + 1, true
}

var identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// expand is what a template holding ${NAME} references becomes once the
// .ad script is loaded: the env values substituted, as literal text.
func (w *adWriter) expand(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	spans := maestroExprs(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		lit := s[last:sp.start]
		name := strings.TrimSpace(s[sp.bodyStart:sp.bodyEnd])
		v, ok := w.vars[name]
		if strings.Contains(lit, "${") || !ok || v.why != "" {
			return s
		}
		b.WriteString(lit + v.value)
		last = sp.end
	}
	b.WriteString(s[last:])
	return ad.LiteralTemplate(b.String(), canonical.Pos{}).Raw
}

// maestroSpan is one ${...} of a Maestro template: raw[start:end] is the
// whole of it, raw[bodyStart:bodyEnd] the script.
type maestroSpan struct{ start, bodyStart, bodyEnd, end int }

// maestroExprs finds a template's expressions with Maestro's regex
// (?<!\\)\$\{([^$]*)}: the body runs to the last '}' before the next '$'.
func maestroExprs(text string) []maestroSpan {
	var out []maestroSpan
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '$' || text[i+1] != '{' || (i > 0 && text[i-1] == '\\') {
			continue
		}
		end, ok := closingBrace(text, i+2)
		if !ok {
			continue
		}
		out = append(out, maestroSpan{start: i, bodyStart: i + 2, bodyEnd: end - 1, end: end})
		i = end - 1
	}
	return out
}

// verify loads the actions as the .ad codec does and compares what they
// become with want. It returns why they differ, or "".
func (w *adWriter) verify(acts []ad.Action, want []canonical.Command) string {
	var got []canonical.Command
	var conv ad.Converter
	for _, a := range acts {
		line := ad.EncodeAction(a)
		s, err := ad.ParseScript("convert.ad", []byte(line), ad.ParseOptions{})
		if err != nil || len(s.Actions) != 1 {
			return fmt.Sprintf("the .ad line %s does not parse back (%v)", line, err)
		}
		r, err := ad.Resolve(s.Actions[0], w.scope)
		if err != nil {
			return fmt.Sprintf("the .ad line %s does not load (%s)", line, canonical.Coded(err).Message)
		}
		steps, err := conv.Steps(r)
		if err != nil {
			return fmt.Sprintf("the .ad line %s does not load (%s)", line, canonical.Coded(err).Message)
		}
		for _, st := range steps {
			c, err := ad.StepCommand(st, r)
			if err != nil {
				return fmt.Sprintf("the .ad line %s does not load (%s)", line, canonical.Coded(err).Message)
			}
			if c != nil {
				got = append(got, c)
			}
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("the nearest .ad loads as %d commands, not %d", len(got), len(want))
	}
	for i := range want {
		wj, err1 := commandJSON(want[i])
		gj, err2 := commandJSON(got[i])
		if err1 != nil || err2 != nil {
			return "the command cannot be compared"
		}
		if !reflect.DeepEqual(mapStrings(wj, w.expand), gj) {
			return fmt.Sprintf("the nearest .ad line, %s, loads as a different command", ad.EncodeAction(acts[min(i, len(acts)-1)]))
		}
	}
	return ""
}

func act(command string, positionals ...string) ad.Action {
	return ad.Action{Command: command, Positionals: positionals}
}

// mergeFills writes a tap at a target followed by typing as one fill
// line, when fill loads as the same two commands.
func (w *adWriter) mergeFills(lines []adLine) []adLine {
	var out []adLine
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i+1 < len(lines) && l.action.Command == "press" && len(l.action.Flags) == 0 &&
			lines[i+1].action.Command == "type" && len(lines[i+1].action.Positionals) == 1 && len(lines[i+1].action.Flags) == 0 {
			fill := ad.Action{Command: "fill", Positionals: append(append([]string{}, l.action.Positionals...), lines[i+1].action.Positionals[0])}
			want := append(append([]canonical.Command{}, l.want...), lines[i+1].want...)
			if w.verify([]ad.Action{fill}, want) == "" {
				out = append(out, adLine{action: fill, want: want})
				i++
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// nearestHint shows the .ad lines closest to a refused command.
func nearestHint(acts []ad.Action) string {
	if len(acts) == 0 {
		return ""
	}
	lines := make([]string, len(acts))
	for i, a := range acts {
		lines[i] = ad.EncodeAction(a)
	}
	return "the nearest .ad is: " + strings.Join(lines, " ; ") + " — it differs as described, so flow convert does not write it; use it by hand if that is acceptable"
}

func fileStem(file string) string {
	base := file[strings.LastIndexByte(file, '/')+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

// oneLine keeps a header comment on one line.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || ad.IsLineTerminator(r) }), " ")
}

// command converts one canonical command. It returns the nearest actions
// (nil when there is nothing near) and why they are not exact.
func (w *adWriter) command(c canonical.Command) ([]ad.Action, []string) {
	var why []string
	m := c.Base()
	if m.Label != "" {
		why = append(why, fmt.Sprintf(".ad has no labels (label %q)", m.Label))
	}
	if m.Optional {
		why = append(why, ".ad has no optional commands: a failing line fails the script")
	}
	add := func(r ...string) {
		for _, s := range r {
			if s != "" {
				why = append(why, s)
			}
		}
	}
	var acts []ad.Action
	switch t := c.(type) {
	case *canonical.LaunchApp:
		app, r := w.value(t.AppID, "appId")
		add(r)
		switch {
		case t.Permissions == nil:
			add("this launch leaves permissions as they are; .ad open grants every permission as launchApp does")
		case len(t.Permissions) == 1 && t.Permissions["all"] == "allow":
		default:
			add(fmt.Sprintf("launchApp sets permissions %s; .ad open leaves permissions as they are", permissionsText(t.Permissions)))
		}
		if t.ClearState {
			add(".ad open cannot clear the app's data first (clearState)")
		}
		if t.ClearKeychain {
			add(".ad open cannot clear the keychain (clearKeychain)")
		}
		if len(t.Arguments) > 0 {
			add(".ad open takes no launch arguments")
		}
		if strings.Contains(app, "://") {
			add(fmt.Sprintf(".ad open reads %q as a link, not an app id", app))
		}
		a := act("open", app)
		if t.StopApp {
			a = a.With("relaunch", "true")
		}
		acts = append(acts, a)
	case *canonical.StopApp:
		app, r := w.value(t.AppID, "appId")
		add(r)
		if t.Kill {
			add(".ad close stops the app; it cannot kill it")
		}
		acts = append(acts, act("close", app))
	case *canonical.ClearState:
		add(".ad has no command that clears an app's data")
	case *canonical.OpenLink:
		link, r := w.value(t.Link, "link")
		add(r)
		if t.Browser {
			add(".ad open cannot force the link into the browser")
		}
		if t.AutoVerify {
			add(".ad open cannot auto-verify a link")
		}
		if strings.Contains(link, "://") && !ad.HasVars(link) {
			acts = append(acts, act("open", link))
		} else {
			acts = append(acts, act("open").With("launch-url", link))
		}
	case *canonical.Tap:
		a, r := w.tap(t)
		add(r...)
		acts = append(acts, a...)
	case *canonical.Assert:
		a, r := w.assert(t)
		add(r...)
		acts = append(acts, a...)
	case *canonical.InputText:
		text, r := w.value(t.Text, "text")
		add(r)
		acts = append(acts, act("type", text))
	case *canonical.PressKey:
		switch t.Key {
		case "Home":
			acts = append(acts, act("home"))
		case "Enter":
			acts = append(acts, act("keyboard", "enter"))
		case "Back":
			add("pressKey Back presses the Back key; .ad back is the back action (Maestro's back)")
			acts = append(acts, act("back"))
		default:
			add(fmt.Sprintf(".ad presses only Home (home) and Enter (keyboard enter), not %s", t.Key))
		}
	case *canonical.Simple:
		switch t.Action {
		case "back":
			acts = append(acts, act("back"))
		case "hideKeyboard":
			acts = append(acts, act("keyboard", "dismiss"))
		default:
			add(simpleReason(t.Action))
		}
	case *canonical.Swipe:
		a, r := w.swipe(t)
		add(r...)
		acts = append(acts, a...)
	case *canonical.ScrollUntilVisible:
		a, r := w.scrollUntil(t)
		add(r...)
		acts = append(acts, a...)
	case *canonical.WaitForAnimation:
		if t.TimeoutMs != ad.DefaultStableWaitMs {
			add(fmt.Sprintf(".ad wait stable waits up to %d ms, not %d", ad.DefaultStableWaitMs, t.TimeoutMs))
		}
		acts = append(acts, act("wait", "stable"))
	case *canonical.TakeScreenshot:
		path, r := w.value(t.Path, "path")
		add(r)
		if t.CropOn != nil {
			add("takeScreenshot's cropOn has no .ad form: .ad screenshot keeps the whole screen")
		}
		if path == "" {
			acts = append(acts, act("screenshot", ""))
		} else {
			acts = append(acts, act("screenshot", path+".png"))
		}
	case *canonical.GestureStep:
		a, r := ad.GestureAction(t.Input)
		add(r...)
		if len(r) == 0 {
			acts = append(acts, a)
		}
	case *canonical.SwipeSeries:
		s := t.Swipe
		a := act("swipe", canonical.FormatNumber(s.From.X), canonical.FormatNumber(s.From.Y),
			canonical.FormatNumber(s.To.X), canonical.FormatNumber(s.To.Y))
		if s.Count != 1 {
			a = a.With("count", strconv.Itoa(s.Count))
		}
		if s.PauseMs != 0 {
			a = a.With("pause-ms", strconv.Itoa(s.PauseMs))
		}
		if s.Pattern != "" && s.Pattern != canonical.PatternOneWay {
			a = a.With("pattern", s.Pattern)
		}
		acts = append(acts, a)
	case *canonical.Drag:
		src, r1 := w.selector(&t.Source, "source")
		dst, r2 := w.selector(&t.Destination, "destination")
		add(r1...)
		add(r2...)
		a := act("gesture", "drag", ad.Escape(src.chain), ad.Escape(dst.chain))
		holds := []*int{t.SourceHoldMs, t.MoveMs, t.DestinationHoldMs}
		n := 0
		for i, h := range holds {
			if h != nil {
				n = i + 1
			}
		}
		for _, h := range holds[:n] {
			if h == nil {
				add(".ad gesture drag cannot leave out a duration that comes before one it gives")
				break
			}
			a.Positionals = append(a.Positionals, strconv.Itoa(*h))
		}
		if t.ExpectSource != nil && t.ExpectDestination != nil {
			a.Targets = &ad.TargetPair{Source: ad.IdentityEvidence(*t.ExpectSource), Destination: ad.IdentityEvidence(*t.ExpectDestination)}
		} else if t.ExpectSource != nil || t.ExpectDestination != nil {
			add("a targets-v1 annotation holds both endpoints' identities, and this drag checks only one")
		}
		acts = append(acts, a)
	default:
		add(adKindReason(c))
	}
	return acts, why
}

func permissionsText(p map[string]string) string {
	keys := sortedKeys(p)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + p[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func simpleReason(action string) string {
	switch action {
	case "pasteText":
		return ".ad cannot paste copied text"
	case "clearKeychain":
		return ".ad cannot clear the keychain"
	case "stopRecording":
		return ".ad cannot record the screen in flow"
	case "toggleAirplaneMode":
		return ".ad cannot switch airplane mode"
	}
	return ".ad has no " + action + " command"
}

// adKindReason says why a whole kind of command has no .ad form.
func adKindReason(c canonical.Command) string {
	switch t := c.(type) {
	case *canonical.RunFlow:
		if t.When != nil {
			return ".ad scripts cannot run commands on a condition (when:) or run other flows"
		}
		return ".ad scripts cannot run other flows or blocks of commands"
	case *canonical.Repeat:
		return ".ad has no loops"
	case *canonical.Retry:
		return ".ad has no retry blocks"
	case *canonical.RunScript, *canonical.EvalScript:
		return ".ad scripts cannot run JavaScript"
	case *canonical.AssertTrue:
		return ".ad cannot check a JavaScript condition"
	case *canonical.InputRandom:
		return ".ad cannot type random text"
	case *canonical.EraseText:
		return ".ad has no command that erases text"
	case *canonical.CopyText:
		return ".ad cannot copy an element's text"
	case *canonical.SetLocation, *canonical.Travel:
		return ".ad cannot mock the device's location"
	case *canonical.AddMedia:
		return ".ad cannot add media to the device"
	case *canonical.SetAirplaneMode:
		return ".ad cannot switch airplane mode"
	case *canonical.StartRecording:
		return ".ad cannot record the screen in flow"
	case *canonical.AI:
		return ".ad has no AI commands"
	}
	return ".ad has no " + c.Kind() + " command"
}

// adTarget is a written tap target: two numbers or one selector chain.
func (w *adWriter) target(t *canonical.Tap) ([]string, []string) {
	switch {
	case t.Point != nil:
		xy, why := adPoint(*t.Point)
		if why != "" {
			return xy, []string{why}
		}
		return xy, nil
	case t.Selector != nil:
		s, why := w.selector(t.Selector, "")
		return []string{ad.Escape(s.chain)}, why
	}
	return nil, []string{"the tap has neither a point nor an element"}
}

// adPoint reads a tap point as .ad's "x y". A Maestro point is trimmed
// and read as whole numbers (canonical.ParseMaestroPoint), so "235, 681"
// is exactly tap 235 681; a point from .ad may have decimals, written back
// as .ad writes them.
func adPoint(t canonical.Template) ([]string, string) {
	raw := t.Raw
	if t.HasExpr() {
		return []string{raw}, fmt.Sprintf("point %q holds an expression; .ad taps at numbers", raw)
	}
	x, y, percent, _, ok := canonical.ParseMaestroPoint(raw)
	switch {
	case percent:
		return nil, fmt.Sprintf("point %q is a percentage of the screen; .ad taps at coordinates only", raw)
	case ok:
		return []string{strconv.Itoa(x), strconv.Itoa(y)}, ""
	}
	parts := strings.Split(raw, ",")
	if len(parts) == 2 {
		xs, ys := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		fx, fy := canonical.ParseNumber(xs), canonical.ParseNumber(ys)
		if canonical.IsFinite(fx) && canonical.IsFinite(fy) {
			if canonical.FormatNumber(fx) == xs && canonical.FormatNumber(fy) == ys {
				return []string{xs, ys}, ""
			}
			return []string{canonical.FormatNumber(fx), canonical.FormatNumber(fy)},
				fmt.Sprintf("point %q would be written %s,%s", raw, canonical.FormatNumber(fx), canonical.FormatNumber(fy))
		}
	}
	return nil, fmt.Sprintf("point %q is not x,y", raw)
}

func (w *adWriter) tap(t *canonical.Tap) ([]ad.Action, []string) {
	target, why := w.target(t)
	if !t.RetryIfNoChange {
		why = append(why, fmt.Sprintf("%s has retryTapIfNoChange: false; a .ad tap always taps again when the screen does not change", commandName(t)))
	}
	if t.WaitUntilVisible {
		why = append(why, ".ad taps do not wait for the element to become visible (waitUntilVisible)")
	}
	if t.WaitToSettleTimeoutMs != nil {
		why = append(why, ".ad taps have no waitToSettleTimeoutMs")
	}
	var a ad.Action
	switch t.Mode {
	case canonical.TapSingle:
		a = act("press", target...)
		if t.HoldMs != 0 {
			why = append(why, "a single tap cannot hold")
		}
		if t.Repeat != 1 {
			a = a.With("count", strconv.Itoa(t.Repeat))
		}
		if t.DelayMs != ad.DefaultTapIntervalMs {
			a = a.With("interval-ms", strconv.Itoa(t.DelayMs))
		}
	case canonical.TapDouble:
		a = act("press", target...).With("double-tap", "true")
		if t.Repeat != 2 {
			why = append(why, fmt.Sprintf(".ad --double-tap taps twice, not %d times", t.Repeat))
		}
		if t.DelayMs != ad.DefaultTapIntervalMs {
			a = a.With("interval-ms", strconv.Itoa(t.DelayMs))
		}
	case canonical.TapLong:
		if t.Repeat != 1 {
			why = append(why, ".ad long presses press once")
		}
		if t.DelayMs == 0 {
			a = act("longpress", target...)
			if t.HoldMs != ad.DefaultLongPressMs {
				a.Positionals = append(a.Positionals, strconv.Itoa(t.HoldMs))
			}
		} else {
			a = act("press", target...).With("hold-ms", strconv.Itoa(t.HoldMs))
			if t.DelayMs != ad.DefaultTapIntervalMs {
				a = a.With("interval-ms", strconv.Itoa(t.DelayMs))
			}
		}
	default:
		why = append(why, fmt.Sprintf("unknown tap mode %q", t.Mode))
	}
	if target == nil {
		return nil, why
	}
	return []ad.Action{a}, why
}

// adSelector is a selector written as a .ad chain; text is set when the
// selector is text alone (for wait text).
type adSelector struct {
	chain    string
	text     string
	textOnly bool
}

// selector writes a canonical selector as one .ad selector: id= and text=
// from ad.TextPattern-shaped patterns, and the enabled/selected/focused
// flags. what prefixes reasons ("source", "destination").
func (w *adWriter) selector(s *canonical.Selector, what string) (adSelector, []string) {
	var why []string
	var terms []string
	var out adSelector
	pre := ""
	if what != "" {
		pre = what + " "
	}
	pattern := func(key string, t *canonical.Template) {
		v, ok := untextPattern(t.Raw)
		switch {
		case ok:
		case t.HasExpr():
			why = append(why, fmt.Sprintf("%s%s %q holds a ${...} expression; .ad selectors match text written out", pre, key, t.Raw))
			v = t.Raw
		default:
			near := nearestText(t.Raw)
			why = append(why, fmt.Sprintf("%s%s %q is a regular expression; .ad %s=%s also matches other spacing (flow reads it as %s)",
				pre, key, t.Raw, key, ad.QuoteJSON(near), ad.TextPattern(near)))
			v = near
		}
		terms = append(terms, key+"="+ad.QuoteJSON(v))
		if key == "text" {
			out.text = v
		}
	}
	if s.ID != nil {
		pattern("id", s.ID)
	}
	if s.Text != nil {
		pattern("text", s.Text)
	}
	for _, f := range []struct {
		key string
		v   *bool
	}{{"enabled", s.Enabled}, {"selected", s.Selected}, {"focused", s.Focused}} {
		if f.v != nil {
			terms = append(terms, f.key+"="+strconv.FormatBool(*f.v))
		}
	}
	if s.Index != nil {
		why = append(why, pre+"index: .ad selectors have no index")
	}
	if s.Width != nil || s.Height != nil || s.Tolerance != nil {
		why = append(why, pre+"width/height: .ad selectors cannot match a size")
	}
	if s.Checked != nil {
		why = append(why, pre+"checked: .ad selectors have no checked= (only selected=, focused= and enabled=)")
	}
	if len(s.Traits) > 0 {
		why = append(why, pre+"traits: .ad selectors have no traits")
	}
	if s.CSS != nil {
		why = append(why, fmt.Sprintf("%scss %q: .ad selectors have no CSS selector; select the element by id= or text= (its id, aria-label, name or text on the page)", pre, s.CSS.Raw))
	}
	var rel []string
	for _, r := range []struct {
		key string
		set bool
	}{{"below", s.Below != nil}, {"above", s.Above != nil}, {"leftOf", s.LeftOf != nil}, {"rightOf", s.RightOf != nil},
		{"childOf", s.ChildOf != nil}, {"containsChild", s.ContainsChild != nil}, {"containsDescendants", len(s.ContainsDescendants) > 0}} {
		if r.set {
			rel = append(rel, r.key)
		}
	}
	if len(rel) > 0 {
		why = append(why, pre+strings.Join(rel, ", ")+": .ad selectors cannot relate elements to each other")
	}
	if s.ID == nil && s.Text == nil {
		why = append(why, pre+"selector: a .ad selector needs an id or a text, or it would match any element")
	}
	out.chain = strings.Join(terms, " ")
	out.textOnly = s.Text != nil && len(terms) == 1 && len(s.AnyOf) == 0
	for _, alt := range s.AnyOf {
		a, altWhy := w.selector(alt, what)
		out.chain += " || " + a.chain
		why = append(why, altWhy...)
	}
	return out, why
}

// untextPattern inverts [ad.TextPattern]: the text whose pattern is p.
func untextPattern(p string) (string, bool) {
	if lit := unescapeMeta(p); lit != "" && ad.TextPattern(lit) == p {
		return lit, true
	}
	if !strings.HasPrefix(p, `\s*`) || !strings.HasSuffix(p, `\s*`) || len(p) < 6 {
		return "", false
	}
	mid := p[3 : len(p)-3]
	var words []string
	if mid != "" {
		for _, w := range strings.Split(mid, `\s+`) {
			var b strings.Builder
			for i := 0; i < len(w); i++ {
				c := w[i]
				if c == '\\' && i+1 < len(w) && strings.IndexByte(ad.RegexMeta, w[i+1]) >= 0 {
					b.WriteByte(w[i+1])
					i++
					continue
				}
				b.WriteByte(c)
			}
			words = append(words, b.String())
		}
	}
	// A spaced pattern comes from text that was not trimmed and
	// single-spaced; a leading space makes ad.TextPattern write it again.
	v := " " + strings.Join(words, " ")
	if ad.TextPattern(v) != p {
		return "", false
	}
	return v, true
}

// nearestText is the literal text a pattern most likely means: its
// escapes removed.
func nearestText(p string) string {
	if v, ok := untextPattern(p); ok {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) && strings.IndexByte(ad.RegexMeta, p[i+1]) >= 0 {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func (w *adWriter) assert(t *canonical.Assert) ([]ad.Action, []string) {
	var why []string
	var timeout []string
	if t.TimeoutMs != nil {
		raw := t.TimeoutMs.Raw
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 || strconv.Itoa(n) != raw {
			why = append(why, fmt.Sprintf("timeout %q is not a whole number of milliseconds as .ad writes one", raw))
		}
		timeout = []string{raw}
	}
	switch {
	case t.Visible != nil && t.NotVisible != nil:
		why = append(why, ".ad waits for one condition at a time (visible and notVisible are both set)")
		return nil, why
	case t.Visible != nil:
		s, r := w.selector(t.Visible, "")
		why = append(why, r...)
		if s.textOnly {
			return []ad.Action{act("wait", append([]string{"text", ad.Escape(s.text)}, timeout...)...)}, why
		}
		return []ad.Action{act("wait", append([]string{ad.Escape(s.chain)}, timeout...)...)}, why
	case t.NotVisible != nil:
		s, r := w.selector(t.NotVisible, "")
		why = append(why, r...)
		return []ad.Action{act("wait", append([]string{"absent", ad.Escape(s.chain)}, timeout...)...)}, why
	}
	return nil, append(why, "the assertion checks nothing")
}

// scrollAmount inverts the .ad scroll plan: a swipe through the screen
// centre, symmetric on one axis, between the same fractions everywhere.
func (w *adWriter) swipe(t *canonical.Swipe) ([]ad.Action, []string) {
	var why []string
	if t.WaitToSettleTimeoutMs != nil {
		why = append(why, ".ad scroll has no waitToSettleTimeoutMs")
	}
	switch {
	case t.Start.Kind == canonical.AnchorElement:
		return nil, append(why, ".ad has no swipe that starts on an element")
	case t.Start.Kind == canonical.AnchorPoint && t.End.Kind == canonical.AnchorPoint:
		p, q := *t.Start.Point, *t.End.Point
		near := act("gesture", "pan", canonical.FormatNumber(p.X), canonical.FormatNumber(p.Y),
			canonical.FormatNumber(q.X-p.X), canonical.FormatNumber(q.Y-p.Y), strconv.Itoa(t.DurationMs.Default))
		return []ad.Action{near}, append(why, "a swipe between coordinates is a pan that holds at its end; .ad gesture pan moves at an even pace and .ad swipe is a 100 ms fling")
	case t.Start.Kind == canonical.AnchorPercent || t.End.Kind == canonical.AnchorPercent:
		return nil, append(why, ".ad has no swipe between screen percentages")
	case t.Start.Kind != canonical.AnchorFraction || t.End.Kind != canonical.AnchorFraction:
		return nil, append(why, ".ad has no such swipe")
	}
	from, to := *t.Start.Fraction, *t.End.Fraction
	if from.Android != nil || from.IOS != nil || from.Web != nil || to.Android != nil || to.IOS != nil || to.Web != nil {
		return nil, append(why, "the swipe starts or ends at a different place per platform; .ad scroll does not")
	}
	p, q := from.Default, to.Default
	var dir string
	var half float64
	switch {
	case p.X == 0.5 && q.X == 0.5 && round6(p.Y+q.Y) == 1 && p.Y != q.Y:
		half = round6(absf(p.Y-q.Y) / 2)
		dir = "up"
		if p.Y > q.Y {
			dir = "down"
		}
	case p.Y == 0.5 && q.Y == 0.5 && round6(p.X+q.X) == 1 && p.X != q.X:
		half = round6(absf(p.X-q.X) / 2)
		dir = "left"
		if p.X > q.X {
			dir = "right"
		}
	default:
		return nil, append(why, fmt.Sprintf("no .ad scroll swipes from (%s, %s) to (%s, %s): .ad scroll swipes symmetrically about the screen centre, on one axis",
			canonical.FormatNumber(p.X), canonical.FormatNumber(p.Y), canonical.FormatNumber(q.X), canonical.FormatNumber(q.Y)))
	}
	if half > ad.MaxScrollTravel/2 {
		return nil, append(why, "the swipe covers more than the 80% of the screen .ad scroll moves at most")
	}
	a := act("scroll", dir)
	if amount := round6(2 * half); amount != ad.DefaultScrollAmount {
		a.Positionals = append(a.Positionals, canonical.FormatNumber(amount))
	}
	ios, web := 400, 350
	switch d := t.DurationMs; {
	case sameInts(d, canonical.PlatformValue[int]{Default: 300, IOS: &ios, Web: &web}):
	case d.Android == nil && d.IOS == nil && d.Web == nil && d.Default >= canonical.MinDurationMs:
		a = a.With("duration-ms", strconv.Itoa(d.Default))
	default:
		why = append(why, "the swipe's duration differs per platform in a way .ad scroll cannot say")
	}
	return []ad.Action{a}, why
}

func absf(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func (w *adWriter) scrollUntil(t *canonical.ScrollUntilVisible) ([]ad.Action, []string) {
	s, why := w.selector(&t.Element, "element")
	if t.TimeoutMs.Raw != "20000" {
		why = append(why, fmt.Sprintf(".ad scroll --until gives up after 20000 ms, not %s", t.TimeoutMs.Raw))
	}
	if t.Speed.Raw != "40" {
		why = append(why, fmt.Sprintf(".ad scroll --until scrolls at speed 40, not %s", t.Speed.Raw))
	}
	if t.VisibilityPercentage != 100 {
		why = append(why, ".ad scroll --until needs the element fully visible (visibilityPercentage 100)")
	}
	if t.CenterElement {
		why = append(why, ".ad scroll --until cannot centre the element")
	}
	if t.WaitToSettleTimeoutMs != nil {
		why = append(why, ".ad scroll has no waitToSettleTimeoutMs")
	}
	if !oneOf(t.Direction, ad.ScrollDirections()) {
		why = append(why, fmt.Sprintf("unknown direction %q", t.Direction))
	}
	return []ad.Action{act("scroll", t.Direction).With("until", ad.Escape(s.chain))}, why
}

// unescapeMeta removes the backslashes ad.TextPattern puts before regex
// metacharacters of a literal.
func unescapeMeta(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) && strings.IndexByte(ad.RegexMeta, p[i+1]) >= 0 {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
