package maestro

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

func selectorKeys() []string {
	return []string{"text", "id", "index", "width", "height", "tolerance", "enabled", "selected", "checked",
		"focused", "below", "above", "leftOf", "rightOf", "containsChild", "containsDescendants", "childOf",
		"traits", "optional", "css"}
}

// currentSelectorKeys are the selector keys of the current Maestro that
// 1.39.10's YamlElementSelector lacks: css came with Maestro PR #2537
// ("[Web] CSS/DOM selector", June 2025), after 1.39.10, whose Jackson
// reader refuses a key it has no field for.
func currentSelectorKeys() []string { return []string{"css"} }

// selectorKeysFor are the selector keys Maestro version v reads.
func selectorKeysFor(v canonical.MaestroVersion) []string {
	if v != canonical.Maestro139 {
		return selectorKeys()
	}
	var out []string
	for _, k := range selectorKeys() {
		if !contains(currentSelectorKeys(), k) {
			out = append(out, k)
		}
	}
	return out
}

// selector reads a selector union: a scalar is a text regex (tapOn: 2022
// matches the text "2022"), a mapping holds selector fields plus the
// command's own keys (extra). It returns the selector, the extra keys found,
// and whether the deprecated selector-level optional was set.
func (d *decoder) selector(n *yaml.Node, what string, extra []string) (*canonical.Selector, map[string]pair, bool, error) {
	n = resolve(n)
	sel := &canonical.Selector{Pos: d.pos(n)}
	if n == nil || isNull(n) {
		return nil, nil, false, d.errorf(n, "%s needs an element selector", what).
			WithHint(what + ": \"Login\" (text) or " + what + ": {id: login_button}")
	}
	switch n.Kind {
	case yaml.ScalarNode:
		// Maestro reads the selector union as a tree and takes a scalar's
		// text from its typed value (tapOn: 1.50 looks for "1.5").
		t, err := d.anyText(n, what, true)
		if err != nil {
			return nil, nil, false, err
		}
		sel.Text = &t
		return sel, nil, false, nil
	case yaml.SequenceNode:
		return nil, nil, false, d.errorf(n, "%s takes one selector, got a list", what).
			WithHint("use containsDescendants: [...] to require several children")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return nil, nil, false, err
	}
	if d.version == canonical.Maestro139 {
		for _, p := range ps {
			if contains(currentSelectorKeys(), p.key) {
				return nil, nil, false, d.errorf(p.keyN, "unknown key %q in %s: %s is a selector key of Maestro %s, not of 1.39, which this run follows", p.key, what, p.key, canonical.MaestroCurrent).
					WithHint("drop --maestro-version 1.39 (or FLOW_MAESTRO_VERSION, or maestroVersion in the workspace config) to use it")
			}
		}
	}
	if err := d.checkKeysOf(what, ps, selectorKeysFor(d.version), extra); err != nil {
		return nil, nil, false, err
	}
	extras := map[string]pair{}
	optional := false
	for _, p := range ps {
		if contains(extra, p.key) {
			extras[p.key] = p
			continue
		}
		if err := d.selectorField(sel, p, &optional); err != nil {
			return nil, nil, false, err
		}
	}
	return sel, extras, optional, nil
}

func (d *decoder) selectorField(sel *canonical.Selector, p pair, optional *bool) error {
	var err error
	intp := func() (*int, error) {
		v, err := d.integer(p.value, p.key)
		return &v, err
	}
	boolp := func() (*bool, error) {
		v, err := d.boolean(p.value, p.key)
		return &v, err
	}
	relative := func() (*canonical.Selector, error) {
		s, _, _, err := d.selector(p.value, p.key, nil)
		return s, err
	}
	switch p.key {
	case "text":
		sel.Text, err = d.templatePtr(p.value, "text")
	case "id":
		sel.ID, err = d.templatePtr(p.value, "id")
	case "index":
		if sel.Index, err = d.templatePtr(p.value, "index"); err == nil {
			err = d.checkIndex(p.value, *sel.Index)
		}
	case "width":
		sel.Width, err = intp()
	case "height":
		sel.Height, err = intp()
	case "tolerance":
		sel.Tolerance, err = intp()
	case "enabled":
		sel.Enabled, err = boolp()
	case "selected":
		sel.Selected, err = boolp()
	case "checked":
		sel.Checked, err = boolp()
	case "focused":
		sel.Focused, err = boolp()
	case "below":
		sel.Below, err = relative()
	case "above":
		sel.Above, err = relative()
	case "leftOf":
		sel.LeftOf, err = relative()
	case "rightOf":
		sel.RightOf, err = relative()
	case "containsChild":
		sel.ContainsChild, err = relative()
	case "childOf":
		sel.ChildOf, err = relative()
	case "containsDescendants":
		sel.ContainsDescendants, err = d.selectorList(p.value)
	case "traits":
		sel.Traits, err = d.traits(p.value)
	case "css":
		// Maestro's YamlElementSelector.css is a String, so a number is
		// its text; ElementSelector.evaluateScripts interpolates ${...}.
		if sel.CSS, err = d.templatePtr(p.value, "css"); err == nil && strings.TrimSpace(sel.CSS.Raw) == "" {
			err = d.errorf(p.value, "css is empty: it needs a CSS selector").
				WithHint(`css: "button.primary" (any selector document.querySelectorAll accepts)`)
		}
		if err == nil && d.nativeApp != "" {
			// Maestro matches css only through its web driver; on a phone
			// the lookup finds nothing after its timeout (flow: at once,
			// UNSUPPORTED_OPERATION). Said here, not refused: the same
			// file may be run against a browser session.
			d.warnf(p.value, "select by text, id or traits on apps; keep css for flows whose appId or url is a web address",
				"css selectors match only in web pages, and this flow's appId %q names an app: on Android, iOS and sim the lookup fails", d.nativeApp)
		}
	case "optional":
		*optional, err = d.boolean(p.value, "optional")
	}
	return err
}

func (d *decoder) selectorList(n *yaml.Node) ([]*canonical.Selector, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "containsDescendants must be a list of selectors, got %s", kindName(n)).
			WithHint("containsDescendants: [\"Title\", {id: price}]")
	}
	var out []*canonical.Selector
	for _, item := range n.Content {
		s, _, _, err := d.selector(item, "containsDescendants", nil)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func traitNames() []string { return []string{"text", "square", "long-text"} }

// traits reads Maestro's space-separated trait list; an unknown trait is a
// load error in Maestro too.
func (d *decoder) traits(n *yaml.Node) ([]string, error) {
	s, err := d.str(n, "traits")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range strings.Fields(s) {
		norm := strings.ReplaceAll(strings.ToLower(t), "_", "-")
		if !contains(traitNames(), norm) {
			return nil, d.errorf(n, "unknown trait %q", t).WithHint("traits are: text, square, long-text (space-separated)")
		}
		out = append(out, norm)
	}
	return out, nil
}

// condition reads a when:/while: condition (Maestro §1.6).
func (d *decoder) condition(n *yaml.Node, what string) (*canonical.Condition, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "%s must be a mapping of platform, visible, notVisible or true, got %s", what, kindName(n)).
			WithHint(what + ":\n    visible: \"Continue\"")
	}
	ps, err := d.pairs(n)
	if err != nil {
		return nil, err
	}
	if err := d.checkKeys(what, ps, []string{"platform", "visible", "notVisible", "true", "label", "optional"}); err != nil {
		return nil, err
	}
	c := &canonical.Condition{Pos: d.pos(n)}
	for _, p := range ps {
		switch p.key {
		case "platform":
			s, err := d.str(p.value, "platform")
			if err != nil {
				return nil, err
			}
			c.Platform = strings.ToLower(s)
			if !contains([]string{"android", "ios", "web"}, c.Platform) {
				return nil, d.errorf(p.value, "unknown platform %q", s).WithHint("platform is Android, iOS or Web")
			}
		case "visible":
			c.Visible, _, _, err = d.selector(p.value, "visible", nil)
		case "notVisible":
			c.NotVisible, _, _, err = d.selector(p.value, "notVisible", nil)
		case "true":
			c.True, err = d.templatePtr(p.value, "true")
		case "label":
			c.Label, err = d.str(p.value, "label")
		case "optional":
			_, err = d.boolean(p.value, "optional")
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// checkIndex checks a literal index as Maestro reads it when the command
// runs: toDouble, then toInt (canonical.KotlinToInt). Text that is no
// number fails there, so flow refuses it; a negative index or one past
// Int.MAX_VALUE matches no element, NaN is 0 and a fraction is dropped,
// which flow does too and warns about.
func (d *decoder) checkIndex(n *yaml.Node, t canonical.Template) error {
	lit, ok := t.Literal()
	if !ok {
		return nil
	}
	f, ok := canonical.ParseKotlinDouble(lit)
	if !ok {
		return d.errorf(n, "index %q is not a number: Maestro reads it with toDouble and fails", lit).
			WithHint("index counts the matching elements from 0, top to bottom: index: 0")
	}
	i := canonical.KotlinToInt(f)
	switch {
	case i < 0:
		d.warnf(n, "index counts from 0; remove the selector or fix the index", "index %s matches no element (Maestro's too)", lit)
	case i == math.MaxInt32 && f != math.MaxInt32:
		d.warnf(n, "write the position of the element, counted from 0", "index %s is read as %d, which matches no element (Maestro's too)", lit, i)
	case f != float64(i):
		d.warnf(n, fmt.Sprintf("write index: %d", i), "index %s is read as %d, as Maestro reads it", lit, i)
	}
	return nil
}
