package sim

import "github.com/flow-runner/flow/canonical"

// App is an app model (contracts §7): what sim shows and how it reacts.
// LoadApp and DemoApp build validated ones; a device indexes its apps when
// it is created and never changes them, so one App may serve many devices.
// Only apps from LoadApp (or DemoApp) keep their YAML source, which
// Device.State saves; change a loaded App's fields and the saved source no
// longer describes it.
type App struct {
	AppID string
	// Platform is the planning profile, "android" or "ios": it decides how
	// gestures are planned and how an endpoint-hold plan moves the finger.
	Platform string
	Viewport Size
	Start    string // the first screen
	Screens  []*Screen
	Links    []Link // in file order
	Pos      canonical.Pos
	startPos canonical.Pos
	// source is the YAML LoadApp read; State saves it so a later process
	// can rebuild the model without the file. Nil for a hand-built App.
	source []byte
}

// Size is a viewport size in grid units (Android pixels, Apple points).
type Size struct {
	Width  int
	Height int
}

// Link maps a deep link to the screen it opens.
type Link struct {
	URL    string
	Screen string
	Pos    canonical.Pos
}

// Screen is one screen of an app.
type Screen struct {
	Name     string
	Elements []*Element
	Pos      canonical.Pos
}

// Element is one view. Bounds are [left, top, right, bottom] in the
// coordinates of its parent: screen coordinates at the top level and inside
// plain elements, content coordinates inside a scroll container, where (0,0)
// is the container's top-left at scroll offset 0.
type Element struct {
	ID       string
	Text     string // for an editable field, the text it starts with
	Label    string // accessibility text
	Hint     string
	Bounds   Bounds
	Enabled  bool
	Checked  *bool // nil: not checkable; a checkable element toggles on tap
	Selected bool
	Focused  bool // focused when its screen opens
	Visible  bool
	Editable bool
	Zoomable bool
	// Persist keeps the element's state when the app stops, as saved
	// preferences survive a process; only clearState resets it.
	Persist  bool
	Scroll   *Scroll
	Elements []*Element
	// AppearAfterMs hides the element until this long after its screen was
	// entered, on the device's clock.
	AppearAfterMs int
	OnTap         []Action
	OnLongPress   []Action
	Pos           canonical.Pos
}

// Checkable reports whether the element has a checked state to toggle.
func (e *Element) Checkable() bool { return e.Checked != nil }

// Bounds is [left, top, right, bottom].
type Bounds [4]int

// Width is right minus left.
func (b Bounds) Width() int { return b[2] - b[0] }

// Height is bottom minus top.
func (b Bounds) Height() int { return b[3] - b[1] }

// Scroll makes an element a scroll container along one axis.
type Scroll struct {
	Axis string // "vertical" or "horizontal"
	// ContentSize is contentHeight for a vertical container and
	// contentWidth for a horizontal one; the other side of the content is
	// the container's own.
	ContentSize int
}

// The scroll axes.
const (
	AxisVertical   = "vertical"
	AxisHorizontal = "horizontal"
)

// Action is one reaction to a tap or long press; exactly one field is set.
// Element names are ids on the same screen as the element that acts.
type Action struct {
	Goto    string
	Back    bool
	SetText *SetText
	Toggle  string
	Show    string
	Hide    string
	Pos     canonical.Pos
}

// SetText replaces an element's text.
type SetText struct {
	Element string
	Text    string
}

// target is the element id an action changes, "" for navigation.
func (a Action) target() string {
	switch {
	case a.SetText != nil:
		return a.SetText.Element
	case a.Toggle != "":
		return a.Toggle
	case a.Show != "":
		return a.Show
	}
	return a.Hide
}
