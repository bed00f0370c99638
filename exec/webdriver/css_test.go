package webdriver_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/webdriver"
)

var _ exec.DOMQuerier = (*webdriver.Device)(nil)

// QueryCSS answers in one round trip with the matched elements exactly as
// the hierarchy shows them (so the runtime can find them there), without
// children; it leaves out what the hierarchy leaves out; a container
// matches like any element; and a selector the page refuses is
// INVALID_ARGS naming it (Maestro's maestro-web.js queryCss runs
// document.querySelectorAll, which throws a SyntaxError on it).
func TestBrowserQueryCSS(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/css.html")
	ctx := ctxFor(t)
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var buys []*exec.Node
	var walk func(n *exec.Node)
	walk = func(n *exec.Node) {
		if n.Class == "button" && n.Text == "Buy" {
			buys = append(buys, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	if len(buys) != 2 || buys[0].ID != "" || buys[1].ID != "" {
		t.Fatalf("want two rendered Buy buttons without an id, got %+v", buys)
	}
	before := dev.RoundTrips()
	hits, err := dev.QueryCSS(ctx, "button.secondary")
	if err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 1 {
		t.Errorf("the query took %d round trips, want 1", n)
	}
	if len(hits) != 1 || *hits[0].Bounds != *buys[1].Bounds || hits[0].Text != "Buy" || hits[0].Class != "button" || len(hits[0].Children) != 0 {
		t.Fatalf("button.secondary: got %+v, want the lower Buy button %+v", hits, *buys[1])
	}
	// .buy matches three elements; the display:none one is not in the
	// hierarchy, so not a hit. Document order.
	hits, err = dev.QueryCSS(ctx, ".buy")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || *hits[0].Bounds != *buys[0].Bounds || *hits[1].Bounds != *buys[1].Bounds {
		t.Errorf(".buy: got %d hits %+v, want the two rendered buttons", len(hits), hits)
	}
	hits, err = dev.QueryCSS(ctx, "a.more")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Class != "a" || len(hits[0].Children) != 0 {
		t.Errorf("a.more: got %+v, want the link without its spans", hits)
	}
	if hits, err := dev.QueryCSS(ctx, ".nothing"); err != nil || len(hits) != 0 {
		t.Errorf(".nothing: got %v %v, want no hits", hits, err)
	}
	_, err = dev.QueryCSS(ctx, "button[[")
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeInvalidArgs || ce.Hint == "" ||
		!strings.Contains(ce.Message, `"button[["`) {
		t.Errorf("an invalid selector: got %v, want INVALID_ARGS naming it", err)
	}
}
