package exec_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// pageElement is one element of pageDevice's page: the node the
// hierarchy shows for it and its class list.
type pageElement struct {
	node    *exec.Node
	classes []string
}

// pageDevice is a web page with two buttons that read "Buy", told apart
// only by class (.primary, .secondary), inside a .card container. Its
// QueryCSS answers what maestro-web.js queryCss answers for the page:
// document.querySelectorAll's elements, each as the hierarchy shows it
// without children (traverse(el, false)). It understands a single
// ".class" or a tag name, and refuses, as querySelectorAll does with a
// SyntaxError, anything that does not parse as a selector ("[[").
type pageDevice struct {
	webStill
	elems   []pageElement
	queries []string
	tapped  []canonical.Point
}

func newPageDevice(clock exec.Clock) *pageDevice {
	node := func(text, class string, b exec.Rect, kids ...*exec.Node) *exec.Node {
		return &exec.Node{Text: text, Class: class, Bounds: &b, Enabled: true, Children: kids}
	}
	primary := node("Buy", "button", exec.Rect{X: 10, Y: 100, W: 200, H: 50})
	secondary := node("Buy", "button", exec.Rect{X: 10, Y: 300, W: 200, H: 50})
	title := node("Offer", "h2", exec.Rect{X: 10, Y: 20, W: 300, H: 40})
	card := node("", "div", exec.Rect{X: 0, Y: 0, W: 390, H: 400}, title, primary, secondary)
	d := &pageDevice{elems: []pageElement{
		{card, []string{"card"}},
		{title, nil},
		{primary, []string{"buy", "primary"}},
		{secondary, []string{"buy", "secondary"}},
	}}
	d.clock, d.start = clock, clock.Now()
	return d
}

func (d *pageDevice) Viewport(context.Context) (canonical.Viewport, error) {
	return canonical.Viewport{Width: 390, Height: 844}, nil
}

func (d *pageDevice) Hierarchy(context.Context) (*exec.Node, error) {
	return &exec.Node{Class: "body", Bounds: &exec.Rect{W: 390, H: 844}, Enabled: true, Children: []*exec.Node{d.elems[0].node}}, nil
}

func (d *pageDevice) Tap(ctx context.Context, p canonical.Point) error {
	d.tapped = append(d.tapped, p)
	return nil
}

func (d *pageDevice) QueryCSS(_ context.Context, selector string) ([]*exec.Node, error) {
	d.queries = append(d.queries, selector)
	if strings.Contains(selector, "[[") {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "the css selector %q is not a valid selector", selector)
	}
	var out []*exec.Node
	for _, e := range d.elems {
		hit := e.node.Class == selector
		for _, c := range e.classes {
			hit = hit || selector == "."+c
		}
		if hit {
			own := *e.node
			own.Children = nil
			out = append(out, &own)
		}
	}
	return out, nil
}

func cssSel(css string, line int) *canonical.Selector {
	t := canonical.Text(css, canonical.Pos{File: "flow.yaml", Line: line, Col: 10})
	return &canonical.Selector{CSS: &t}
}

func runOn(dev exec.Device, clock exec.Clock, cmds ...canonical.Command) exec.FlowResult {
	cfg := exec.Config{Device: dev, Clock: clock,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: cmds}
	return exec.RunFlow(context.Background(), cfg, flow)
}

// tapOnce is tap without retryTapIfNoChange (the current Maestro's
// default): the page does not change when tapped.
func tapOnce(line int, s *canonical.Selector) *canonical.Tap {
	t := tap(line, s, false)
	t.RetryIfNoChange = false
	return t
}

func assertVisible(line int, s *canonical.Selector) *canonical.Assert {
	return &canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(line)}, Visible: s}
}

func assertNotVisible(line int, s *canonical.Selector) *canonical.Assert {
	return &canonical.Assert{Meta: canonical.Meta{Name: "assertNotVisible", Pos: at(line)}, NotVisible: s}
}

// The tap goes to the element the CSS query names, though the text alone
// would take the first "Buy"; with text and css both must hold; index
// counts the css matches top to bottom.
func TestCSSSelectsTheElementThePageNames(t *testing.T) {
	for _, c := range []struct {
		name string
		sel  *canonical.Selector
		want canonical.Point
	}{
		{"css alone", cssSel(".secondary", 4), canonical.Point{X: 110, Y: 325}},
		{"css and text", func() *canonical.Selector { s := cssSel(".primary", 4); s.Text = text("Buy").Text; return s }(), canonical.Point{X: 110, Y: 125}},
		{"css and index", func() *canonical.Selector {
			s := cssSel(".buy", 4)
			i := canonical.Text("1", canonical.Pos{})
			s.Index = &i
			return s
		}(), canonical.Point{X: 110, Y: 325}},
		// Maestro PR #3391: a container (an element with children) matches
		// too, compared without its children.
		{"a container", cssSel(".card", 4), canonical.Point{X: 195, Y: 200}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clock := newClock()
			dev := newPageDevice(clock)
			res := runOn(dev, clock, launch(3), tapOnce(4, c.sel))
			if res.Status != exec.StatusPassed {
				t.Fatalf("want passed, got %s %v", res.Status, res.Error)
			}
			if len(dev.tapped) != 1 || dev.tapped[0] != c.want {
				t.Fatalf("tapped %v, want one tap at %v", dev.tapped, c.want)
			}
		})
	}
}

func TestCSSAssertVisible(t *testing.T) {
	clock := newClock()
	dev := newPageDevice(clock)
	res := runOn(dev, clock, launch(3), assertVisible(4, cssSel(".secondary", 4)), assertNotVisible(5, cssSel(".missing", 5)))
	if res.Status != exec.StatusPassed {
		t.Fatalf("want passed, got %s %v", res.Status, res.Error)
	}
	res = runOn(newPageDevice(clock), clock, launch(3), assertVisible(4, cssSel(".missing", 4)))
	if res.Error == nil || res.Error.Code != canonical.CodeAssertionFailed || !strings.Contains(res.Error.Message, "CSS: .missing") {
		t.Fatalf("want ASSERTION_FAILED naming CSS: .missing, got %s %+v", res.Status, res.Error)
	}
	res = runOn(newPageDevice(clock), clock, launch(3), assertNotVisible(4, cssSel(".primary", 4)))
	if res.Error == nil || res.Error.Code != canonical.CodeAssertionFailed {
		t.Fatalf("assertNotVisible of a shown element: want ASSERTION_FAILED, got %s %+v", res.Status, res.Error)
	}
}

// The page is asked once per screen read, even when the selector and its
// anchor share the css.
func TestCSSQueriedOncePerRead(t *testing.T) {
	clock := newClock()
	dev := newPageDevice(clock)
	s := cssSel(".buy", 4)
	s.Below = cssSel(".buy", 4)
	res := runOn(dev, clock, launch(3), tapOnce(4, s))
	if res.Status != exec.StatusPassed || len(dev.tapped) != 1 || dev.tapped[0] != (canonical.Point{X: 110, Y: 325}) {
		t.Fatalf("want the lower .buy tapped, got %s %v %v", res.Status, res.Error, dev.tapped)
	}
	if len(dev.queries) != 1 {
		t.Errorf("queries %q, want one", dev.queries)
	}
}

// A selector the page refuses fails the step at once with the css's
// position, naming it.
func TestCSSInvalidSelector(t *testing.T) {
	clock := newClock()
	dev := newPageDevice(clock)
	before := clock.Now()
	res := runOn(dev, clock, launch(3), tap(4, cssSel("button[[", 4), false))
	if res.Error == nil || res.Error.Code != canonical.CodeInvalidArgs || !strings.Contains(res.Error.Message, `"button[["`) ||
		res.Error.Pos.Line != 4 || res.Error.Pos.Col != 10 {
		t.Fatalf("want INVALID_ARGS naming the selector at 4:10, got %s %+v", res.Status, res.Error)
	}
	if spent := clock.Now().Sub(before); spent > 5*time.Second {
		t.Errorf("the invalid selector was retried for %v; it cannot become valid", spent)
	}
}

// On a device without a DOM Maestro's css matches nothing: a tap or
// assertVisible fails (here at once, UNSUPPORTED_OPERATION with a hint),
// assertNotVisible and a visible condition see no element.
func TestCSSWithoutDOM(t *testing.T) {
	clock := newClock()
	before := clock.Now()
	res, _, taps := runStill(t, context.Background(), clock, launch(3), tap(4, cssSel(".buy", 4), false))
	if res.Error == nil || res.Error.Code != canonical.CodeUnsupportedOperation || res.Error.Pos.Line != 4 ||
		!strings.Contains(res.Error.Message, `".buy"`) || !strings.Contains(res.Error.Hint, "platform: Web") {
		t.Fatalf("want UNSUPPORTED_OPERATION at line 4 naming .buy with a hint, got %s %+v", res.Status, res.Error)
	}
	if len(taps) != 0 {
		t.Errorf("tapped %v", taps)
	}
	if spent := clock.Now().Sub(before); spent > 5*time.Second {
		t.Errorf("the lookup waited %v for an answer that cannot come", spent)
	}
	when := &canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: at(6)},
		When:     &canonical.Condition{Visible: cssSel(".buy", 6)},
		Commands: []canonical.Command{tap(7, text("Plain"), false)}}
	res, _, taps = runStill(t, context.Background(), newClock(), launch(3), assertNotVisible(5, cssSel(".buy", 5)), when)
	if res.Status != exec.StatusPassed {
		t.Fatalf("assertNotVisible and a when: visible: css must pass without a DOM, got %s %+v", res.Status, res.Error)
	}
	if len(taps) != 0 {
		t.Errorf("the when: visible: {css} block ran (taps %v)", taps)
	}
}

// Studio's matcher holds a hierarchy, not a page: it refuses css.
func TestMatchSelectorRefusesCSS(t *testing.T) {
	tree := &exec.Node{Text: "Buy", Bounds: &exec.Rect{W: 100, H: 50}, Enabled: true}
	_, err := exec.MatchSelector(tree, cssSel(".buy", 1))
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeUnsupportedOperation || ce.Hint == "" {
		t.Fatalf("want UNSUPPORTED_OPERATION with a hint, got %v", err)
	}
}
