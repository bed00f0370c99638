package sim_test

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// demoLinks open every screen of the demo shop but confirmation, whose
// elements are checked through home (the start screen).
var demoLinks = []string{"shop://login", "shop://catalog", "shop://item/trail-running-shoes", "shop://cart"}

// TestDemoShopUnitsFollowThePlatform: with the iOS profile the demo shop
// is an iPhone 14 in points (390x844), as flow's iOS runner reports
// XCUIElement frames; every element of the window lies inside it and the
// scroll containers' children at least partly on it. With Android's (sim,
// sim:android) it stays in its 1080x2400 pixels. The same element keeps
// the same place relative to the screen on both.
func TestDemoShopUnitsFollowThePlatform(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		platform string
		w, h     int
	}{{"", 1080, 2400}, {"android", 1080, 2400}, {"ios", 390, 844}} {
		r := newRig(t, sim.Options{Platform: c.platform})
		if vp, ok, err := r.dev.AppViewport(r.ctx, shop); err != nil || !ok || vp != (canonical.Viewport{Width: float64(c.w), Height: float64(c.h)}) {
			t.Fatalf("%q: the shop's viewport before launch is %+v (%v), want %dx%d", c.platform, vp, err, c.w, c.h)
		}
		r.launch(shop)
		vp, err := r.dev.Viewport(r.ctx)
		r.must(err)
		if vp != (canonical.Viewport{Width: float64(c.w), Height: float64(c.h)}) {
			t.Fatalf("%q: viewport %+v, want %dx%d", c.platform, vp, c.w, c.h)
		}
		for i, link := range append([]string{""}, demoLinks...) {
			if i > 0 {
				r.openLink(link)
			}
			root := r.tree()
			if *root.Bounds != (exec.Rect{W: c.w, H: c.h}) || len(root.Children) < 4 {
				t.Fatalf("%q %s: window %+v with %d elements", c.platform, link, root.Bounds, len(root.Children))
			}
			var check func(n *exec.Node, inScroll bool)
			check = func(n *exec.Node, inScroll bool) {
				b := n.Bounds
				inside := b.X >= 0 && b.Y >= 0 && b.X+b.W <= c.w && b.Y+b.H <= c.h
				onScreen := b.X < c.w && b.Y < c.h && b.X+b.W > 0 && b.Y+b.H > 0
				if b.W <= 0 || b.H <= 0 || (!inScroll && !inside) || (inScroll && !onScreen) {
					t.Errorf("%q %s: %s at %+v is not on the %dx%d screen", c.platform, link, n.ID, *b, c.w, c.h)
				}
				for _, k := range n.Children {
					check(k, inScroll || n.Scrollable != "")
				}
			}
			for _, k := range root.Children {
				check(k, false)
			}
		}
		// The submit button spans 80..1000 of 1080 px: the same share of
		// the width in points, within a point's rounding.
		r.openLink("shop://login")
		b := r.node("submit").Bounds
		if got, want := float64(b.X+b.W)/float64(c.w), 1000.0/1080; got < want-0.003 || got > want+0.003 {
			t.Errorf("%q: submit ends at %.4f of the width, want %.4f", c.platform, got, want)
		}
	}
}

// TestDemoShopRestoredOnTheOtherPlatform: a device saved with the shop
// scrolled on Android and restored as sim:ios does not carry pixel
// offsets into the points layout: the shop starts again, as after an
// update, and the catalog opens at the top.
func TestDemoShopRestoredOnTheOtherPlatform(t *testing.T) {
	t.Parallel()
	r := catalog(t, sim.Options{})
	r.gesture(fling(t, 540, 1500, 540, 1200))
	if r.lastY("product_list") == 0 {
		t.Fatal("the list did not scroll")
	}
	back := restore(t, r.save(), sim.Options{Platform: "ios"})
	if root := back.tree(); len(root.Children) != 0 {
		t.Fatalf("the shop is still in front after changing units: %d elements", len(root.Children))
	}
	back.launch(shop)
	back.openLink("shop://catalog")
	first, list := back.node("product_00"), back.node("product_list")
	if first == nil || first.Bounds.Y != list.Bounds.Y || list.Bounds.W != 390 {
		t.Fatalf("the first product is at %+v, want it at the top of the 390 pt list at %+v", first, list.Bounds)
	}
}
