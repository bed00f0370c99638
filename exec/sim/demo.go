package sim

import (
	_ "embed"
	"math"
)

// shopYAML is the demo shop app that flows/ and the README demo run against.
//
//go:embed apps/shop.yaml
var shopYAML []byte

// DemoAppFile is the name the demo app's errors and positions carry.
const DemoAppFile = "exec/sim/apps/shop.yaml"

// DemoApp is the built-in shop app (com.example.shop), always installed on
// a sim device. It is parsed on every call, so callers may keep or change
// their copy. It is laid out in Android pixels (1080x2400); a device with
// the iOS profile installs it in an iPhone's points instead
// (demoAppFor).
func DemoApp() *App {
	app, err := LoadApp(DemoAppFile, shopYAML)
	if err != nil {
		// The file is embedded and pinned by tests; failing here means the
		// binary was built from a broken tree.
		panic("sim: built-in demo app does not load: " + err.Error())
	}
	return app
}

// An iPhone 14's (and 15's) screen in points, the unit XCUIElement frames,
// and so flow's iOS runner, report.
const (
	iPhoneWidth  = 390
	iPhoneHeight = 844
)

// demoAppFor is the demo app as a device of platform shows it: on "ios"
// in points on an iPhone (390x844), as an iPhone build of the
// shop would be laid out and as flow's iOS runner answers; otherwise
// ("android", or "" for the model's own profile) in its 1080x2400 pixels.
//
// The iOS layout is the pixel one scaled by one factor, 390/1080, on both
// axes, so it keeps the proportions the model was drawn with and every
// element, scroll content and scroll axis stays where it was relative to
// the others; the screen's last 13 points stay empty (the model's lowest
// element ends at 2300 px, 831 pt). Deriving it keeps one source of truth:
// a second hand-written model would have to be kept in step, and scaling
// at layout time would touch every reader of bounds (hit testing, scroll
// offsets, zoom, saved state). The source stays the embedded file, so a
// saved device names the demo app as before.
func demoAppFor(platform string) *App {
	app := DemoApp()
	if platform == "ios" {
		inPoints(app)
	}
	return app
}

// inPoints rescales the demo app in place from its pixel grid to an
// iPhone's points. Rounding each edge on its own is monotonic, so
// elements that did not overlap still do not, and children stay inside
// their scroll content.
func inPoints(app *App) {
	num, den := iPhoneWidth, app.Viewport.Width
	scale := func(v int) int { return int(math.Round(float64(v) * float64(num) / float64(den))) }
	var walk func(list []*Element)
	walk = func(list []*Element) {
		for _, e := range list {
			for i, v := range e.Bounds {
				e.Bounds[i] = scale(v)
			}
			if e.Scroll != nil {
				e.Scroll.ContentSize = scale(e.Scroll.ContentSize)
			}
			walk(e.Elements)
		}
	}
	for _, s := range app.Screens {
		walk(s.Elements)
	}
	app.Platform, app.Viewport = "ios", Size{Width: iPhoneWidth, Height: iPhoneHeight}
	if err := validate(app); err != nil {
		panic("sim: the demo app in points is not valid: " + err.Error())
	}
}

// DemoAppYAML is the demo app's source, for users who want to copy it as
// a starting point for their own model.
func DemoAppYAML() []byte { return append([]byte(nil), shopYAML...) }
