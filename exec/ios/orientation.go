package ios

import "github.com/flow-runner/flow/canonical"

// Orientation is UIInterfaceOrientation's raw value, as XCUIApplication
// reports it. Values the platform does not name behave as portrait.
type Orientation int

// The interface orientations the runner converts between.
const (
	OrientationUnknown Orientation = 0
	Portrait           Orientation = 1
	PortraitUpsideDown Orientation = 2
	LandscapeRight     Orientation = 3
	LandscapeLeft      Orientation = 4
)

// ToNative converts a point in the app's oriented frame to the device's
// native portrait space, where synthesized events are performed (§6.5).
// The frame's origin is subtracted and never added back: a synthesized
// record addresses its own window, whose native frame starts at (0,0).
func ToNative(p canonical.Point, frame canonical.Viewport, o Orientation) canonical.Point {
	lx, ly := p.X-frame.X, p.Y-frame.Y
	w, h := frame.Width, frame.Height
	switch o {
	case LandscapeRight:
		return canonical.Point{X: h - ly, Y: lx}
	case LandscapeLeft:
		return canonical.Point{X: ly, Y: w - lx}
	case PortraitUpsideDown:
		return canonical.Point{X: w - lx, Y: h - ly}
	}
	return canonical.Point{X: lx, Y: ly}
}

// FromNative is the inverse of [ToNative]: a native point back in the app's
// oriented frame. A fake device uses it to report where an injected event
// landed in the coordinates the plan was written in.
func FromNative(p canonical.Point, frame canonical.Viewport, o Orientation) canonical.Point {
	w, h := frame.Width, frame.Height
	var lx, ly float64
	switch o {
	case LandscapeRight:
		lx, ly = p.Y, h-p.X
	case LandscapeLeft:
		lx, ly = w-p.Y, p.X
	case PortraitUpsideDown:
		lx, ly = w-p.X, h-p.Y
	default:
		lx, ly = p.X, p.Y
	}
	return canonical.Point{X: lx + frame.X, Y: ly + frame.Y}
}
