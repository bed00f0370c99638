package convert

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
)

// ToMaestro writes a flow as a Maestro flow file: the header (appId, and
// name, tags, env, jsEngine and hooks when the flow has them), "---",
// then one command per item in its shortest form. The header's appId is
// appID when given, else the flow's own, else the first app a command
// launches, stops or clears; commands on that app leave it out.
//
// Loading the written file with the Maestro loader gives the same
// canonical commands. A command Maestro cannot express — .ad gestures,
// repeated .ad swipes, .ad scrolls, an open that leaves permissions alone
// — is a problem of the returned *ConvertError, which lists them all.
//
// ToMaestro writes for Maestro 1.39; ToMaestroFor for a given version.
func ToMaestro(f *canonical.Flow, appID string) ([]byte, error) {
	return ToMaestroFor(f, appID, canonical.Maestro139)
}

// ToMaestroFor is ToMaestro for the Maestro version the written flow will
// be read with: a tap keeps its retry either way, by writing
// retryTapIfNoChange where that version's default differs (false under
// 1.39, true since 1.41, Maestro PR #2489).
func ToMaestroFor(f *canonical.Flow, appID string, v canonical.MaestroVersion) ([]byte, error) {
	w := &maestroWriter{app: appID, version: v.Or(canonical.Maestro139)}
	if w.app == "" {
		w.app = f.AppID.Raw
	}
	if w.app == "" {
		w.app = firstApp(f)
	}
	if w.app == "" {
		w.problems = append(w.problems, canonical.NewError(canonical.CodeInvalidArgs,
			"the Maestro flow needs an appId and nothing in the script names the app").
			At(f.Pos).WithHint("give the app id: flow convert --app-id com.example.app"))
	}
	var header yMap
	header.add("appId", yStr(w.app))
	if f.Name != "" && f.Name != fileStem(f.File) {
		header.add("name", yStr(f.Name))
	}
	if len(f.Tags) > 0 {
		header.add("tags", yFlowSeq(f.Tags))
	}
	if len(f.Env) > 0 {
		header.add("env", envMap(f.Env))
	}
	if f.JSEngine != "" {
		header.add("jsEngine", yStr(f.JSEngine))
	}
	if len(f.OnFlowStart) > 0 {
		header.add("onFlowStart", w.commands(f.OnFlowStart))
	}
	if len(f.OnFlowComplete) > 0 {
		header.add("onFlowComplete", w.commands(f.OnFlowComplete))
	}
	body := w.commands(f.Commands)
	if len(w.problems) > 0 {
		return nil, &ConvertError{To: FormatMaestro, Problems: w.problems}
	}
	var b strings.Builder
	b.WriteString("# Converted by flow convert")
	if f.File != "" {
		b.WriteString(" from " + f.File)
	}
	b.WriteString(".\n")
	writeMap(&b, header, 0)
	b.WriteString("---\n")
	writeSeq(&b, body, 0)
	return []byte(b.String()), nil
}

type maestroWriter struct {
	app      string
	problems []*canonical.Error
	// version is the Maestro the flow is written for.
	version canonical.MaestroVersion
}

// firstApp is the app of the first command that names one.
func firstApp(f *canonical.Flow) string {
	app := ""
	f.AllCommands(func(c canonical.Command) {
		if app != "" {
			return
		}
		switch t := c.(type) {
		case *canonical.LaunchApp:
			app = t.AppID.Raw
		case *canonical.StopApp:
			app = t.AppID.Raw
		case *canonical.ClearState:
			app = t.AppID.Raw
		}
	})
	return app
}

func envMap(env []canonical.EnvVar) yMap {
	var m yMap
	for _, e := range env {
		m.add(e.Name, yStr(e.Value.Raw))
	}
	return m
}

// commands converts a command list, recording a problem for each command
// with no Maestro form.
func (w *maestroWriter) commands(cmds []canonical.Command) ySeq {
	var out ySeq
	for _, c := range cmds {
		n, why, hint := w.command(c)
		if len(why) > 0 {
			w.problems = append(w.problems, noForm(c, FormatMaestro, why, hint))
			continue
		}
		out = append(out, n)
	}
	return out
}

// item is one command item: the bare name when there is nothing to say,
// "name: value" otherwise. Label and optional move a short form into a
// mapping.
func item(name string, short yNode, m yMap, meta canonical.Meta) yNode {
	if meta.Label == "" && !meta.Optional {
		switch {
		case short != nil:
			return yMap{{name, short}}
		case len(m) == 0:
			return yScalar(name)
		}
	}
	if meta.Label != "" {
		m.add("label", yStr(meta.Label))
	}
	if meta.Optional {
		m.add("optional", yBool(true))
	}
	return yMap{{name, m}}
}

// command converts one command: its item, or why it has none and a hint.
func (w *maestroWriter) command(c canonical.Command) (yNode, []string, string) {
	meta := *c.Base()
	switch t := c.(type) {
	case *canonical.LaunchApp:
		return w.launchApp(t)
	case *canonical.StopApp:
		name := "stopApp"
		if t.Kill {
			name = "killApp"
		}
		return w.appCommand(name, t.AppID, meta), nil, ""
	case *canonical.ClearState:
		return w.appCommand("clearState", t.AppID, meta), nil, ""
	case *canonical.OpenLink:
		var m yMap
		m.add("link", yStr(t.Link.Raw))
		if t.Browser {
			m.add("browser", yBool(true))
		}
		if t.AutoVerify {
			m.add("autoVerify", yBool(true))
		}
		if len(m) == 1 {
			return item("openLink", m[0].val, m, meta), nil, ""
		}
		return item("openLink", nil, m, meta), nil, ""
	case *canonical.Tap:
		return w.tap(t)
	case *canonical.Assert:
		return w.assert(t)
	case *canonical.AssertTrue:
		if meta.Label == "" && !meta.Optional {
			return yMap{{"assertTrue", yStr(t.Condition.Raw)}}, nil, ""
		}
		return item("assertTrue", nil, yMap{{"condition", yStr(t.Condition.Raw)}}, meta), nil, ""
	case *canonical.InputText:
		if meta.Optional {
			return nil, []string{"Maestro's inputText cannot be optional"}, ""
		}
		return item("inputText", yStr(t.Text.Raw), yMap{{"text", yStr(t.Text.Raw)}}, meta), nil, ""
	case *canonical.InputRandom:
		return inputRandom(t)
	case *canonical.EraseText:
		if t.Count == 50 {
			return item("eraseText", nil, nil, meta), nil, ""
		}
		return item("eraseText", yInt(t.Count), yMap{{"charactersToErase", yInt(t.Count)}}, meta), nil, ""
	case *canonical.CopyText:
		sel, why := selectorNode(&t.Selector)
		return w.selectorItem("copyTextFrom", sel, nil, meta), why, ""
	case *canonical.PressKey:
		return item("pressKey", yStr(t.Key), yMap{{"key", yStr(t.Key)}}, meta), nil, ""
	case *canonical.Simple:
		return item(t.Action, nil, nil, meta), nil, ""
	case *canonical.Swipe:
		return w.swipe(t)
	case *canonical.ScrollUntilVisible:
		return w.scrollUntil(t)
	case *canonical.WaitForAnimation:
		if t.TimeoutMs == ad.DefaultStableWaitMs {
			return item("waitForAnimationToEnd", nil, nil, meta), nil, ""
		}
		return item("waitForAnimationToEnd", nil, yMap{{"timeout", yInt(t.TimeoutMs)}}, meta), nil, ""
	case *canonical.TakeScreenshot:
		if t.CropOn != nil {
			sel, why := selectorNode(t.CropOn)
			return item("takeScreenshot", nil, yMap{{"path", yStr(t.Path.Raw)}, {"cropOn", sel}}, meta), why, ""
		}
		return item("takeScreenshot", yStr(t.Path.Raw), yMap{{"path", yStr(t.Path.Raw)}}, meta), nil, ""
	case *canonical.StartRecording:
		return item("startRecording", yStr(t.Path.Raw), yMap{{"path", yStr(t.Path.Raw)}}, meta), nil, ""
	case *canonical.SetLocation:
		return item("setLocation", nil, yMap{{"latitude", yNumText(t.Latitude.Raw)}, {"longitude", yNumText(t.Longitude.Raw)}}, meta), nil, ""
	case *canonical.Travel:
		return travel(t, meta)
	case *canonical.AddMedia:
		return nil, []string{"addMedia's files were resolved when the flow loaded; write their paths by hand"}, ""
	case *canonical.SetAirplaneMode:
		if meta.Optional {
			return nil, []string{"Maestro's setAirplaneMode cannot be optional"}, ""
		}
		v := "disabled"
		if t.Enabled {
			v = "enabled"
		}
		return item("setAirplaneMode", yStr(v), yMap{{"value", yStr(v)}}, meta), nil, ""
	case *canonical.RunFlow:
		return w.runFlow(t)
	case *canonical.Repeat:
		var m yMap
		if t.Times != nil {
			m.add("times", yNumText(t.Times.Raw))
		}
		if t.While != nil {
			cond, why := conditionNode(t.While)
			if len(why) > 0 {
				return nil, why, ""
			}
			m.add("while", cond)
		}
		m.add("commands", w.commands(t.Commands))
		return item("repeat", nil, m, meta), nil, ""
	case *canonical.Retry:
		var m yMap
		if t.MaxRetries.Raw != "1" {
			m.add("maxRetries", yNumText(t.MaxRetries.Raw))
		}
		if t.File != "" {
			m.add("file", yStr(t.File))
		} else {
			m.add("commands", w.commands(t.Commands))
		}
		if len(t.Env) > 0 {
			m.add("env", envMap(t.Env))
		}
		return item("retry", nil, m, meta), nil, ""
	case *canonical.RunScript:
		var m yMap
		m.add("file", yStr(t.File))
		if len(t.Env) > 0 {
			m.add("env", envMap(t.Env))
		}
		if t.When != nil {
			cond, why := conditionNode(t.When)
			if len(why) > 0 {
				return nil, why, ""
			}
			m.add("when", cond)
		}
		if len(m) == 1 {
			return item("runScript", m[0].val, m, meta), nil, ""
		}
		return item("runScript", nil, m, meta), nil, ""
	case *canonical.EvalScript:
		if meta.Optional {
			return nil, []string{"Maestro's evalScript cannot be optional"}, ""
		}
		return item("evalScript", yStr(t.Script.Raw), yMap{{"script", yStr(t.Script.Raw)}}, meta), nil, ""
	case *canonical.AI:
		return aiCommand(t)
	case *canonical.GestureStep:
		return nil, gestureReasons(t.Input), gestureHint(t.Input)
	case *canonical.SwipeSeries:
		return swipeSeries(t)
	case *canonical.Drag:
		return nil, []string{"gesture drag has no Maestro equivalent: Maestro cannot hold, move and release between two elements"}, ""
	}
	return nil, []string{fmt.Sprintf("flow convert cannot write %s as Maestro", c.Kind())}, ""
}

// appCommand is stopApp/killApp/clearState: bare on the header's app.
func (w *maestroWriter) appCommand(name string, app canonical.Template, meta canonical.Meta) yNode {
	var m yMap
	if app.Raw != w.app {
		m.add("appId", yStr(app.Raw))
		return item(name, m[0].val, m, meta)
	}
	return item(name, nil, m, meta)
}

func (w *maestroWriter) launchApp(t *canonical.LaunchApp) (yNode, []string, string) {
	meta := t.Meta
	if t.Permissions == nil {
		near := yMap{{"appId", yHint(t.AppID.Raw)}}
		if !t.StopApp {
			near.add("stopApp", yBool(false))
		}
		return nil, []string{"open leaves the app's permissions as they are; Maestro's launchApp always sets them (every permission allowed unless permissions: says otherwise)"},
			"the nearest Maestro is: " + oneLineYAML(yMap{{"launchApp", near}}) + " — it also grants every permission, so flow convert does not write it; use it by hand if that is acceptable"
	}
	var m yMap
	if t.AppID.Raw != w.app {
		m.add("appId", yStr(t.AppID.Raw))
	}
	if t.ClearState {
		m.add("clearState", yBool(true))
	}
	if t.ClearKeychain {
		m.add("clearKeychain", yBool(true))
	}
	if !t.StopApp {
		m.add("stopApp", yBool(false))
	}
	if !(len(t.Permissions) == 1 && t.Permissions["all"] == "allow") {
		var p yMap
		keys := make([]string, 0, len(t.Permissions))
		for k := range t.Permissions {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p.add(k, yStr(t.Permissions[k]))
		}
		m.add("permissions", p)
	}
	if len(t.Arguments) > 0 {
		var args yMap
		for _, a := range t.Arguments {
			v, why := argumentValue(a.Value)
			if why != "" {
				return nil, []string{why}, ""
			}
			args.add(a.Key.Raw, v)
		}
		m.add("arguments", args)
	}
	if len(m) == 1 && m[0].key == "appId" {
		return item("launchApp", m[0].val, m, meta), nil, ""
	}
	return item("launchApp", nil, m, meta), nil, ""
}

// argumentValue writes a typed launch argument so YAML reads the same
// type back: booleans and integers plain, floats with a decimal point,
// text always quoted when it could read as anything else.
func argumentValue(v any) (yNode, string) {
	switch t := v.(type) {
	case bool:
		return yBool(t), ""
	case int64:
		return yScalar(strconv.FormatInt(t, 10)), ""
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, "a launch argument is not a finite number"
		}
		s := strconv.FormatFloat(t, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return yScalar(s), ""
	case canonical.Template:
		return yStr(t.Raw), ""
	}
	return nil, fmt.Sprintf("a launch argument of type %T cannot be written", v)
}

// selectorNode writes a selector: a plain text selector as the scalar,
// else a mapping of its fields.
func selectorNode(s *canonical.Selector) (yNode, []string) {
	m, why := selectorFields(s)
	if len(m) == 1 && m[0].key == "text" {
		return m[0].val, why
	}
	return m, why
}

func selectorFields(s *canonical.Selector) (yMap, []string) {
	var m yMap
	var why []string
	if len(s.AnyOf) > 0 {
		why = append(why, "Maestro selectors have no alternatives (a || b); keep one alternative or write a when: visible: condition per alternative")
	}
	if s.Text != nil {
		m.add("text", yStr(s.Text.Raw))
	}
	if s.ID != nil {
		m.add("id", yStr(s.ID.Raw))
	}
	if s.Index != nil {
		m.add("index", yNumText(s.Index.Raw))
	}
	for _, f := range []struct {
		key string
		v   *int
	}{{"width", s.Width}, {"height", s.Height}, {"tolerance", s.Tolerance}} {
		if f.v != nil {
			m.add(f.key, yInt(*f.v))
		}
	}
	for _, f := range []struct {
		key string
		v   *bool
	}{{"enabled", s.Enabled}, {"selected", s.Selected}, {"checked", s.Checked}, {"focused", s.Focused}} {
		if f.v != nil {
			m.add(f.key, yBool(*f.v))
		}
	}
	for _, r := range []struct {
		key string
		v   *canonical.Selector
	}{{"below", s.Below}, {"above", s.Above}, {"leftOf", s.LeftOf}, {"rightOf", s.RightOf},
		{"containsChild", s.ContainsChild}, {"childOf", s.ChildOf}} {
		if r.v != nil {
			n, w := selectorNode(r.v)
			why = append(why, w...)
			m.add(r.key, n)
		}
	}
	if len(s.ContainsDescendants) > 0 {
		var list ySeq
		for _, d := range s.ContainsDescendants {
			n, w := selectorNode(d)
			why = append(why, w...)
			list = append(list, n)
		}
		m.add("containsDescendants", list)
	}
	if len(s.Traits) > 0 {
		m.add("traits", yStr(strings.Join(s.Traits, " ")))
	}
	if s.CSS != nil {
		m.add("css", yStr(s.CSS.Raw))
	}
	if len(m) == 0 {
		why = append(why, "the selector is empty")
	}
	return m, why
}

// selectorItem is a command whose value is a selector with the command's
// own keys (extra) beside its fields.
func (w *maestroWriter) selectorItem(name string, sel yNode, extra yMap, meta canonical.Meta) yNode {
	m, isMap := sel.(yMap)
	if !isMap && len(extra) == 0 {
		return item(name, sel, yMap{{"text", sel}}, meta)
	}
	if !isMap {
		m = yMap{{"text", sel}}
	}
	return item(name, nil, append(append(yMap{}, m...), extra...), meta)
}

func (w *maestroWriter) tap(t *canonical.Tap) (yNode, []string, string) {
	var why []string
	name := map[canonical.TapMode]string{canonical.TapSingle: "tapOn", canonical.TapDouble: "doubleTapOn", canonical.TapLong: "longPressOn"}[t.Mode]
	switch t.Mode {
	case canonical.TapSingle:
		if t.HoldMs != 0 {
			why = append(why, "a single tap cannot hold")
		}
		if t.Repeat < 1 {
			why = append(why, "Maestro taps at least once")
		}
	case canonical.TapDouble:
		if t.Repeat != 2 {
			why = append(why, fmt.Sprintf("doubleTapOn taps twice, not %d times", t.Repeat))
		}
	case canonical.TapLong:
		if t.HoldMs != compat.LongPressMs {
			why = append(why, fmt.Sprintf("longPressOn always holds %d ms; this holds %d ms", compat.LongPressMs, t.HoldMs))
		}
		if t.Repeat != 1 {
			why = append(why, "longPressOn presses once")
		}
	default:
		return nil, []string{fmt.Sprintf("unknown tap mode %q", t.Mode)}, ""
	}
	var extra yMap
	if t.Point != nil {
		extra.add("point", yStr(t.Point.Raw))
	}
	if t.RetryIfNoChange != w.version.RetryTapByDefault() {
		extra.add("retryTapIfNoChange", yBool(t.RetryIfNoChange))
	}
	if t.WaitUntilVisible {
		extra.add("waitUntilVisible", yBool(true))
	}
	if t.Mode == canonical.TapSingle && t.Repeat != 1 {
		extra.add("repeat", yInt(t.Repeat))
	}
	if t.DelayMs != 100 {
		if t.DelayMs < 0 {
			why = append(why, "Maestro's tap delay cannot be negative")
		}
		extra.add("delay", yInt(t.DelayMs))
	}
	if t.WaitToSettleTimeoutMs != nil {
		if *t.WaitToSettleTimeoutMs > 30000 {
			why = append(why, "Maestro caps waitToSettleTimeoutMs at 30000")
		}
		extra.add("waitToSettleTimeoutMs", yInt(*t.WaitToSettleTimeoutMs))
	}
	var sel yNode = yMap{}
	switch {
	case t.Point != nil:
		if _, _, _, extra, ok := canonical.ParseMaestroPoint(t.Point.Raw); (!ok || extra) && !t.Point.HasExpr() {
			why = append(why, fmt.Sprintf("point %q is not \"x,y\" or \"x%%,y%%\" with whole numbers, which Maestro taps at", t.Point.Raw))
		}
	case t.Selector != nil:
		var w2 []string
		sel, w2 = selectorNode(t.Selector)
		why = append(why, w2...)
	default:
		why = append(why, "the tap has neither a point nor an element")
	}
	return w.selectorItem(name, sel, extra, t.Meta), why, ""
}

func (w *maestroWriter) assert(t *canonical.Assert) (yNode, []string, string) {
	meta := t.Meta
	if t.TimeoutMs == nil && (t.Visible == nil) != (t.NotVisible == nil) {
		name, sel := "assertVisible", t.Visible
		if sel == nil {
			name, sel = "assertNotVisible", t.NotVisible
		}
		n, why := selectorNode(sel)
		return w.selectorItem(name, n, nil, meta), why, ""
	}
	var m yMap
	var why []string
	if t.Visible != nil {
		n, w := selectorNode(t.Visible)
		why = append(why, w...)
		m.add("visible", n)
	}
	if t.NotVisible != nil {
		n, w := selectorNode(t.NotVisible)
		why = append(why, w...)
		m.add("notVisible", n)
	}
	if len(m) == 0 {
		return nil, []string{"the assertion checks nothing"}, ""
	}
	if t.TimeoutMs != nil {
		raw := t.TimeoutMs.Raw
		if !t.TimeoutMs.HasExpr() {
			if strings.Contains(raw, "_") {
				why = append(why, fmt.Sprintf("timeout %q would lose its underscores", raw))
			} else if _, err := strconv.ParseFloat(raw, 64); err != nil {
				why = append(why, fmt.Sprintf("timeout %q is not a number", raw))
			}
		}
		m.add("timeout", yNumText(raw))
	}
	return item("extendedWaitUntil", nil, m, meta), why, ""
}

func inputRandom(t *canonical.InputRandom) (yNode, []string, string) {
	name := map[string]string{"text": "inputRandomText", "number": "inputRandomNumber", "email": "inputRandomEmail", "personName": "inputRandomPersonName",
		"cityName": "inputRandomCityName", "countryName": "inputRandomCountryName", "colorName": "inputRandomColorName"}[t.Type]
	if name == "" {
		return nil, []string{fmt.Sprintf("unknown random input %q", t.Type)}, ""
	}
	var m yMap
	switch t.Type {
	case "text", "number":
		if t.Length <= 0 {
			return nil, []string{"Maestro's random text is at least 1 character long"}, ""
		}
		if t.Length != 8 {
			m.add("length", yInt(t.Length))
		}
	default:
		if t.Length != 0 {
			return nil, []string{name + " has no length"}, ""
		}
	}
	return item(name, nil, m, t.Meta), nil, ""
}

func travel(t *canonical.Travel, meta canonical.Meta) (yNode, []string, string) {
	var pts ySeq
	for _, p := range t.Points {
		pts = append(pts, yStr(strconv.FormatFloat(p.X, 'g', -1, 64)+","+strconv.FormatFloat(p.Y, 'g', -1, 64)))
	}
	m := yMap{{"points", pts}}
	if t.SpeedMPS != 4.0 {
		m.add("speed", yScalar(strconv.FormatFloat(t.SpeedMPS, 'g', -1, 64)))
	}
	return item("travel", nil, m, meta), nil, ""
}

func conditionNode(c *canonical.Condition) (yMap, []string) {
	var m yMap
	var why []string
	if c.Platform != "" {
		m.add("platform", yStr(c.Platform))
	}
	if c.Visible != nil {
		n, w := selectorNode(c.Visible)
		why = append(why, w...)
		m.add("visible", n)
	}
	if c.NotVisible != nil {
		n, w := selectorNode(c.NotVisible)
		why = append(why, w...)
		m.add("notVisible", n)
	}
	if c.True != nil {
		m.add("true", yStr(c.True.Raw))
	}
	if c.Label != "" {
		m.add("label", yStr(c.Label))
	}
	return m, why
}

func (w *maestroWriter) runFlow(t *canonical.RunFlow) (yNode, []string, string) {
	var m yMap
	if t.File != "" {
		m.add("file", yStr(t.File))
	}
	if len(t.Env) > 0 {
		m.add("env", envMap(t.Env))
	}
	if t.When != nil {
		cond, why := conditionNode(t.When)
		if len(why) > 0 {
			return nil, why, ""
		}
		m.add("when", cond)
	}
	if t.File == "" {
		m.add("commands", w.commands(t.Commands))
	}
	if len(m) == 1 && t.File != "" {
		return item("runFlow", m[0].val, m, t.Meta), nil, ""
	}
	return item("runFlow", nil, m, t.Meta), nil, ""
}

func aiCommand(t *canonical.AI) (yNode, []string, string) {
	var m yMap
	switch t.Action {
	case "assertWithAI":
		m.add("assertion", yStr(t.Prompt.Raw))
	case "extractTextWithAI":
		m.add("query", yStr(t.Prompt.Raw))
		if t.OutputVariable != "aiOutput" {
			m.add("outputVariable", yStr(t.OutputVariable))
		}
	case "assertNoDefectsWithAI":
	default:
		return nil, []string{fmt.Sprintf("unknown AI command %q", t.Action)}, ""
	}
	if t.Label != "" {
		m.add("label", yStr(t.Label))
	}
	// AI commands are optional unless the flow says otherwise: say it.
	m.add("optional", yBool(t.Optional))
	return yMap{{t.Action, m}}, nil, ""
}

func (w *maestroWriter) swipe(t *canonical.Swipe) (yNode, []string, string) {
	meta := t.Meta
	var why []string
	var m yMap
	dur, durOK := t.DurationMs.Default, t.DurationMs.Android == nil && t.DurationMs.IOS == nil && t.DurationMs.Web == nil
	if durOK {
		if _, changed := compat.ClampSwipeDuration(dur); changed {
			durOK = false
		}
	}
	settle := func() {
		if t.WaitToSettleTimeoutMs != nil {
			m.add("waitToSettleTimeoutMs", yInt(*t.WaitToSettleTimeoutMs))
		}
	}
	duration := func() {
		if !durOK {
			why = append(why, "Maestro swipes last one duration from 16 to 10000 ms on every platform")
		} else if dur != compat.DefaultSwipeDurationMs {
			m.add("duration", yInt(dur))
		}
	}
	switch {
	case t.Start.Kind == canonical.AnchorFraction && t.End.Kind == canonical.AnchorFraction:
		ss, se, sd := compat.Scroll()
		if samePoints(*t.Start.Fraction, ss) && samePoints(*t.End.Fraction, se) && sameInts(t.DurationMs, sd) && t.WaitToSettleTimeoutMs == nil {
			return item("scroll", nil, nil, meta), nil, ""
		}
		for _, dir := range []string{"UP", "DOWN", "LEFT", "RIGHT"} {
			ds, de, _ := compat.DirectionSwipe(dir)
			if samePoints(*t.Start.Fraction, ds) && samePoints(*t.End.Fraction, de) {
				m.add("direction", yStr(dir))
				duration()
				settle()
				return item("swipe", nil, m, meta), why, ""
			}
		}
		return nil, []string{scrollReason(t)}, scrollHint(t)
	case t.Start.Kind == canonical.AnchorElement && t.End.Kind == canonical.AnchorAxis:
		for _, dir := range []string{"UP", "DOWN", "LEFT", "RIGHT"} {
			axis, at, _ := compat.ElementSwipeEnd(dir)
			if axis == t.End.Axis && at == t.End.At {
				sel, w := selectorNode(t.Start.Element)
				why = append(why, w...)
				m.add("from", sel)
				m.add("direction", yStr(dir))
				duration()
				settle()
				return item("swipe", nil, m, meta), why, ""
			}
		}
		return nil, []string{"no Maestro swipe from an element ends there"}, ""
	case t.Start.Kind == canonical.AnchorPoint && t.End.Kind == canonical.AnchorPoint:
		for _, p := range []*canonical.Point{t.Start.Point, t.End.Point} {
			if p.X != math.Trunc(p.X) || p.Y != math.Trunc(p.Y) || math.Abs(p.X) > math.MaxInt32 || math.Abs(p.Y) > math.MaxInt32 {
				why = append(why, "Maestro swipe coordinates are whole numbers")
				break
			}
		}
		m.add("start", yStr(fmt.Sprintf("%d, %d", int64(t.Start.Point.X), int64(t.Start.Point.Y))))
		m.add("end", yStr(fmt.Sprintf("%d, %d", int64(t.End.Point.X), int64(t.End.Point.Y))))
	case t.Start.Kind == canonical.AnchorPercent && t.End.Kind == canonical.AnchorPercent:
		m.add("start", yStr(t.Start.Percent.Raw))
		m.add("end", yStr(t.End.Percent.Raw))
	default:
		return nil, []string{"Maestro swipes start and end at the same kind of point"}, ""
	}
	duration()
	settle()
	return item("swipe", nil, m, meta), why, ""
}

// scrollReason explains why a .ad scroll (or any swipe between screen
// fractions) has no Maestro form.
func scrollReason(t *canonical.Swipe) string {
	return "Maestro's swipe directions and scroll move between fixed points of the screen (a swipe UP goes from 50% to 10% of the height on Android); this swipe goes from " +
		fractionText(*t.Start.Fraction) + " to " + fractionText(*t.End.Fraction)
}

func fractionText(p canonical.PlatformValue[canonical.Point]) string {
	pct := func(q canonical.Point) string {
		return canonical.FormatNumber(round6(q.X*100)) + "%, " + canonical.FormatNumber(round6(q.Y*100)) + "%"
	}
	s := "(" + pct(p.Default) + ")"
	if p.IOS != nil {
		s += " (iOS: " + pct(*p.IOS) + ")"
	}
	return s
}

func scrollHint(t *canonical.Swipe) string {
	f, g := t.Start.Fraction, t.End.Fraction
	if f.Android != nil || f.IOS != nil || f.Web != nil || g.Android != nil || g.IOS != nil || g.Web != nil {
		return ""
	}
	pct := func(q canonical.Point) string {
		return canonical.FormatNumber(round6(q.X*100)) + "%, " + canonical.FormatNumber(round6(q.Y*100)) + "%"
	}
	m := yMap{{"start", yHint(pct(f.Default))}, {"end", yHint(pct(g.Default))}, {"duration", yInt(t.DurationMs.Default)}}
	return "the nearest Maestro is: " + oneLineYAML(yMap{{"swipe", m}}) + " — a percentage swipe holds at its end and lasts the same on every platform, so flow convert does not write it; use it by hand if that is acceptable"
}

func swipeSeries(t *canonical.SwipeSeries) (yNode, []string, string) {
	s := t.Swipe
	var why []string
	if s.PauseMs > 0 {
		why = append(why, "Maestro cannot pause between repeated swipes (--pause-ms)")
	}
	if s.Pattern == canonical.PatternPingPong {
		why = append(why, "Maestro cannot swipe back and forth (--pattern ping-pong)")
	}
	why = append(why, "a .ad swipe is a 100 ms fling between two points, settling once after the series; a Maestro swipe is a pan that holds at its end and settles after each swipe")
	n := canonical.FormatNumber
	near := yMap{{"start", yHint(n(s.From.X) + ", " + n(s.From.Y))}, {"end", yHint(n(s.To.X) + ", " + n(s.To.Y))}, {"duration", yInt(canonical.FlingDurationMs)}}
	times := ""
	if s.Count > 1 {
		times = fmt.Sprintf("%d × ", s.Count)
	}
	return nil, why, "the nearest Maestro (agent-device's replay export) is: " + times + oneLineYAML(yMap{{"swipe", near}}) +
		" — flow convert does not write it; use it by hand if the difference is acceptable"
}

func gestureReasons(g canonical.GestureInput) []string {
	return []string{fmt.Sprintf("gesture %s has no Maestro equivalent", g.Kind)}
}

func gestureHint(g canonical.GestureInput) string {
	if g.Kind != canonical.KindPan || g.Origin == nil || g.Delta == nil || (g.PointerCount != nil && *g.PointerCount != 1) {
		return "Maestro has no pinch, rotate, fling or multi-finger gestures; keep this step in a .ad script"
	}
	d := canonical.DefaultPanDurationMs
	if g.DurationMs != nil {
		d = *g.DurationMs
	}
	n := canonical.FormatNumber
	near := yMap{{"start", yHint(n(g.Origin.X) + ", " + n(g.Origin.Y))},
		{"end", yHint(n(g.Origin.X+g.Delta.X) + ", " + n(g.Origin.Y+g.Delta.Y))}, {"duration", yInt(d)}}
	return "the nearest Maestro is: " + oneLineYAML(yMap{{"swipe", near}}) +
		" — a Maestro swipe holds at its end instead of moving at an even pace, so flow convert does not write it; use it by hand if that is acceptable"
}

func (w *maestroWriter) scrollUntil(t *canonical.ScrollUntilVisible) (yNode, []string, string) {
	var m yMap
	sel, why := selectorNode(&t.Element)
	m.add("element", sel)
	if t.Direction != "down" {
		m.add("direction", yStr(strings.ToUpper(t.Direction)))
	}
	if t.TimeoutMs.Raw != "20000" {
		m.add("timeout", yNumText(t.TimeoutMs.Raw))
	}
	if t.Speed.Raw != "40" {
		m.add("speed", yNumText(t.Speed.Raw))
	}
	if t.VisibilityPercentage != 100 {
		if t.VisibilityPercentage < 0 || t.VisibilityPercentage > 100 {
			why = append(why, "visibilityPercentage runs from 0 to 100")
		}
		m.add("visibilityPercentage", yInt(t.VisibilityPercentage))
	}
	if t.CenterElement {
		m.add("centerElement", yBool(true))
	}
	if t.WaitToSettleTimeoutMs != nil {
		m.add("waitToSettleTimeoutMs", yInt(*t.WaitToSettleTimeoutMs))
	}
	if !oneOf(t.Direction, ad.ScrollDirections()) {
		why = append(why, fmt.Sprintf("unknown direction %q", t.Direction))
	}
	return item("scrollUntilVisible", nil, m, t.Meta), why, ""
}

// yHint is a string for a one-line hint ({key: value} flow style).
func yHint(s string) yScalar { return yScalar(yamlString(s, true)) }

// oneLineYAML writes a small mapping in flow style for a hint:
// {swipe: {start: "1, 2", end: "3, 4"}}.
func oneLineYAML(m yMap) string {
	var b strings.Builder
	var write func(n yNode)
	write = func(n yNode) {
		switch t := n.(type) {
		case yScalar:
			b.WriteString(string(t))
		case yMap:
			b.WriteString("{")
			for i, kv := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(yamlString(kv.key, true) + ": ")
				write(kv.val)
			}
			b.WriteString("}")
		case ySeq:
			b.WriteString("[")
			for i, x := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				write(x)
			}
			b.WriteString("]")
		case yFlowSeq:
			b.WriteString("[" + strings.Join(t, ", ") + "]")
		}
	}
	write(m)
	return b.String()
}

// ToMaestroSteps writes commands as items of a Maestro flow's command
// list, one item per command ("- tapOn: …", further lines indented under
// it, no trailing newline), for a flow whose header names appID and that
// Maestro v reads: flow studio appends an .ad line that ran to a YAML flow
// this way. The items are exact as [ToMaestroFor]'s are; a command Maestro
// cannot express is a problem of the returned *ConvertError and no item is
// written, so a caller never appends part of a line.
func ToMaestroSteps(cmds []canonical.Command, appID string, v canonical.MaestroVersion) ([]string, error) {
	w := &maestroWriter{app: appID, version: v.Or(canonical.Maestro139)}
	items := w.commands(cmds)
	if len(w.problems) > 0 {
		return nil, &ConvertError{To: FormatMaestro, Problems: w.problems}
	}
	out := make([]string, len(items))
	for i, it := range items {
		var b strings.Builder
		writeSeq(&b, ySeq{it}, 0)
		out[i] = strings.TrimSuffix(b.String(), "\n")
	}
	return out, nil
}
