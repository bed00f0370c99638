package maestro_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// The css selector key: the current Maestro's YamlElementSelector has
// css: String? (Maestro PR #2537, "[Web] CSS/DOM selector"), which
// ElementSelector.evaluateScripts interpolates; 1.39.10's has no such
// field, so Jackson refuses it there.

func TestCSSSelectorLoads(t *testing.T) {
	t.Parallel()
	body := "- tapOn:\n    css: \"button.buy\"\n    text: Buy\n" +
		"- assertVisible: {css: '#total'}\n" +
		"- assertNotVisible:\n    css: .spinner\n    below: {css: header}\n" +
		"- tapOn: {css: \"${SEL}\"}\n" +
		"- runFlow:\n    when:\n      visible: {css: .cookie-banner}\n    commands:\n      - tapOn: {css: .cookie-banner button}\n"
	f, _, err := loadWith(t, "", body, nil)
	if err != nil {
		t.Fatal(err)
	}
	tap := f.Commands[0].(*canonical.Tap)
	if tap.Selector.CSS == nil || tap.Selector.CSS.Raw != "button.buy" || tap.Selector.Text == nil || tap.Selector.Text.Raw != "Buy" {
		t.Fatalf("tapOn: got %#v", tap.Selector)
	}
	// The position is the value's, so a runtime error points at the css
	// text itself.
	if p := tap.Selector.CSS.Pos; p.Line != 4 || p.Col != 10 {
		t.Errorf("css position = %d:%d, want 4:10", p.Line, p.Col)
	}
	if a := f.Commands[1].(*canonical.Assert); a.Visible == nil || a.Visible.CSS == nil || a.Visible.CSS.Raw != "#total" {
		t.Errorf("assertVisible: got %#v", f.Commands[1])
	}
	nv := f.Commands[2].(*canonical.Assert).NotVisible
	if nv == nil || nv.CSS == nil || nv.CSS.Raw != ".spinner" || nv.Below == nil || nv.Below.CSS == nil || nv.Below.CSS.Raw != "header" {
		t.Errorf("assertNotVisible with a css anchor: got %#v", nv)
	}
	if c := f.Commands[3].(*canonical.Tap).Selector.CSS; c == nil || !c.HasExpr() {
		t.Errorf("css with ${SEL}: got %#v, want a template with an expression", c)
	}
	// The canonical JSON (flow plan) names the field css.
	data, err := json.Marshal(tap.Selector)
	if err != nil || !strings.Contains(string(data), `"css":`) {
		t.Errorf("canonical JSON %s lacks css (%v)", data, err)
	}
}

func TestCSSSelectorRefusedUnder139(t *testing.T) {
	t.Parallel()
	_, _, err := loadWith(t, canonical.Maestro139, "- tapOn:\n    css: button.buy\n", nil)
	ce, _ := canonical.AsError(err)
	if ce == nil || !strings.HasPrefix(ce.Message, `unknown key "css" in tapOn`) || ce.Pos.Line != 4 || ce.Pos.Col != 5 {
		t.Fatalf("got %v, want css refused as an unknown key at 4:5", err)
	}
	if !strings.Contains(ce.Hint, "--maestro-version 1.39") {
		t.Errorf("hint %q does not say how to get css", ce.Hint)
	}
	// Nested selectors are read by the same code: refused there too.
	if _, _, err := loadWith(t, canonical.Maestro139, "- assertVisible:\n    text: Buy\n    below: {css: header}\n", nil); err == nil {
		t.Error("a css anchor loaded under 1.39")
	}
}

func TestCSSSelectorErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"- tapOn: {css: \"\"}\n", "flows/main.yaml:3:16: INVALID_ARGS: css is empty: it needs a CSS selector"},
		{"- tapOn: {css: \"  \"}\n", "flows/main.yaml:3:16: INVALID_ARGS: css is empty: it needs a CSS selector"},
		{"- tapOn: {css: [a, b]}\n", "flows/main.yaml:3:16: INVALID_ARGS: css must be text, got a list"},
	} {
		_, _, err := loadWith(t, "", c.in, nil)
		ce, _ := canonical.AsError(err)
		if ce == nil || ce.Error() != c.want {
			t.Errorf("%q:\n got  %v\n want %s", c.in, err, c.want)
		}
	}
}

// The schema flow schema prints takes css in every selector mapping; the
// 1.39 schema does not.
func TestCSSInSchemaPerVersion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    canonical.MaestroVersion
		want bool
	}{{canonical.MaestroCurrent, true}, {canonical.Maestro139, false}} {
		data, err := maestro.SchemaFor(c.v)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Definitions map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"definitions"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"selectorMapping", "tapSelectorMapping"} {
			if _, has := doc.Definitions[name].Properties["css"]; has != c.want {
				t.Errorf("version %s, %s: css present = %v, want %v", c.v, name, has, c.want)
			}
		}
	}
}

// TestCSSInAnAppFlowWarns: Maestro matches css only through its web
// driver, so a css selector in a flow whose appId names an app can never
// match; the loader says so at the css value (a warning: the file is
// still valid Maestro). A web flow, or an appId that is only known at
// run time, is not warned.
func TestCSSInAnAppFlowWarns(t *testing.T) {
	t.Parallel()
	body := "---\n- tapOn:\n    css: button.buy\n- assertVisible: {text: Total, below: {css: '#cart'}}\n"
	cases := []struct {
		head string
		want []string // warning positions
	}{
		{"appId: com.example.shop\n", []string{"4:10", "5:45"}},
		{"url: https://shop.example.com\n", nil},
		{"appId: http://localhost:8080/shop\n", nil},
		{"appId: ${APP}\n", nil},
	}
	for _, c := range cases {
		l := maestro.NewLoader(source(map[string]string{"f.yaml": c.head + body}))
		if _, err := l.Load("f.yaml"); err != nil {
			t.Fatalf("%q: %v", c.head, err)
		}
		var got []string
		for _, w := range l.Warnings() {
			if strings.Contains(w.Message, "css selectors match only in web pages") {
				got = append(got, fmt.Sprintf("%d:%d", w.Pos.Line, w.Pos.Col))
				if !strings.Contains(w.Message, `"com.example.shop"`) || w.Hint == "" {
					t.Errorf("%q: warning %v lacks the app id or a hint", c.head, w)
				}
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: css warnings at %v, want %v", c.head, got, c.want)
		}
	}
}
