package exec

import "math"

// flat is a hierarchy flattened in pre-order (Maestro's aggregate()), with
// parent links, so filters can run over "every node" and still walk up and
// down.
type flat struct {
	nodes    []*Node
	parent   []int
	children [][]int
}

func flatten(root *Node) *flat {
	f := &flat{}
	var walk func(n *Node, parent int) int
	walk = func(n *Node, parent int) int {
		i := len(f.nodes)
		f.nodes = append(f.nodes, n)
		f.parent = append(f.parent, parent)
		f.children = append(f.children, nil)
		for _, c := range n.Children {
			ci := walk(c, i)
			f.children[i] = append(f.children[i], ci)
		}
		return i
	}
	if root != nil {
		walk(root, -1)
	}
	return f
}

// subtree lists i and its descendants in pre-order.
func (f *flat) subtree(i int) []int {
	out := []int{i}
	for _, c := range f.children[i] {
		out = append(out, f.subtree(c)...)
	}
	return out
}

// visiblePercentage is the share of an element's area on a w×h screen
// (Maestro UiElement.getVisiblePercentage): a full-screen element counts as
// 1, an empty one as 0, and a zero-area element with one non-zero side is
// NaN, which pruning keeps (a Maestro quirk flows can observe).
func visiblePercentage(r Rect, w, h int) float64 {
	if r.X <= 0 && r.Y <= 0 && r.X+r.W >= w && r.Y+r.H >= h {
		return 1
	}
	if r.W == 0 && r.H == 0 {
		return 0
	}
	area := float64(r.W * r.H)
	vw := math.Max(0, math.Min(float64(r.X+r.W), float64(w))-math.Max(float64(r.X), 0))
	vh := math.Max(0, math.Min(float64(r.Y+r.H), float64(h))-math.Max(float64(r.Y), 0))
	return vw * vh / area
}

// androidToastClass is the class of the node Android devices synthesize
// for a toast (Maestro's ToastAccessibilityListener.kt).
const androidToastClass = "android.widget.Toast"

// prune removes elements with less than 10% of their area on screen and no
// visible children (Maestro ViewHierarchy.filterOutOfBounds). When nothing
// survives, the unpruned tree is used. An Android toast's synthetic node
// (class android.widget.Toast, with empty bounds: a toast is no window)
// is kept whole, as Maestro's AndroidDriver marks it ignoreBoundsFiltering.
func prune(root *Node, w, h int) *Node {
	var keep func(n *Node) *Node
	keep = func(n *Node) *Node {
		if n.Class == androidToastClass {
			return n
		}
		var kids []*Node
		for _, c := range n.Children {
			if k := keep(c); k != nil {
				kids = append(kids, k)
			}
		}
		visible := true
		if n.Bounds != nil {
			p := visiblePercentage(*n.Bounds, w, h)
			visible = math.IsNaN(p) || p >= 0.1
		}
		if !visible && len(kids) == 0 {
			return nil
		}
		c := *n
		c.Children = kids
		return &c
	}
	if root == nil {
		return nil
	}
	if out := keep(root); out != nil {
		return out
	}
	return root
}

// sameAttributes compares two nodes without their bounds and children,
// Maestro's test for "the same element" after the screen moved.
func sameAttributes(a, b *Node) bool {
	return a.Text == b.Text && a.Hint == b.Hint && a.Label == b.Label && a.ID == b.ID && a.Class == b.Class &&
		a.Enabled == b.Enabled && a.Checked == b.Checked && a.Selected == b.Selected && a.Focused == b.Focused
}

// equalTrees compares two hierarchies completely, bounds included: the
// settle and tap-retry checks ask "did anything change?".
func equalTrees(a, b *Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !sameAttributes(a, b) || !sameRect(a.Bounds, b.Bounds) || len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !equalTrees(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

func sameRect(a, b *Rect) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
