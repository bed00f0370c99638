package sim_test

import (
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// TestHierarchyDemoScreens pins what a flow sees on every demo screen.
func TestHierarchyDemoScreens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		open func(r *rig)
	}{
		{"home", func(*rig) {}},
		{"login", func(r *rig) { r.openLink("shop://login") }},
		{"catalog", func(r *rig) { r.openLink("shop://catalog") }},
		{"item", func(r *rig) { r.openLink("shop://item/trail-running-shoes") }},
		{"cart", func(r *rig) { r.openLink("shop://cart") }},
		{"checkout", func(r *rig) { r.openLink("shop://cart"); r.tap("checkout_button") }},
		{"confirmation", func(r *rig) { r.openLink("shop://cart"); r.tap("checkout_button"); r.tap("place_order") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := demo(t)
			tc.open(r)
			snaps.MatchJSON(t, r.tree())
		})
	}
}

func TestHierarchyIOSOverride(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{Platform: "ios"})
	r.launch(shop)
	r.openLink("shop://login")
	root := r.tree()
	snaps.MatchJSON(t, root)
	if root.Clickable != nil || r.node("submit").Clickable != nil {
		t.Fatal("iOS hierarchies carry no clickable flag")
	}
	info, err := r.dev.Info(r.ctx)
	r.must(err)
	if info.Platform != "ios" || info.ID != "sim:ios" {
		t.Fatalf("info %+v", info)
	}
}

func TestHierarchyHomeScreenBeforeLaunch(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{})
	root := r.tree()
	if len(root.Children) != 0 || *root.Bounds != (exec.Rect{W: 1080, H: 2400}) {
		t.Fatalf("home screen %+v", root)
	}
	info, err := r.dev.Info(r.ctx)
	r.must(err)
	if info.Platform != "android" || info.ID != "sim" {
		t.Fatalf("info %+v", info)
	}
}

// TestHierarchyClipsToScrollContainer: rows wholly outside product_list are
// left out, a partly visible one keeps its full bounds.
func TestHierarchyClipsToScrollContainer(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://catalog")
	partly := r.node("product_10") // content 1800..1970 → screen 2200..2370, the list ends at 2300
	if partly == nil || *partly.Bounds != (exec.Rect{X: 0, Y: 2200, W: 1080, H: 170}) {
		t.Fatalf("product_10: %+v", partly)
	}
	if r.has("product_11") || r.has("list_end") {
		t.Fatal("rows below the list must be left out")
	}
	list := r.node("product_list")
	if list.Scrollable != "vertical" || len(list.Children) != 11 {
		t.Fatalf("product_list: scrollable %q, %d children", list.Scrollable, len(list.Children))
	}
}

// TestHierarchyFlags pins the per-element flags a selector can match on.
func TestHierarchyFlags(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://cart")
	wallet, gift, promo, title := r.node("wallet_pay"), r.node("gift_wrap"), r.node("promo_code"), r.node("cart_title")
	switch {
	case wallet.Enabled || *wallet.Clickable:
		t.Fatal("wallet_pay is disabled and has no handler")
	case !gift.Enabled || gift.Checked || !*gift.Clickable:
		t.Fatal("gift_wrap is an enabled, unchecked, clickable checkbox")
	case promo.Hint != "Promo code" || promo.Text != "" || !*promo.Clickable || promo.Class != "android.widget.EditText":
		t.Fatalf("promo_code: %+v", promo)
	case *title.Clickable || title.Class != "android.widget.TextView":
		t.Fatalf("cart_title: %+v", title)
	case r.has("promo_applied"):
		t.Fatal("promo_applied starts hidden")
	}
}
