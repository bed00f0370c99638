package maestro

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// cmd is one command item being decoded.
type cmd struct {
	d     *decoder
	l     *Loader
	f     *fileCtx
	name  string
	keyN  *yaml.Node // where the command is written
	value *yaml.Node // nil for a bare command
	meta  canonical.Meta
}

// commandSpec describes one Maestro command: whether it may be written
// bare, and how its value becomes a canonical command.
type commandSpec struct {
	bare   bool
	decode func(c *cmd) (canonical.Command, error)
}

// commandSpecs is every command of Maestro 1.39 (maestro-reference §1.3);
// commandSpecsFor adds the current Maestro's.
func commandSpecs() map[string]commandSpec {
	simple := func(action string) commandSpec {
		return commandSpec{bare: true, decode: func(c *cmd) (canonical.Command, error) {
			if _, err := c.fields(nil); err != nil {
				return nil, err
			}
			return &canonical.Simple{Meta: c.meta, Action: action}, nil
		}}
	}
	return map[string]commandSpec{
		"launchApp":             {bare: true, decode: decodeLaunchApp},
		"tapOn":                 {decode: tapDecoder(canonical.TapSingle)},
		"doubleTapOn":           {decode: tapDecoder(canonical.TapDouble)},
		"longPressOn":           {decode: tapDecoder(canonical.TapLong)},
		"assertVisible":         {decode: assertDecoder(true)},
		"assertNotVisible":      {decode: assertDecoder(false)},
		"assertTrue":            {decode: decodeAssertTrue},
		"assertWithAI":          {decode: aiDecoder("assertWithAI", "assertion", "")},
		"assertNoDefectsWithAI": {bare: true, decode: aiDecoder("assertNoDefectsWithAI", "", "")},
		"extractTextWithAI":     {decode: aiDecoder("extractTextWithAI", "query", "aiOutput")},
		"addMedia":              {decode: decodeAddMedia},
		"inputText":             {decode: decodeInputText},
		"inputRandomText":       {bare: true, decode: randomDecoder("text", true)},
		"inputRandomNumber":     {bare: true, decode: randomDecoder("number", true)},
		"inputRandomEmail":      {bare: true, decode: randomDecoder("email", false)},
		"inputRandomPersonName": {bare: true, decode: randomDecoder("personName", false)},
		"swipe":                 {decode: decodeSwipe},
		"openLink":              {decode: decodeOpenLink},
		"pressKey":              {decode: decodePressKey},
		"eraseText":             {bare: true, decode: decodeEraseText},
		"action":                {decode: decodeAction},
		"back":                  simple("back"),
		"clearKeychain":         simple("clearKeychain"),
		"hideKeyboard":          simple("hideKeyboard"),
		"hide keyboard":         {bare: true, decode: decodeHideKeyboardBare},
		"pasteText":             simple("pasteText"),
		"scroll":                {bare: true, decode: decodeScroll},
		"takeScreenshot": {decode: pathDecoder(func(m canonical.Meta, t canonical.Template) canonical.Command {
			return &canonical.TakeScreenshot{Meta: m, Path: t}
		})},
		"startRecording": {decode: pathDecoder(func(m canonical.Meta, t canonical.Template) canonical.Command {
			return &canonical.StartRecording{Meta: m, Path: t}
		})},
		"stopRecording":         simple("stopRecording"),
		"extendedWaitUntil":     {decode: decodeExtendedWait},
		"stopApp":               {bare: true, decode: appDecoder(false)},
		"killApp":               {bare: true, decode: appDecoder(true)},
		"clearState":            {bare: true, decode: decodeClearState},
		"runFlow":               {decode: decodeRunFlow},
		"setLocation":           {decode: decodeSetLocation},
		"repeat":                {decode: decodeRepeat},
		"retry":                 {decode: decodeRetry},
		"copyTextFrom":          {decode: decodeCopyText},
		"runScript":             {decode: decodeRunScript},
		"waitForAnimationToEnd": {bare: true, decode: decodeWaitForAnimation},
		"evalScript":            {decode: decodeEvalScript},
		"scrollUntilVisible":    {decode: decodeScrollUntilVisible},
		"travel":                {decode: decodeTravel},
		"setAirplaneMode":       {decode: decodeSetAirplaneMode},
		"toggleAirplaneMode":    simple("toggleAirplaneMode"),
	}
}

// decodeHideKeyboardBare is "- hide keyboard": Maestro accepts the
// spelling with a space only as a bare command, never as a mapping key.
func decodeHideKeyboardBare(c *cmd) (canonical.Command, error) {
	if c.value != nil {
		return nil, c.d.errorf(c.keyN, `"hide keyboard" is only a bare command`).
			WithHint("write - hideKeyboard: {label: ...} for the long form")
	}
	return &canonical.Simple{Meta: c.meta, Action: "hideKeyboard"}, nil
}

// commandPrecedence is the order in which Maestro picks the one command that
// runs when an item holds several command keys (YamlFluentCommand.toCommands).
func commandPrecedence() []string {
	return []string{"launchApp", "tapOn", "longPressOn", "assertVisible", "assertNotVisible", "assertTrue",
		"assertNoDefectsWithAI", "assertWithAI", "extractTextWithAI", "addMedia", "inputText", "inputRandomText",
		"inputRandomNumber", "inputRandomEmail", "inputRandomPersonName", "swipe", "openLink", "pressKey",
		"eraseText", "action", "back", "clearKeychain", "hideKeyboard", "pasteText", "scroll", "takeScreenshot",
		"extendedWaitUntil", "stopApp", "killApp", "clearState", "runFlow", "setLocation", "repeat", "retry",
		"copyTextFrom", "runScript", "waitForAnimationToEnd", "evalScript", "scrollUntilVisible", "travel",
		"startRecording", "stopRecording", "doubleTapOn", "setAirplaneMode", "toggleAirplaneMode"}
}

// CommandNames lists every command name flow accepts in Maestro flows of
// the current Maestro (1.39's are these but CurrentOnlyCommands).
func CommandNames() []string {
	var out []string
	for name := range commandSpecsFor(canonical.MaestroCurrent) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// fields reads the command's mapping value, checking its keys against
// allowed plus label and optional, which fill Meta. A scalar or bare value
// yields no fields.
func (c *cmd) fields(allowed []string) (map[string]pair, error) {
	n := resolve(c.value)
	if n == nil {
		return map[string]pair{}, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, c.d.errorf(n, "%s takes %s here, got %s", c.name, describeKeys(allowed), kindName(n)).
			WithHint(fmt.Sprintf("write %s:\\n    %s: ...", c.name, firstOr(allowed, "label")))
	}
	ps, err := c.d.pairs(n)
	if err != nil {
		return nil, err
	}
	return c.pairFields(ps, allowed)
}

// pairFields is fields for entries already read.
func (c *cmd) pairFields(ps []pair, allowed []string) (map[string]pair, error) {
	if err := c.d.checkKeysOf(c.name, ps, allowed, []string{"label", "optional"}); err != nil {
		return nil, err
	}
	var err error
	out := map[string]pair{}
	for _, p := range ps {
		switch p.key {
		case "label":
			if c.meta.Label, err = c.d.str(p.value, "label"); err != nil {
				return nil, err
			}
		case "optional":
			if c.meta.Optional, err = c.d.boolean(p.value, "optional"); err != nil {
				return nil, err
			}
		default:
			out[p.key] = p
		}
	}
	return out, nil
}

func describeKeys(keys []string) string {
	if len(keys) == 0 {
		return "only label and optional"
	}
	return "a mapping of " + strings.Join(keys, ", ")
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

// scalarOrFields accepts the short form (a scalar) or the long form (a
// mapping); it returns the scalar node, or nil with the fields.
func (c *cmd) scalarOrFields(allowed []string) (*yaml.Node, map[string]pair, error) {
	n := resolve(c.value)
	if n != nil && n.Kind == yaml.ScalarNode && !isNull(n) {
		return n, nil, nil
	}
	if n != nil && n.Kind == yaml.SequenceNode {
		return nil, nil, c.d.errorf(n, "%s takes a value or a mapping, got a list", c.name).
			WithHint(fmt.Sprintf("write %s: VALUE or %s: {%s: VALUE}", c.name, c.name, firstOr(allowed, "label")))
	}
	fs, err := c.fields(allowed)
	return nil, fs, err
}

func (c *cmd) ignored(fs map[string]pair, keys ...string) {
	for _, k := range keys {
		if p, ok := fs[k]; ok {
			c.d.warnf(p.keyN, "remove "+k+", or move it where it has an effect", "%s ignores %s (Maestro does too)", c.name, k)
		}
	}
}

func decodeLaunchApp(c *cmd) (canonical.Command, error) {
	la := &canonical.LaunchApp{Meta: c.meta, AppID: c.f.appID, StopApp: true, Permissions: map[string]string{"all": "allow"}}
	scalar, fs, err := c.scalarOrFields([]string{"appId", "url", "clearState", "clearKeychain", "stopApp", "permissions", "arguments"})
	if err != nil {
		return nil, err
	}
	if scalar != nil {
		if la.AppID, err = c.d.appID(scalar, "launchApp"); err != nil {
			return nil, err
		}
		return la, nil
	}
	la.Meta = c.meta
	for _, k := range []string{"appId", "url"} {
		if p, ok := fs[k]; ok {
			if la.AppID, err = c.d.appID(p.value, k); err != nil {
				return nil, err
			}
		}
	}
	if p, ok := fs["clearState"]; ok {
		if la.ClearState, err = c.d.boolean(p.value, "clearState"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["clearKeychain"]; ok {
		if la.ClearKeychain, err = c.d.boolean(p.value, "clearKeychain"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["stopApp"]; ok {
		if la.StopApp, err = c.d.boolean(p.value, "stopApp"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["permissions"]; ok {
		if la.Permissions, err = c.permissions(p.value); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["arguments"]; ok {
		if la.Arguments, err = c.arguments(p.value); err != nil {
			return nil, err
		}
	}
	return la, nil
}

func (c *cmd) permissions(n *yaml.Node) (map[string]string, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, c.d.errorf(n, "permissions must be a mapping of permission: allow|deny|unset, got %s", kindName(n)).
			WithHint("permissions: {all: deny, camera: allow}")
	}
	ps, err := c.d.pairs(n)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range ps {
		v, err := c.d.str(p.value, p.key)
		if err != nil {
			return nil, err
		}
		if !contains([]string{"allow", "deny", "unset"}, strings.ToLower(v)) {
			return nil, c.d.errorf(p.value, "permission %s must be allow, deny or unset, got %q", p.key, v).
				WithHint(p.key + ": allow")
		}
		out[p.key] = strings.ToLower(v)
	}
	return out, nil
}

func (c *cmd) arguments(n *yaml.Node) ([]canonical.LaunchArgument, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, c.d.errorf(n, "arguments must be a mapping of name: value, got %s", kindName(n)).
			WithHint("arguments: {isE2E: true, port: 8080}")
	}
	ps, err := c.d.pairs(n)
	if err != nil {
		return nil, err
	}
	var out []canonical.LaunchArgument
	for _, p := range ps {
		v := resolve(p.value)
		if v == nil || v.Kind != yaml.ScalarNode || isNull(v) {
			return nil, c.d.errorf(v, "launch argument %s must be a single value, got %s", p.key, kindName(v)).
				WithHint("launch arguments are booleans, numbers or text")
		}
		arg := canonical.LaunchArgument{Key: canonical.Text(p.key, c.d.pos(p.keyN))}
		// Maestro reads arguments as Map<String, Any>: typed by YAML 1.1
		// (yes is a boolean, 017 octal), as javaScalar says.
		switch javaScalar(v) {
		case javaBool:
			arg.Value = yaml11True(v.Value)
		case javaInt, javaBigInt:
			i, ok := parseYAML11Int(strings.ReplaceAll(v.Value, "_", ""))
			if !ok || !i.IsInt64() {
				return nil, c.d.errorf(v, "launch argument %s is not a 64-bit whole number: %s", p.key, v.Value).
					WithHint("quote the value to pass it as text")
			}
			arg.Value = i.Int64()
		case javaFloat:
			f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
			if err != nil || !canonical.IsFinite(f) {
				return nil, c.d.errorf(v, "launch argument %s is not a finite number: %s", p.key, v.Value).
					WithHint("quote the value to pass it as text")
			}
			arg.Value = f
		default:
			arg.Value = canonical.Text(v.Value, c.d.pos(v))
		}
		out = append(out, arg)
	}
	return out, nil
}

func tapKeys() []string {
	return []string{"retryTapIfNoChange", "waitUntilVisible", "repeat", "delay", "waitToSettleTimeoutMs", "point", "start", "end"}
}

// tapKeysAndLabel is tapKeys and label, the keys a tap's selector may
// hold besides its own, written out so that no command builds the list.
func tapKeysAndLabel() []string {
	return []string{"retryTapIfNoChange", "waitUntilVisible", "repeat", "delay", "waitToSettleTimeoutMs", "point", "start", "end", "label"}
}

func tapDecoder(mode canonical.TapMode) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		extra := tapKeysAndLabel()
		sel, ex, optional, err := c.d.selector(c.value, c.name, extra)
		if err != nil {
			return nil, err
		}
		// Taps retried by default until Maestro 1.41 (PR #2489).
		t := &canonical.Tap{Meta: c.meta, Mode: mode, Selector: sel, Repeat: 1, DelayMs: 100,
			RetryIfNoChange: c.l.version.RetryTapByDefault()}
		t.Optional = t.Optional || optional
		if mode == canonical.TapDouble {
			t.Repeat = 2
		}
		if mode == canonical.TapLong {
			t.HoldMs = 3000
		}
		if p, ok := ex["label"]; ok {
			if t.Label, err = c.d.str(p.value, "label"); err != nil {
				return nil, err
			}
		}
		if p, ok := ex["point"]; ok {
			if t.Point, err = c.point(p.value); err != nil {
				return nil, err
			}
			if hasSelectorFields(sel) {
				c.d.warnf(p.keyN, "remove the selector keys or the point", "%s with point ignores the selector keys (Maestro does too)", c.name)
			}
			t.Selector = nil
		}
		if p, ok := ex["retryTapIfNoChange"]; ok {
			if t.RetryIfNoChange, err = c.d.boolean(p.value, "retryTapIfNoChange"); err != nil {
				return nil, err
			}
		}
		if p, ok := ex["waitUntilVisible"]; ok {
			if t.WaitUntilVisible, err = c.d.boolean(p.value, "waitUntilVisible"); err != nil {
				return nil, err
			}
		}
		if p, ok := ex["repeat"]; ok {
			n, err := c.d.integer(p.value, "repeat")
			if err != nil {
				return nil, err
			}
			if mode == canonical.TapSingle {
				if n <= 0 {
					c.d.warnf(p.value, "write repeat: 1 or more", "repeat %d taps once, as in Maestro", n)
				}
				t.Repeat = max(n, 1)
			} else {
				c.d.warnf(p.keyN, "remove repeat", "%s ignores repeat (Maestro does too)", c.name)
			}
		}
		if p, ok := ex["delay"]; ok {
			n, err := c.d.integer(p.value, "delay")
			if err != nil {
				return nil, err
			}
			if n >= 0 {
				t.DelayMs = n
			} else {
				c.d.warnf(p.value, "write a delay of 0 ms or more", "delay %d ms waits %d ms between taps, as in Maestro", n, t.DelayMs)
			}
		}
		if p, ok := ex["waitToSettleTimeoutMs"]; ok {
			n, err := c.d.settleTimeout(p.value)
			if err != nil {
				return nil, err
			}
			if n > 30000 {
				c.d.warnf(p.value, "write at most 30000", "waitToSettleTimeoutMs %d waits at most 30000 ms, as Maestro caps it", n)
				n = 30000
			}
			t.WaitToSettleTimeoutMs = &n
		}
		c.ignored(ex, "start", "end")
		return t, nil
	}
}

func hasSelectorFields(s *canonical.Selector) bool {
	if s == nil {
		return false
	}
	return s.Text != nil || s.ID != nil || s.Index != nil || s.Below != nil || s.Above != nil ||
		s.LeftOf != nil || s.RightOf != nil || s.ContainsChild != nil || s.ChildOf != nil ||
		len(s.ContainsDescendants) > 0 || s.Width != nil || s.Height != nil || len(s.Traits) > 0 ||
		s.Enabled != nil || s.Selected != nil || s.Checked != nil || s.Focused != nil || s.CSS != nil
}

// point reads a tap point. A literal point is checked now with Maestro's
// rules (canonical.ParsePoint: whole numbers, each trimmed; any % makes
// both percentages, each 0..100); one with ${} is checked when it runs.
func (c *cmd) point(n *yaml.Node) (*canonical.Template, error) {
	t, err := c.d.template(n, "point")
	if err != nil {
		return nil, err
	}
	if lit, ok := t.Literal(); ok {
		extra, err := checkPoint(lit)
		if err != nil {
			return nil, err.At(c.d.pos(resolve(n)))
		}
		if extra {
			c.d.warnf(n, "write two numbers: \"x,y\"", "point %q has more than two numbers; Maestro taps at the first two, and so does flow", lit)
		}
	}
	return &t, nil
}

// checkPoint validates a literal point with Maestro's rules; extra says
// it has parts after the second number, which Maestro ignores.
func checkPoint(s string) (extra bool, err *canonical.Error) {
	x, y, percent, extra, ok := canonical.ParseMaestroPoint(s)
	if !ok {
		return false, canonical.Errorf(canonical.CodeInvalidArgs, "point %q is not \"x,y\" or \"x%%,y%%\" with whole numbers", s).
			WithHint(`write point: "540,1200" (grid units) or point: "50%,80%"; Maestro reads each number as a whole number and fails on anything else`)
	}
	if percent && (x < 0 || x > 100 || y < 0 || y > 100) {
		return false, canonical.Errorf(canonical.CodeInvalidArgs, "point %q has a percentage outside 0%%..100%%", s).
			WithHint("percentages run from 0% (left/top edge) to 100% (right/bottom edge)")
	}
	return extra, nil
}

func assertDecoder(visible bool) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		extra := tapKeysAndLabel()
		sel, ex, optional, err := c.d.selector(c.value, c.name, extra)
		if err != nil {
			return nil, err
		}
		a := &canonical.Assert{Meta: c.meta}
		a.Optional = a.Optional || optional
		if p, ok := ex["label"]; ok {
			if a.Label, err = c.d.str(p.value, "label"); err != nil {
				return nil, err
			}
		}
		c.ignored(ex, tapKeys()...)
		if visible {
			a.Visible = sel
		} else {
			a.NotVisible = sel
		}
		return a, nil
	}
}

func decodeAssertTrue(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n != nil && n.Kind == yaml.MappingNode {
		ps, err := c.d.pairs(n)
		if err != nil {
			return nil, err
		}
		a := &canonical.AssertTrue{Meta: c.meta}
		found := false
		for _, p := range ps {
			switch p.key {
			case "condition":
				s, err := c.d.castText(p.value, "assertTrue condition", false)
				if err != nil {
					return nil, err
				}
				a.Condition = canonical.Text(s, c.d.pos(resolve(p.value)))
				found = true
			case "label":
				if a.Label, err = c.d.castText(p.value, "assertTrue label", true); err != nil {
					return nil, err
				}
			case "optional":
				// Cast to Boolean: a YAML 1.1 boolean (yes, on, true, ...)
				// passes, quoted text or null does not.
				if javaScalar(p.value) != javaBool {
					return nil, c.d.errorf(p.value, "assertTrue optional must be true or false, got %s: Maestro casts it to a boolean and fails", describe(p.value)).
						WithHint("write optional: true or optional: false, without quotes")
				}
				a.Optional = yaml11True(resolve(p.value).Value)
			default:
				c.d.warnf(p.keyN, "assertTrue reads condition, label and optional", "assertTrue ignores %s (Maestro does too)", p.key)
			}
		}
		if !found {
			return nil, c.d.errorf(c.keyN, "assertTrue needs a condition").WithHint("assertTrue: ${output.count > 0}")
		}
		return a, nil
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		_, err := c.d.template(n, "assertTrue")
		return nil, err
	}
	t, err := c.d.anyText(n, "assertTrue", false)
	if err != nil {
		return nil, err
	}
	return &canonical.AssertTrue{Meta: c.meta, Condition: t}, nil
}

func aiDecoder(action, promptKey, defaultOutput string) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		a := &canonical.AI{Meta: c.meta, Action: action, OutputVariable: defaultOutput}
		// AI commands are optional unless the flow says otherwise.
		a.Optional = true
		keys := []string{}
		if promptKey != "" {
			keys = append(keys, promptKey)
		}
		if action == "extractTextWithAI" {
			keys = append(keys, "outputVariable")
		}
		scalar, fs, err := c.scalarOrFields(keys)
		if err != nil {
			return nil, err
		}
		if scalar != nil {
			if promptKey == "" {
				return nil, c.d.errorf(scalar, "%s takes no value", c.name).WithHint("write - " + c.name)
			}
			a.Prompt = canonical.Text(scalar.Value, c.d.pos(scalar))
			return a, nil
		}
		a.Label = c.meta.Label
		a.Optional = c.meta.Optional || !optionalGiven(c.value)
		if promptKey != "" {
			p, ok := fs[promptKey]
			if !ok {
				return nil, c.d.errorf(c.keyN, "%s needs %s", c.name, promptKey).WithHint(c.name + ":\n    " + promptKey + ": ...")
			}
			if a.Prompt, err = c.d.template(p.value, promptKey); err != nil {
				return nil, err
			}
		}
		if p, ok := fs["outputVariable"]; ok {
			if a.OutputVariable, err = c.d.str(p.value, "outputVariable"); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
}

// optionalGiven reports whether a command mapping sets optional itself.
func optionalGiven(n *yaml.Node) bool {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "optional" {
			return true
		}
	}
	return false
}

func decodeAddMedia(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	list := n
	if n != nil && n.Kind == yaml.MappingNode {
		fs, err := c.fields([]string{"files"})
		if err != nil {
			return nil, err
		}
		p, ok := fs["files"]
		if !ok {
			return nil, c.d.errorf(c.keyN, "addMedia needs files").WithHint("addMedia:\n    files: [photos/cat.png]")
		}
		list = resolve(p.value)
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, c.d.errorf(list, "addMedia takes a list of files, got %s", kindName(list)).
			WithHint("addMedia: [photos/cat.png, videos/intro.mp4]")
	}
	am := &canonical.AddMedia{Meta: c.meta}
	for _, item := range list.Content {
		s, err := c.d.str(item, "addMedia file")
		if err != nil {
			return nil, err
		}
		ext := strings.ToLower(strings.TrimPrefix(extOf(s), "."))
		if !contains([]string{"png", "jpeg", "jpg", "gif", "mp4"}, ext) {
			return nil, c.d.errorf(item, "addMedia cannot add %q: only png, jpeg, jpg, gif and mp4 files", s).
				WithHint("convert the file to one of those formats")
		}
		path, err := c.l.requireFile(c.d, c.f, item, s, "addMedia file", MaxMediaSize)
		if err != nil {
			return nil, err
		}
		am.Files = append(am.Files, path)
	}
	return am, nil
}

func extOf(p string) string {
	if i := strings.LastIndex(p, "."); i >= 0 && !strings.Contains(p[i:], "/") {
		return p[i:]
	}
	return ""
}

// decodeInputText, decodeAssertTrue and decodeEvalScript follow Maestro's
// delegating creators (YamlInputText.kt and its two siblings): a scalar of
// any type becomes its text; in the mapping form each value is cast to
// String (or Boolean) and a value of another type fails that cast.
func decodeInputText(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n != nil && n.Kind == yaml.MappingNode {
		ps, err := c.d.pairs(n)
		if err != nil {
			return nil, err
		}
		it := &canonical.InputText{Meta: c.meta}
		found := false
		for _, p := range ps {
			switch p.key {
			case "text":
				s, err := c.d.castText(p.value, "inputText text", false)
				if err != nil {
					return nil, err
				}
				it.Text = canonical.Text(s, c.d.pos(resolve(p.value)))
				found = true
			case "label":
				if it.Label, err = c.d.castText(p.value, "inputText label", true); err != nil {
					return nil, err
				}
			default:
				c.d.warnf(p.keyN, "inputText reads text and label only", "inputText ignores %s (Maestro does too)", p.key)
			}
		}
		if !found {
			c.d.warnf(c.keyN, "add text: the text to type", "inputText without text types nothing (Maestro types an empty text)")
			it.Text = canonical.Text("", c.d.pos(n))
		}
		return it, nil
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		_, err := c.d.template(n, "inputText")
		return nil, err
	}
	t, err := c.d.anyText(n, "inputText", false)
	if err != nil {
		return nil, err
	}
	return &canonical.InputText{Meta: c.meta, Text: t}, nil
}

func randomDecoder(kind string, hasLength bool) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		keys := []string{}
		if hasLength {
			keys = append(keys, "length")
		}
		fs, err := c.fields(keys)
		if err != nil {
			return nil, err
		}
		r := &canonical.InputRandom{Meta: c.meta, Type: kind}
		if hasLength {
			r.Length = 8
			if p, ok := fs["length"]; ok && !isNull(p.value) {
				n, err := c.d.integer(p.value, "length")
				if err != nil {
					return nil, err
				}
				if n > 0 {
					r.Length = n
				} else {
					c.d.warnf(p.value, "write a length of 1 or more", "length %d types 8 characters, as in Maestro", n)
				}
			}
		}
		return r, nil
	}
}

func decodeOpenLink(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"link", "browser", "autoVerify"})
	if err != nil {
		return nil, err
	}
	ol := &canonical.OpenLink{Meta: c.meta}
	if scalar != nil {
		ol.Link = canonical.Text(scalar.Value, c.d.pos(scalar))
		return ol, nil
	}
	p, ok := fs["link"]
	if !ok {
		return nil, c.d.errorf(c.keyN, "openLink needs link").WithHint("openLink: https://example.com/item/42")
	}
	if ol.Link, err = c.d.template(p.value, "link"); err != nil {
		return nil, err
	}
	if p, ok := fs["browser"]; ok {
		if ol.Browser, err = c.d.boolean(p.value, "browser"); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["autoVerify"]; ok {
		if ol.AutoVerify, err = c.d.boolean(p.value, "autoVerify"); err != nil {
			return nil, err
		}
	}
	return ol, nil
}

func decodePressKey(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"key"})
	if err != nil {
		return nil, err
	}
	keyN := scalar
	if scalar == nil {
		p, ok := fs["key"]
		if !ok {
			return nil, c.d.errorf(c.keyN, "pressKey needs key").WithHint("pressKey: Enter")
		}
		keyN = resolve(p.value)
	}
	name, err := c.d.str(keyN, "key")
	if err != nil {
		return nil, err
	}
	k, ok := lookupKey(name)
	if !ok {
		hint := "keys are: " + strings.Join(keyNames(), ", ")
		if alias, ok := keyAlias(name); ok {
			hint = fmt.Sprintf("did you mean %q? Maestro calls that key %s", alias, alias)
		} else if near := canonical.Closest(strings.ToLower(name), lowerAll(keyNames())); near != "" {
			hint = fmt.Sprintf("did you mean %q? %s", titleOf(near), hint)
		}
		if strings.Contains(name, "${") {
			hint = "Maestro reads the key name when the flow loads, so it cannot use ${...}; " + hint
		}
		return nil, c.d.errorf(keyN, "unknown key name %q", name).WithHint(hint)
	}
	return &canonical.PressKey{Meta: c.meta, Key: k.name, AndroidCode: k.code}, nil
}

func lowerAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(s)
	}
	return out
}

func titleOf(lower string) string {
	for _, k := range keyNames() {
		if strings.ToLower(k) == lower {
			return k
		}
	}
	return lower
}

func decodeEraseText(c *cmd) (canonical.Command, error) {
	scalar, fs, err := c.scalarOrFields([]string{"charactersToErase"})
	if err != nil {
		return nil, err
	}
	e := &canonical.EraseText{Meta: c.meta, Count: 50}
	countN := scalar
	if scalar == nil {
		if p, ok := fs["charactersToErase"]; ok && !isNull(p.value) {
			countN = p.value
		}
	}
	if countN != nil {
		if e.Count, err = c.d.integer(countN, "charactersToErase"); err != nil {
			return nil, err
		}
		if e.Count < 0 {
			// Maestro passes it to the device: Android's driver erases
			// nothing, iOS's cannot repeat a key a negative number of times.
			return nil, c.d.errorf(countN, "charactersToErase %d is negative: Maestro's drivers disagree on it (Android erases nothing, iOS fails)", e.Count).
				WithHint("write the number of characters to erase, 0 or more; leave it out to erase up to 50")
		}
	}
	return e, nil
}

func decodeAction(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	s, err := c.d.str(n, "action")
	if err != nil {
		return nil, err
	}
	switch s {
	case "back", "hideKeyboard", "clearKeychain", "pasteText":
		return &canonical.Simple{Meta: c.meta, Action: s}, nil
	case "scroll":
		c.value = nil
		return decodeScroll(c)
	}
	return nil, c.d.errorf(n, "unknown action %q", s).
		WithHint("action: takes back, hideKeyboard, scroll, clearKeychain or pasteText; better, write the command itself (- back)")
}

func pathDecoder(build func(canonical.Meta, canonical.Template) canonical.Command) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		scalar, fs, err := c.scalarOrFields([]string{"path"})
		if err != nil {
			return nil, err
		}
		pathN := scalar
		if scalar == nil {
			p, ok := fs["path"]
			if !ok {
				return nil, c.d.errorf(c.keyN, "%s needs path", c.name).WithHint(c.name + ": after_login")
			}
			pathN = p.value
		}
		t, err := c.d.template(pathN, "path")
		if err != nil {
			return nil, err
		}
		return build(c.meta, t), nil
	}
}

func decodeExtendedWait(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"visible", "notVisible", "timeout"})
	if err != nil {
		return nil, err
	}
	a := &canonical.Assert{Meta: c.meta}
	if p, ok := fs["visible"]; ok {
		if a.Visible, _, _, err = c.d.selector(p.value, "visible", nil); err != nil {
			return nil, err
		}
	}
	if p, ok := fs["notVisible"]; ok {
		if a.NotVisible, _, _, err = c.d.selector(p.value, "notVisible", nil); err != nil {
			return nil, err
		}
	}
	if a.Visible == nil && a.NotVisible == nil {
		return nil, c.d.errorf(c.keyN, "extendedWaitUntil needs visible or notVisible").
			WithHint("extendedWaitUntil:\n    visible: \"Welcome\"\n    timeout: 10000")
	}
	if p, ok := fs["timeout"]; ok {
		t, err := c.d.template(p.value, "timeout")
		if err != nil {
			return nil, err
		}
		if !t.HasExpr() {
			// Maestro drops "_" after evaluating; in a ${} expression it
			// is part of a name.
			t.Raw = strings.ReplaceAll(t.Raw, "_", "")
		}
		if lit, ok := t.Literal(); ok {
			// Maestro reads it with toLong when the command runs.
			v, ok := kotlinLong(lit)
			if !ok {
				return nil, c.d.errorf(p.value, "timeout %q is not a whole number of milliseconds: Maestro reads it with toLong and fails", lit).
					WithHint("timeout: 10000 (digits only, _ allowed: no decimals)")
			}
			if v < 0 {
				c.d.warnf(p.value, "write 0 or more", "timeout %d checks once, as 0 does (Maestro too)", v)
			}
		}
		a.TimeoutMs = &t
	}
	return a, nil
}

func appDecoder(kill bool) func(c *cmd) (canonical.Command, error) {
	return func(c *cmd) (canonical.Command, error) {
		id, err := c.appID()
		if err != nil {
			return nil, err
		}
		return &canonical.StopApp{Meta: c.meta, AppID: id, Kill: kill}, nil
	}
}

func decodeClearState(c *cmd) (canonical.Command, error) {
	id, err := c.appID()
	if err != nil {
		return nil, err
	}
	return &canonical.ClearState{Meta: c.meta, AppID: id}, nil
}

func (c *cmd) appID() (canonical.Template, error) {
	scalar, fs, err := c.scalarOrFields([]string{"appId"})
	if err != nil {
		return canonical.Template{}, err
	}
	if scalar != nil {
		return c.d.appID(scalar, c.name)
	}
	if p, ok := fs["appId"]; ok {
		return c.d.appID(p.value, "appId")
	}
	return c.f.appID, nil
}

func decodeSetLocation(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"latitude", "longitude"})
	if err != nil {
		return nil, err
	}
	sl := &canonical.SetLocation{Meta: c.meta}
	for _, k := range []string{"latitude", "longitude"} {
		p, ok := fs[k]
		if !ok {
			return nil, c.d.errorf(c.keyN, "setLocation needs %s", k).WithHint("setLocation:\n    latitude: 52.52\n    longitude: 13.405")
		}
		t, err := c.d.template(p.value, k)
		if err != nil {
			return nil, err
		}
		if lit, ok := t.Literal(); ok {
			// Maestro reads it with Kotlin's toDouble when the command runs.
			if _, ok := canonical.ParseKotlinDouble(lit); !ok {
				return nil, c.d.errorf(p.value, "%s %q is not a number", k, lit).WithHint(k + ": 52.52")
			}
		}
		if k == "latitude" {
			sl.Latitude = t
		} else {
			sl.Longitude = t
		}
	}
	return sl, nil
}

func decodeTravel(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"points", "speed"})
	if err != nil {
		return nil, err
	}
	tr := &canonical.Travel{Meta: c.meta, SpeedMPS: 4.0}
	p, ok := fs["points"]
	pts := resolve(p.value)
	if !ok || pts == nil || pts.Kind != yaml.SequenceNode || len(pts.Content) == 0 {
		return nil, c.d.errorf(c.keyN, "travel needs points: a list of \"latitude,longitude\"").
			WithHint("travel:\n    points: [\"52.52,13.405\", \"52.53,13.41\"]")
	}
	for _, item := range pts.Content {
		s, err := c.d.str(item, "travel point")
		if err != nil {
			return nil, err
		}
		parts := strings.Split(s, ",")
		var lat, lng float64
		var e1, e2 error
		if len(parts) == 2 {
			lat, e1 = strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
			lng, e2 = strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		}
		if len(parts) != 2 || e1 != nil || e2 != nil || !canonical.IsFinite(lat) || !canonical.IsFinite(lng) {
			return nil, c.d.errorf(item, "invalid travel point %q", s).
				WithHint("write \"latitude,longitude\" with numbers; Maestro reads travel points when the flow loads, so ${...} cannot be used")
		}
		tr.Points = append(tr.Points, canonical.Point{X: lat, Y: lng})
	}
	if p, ok := fs["speed"]; ok {
		if tr.SpeedMPS, err = c.d.number(p.value, "speed"); err != nil {
			return nil, err
		}
		if tr.SpeedMPS <= 0 {
			// Maestro sleeps distance/speed between steps: a negative sleep
			// fails, a zero speed sleeps forever.
			return nil, c.d.errorf(p.value, "travel speed %s m/s does not move: Maestro fails on it or waits forever", canonical.FormatNumber(tr.SpeedMPS)).
				WithHint("write a speed above 0 in meters per second, such as speed: 10")
		}
	}
	return tr, nil
}

func decodeCopyText(c *cmd) (canonical.Command, error) {
	extra := tapKeysAndLabel()
	sel, ex, optional, err := c.d.selector(c.value, c.name, extra)
	if err != nil {
		return nil, err
	}
	ct := &canonical.CopyText{Meta: c.meta, Selector: *sel}
	ct.Optional = ct.Optional || optional
	if p, ok := ex["label"]; ok {
		if ct.Label, err = c.d.str(p.value, "label"); err != nil {
			return nil, err
		}
	}
	c.ignored(ex, tapKeys()...)
	return ct, nil
}

func decodeWaitForAnimation(c *cmd) (canonical.Command, error) {
	fs, err := c.fields([]string{"timeout"})
	if err != nil {
		return nil, err
	}
	w := &canonical.WaitForAnimation{Meta: c.meta, TimeoutMs: 15000}
	if p, ok := fs["timeout"]; ok && !isNull(p.value) {
		if w.TimeoutMs, err = c.d.whole(p.value, "timeout", javaLongField); err != nil {
			return nil, err
		}
		if w.TimeoutMs < 0 {
			c.d.warnf(p.value, "write 0 or more", "timeout %d compares the screen once, as 0 does (Maestro too)", w.TimeoutMs)
		}
	}
	return w, nil
}

func decodeEvalScript(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	if n != nil && n.Kind == yaml.MappingNode {
		ps, err := c.d.pairs(n)
		if err != nil {
			return nil, err
		}
		e := &canonical.EvalScript{Meta: c.meta}
		found := false
		for _, p := range ps {
			switch p.key {
			case "script":
				s, err := c.d.castText(p.value, "evalScript script", false)
				if err != nil {
					return nil, err
				}
				e.Script = canonical.Text(s, c.d.pos(resolve(p.value)))
				found = true
			case "label":
				if e.Label, err = c.d.castText(p.value, "evalScript label", true); err != nil {
					return nil, err
				}
			default:
				c.d.warnf(p.keyN, "evalScript reads script and label only", "evalScript ignores %s (Maestro does too)", p.key)
			}
		}
		if !found {
			c.d.warnf(c.keyN, "add script: ${...}", "evalScript without script does nothing (Maestro evaluates an empty script)")
			e.Script = canonical.Text("", c.d.pos(n))
		}
		return e, nil
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		_, err := c.d.template(n, "evalScript")
		return nil, err
	}
	t, err := c.d.anyText(n, "evalScript", false)
	if err != nil {
		return nil, err
	}
	return &canonical.EvalScript{Meta: c.meta, Script: t}, nil
}

func decodeSetAirplaneMode(c *cmd) (canonical.Command, error) {
	n := resolve(c.value)
	valueN := n
	m := c.meta
	if n != nil && n.Kind == yaml.MappingNode {
		ps, err := c.d.pairs(n)
		if err != nil {
			return nil, err
		}
		valueN = nil
		for _, p := range ps {
			switch p.key {
			case "value":
				valueN = p.value
			case "label":
				if m.Label, err = c.d.str(p.value, "label"); err != nil {
					return nil, err
				}
			default:
				c.d.warnf(p.keyN, "remove "+p.key, "setAirplaneMode ignores %s (Maestro does too)", p.key)
			}
		}
	}
	if valueN == nil {
		return nil, c.d.errorf(c.keyN, "setAirplaneMode needs value").WithHint("setAirplaneMode:\n    value: enabled")
	}
	s, err := c.d.str(valueN, "setAirplaneMode")
	if err != nil {
		return nil, err
	}
	// Maestro's deserializer (YamlSetAirplaneMode.kt) wants value: exactly
	// enabled or disabled, and a scalar that contains either word.
	short := valueN == n
	switch {
	case s == "enabled", short && strings.Contains(s, "enabled"):
		return &canonical.SetAirplaneMode{Meta: m, Enabled: true}, nil
	case s == "disabled", short && strings.Contains(s, "disabled"):
		return &canonical.SetAirplaneMode{Meta: m, Enabled: false}, nil
	}
	hint := "setAirplaneMode: enabled"
	if l := strings.ToLower(s); l == "enabled" || l == "disabled" {
		hint = fmt.Sprintf("write %s in lower case: Maestro compares it exactly", l)
	}
	return nil, c.d.errorf(valueN, "setAirplaneMode takes enabled or disabled, got %q", s).WithHint(hint)
}
