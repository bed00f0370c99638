package sim

import (
	"math"

	"gopkg.in/yaml.v3"
)

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
		"editable", "zoomable", "persist", "scroll", "elements", "appearAfterMs", "onTap", "onLongPress"}
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
	case "persist":
		e.Persist, err = d.boolean(f.value, "persist")
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
