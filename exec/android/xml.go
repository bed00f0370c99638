package android

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Bounds on a hierarchy document. The helper cuts its dump at 128 levels
// and 5000 nodes (PROTOCOL.md); the slack here only guards against a
// document that is not the helper's, so a corrupt read fails with an error
// instead of exhausting the stack or memory.
const (
	maxXMLDepth = 512
	maxXMLNodes = 200000
)

// ParseHierarchy reads Maestro's UIAutomator XML (ViewHierarchy.kt, the
// helper's `xml`) into an exec.Node tree the way Maestro's AndroidDriver
// mapHierarchy does: the document element (<hierarchy>) is the root, with
// no bounds, and every element below it is a node, whatever its name.
//
// Attributes: text→Text, hintText→Hint, content-desc→Label,
// resource-id→ID, class→Class, bounds "[l,t][r,b]"→Bounds (a malformed
// bounds string leaves Bounds nil, where Maestro would throw on the first
// lookup), enabled/checked/selected/focused/clickable are "true" or false
// (Maestro's DOM getAttribute gives "" for a missing one, hence false and a
// non-nil Clickable on every element), scrollable with class → Scrollable
// (see scrollAxis).
func ParseHierarchy(data []byte) (*exec.Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var (
		root  *exec.Node
		stack []*exec.Node
		count int
	)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlErr(fmt.Sprintf("the hierarchy is not well-formed XML: %v", err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, xmlErr("the hierarchy has more than one document element")
			}
			if len(stack) >= maxXMLDepth {
				return nil, xmlErr(fmt.Sprintf("the hierarchy is deeper than %d levels", maxXMLDepth))
			}
			if count++; count > maxXMLNodes {
				return nil, xmlErr(fmt.Sprintf("the hierarchy has more than %d elements", maxXMLNodes))
			}
			var n *exec.Node
			if root == nil {
				n = &exec.Node{Clickable: new(bool)}
				root = n
			} else {
				n = nodeOf(t.Attr)
				parent := stack[len(stack)-1]
				parent.Children = append(parent.Children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if root == nil {
		return nil, xmlErr("the hierarchy is empty")
	}
	decideAxes(root, "")
	return root, nil
}

func xmlErr(msg string) *canonical.Error {
	return canonical.NewError(canonical.CodeCommandFailed, msg).
		WithHint("the helper sent a hierarchy flow cannot read; reinstall it (`adb uninstall dev.flow.helper`) and run again")
}

func nodeOf(attrs []xml.Attr) *exec.Node {
	n := &exec.Node{}
	var clickable, scrollable bool
	for _, a := range attrs {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "text":
			n.Text = a.Value
		case "hintText":
			n.Hint = a.Value
		case "content-desc":
			n.Label = a.Value
		case "resource-id":
			n.ID = a.Value
		case "class":
			n.Class = a.Value
		case "bounds":
			n.Bounds = parseBounds(a.Value)
		case "enabled":
			n.Enabled = a.Value == "true"
		case "checked":
			n.Checked = a.Value == "true"
		case "selected":
			n.Selected = a.Value == "true"
		case "focused":
			n.Focused = a.Value == "true"
		case "clickable":
			clickable = a.Value == "true"
		case "scrollable":
			scrollable = a.Value == "true"
		}
	}
	n.Clickable = &clickable
	if scrollable {
		n.Scrollable = scrollAxis(n.Class)
	}
	return n
}

// parseBounds reads "[l,t][r,b]" as Maestro's UiElement does (integers,
// width r-l, height b-t); anything else is nil.
func parseBounds(s string) *exec.Rect {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil
	}
	parts := strings.Split(strings.ReplaceAll(s[1:len(s)-1], "][", ","), ",")
	if len(parts) != 4 {
		return nil
	}
	var v [4]int
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil
		}
		v[i] = int(n)
	}
	return &exec.Rect{X: v[0], Y: v[1], W: v[2] - v[0], H: v[3] - v[1]}
}

// pendingAxis marks a scroll container whose axis its class does not tell;
// ParseHierarchy decides it from the children once they are read.
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
// The recursion is bounded by maxXMLDepth.
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
