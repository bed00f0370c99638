package convert

import (
	"errors"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// A css selector (the current Maestro's, web only) converts to Maestro
// as the css key (cmd/flow's TestConvertCSSRoundTrip reads it back
// through the loader, which convert may not import); .ad has no CSS
// selector, so ToAd refuses it and names it.

func cssFlow() *canonical.Flow {
	tx := func(s string) *canonical.Template {
		v := canonical.Text(s, canonical.Pos{File: "w.yaml", Line: 4, Col: 10})
		return &v
	}
	return &canonical.Flow{File: "w.yaml", Name: "Web", AppID: canonical.Text("http://localhost:8080", canonical.Pos{}), Web: true,
		Commands: []canonical.Command{
			&canonical.Tap{Meta: canonical.Meta{Name: "tapOn", Pos: canonical.Pos{File: "w.yaml", Line: 4, Col: 3}}, Mode: canonical.TapSingle,
				Selector: &canonical.Selector{Text: tx("Buy"), CSS: tx(`button.buy[data-kind="main"]`), Below: &canonical.Selector{CSS: tx("#header")}},
				Repeat:   1, DelayMs: 100},
		}}
}

func TestCSSToMaestro(t *testing.T) {
	t.Parallel()
	out, err := ToMaestro(cssFlow(), "")
	if err != nil {
		t.Fatal(err)
	}
	// "#header" is quoted, or YAML would read a comment.
	want := "- tapOn:\n    text: Buy\n    below:\n      css: \"#header\"\n    css: button.buy[data-kind=\"main\"]\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("got\n%s\nwant it to hold\n%s", out, want)
	}
}

func TestCSSToAdRefused(t *testing.T) {
	t.Parallel()
	_, err := ToAd(cssFlow())
	var ce *ConvertError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 {
		t.Fatalf("want one problem, got %v", err)
	}
	p := ce.Problems[0]
	if p.Code != canonical.CodeUnsupportedOperation || p.Pos.Line != 4 || !strings.Contains(p.Error(), `css "button.buy[data-kind=\"main\"]": .ad selectors have no CSS selector`) {
		t.Errorf("problem %v does not name the css selector at line 4", p)
	}
}
