package uiautomator

import (
	"strings"

	"github.com/flow-runner/flow/exec"
)

// pendingAxis marks a scroll container whose axis its class does not tell;
// Decode decides it from the children once they are read.
const pendingAxis = "?"

// scrollAxis is the axis a scrollable node scrolls. UIAutomator only says
// scrollable="true", so the class decides where it can: horizontal for
// HorizontalScrollView and ViewPager (both scroll sideways by
// construction; ViewPager2 dumps as a horizontal RecyclerView inside a
// ViewPager2 class), vertical for ScrollView, NestedScrollView, ListView,
// GridView and ExpandableListView. RecyclerView, Compose's
// android.view.View and every other class are undecided: their children
// decide (childAxis).
func scrollAxis(class string) string {
	short := class[strings.LastIndexByte(class, '.')+1:]
	switch {
	case strings.Contains(short, "HorizontalScrollView"), strings.Contains(short, "ViewPager"):
		return "horizontal"
	case short == "ScrollView", short == "NestedScrollView", short == "ListView",
		short == "GridView", short == "ExpandableListView":
		return "vertical"
	}
	return pendingAxis
}

// childAxis decides an undecided container by how its children are laid
// out: horizontal when there are at least two with bounds and each one
// starts right of the previous one's left edge on the same top edge (a
// carousel row); vertical otherwise, since vertical lists are by far the
// common case and Maestro's scroll is vertical.
func childAxis(n *exec.Node) string {
	var prev *exec.Rect
	seen := 0
	for _, c := range n.Children {
		if c.Bounds == nil || c.Bounds.W <= 0 || c.Bounds.H <= 0 {
			continue
		}
		if prev != nil && (c.Bounds.Y != prev.Y || c.Bounds.X <= prev.X) {
			return "vertical"
		}
		prev = c.Bounds
		seen++
	}
	if seen >= 2 {
		return "horizontal"
	}
	return "vertical"
}

// decideAxes settles every undecided container: the list inside a
// ViewPager2 pages sideways like its parent; the others follow childAxis.
// The recursion is bounded by maxDepth.
func decideAxes(n *exec.Node, parentClass string) {
	if n.Scrollable == pendingAxis {
		if strings.Contains(parentClass[strings.LastIndexByte(parentClass, '.')+1:], "ViewPager") {
			n.Scrollable = "horizontal"
		} else {
			n.Scrollable = childAxis(n)
		}
	}
	for _, c := range n.Children {
		decideAxes(c, n.Class)
	}
}
