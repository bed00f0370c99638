package sim

import (
	"bytes"
	"errors"
	"io"
	"math"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// LoadApp parses and validates an app model (contracts §7). name is the file
// name errors carry. Every error is INVALID_ARGS with file:line:col and a
// hint: unknown keys (with a did-you-mean), bad bounds, a goto to an unknown
// screen, an action naming an unknown element, duplicate ids on a screen.
func LoadApp(name string, data []byte) (*App, error) {
	d := &decoder{file: name}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, canonical.NewError(canonical.CodeInvalidArgs, "app model is empty").
				At(canonical.Pos{File: name}).
				WithHint("an app model needs appId, platform, viewport, start and screens")
		}
		return nil, d.syntaxError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		at := &extra
		if len(extra.Content) > 0 {
			at = extra.Content[0]
		}
		return nil, d.errorf(at, "keep one app per file; pass several files with --app", "app model has more than one YAML document")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	app, err := d.app(root)
	if err != nil {
		return nil, err
	}
	if err := validate(app); err != nil {
		return nil, err
	}
	return app, nil
}

func appKeys() []string {
	return []string{"appId", "platform", "viewport", "start", "screens", "links"}
}

func (d *decoder) app(n *yaml.Node) (*App, error) {
	fs, err := d.mapping(n, "an app model", appKeys())
	if err != nil {
		return nil, err
	}
	app := &App{Pos: d.pos(resolve(n))}
	got := map[string]bool{}
	for _, f := range fs {
		got[f.key] = true
		switch f.key {
		case "appId":
			app.AppID, err = d.name(f.value, "appId")
		case "platform":
			app.Platform, err = d.platform(f.value)
		case "viewport":
			app.Viewport, err = d.viewport(f.value)
		case "start":
			app.Start, err = d.name(f.value, "start")
			app.startPos = d.pos(resolve(f.value))
		case "screens":
			app.Screens, err = d.screens(f.value)
		case "links":
			app.Links, err = d.links(f.value)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"appId", "platform", "viewport", "start", "screens"} {
		if !got[k] {
			return nil, d.errorf(n, requiredHint(k), "app model has no %s", k)
		}
	}
	return app, nil
}

func requiredHint(key string) string {
	switch key {
	case "appId":
		return "add appId: com.example.app, the id launchApp uses"
	case "platform":
		return "add platform: android or platform: ios, the planning profile for gestures"
	case "viewport":
		return "add viewport: {width: 1080, height: 2400}"
	case "start":
		return "add start: NAME, the screen the app opens on"
	}
	return "add screens: a list of {name, elements}"
}

func (d *decoder) platform(n *yaml.Node) (string, error) {
	s, err := d.text(n, "platform")
	if err != nil {
		return "", err
	}
	if s != "android" && s != "ios" {
		return "", d.errorf(n, "use platform: android or platform: ios", "platform must be android or ios, got %q", s)
	}
	return s, nil
}

func (d *decoder) viewport(n *yaml.Node) (Size, error) {
	fs, err := d.mapping(n, "viewport", []string{"width", "height"})
	if err != nil {
		return Size{}, err
	}
	var s Size
	for _, f := range fs {
		v, err := d.integer(f.value, "viewport "+f.key, 1, 100000)
		if err != nil {
			return Size{}, err
		}
		if f.key == "width" {
			s.Width = v
		} else {
			s.Height = v
		}
	}
	if s.Width == 0 || s.Height == 0 {
		return Size{}, d.errorf(n, "write viewport: {width: 1080, height: 2400}", "viewport needs both width and height")
	}
	return s, nil
}

func (d *decoder) screens(n *yaml.Node) ([]*Screen, error) {
	items, err := d.sequence(n, "screens")
	if err != nil {
		return nil, err
	}
	var out []*Screen
	for _, item := range items {
		fs, err := d.mapping(item, "a screen", []string{"name", "elements"})
		if err != nil {
			return nil, err
		}
		s := &Screen{Pos: d.pos(resolve(item))}
		for _, f := range fs {
			if f.key == "name" {
				s.Name, err = d.name(f.value, "screen name")
			} else {
				s.Elements, err = d.elements(f.value)
			}
			if err != nil {
				return nil, err
			}
		}
		if s.Name == "" {
			return nil, d.errorf(item, "give every screen a name: {name: home, elements: [...]}", "screen has no name")
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *decoder) links(n *yaml.Node) ([]Link, error) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.MappingNode {
		return nil, d.errorf(n, `write links: {"shop://login": login}`, "links must be a mapping of link to screen, got %s", kindName(n))
	}
	return d.linkPairs(r)
}

// linkPairs reads links without the allowed-key check: every key is a URL.
func (d *decoder) linkPairs(n *yaml.Node) ([]Link, error) {
	var fs []field
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		url, err := d.name(k, "link")
		if err != nil {
			return nil, err
		}
		if first, dup := seen[url]; dup {
			return nil, d.errorf(k, "keep one entry per link", "duplicate link %q (first given at line %d)", url, first.Line)
		}
		seen[url] = k
		fs = append(fs, field{key: url, keyN: k, value: v})
	}
	return d.linksOf(fs)
}

func (d *decoder) linksOf(fs []field) ([]Link, error) {
	var out []Link
	for _, f := range fs {
		screen, err := d.name(f.value, "the screen of link "+f.key)
		if err != nil {
			return nil, err
		}
		out = append(out, Link{URL: f.key, Screen: screen, Pos: d.pos(resolve(f.value))})
	}
	return out, nil
}

func (d *decoder) elements(n *yaml.Node) ([]*Element, error) {
	if isNull(n) {
		return nil, nil
	}
	items, err := d.sequence(n, "elements")
	if err != nil {
		return nil, err
	}
	out := make([]*Element, 0, len(items))
	for _, item := range items {
		e, err := d.element(item)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func elementKeys() []string {
	return []string{"id", "text", "label", "hint", "bounds", "enabled", "checked", "selected", "focused", "visible",
		"editable", "zoomable", "scroll", "elements", "appearAfterMs", "onTap", "onLongPress"}
}

func (d *decoder) element(n *yaml.Node) (*Element, error) {
	fs, err := d.mapping(n, "an element", elementKeys())
	if err != nil {
		return nil, err
	}
	e := &Element{Enabled: true, Visible: true, Pos: d.pos(resolve(n))}
	hasBounds := false
	for _, f := range fs {
		if f.key == "bounds" {
			hasBounds = true
		}
		if err := d.elementField(e, f); err != nil {
			return nil, err
		}
	}
	if !hasBounds {
		return nil, d.errorf(n, "add bounds: [left, top, right, bottom]", "element %s has no bounds", describeElement(e))
	}
	return e, nil
}

func describeElement(e *Element) string {
	switch {
	case e.ID != "":
		return "id " + e.ID
	case e.Text != "":
		return "with text " + e.Text
	case e.Label != "":
		return "with label " + e.Label
	}
	return "without id"
}

func (d *decoder) elementField(e *Element, f field) error {
	var err error
	switch f.key {
	case "id":
		e.ID, err = d.name(f.value, "id")
	case "text":
		e.Text, err = d.text(f.value, "text")
	case "label":
		e.Label, err = d.text(f.value, "label")
	case "hint":
		e.Hint, err = d.text(f.value, "hint")
	case "bounds":
		e.Bounds, err = d.bounds(f.value)
	case "enabled":
		e.Enabled, err = d.boolean(f.value, "enabled")
	case "checked":
		var c bool
		c, err = d.boolean(f.value, "checked")
		e.Checked = &c
	case "selected":
		e.Selected, err = d.boolean(f.value, "selected")
	case "focused":
		e.Focused, err = d.boolean(f.value, "focused")
	case "visible":
		e.Visible, err = d.boolean(f.value, "visible")
	case "editable":
		e.Editable, err = d.boolean(f.value, "editable")
	case "zoomable":
		e.Zoomable, err = d.boolean(f.value, "zoomable")
	case "scroll":
		e.Scroll, err = d.scroll(f.value)
	case "elements":
		e.Elements, err = d.elements(f.value)
	case "appearAfterMs":
		e.AppearAfterMs, err = d.integer(f.value, "appearAfterMs", 0, math.MaxInt32)
	case "onTap":
		e.OnTap, err = d.actions(f.value, "onTap")
	case "onLongPress":
		e.OnLongPress, err = d.actions(f.value, "onLongPress")
	}
	return err
}

func (d *decoder) bounds(n *yaml.Node) (Bounds, error) {
	const hint = "write bounds: [left, top, right, bottom] in whole pixels, right > left and bottom > top"
	r := resolve(n)
	if r == nil || r.Kind != yaml.SequenceNode {
		return Bounds{}, d.errorf(n, hint, "bounds must be a list of four numbers [left, top, right, bottom], got %s", kindName(n))
	}
	if len(r.Content) != 4 {
		return Bounds{}, d.errorf(n, hint, "bounds must be four numbers [left, top, right, bottom], got %d", len(r.Content))
	}
	var b Bounds
	for i, c := range r.Content {
		v, ok := intValue(c, -1000000, 1000000)
		if !ok {
			return Bounds{}, d.errorf(c, hint, "bounds %s must be a whole number, got %s",
				[]string{"left", "top", "right", "bottom"}[i], kindName(c))
		}
		b[i] = v
	}
	if b[2] <= b[0] || b[3] <= b[1] {
		return Bounds{}, d.errorf(n, hint, "bounds [%d, %d, %d, %d] are empty: right must exceed left and bottom must exceed top",
			b[0], b[1], b[2], b[3])
	}
	return b, nil
}

func (d *decoder) scroll(n *yaml.Node) (*Scroll, error) {
	fs, err := d.mapping(n, "scroll", []string{"axis", "contentHeight", "contentWidth"})
	if err != nil {
		return nil, err
	}
	s := &Scroll{}
	var sizeKey *yaml.Node
	var sizeName string
	for _, f := range fs {
		if f.key == "axis" {
			if s.Axis, err = d.text(f.value, "scroll axis"); err != nil {
				return nil, err
			}
			if s.Axis != AxisVertical && s.Axis != AxisHorizontal {
				return nil, d.errorf(f.value, "use axis: vertical or axis: horizontal", "scroll axis must be vertical or horizontal, got %q", s.Axis)
			}
			continue
		}
		if sizeKey != nil {
			return nil, d.errorf(f.keyN, "a container scrolls along one axis: keep contentHeight for vertical or contentWidth for horizontal",
				"scroll has both contentHeight and contentWidth")
		}
		sizeKey, sizeName = f.keyN, f.key
		if s.ContentSize, err = d.integer(f.value, "scroll "+f.key, 1, 10000000); err != nil {
			return nil, err
		}
	}
	want := map[string]string{AxisVertical: "contentHeight", AxisHorizontal: "contentWidth"}[s.Axis]
	switch {
	case s.Axis == "":
		return nil, d.errorf(n, "add axis: vertical or axis: horizontal", "scroll has no axis")
	case sizeKey == nil:
		return nil, d.errorf(n, "add "+want+": the length of the content", "a %s scroll needs %s", s.Axis, want)
	case sizeName != want:
		return nil, d.errorf(sizeKey, "a "+s.Axis+" container takes "+want, "%s does not go with axis: %s", sizeName, s.Axis)
	}
	return s, nil
}

// actions reads one action mapping or (an extension) a list of them, run in
// order.
func (d *decoder) actions(n *yaml.Node, what string) ([]Action, error) {
	r := resolve(n)
	if r != nil && r.Kind == yaml.SequenceNode {
		var out []Action
		for _, item := range r.Content {
			a, err := d.action(item, what)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	}
	a, err := d.action(n, what)
	if err != nil {
		return nil, err
	}
	return []Action{a}, nil
}

func actionKeys() []string { return []string{"goto", "back", "setText", "toggle", "show", "hide"} }

func (d *decoder) action(n *yaml.Node, what string) (Action, error) {
	fs, err := d.mapping(n, what, actionKeys())
	if err != nil {
		return Action{}, err
	}
	if len(fs) != 1 {
		return Action{}, d.errorf(n, "write one action per mapping, or a list of them: "+what+": [{toggle: a}, {goto: b}]",
			"%s needs exactly one action (goto, back, setText, toggle, show or hide), got %d", what, len(fs))
	}
	f := fs[0]
	a := Action{Pos: d.pos(resolve(f.value))}
	switch f.key {
	case "goto":
		a.Goto, err = d.name(f.value, "goto")
	case "back":
		var b bool
		if b, err = d.boolean(f.value, "back"); err == nil && !b {
			err = d.errorf(f.value, "write back: true, or remove the action", "back: false does nothing")
		}
		a.Back = b
	case "setText":
		a.SetText, err = d.setText(f.value)
	case "toggle":
		a.Toggle, err = d.name(f.value, "toggle")
	case "show":
		a.Show, err = d.name(f.value, "show")
	case "hide":
		a.Hide, err = d.name(f.value, "hide")
	}
	return a, err
}

func (d *decoder) setText(n *yaml.Node) (*SetText, error) {
	fs, err := d.mapping(n, "setText", []string{"element", "text"})
	if err != nil {
		return nil, err
	}
	s := &SetText{}
	var hasText bool
	for _, f := range fs {
		if f.key == "element" {
			s.Element, err = d.name(f.value, "setText element")
		} else {
			hasText = true
			s.Text, err = d.text(f.value, "setText text")
		}
		if err != nil {
			return nil, err
		}
	}
	if s.Element == "" || !hasText {
		return nil, d.errorf(n, `write setText: {element: ID, text: "..."}`, "setText needs element and text")
	}
	return s, nil
}
