package sim

import (
	"context"

	"github.com/flow-runner/flow/exec"
)

// Hierarchy is the screen as a device dumps it: the app window (viewport
// bounds) with the laid-out elements below it, or an empty home screen
// when no app is in front.
func (d *Device) Hierarchy(ctx context.Context) (*exec.Node, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return nil, err
	}
	return d.hierarchy(), nil
}

func (d *Device) hierarchy() *exec.Node {
	vp := d.screenApp().model.Viewport
	android := d.platform() == "android"
	root := &exec.Node{Bounds: &exec.Rect{W: vp.Width, H: vp.Height}, Enabled: true, Class: rootClass(android, d.front != nil)}
	if android {
		root.Clickable = boolPtr(false)
	}
	if d.front == nil {
		return root
	}
	focused := d.front.top().focused
	for _, n := range layout(d.front, d.clock.Now()) {
		root.Children = append(root.Children, toNode(n, focused, android))
	}
	return root
}

func toNode(n *placed, focused *Element, android bool) *exec.Node {
	el, r := n.el, n.rect
	node := &exec.Node{
		Text: n.st.text, Hint: el.Hint, Label: el.Label, ID: el.ID, Class: className(el, android),
		Bounds:  &exec.Rect{X: r.Min.X, Y: r.Min.Y, W: r.Dx(), H: r.Dy()},
		Enabled: el.Enabled, Checked: n.st.checked, Selected: el.Selected, Focused: el == focused,
	}
	if el.Scroll != nil {
		node.Scrollable = el.Scroll.Axis
	}
	if android {
		node.Clickable = boolPtr(len(el.OnTap) > 0 || el.Editable || el.Checkable())
	}
	for _, k := range n.kids {
		node.Children = append(node.Children, toNode(k, focused, android))
	}
	return node
}

func boolPtr(b bool) *bool { return &b }

func rootClass(android, app bool) string {
	switch {
	case !app && android:
		return "com.android.launcher3.Launcher"
	case !app:
		return "SpringBoard"
	case android:
		return "android.widget.FrameLayout"
	}
	return "Window"
}

// className names the widget an element stands for, in the platform's
// vocabulary, so hierarchy dumps read like a real device's.
func className(el *Element, android bool) string {
	kind := "text"
	switch {
	case el.Editable:
		kind = "field"
	case el.Scroll != nil && el.Scroll.Axis == AxisHorizontal:
		kind = "hscroll"
	case el.Scroll != nil:
		kind = "scroll"
	case el.Checkable():
		kind = "check"
	case el.Zoomable:
		kind = "image"
	case len(el.OnTap) > 0 || len(el.OnLongPress) > 0:
		kind = "button"
	case el.Text == "" && len(el.Elements) > 0:
		kind = "group"
	}
	if android {
		return map[string]string{
			"field": "android.widget.EditText", "hscroll": "android.widget.HorizontalScrollView",
			"scroll": "android.widget.ScrollView", "check": "android.widget.CheckBox", "image": "android.widget.ImageView",
			"button": "android.widget.Button", "group": "android.view.ViewGroup", "text": "android.widget.TextView",
		}[kind]
	}
	return map[string]string{
		"field": "TextField", "hscroll": "ScrollView", "scroll": "ScrollView", "check": "Switch", "image": "Image",
		"button": "Button", "group": "Other", "text": "StaticText",
	}[kind]
}
