package phone

import (
	"fmt"
	"strings"

	"github.com/flow-runner/flow/exec"
)

// Maestro's UIAutomator XML (maestro-android ViewHierarchy.kt), as the
// helper writes it: a <hierarchy rotation="R"> root and one <node> per
// window root, each with the attributes below in this order, plus hintText
// (helper-apk/PROTOCOL.md hierarchy). Bounds are sim's layout bounds: sim
// keeps a partly visible node's full bounds where a phone clips them to
// what is on screen, and the fake keeps sim's so that flow taps the same
// points on the fake as on --device sim:android.

type xmlResult struct {
	xml       string
	nodes     int
	truncated bool
}

type xmlWriter struct {
	b         strings.Builder
	pkg       string
	maxNodes  int
	maxDepth  int
	nodes     int
	truncated bool
}

// toastClass is the class name of Maestro's synthetic toast node
// (android.widget.Toast, ToastAccessibilityListener.kt).
const toastClass = "android.widget.Toast"

// writeXML serializes a sim hierarchy whose root is the app window, and,
// when toast is not empty, the synthetic toast node after it.
func writeXML(root *exec.Node, pkg string, maxNodes, maxDepth int, toast string) xmlResult {
	w := &xmlWriter{pkg: pkg, maxNodes: maxNodes, maxDepth: maxDepth}
	w.b.WriteString("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n")
	w.node(root, 0, 1)
	if toast != "" {
		// A toast is not a window, so no window root holds it: Maestro's
		// listener builds a node from the TYPE_NOTIFICATION_STATE_CHANGED
		// event (text, class android.widget.Toast, empty id and package,
		// visible, not clickable) and the dump adds it after the roots.
		// Nothing sets its bounds, so they are empty: [0,0][0,0] after
		// ViewHierarchy.getVisibleBoundsInScreen.
		w.pkg = ""
		w.node(&exec.Node{Text: toast, Class: toastClass, Enabled: true, Bounds: &exec.Rect{}}, 0, 1)
	}
	w.b.WriteString("</hierarchy>\n")
	return xmlResult{xml: w.b.String(), nodes: w.nodes, truncated: w.truncated}
}

func (w *xmlWriter) node(n *exec.Node, index, depth int) {
	if w.nodes >= w.maxNodes || depth > w.maxDepth {
		w.truncated = true
		return
	}
	w.nodes++
	indent := strings.Repeat("  ", depth)
	clickable := n.Clickable != nil && *n.Clickable
	editable := n.Class == "android.widget.EditText"
	var bounds string
	if r := n.Bounds; r != nil {
		bounds = fmt.Sprintf("[%d,%d][%d,%d]", r.X, r.Y, r.X+r.W, r.Y+r.H)
	}
	attrs := [][2]string{
		{"index", fmt.Sprint(index)},
		{"text", n.Text},
		{"resource-id", n.ID},
		{"class", n.Class},
		{"package", w.pkg},
		{"content-desc", n.Label},
		{"checkable", fmt.Sprint(n.Class == "android.widget.CheckBox")},
		{"checked", fmt.Sprint(n.Checked)},
		{"clickable", fmt.Sprint(clickable)},
		{"enabled", fmt.Sprint(n.Enabled)},
		{"focusable", fmt.Sprint(clickable || editable)},
		{"focused", fmt.Sprint(n.Focused)},
		{"scrollable", fmt.Sprint(n.Scrollable != "")},
		{"long-clickable", "false"},
		{"password", "false"},
		{"selected", fmt.Sprint(n.Selected)},
		{"visible-to-user", "true"},
		{"bounds", bounds},
		{"hintText", n.Hint},
	}
	w.b.WriteString(indent + "<node")
	for _, a := range attrs {
		w.b.WriteString(" " + a[0] + "=\"" + escapeAttr(a[1]) + "\"")
	}
	if len(n.Children) == 0 {
		w.b.WriteString(" />\n")
		return
	}
	w.b.WriteString(">\n")
	for i, c := range n.Children {
		w.node(c, i, depth+1)
	}
	w.b.WriteString(indent + "</node>\n")
}

// escapeAttr escapes an attribute value as Android's XmlSerializer does,
// after replacing the characters XML cannot carry with "." as Maestro's
// stripInvalidXMLChars does.
func escapeAttr(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '"':
			b.WriteString("&quot;")
		case c == '\n' || c == '\r' || c == '\t':
			fmt.Fprintf(&b, "&#%d;", c)
		case c < 0x20 || (c >= 0x7f && c <= 0x84) || (c >= 0x86 && c <= 0x9f) || (c >= 0xfdd0 && c <= 0xfddf) || c&0xfffe == 0xfffe:
			b.WriteByte('.')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
