package sim

import (
	"image"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// placed is an element laid out on the screen for one moment: what the
// hierarchy shows, taps hit, gestures scroll and the screenshot draws all
// come from the same layout, so they cannot disagree.
type placed struct {
	el *Element
	st *elemState
	// rect is the element's full bounds in screen coordinates.
	rect image.Rectangle
	// clip is the region its scroll containers let through; an element
	// outside every scroll container has an unbounded clip.
	clip image.Rectangle
	kids []*placed
}

// visible is the part of the element a finger can touch.
func (n *placed) visible() image.Rectangle { return n.rect.Intersect(n.clip) }

func (n *placed) hit(p canonical.Point) bool { return contains(n.visible(), p) }

// contains tests a fractional point against a pixel rectangle: the
// top-left edges are inside, the bottom-right ones outside.
func contains(r image.Rectangle, p canonical.Point) bool {
	return p.X >= float64(r.Min.X) && p.X < float64(r.Max.X) && p.Y >= float64(r.Min.Y) && p.Y < float64(r.Max.Y)
}

func unbounded() image.Rectangle { return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30) }

// layout places the top screen of p at time now. Hidden elements, elements
// whose appearAfterMs has not passed, and elements lying wholly outside
// their scroll container are left out with their children, as Android
// dumps only nodes visible to the user; partly visible ones keep their full
// bounds.
func layout(p *process, now time.Time) []*placed {
	e := p.top()
	if e == nil {
		return nil
	}
	return place(p, e.screen.Elements, image.Point{}, unbounded(), now.Sub(e.enteredAt))
}

func place(p *process, list []*Element, origin image.Point, clip image.Rectangle, elapsed time.Duration) []*placed {
	var out []*placed
	for _, el := range list {
		st := p.of(el)
		if !st.visible || elapsed < time.Duration(el.AppearAfterMs)*time.Millisecond {
			continue
		}
		b := el.Bounds
		r := image.Rect(b[0], b[1], b[2], b[3]).Add(origin)
		if !r.Overlaps(clip) {
			continue
		}
		n := &placed{el: el, st: st, rect: r, clip: clip}
		kidOrigin, kidClip := origin, clip
		if el.Scroll != nil {
			kidOrigin = r.Min.Sub(offsetPoint(el, st.offset))
			kidClip = clip.Intersect(r)
		}
		n.kids = place(p, el.Elements, kidOrigin, kidClip, elapsed)
		out = append(out, n)
	}
	return out
}

// offsetPoint is a scroll offset as a vector along the container's axis.
func offsetPoint(el *Element, off int) image.Point {
	if el.Scroll.Axis == AxisHorizontal {
		return image.Point{X: off}
	}
	return image.Point{Y: off}
}

// handlerAt is the deepest element under p for which has is true, trying
// the topmost sibling first and falling through to the ones below when it
// has no taker: Android's and UIKit's touch dispatch.
func handlerAt(nodes []*placed, p canonical.Point, has func(*placed) bool) *placed {
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		if !n.hit(p) {
			continue
		}
		if h := handlerAt(n.kids, p, has); h != nil {
			return h
		}
		if has(n) {
			return n
		}
	}
	return nil
}

// deepestAt is the deepest element under p along the topmost elements.
func deepestAt(nodes []*placed, p canonical.Point) *placed {
	for i := len(nodes) - 1; i >= 0; i-- {
		if n := nodes[i]; n.hit(p) {
			if k := deepestAt(n.kids, p); k != nil {
				return k
			}
			return n
		}
	}
	return nil
}

// walkPlaced visits every placed element in drawing order (parents before
// children, earlier siblings below later ones).
func walkPlaced(nodes []*placed, visit func(n *placed)) {
	for _, n := range nodes {
		visit(n)
		walkPlaced(n.kids, visit)
	}
}
