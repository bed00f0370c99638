package uiautomator

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Bounds on a hierarchy document. Both writers cut their dumps well inside
// these (the helper at 128 levels and 5000 nodes, PROTOCOL.md; Appium at
// its snapshotMaxDepth setting, 70 by default); the slack here only guards
// against a document neither wrote, so a corrupt read fails with an error
// instead of exhausting the stack or memory. Elements of dropped subtrees
// count too: they cost the decoder as much as kept ones.
const (
	maxDepth = 512
	maxNodes = 200000
)

// webViewClass is the class below which Maestro keeps invisible nodes.
const webViewClass = "android.webkit.WebView"

// Options are what differ between the callers of the parser.
type Options struct {
	// Hint goes on every error: what wrote the document and what the user
	// can do when it cannot be read (reinstall the helper, restart the
	// Appium session, ...).
	Hint string
}

// Parse reads a whole UIAutomator dump: exactly one document element,
// handed to [Decode].
func Parse(data []byte, opts Options) (*exec.Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	start, err := opts.documentElement(dec)
	if err != nil {
		return nil, err
	}
	root, err := Decode(dec, start, opts)
	if err != nil {
		return nil, err
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return root, nil
		}
		if err != nil {
			return nil, opts.errorf("the hierarchy is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return nil, opts.errorf("the hierarchy has more than one document element")
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return nil, opts.errorf("the hierarchy has text outside its document element")
			}
		}
	}
}

// documentElement reads up to the first element.
func (o Options) documentElement(dec *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return xml.StartElement{}, o.errorf("the hierarchy is empty")
		}
		if err != nil {
			return xml.StartElement{}, o.errorf("the hierarchy is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.CharData:
			// encoding/xml lets text stand outside the document element.
			if len(bytes.TrimSpace(t)) > 0 {
				return xml.StartElement{}, o.errorf("the hierarchy has text outside its document element")
			}
		}
	}
}

// Decode reads the element start (the dump's <hierarchy>, already read
// from dec) and everything inside it, up to its end tag, the way Maestro's
// AndroidDriver mapHierarchy does: start is the root, with no bounds, and
// every element below it is a node, whatever its name (<node> for Maestro,
// the class name for Appium). Callers that unwrap the dump from an outer
// document (exec/appium) hand their decoder over at the dump's root.
//
// Attributes: text→Text; hintText or hint→Hint; content-desc→Label;
// resource-id→ID; class→Class; bounds "[l,t][r,b]"→Bounds (a malformed
// bounds string leaves Bounds nil, where Maestro would throw on the first
// lookup); enabled/checked/selected/focused/clickable are "true" or false
// (Maestro's DOM getAttribute gives "" for a missing one, hence false and
// a non-nil Clickable on every element); scrollable with class →
// Scrollable (see scrollAxis). The root's own attributes are ignored, as
// Maestro ignores them.
//
// displayed="false" (Appium: AccessibilityNodeInfo.isVisibleToUser)
// drops the node and its subtree, unless it is a window root or inside a
// WebView: that is the rule Maestro's ViewHierarchy.kt dumps by (it never
// writes an invisible child outside a WebView), and matching, ranking and
// scrollUntilVisible were all decided against Maestro's tree. Appium only
// writes such nodes when its allowInvisibleElements setting is on, and
// without it Appium also drops the invisible WebView content Maestro keeps,
// which cannot be recovered here.
func Decode(dec *xml.Decoder, start xml.StartElement, opts Options) (*exec.Node, error) {
	// A frame is one open element: its node, nil inside a dropped subtree,
	// and whether it is inside a WebView.
	type frame struct {
		n   *exec.Node
		web bool
	}
	root := &exec.Node{Clickable: new(bool)}
	stack := []frame{{n: root}}
	count := 1
	for len(stack) > 0 {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, opts.errorf("the hierarchy is not well-formed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, opts.errorf("the hierarchy is deeper than %d levels", maxDepth)
			}
			if count++; count > maxNodes {
				return nil, opts.errorf("the hierarchy has more than %d elements", maxNodes)
			}
			parent := stack[len(stack)-1]
			f := frame{web: parent.web}
			if parent.n != nil {
				n, shown := nodeOf(t.Attr)
				if shown || parent.web || len(stack) == 1 {
					parent.n.Children = append(parent.n.Children, n)
					f = frame{n: n, web: parent.web || n.Class == webViewClass}
				}
			}
			stack = append(stack, f)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	decideAxes(root, "")
	return root, nil
}

// errorf is the error of a document that cannot be read. Both writers
// always send a readable dump, so one that is not is the device's failure
// (its helper or driver is broken, or not what flow speaks to), exit 3:
// never a failed command, which optional: would excuse and every later
// flow would meet again.
func (o Options) errorf(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, format, args...).WithHint(o.Hint).With("reason", "UNREADABLE_HIERARCHY")
}

// nodeOf maps one element's attributes; shown is false only for an
// explicit displayed="false".
func nodeOf(attrs []xml.Attr) (n *exec.Node, shown bool) {
	n = &exec.Node{}
	var clickable, scrollable bool
	shown = true
	for _, a := range attrs {
		if a.Name.Space != "" {
			continue
		}
		switch a.Name.Local {
		case "text":
			n.Text = a.Value
		case "hintText", "hint":
			// The same AccessibilityNodeInfo.getHintText under each
			// writer's name; no dump carries both.
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
		case "displayed":
			shown = a.Value != "false"
		}
	}
	n.Clickable = &clickable
	if scrollable {
		n.Scrollable = scrollAxis(n.Class)
	}
	return n, shown
}

// parseBounds reads "[l,t][r,b]" as Maestro's UiElement does (integers,
// width r-l, height b-t); anything else is nil. Both writers clip the
// rectangle to the display before writing it (Maestro's
// getVisibleBoundsInScreen, Appium's AxNodeInfoHelper.getBounds).
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
