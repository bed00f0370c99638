package exec

import (
	"context"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// Rect is an element's bounds in grid units (Android pixels, Apple points,
// CSS pixels), as Maestro reads them.
type Rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"width"`
	H int `json:"height"`
}

// Center is Maestro's tap point: integer halves.
func (r Rect) Center() canonical.Point {
	return canonical.Point{X: float64(r.X + r.W/2), Y: float64(r.Y + r.H/2)}
}

// Contains reports whether p lies inside the rectangle (edges included on
// the top-left, excluded on the bottom-right).
func (r Rect) Contains(p canonical.Point) bool {
	return p.X >= float64(r.X) && p.X < float64(r.X+r.W) && p.Y >= float64(r.Y) && p.Y < float64(r.Y+r.H)
}

// Node is one element of a device's view hierarchy, in Maestro's terms
// (maestro-reference §2.2): Text is the visible text (Android text, iOS
// title/value, web text), Hint the placeholder, Label the accessibility
// text, ID the resource id / identifier.
type Node struct {
	Text      string  `json:"text,omitempty"`
	Hint      string  `json:"hint,omitempty"`
	Label     string  `json:"label,omitempty"`
	ID        string  `json:"id,omitempty"`
	Class     string  `json:"class,omitempty"`
	Bounds    *Rect   `json:"bounds,omitempty"`
	Enabled   bool    `json:"enabled"`
	Checked   bool    `json:"checked,omitempty"`
	Selected  bool    `json:"selected,omitempty"`
	Focused   bool    `json:"focused,omitempty"`
	Clickable *bool   `json:"clickable,omitempty"` // Android only; nil elsewhere
	Children  []*Node `json:"children,omitempty"`
	// Scrollable marks a scroll container and the axis it scrolls
	// ("vertical" or "horizontal"); scrollUntilVisible prefers them.
	Scrollable string `json:"scrollable,omitempty"`
}

// DeviceInfo describes the device a run uses.
type DeviceInfo struct {
	Platform string `json:"platform"` // android, ios, web
	Name     string `json:"name"`
	ID       string `json:"id"`
}

// LaunchOptions is everything launchApp asks of a device.
type LaunchOptions struct {
	AppID         string
	ClearState    bool
	ClearKeychain bool
	StopApp       bool
	Permissions   map[string]string
	Arguments     map[string]any
}

// Key is a key to press: Maestro's name and its Android key code.
type Key struct {
	Name        string
	AndroidCode int
}

// Device is what the runtime needs from a device. Implementations consume
// plans and never invent geometry: every gesture arrives as a planned
// trajectory through PerformGesture. Every method may touch the device, so
// every method takes a context and must return promptly when it is done.
// A Device is used from one goroutine at a time.
type Device interface {
	Info(ctx context.Context) (DeviceInfo, error)
	// Viewport is the active app's interaction viewport, read fresh for
	// every gesture.
	Viewport(ctx context.Context) (canonical.Viewport, error)
	// Hierarchy is a snapshot of the screen's elements.
	Hierarchy(ctx context.Context) (*Node, error)
	// Screenshot is a PNG of the screen.
	Screenshot(ctx context.Context) ([]byte, error)
	Tap(ctx context.Context, p canonical.Point) error
	LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error
	// PerformGesture is the one primitive for every planned gesture.
	PerformGesture(ctx context.Context, plan planner.Plan) error
	InputText(ctx context.Context, text string) error
	EraseText(ctx context.Context, count int) error
	PressKey(ctx context.Context, key Key) error
	Back(ctx context.Context) error
	HideKeyboard(ctx context.Context) error
	LaunchApp(ctx context.Context, opts LaunchOptions) error
	StopApp(ctx context.Context, appID string, kill bool) error
	ClearState(ctx context.Context, appID string) error
	OpenLink(ctx context.Context, link string, browser bool) error
}

// Optional capabilities. The runtime asks for them with a type assertion;
// a device without one gets Maestro's behaviour for a platform that cannot
// (a no-op or UNSUPPORTED_OPERATION, per command).

// SettledReader is a device that waits for its own screen to stop
// changing, in one call, where the runtime would otherwise compare reads
// PollInterval apart (Maestro's settle). The web device waits in the page.
type SettledReader interface {
	// ReadSettled waits until the screen has stopped changing, at most
	// timeout, and reads it.
	ReadSettled(ctx context.Context, timeout time.Duration) (Settled, error)
}

// Settled is a read taken once the screen was still, or when the wait
// for it timed out.
type Settled struct {
	Root *Node
	// Still is false when the screen was still changing at the timeout.
	Still bool
	// Version names the state of the screen: two reads with equal
	// versions saw no change in between, not even one the hierarchy does
	// not show (a style, a scroll offset). Empty when the device cannot
	// tell; then only a screenshot can.
	Version string
	// Opaque says the screen shows content whose changes Version does not
	// see (a canvas, a video, a frame from elsewhere).
	Opaque bool
}

// DOMQuerier is a device whose screen is a web page, which can run a CSS
// selector there: the current Maestro's css selector
// (OnDeviceElementQuery.Css, which only CdpWebDriver answers; every other
// Maestro driver returns no elements). Devices without a DOM do not
// implement it.
type DOMQuerier interface {
	// QueryCSS runs document.querySelectorAll(selector) and returns the
	// matched elements the hierarchy holds, each as Hierarchy would show
	// it but without children; matched elements Hierarchy leaves out
	// (not rendered, clipped away) are not returned. A selector the page
	// refuses is INVALID_ARGS naming it.
	QueryCSS(ctx context.Context, selector string) ([]*Node, error)
}

// AppViewports is a device that knows an app's interaction viewport
// without launching it or touching the screen (sim holds every installed
// app model). flow test plans a flow's statically known coordinate
// gestures against it before the device does anything; a device without
// it is planned against Viewport.
type AppViewports interface {
	// AppViewport is the viewport appID gets when it runs; ok is false
	// for an app the device does not know.
	AppViewport(ctx context.Context, appID string) (vp canonical.Viewport, ok bool, err error)
}

// Locator mocks the device's location.
type Locator interface {
	SetLocation(ctx context.Context, latitude, longitude float64) error
}

// MediaAdder adds files to the device's gallery.
type MediaAdder interface {
	AddMedia(ctx context.Context, files []string) error
}

// AirplaneMode switches airplane mode.
type AirplaneMode interface {
	AirplaneMode(ctx context.Context) (bool, error)
	SetAirplaneMode(ctx context.Context, on bool) error
}

// PermissionSetter sets an app's permissions outside launchApp (the
// current Maestro's setPermissions). perms are Maestro's: name (or all)
// to allow, deny or unset.
type PermissionSetter interface {
	SetPermissions(ctx context.Context, appID string, perms map[string]string) error
}

// Orienter turns the device (the current Maestro's setOrientation):
// PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN.
type Orienter interface {
	SetOrientation(ctx context.Context, orientation string) error
}

// OrientationNoter is an Orienter that can sometimes only approximate the
// turn asked for (an Appium driver without a rotation route turns to
// "landscape", on a side it picks). The runtime calls it instead of
// SetOrientation and logs a non-empty note as a warning at the command, so
// the report says the screen may not be the one the flow asked for.
type OrientationNoter interface {
	SetOrientationNoted(ctx context.Context, orientation string) (note string, err error)
}

// KeychainClearer clears the device keychain (iOS).
type KeychainClearer interface {
	ClearKeychain(ctx context.Context) error
}

// Recorder records the screen as a video the device writes to path
// itself (adb pull of screenrecord's MP4, simctl io recordVideo, Appium's
// stop_recording_screen).
type Recorder interface {
	StartRecording(ctx context.Context, path string) error
	StopRecording(ctx context.Context) error
}

// AnimationRecorder records the screen as an animated image (see
// Animation) that the runtime writes through Config.Files as
// <path>.gif, for devices with no video encoder of their own: sim and the
// browser. StopAnimation returns the encoded file.
type AnimationRecorder interface {
	StartAnimation(ctx context.Context) error
	StopAnimation(ctx context.Context) ([]byte, error)
}

// AppInstaller installs an app file (flow test --app-file) on the device
// before the first flow: an .apk through adb, an .app or .ipa through
// simctl or go-ios. A file the device cannot take is INVALID_ARGS naming
// it, so the run stops with exit 2 before anything ran.
type AppInstaller interface {
	InstallApp(ctx context.Context, path string) error
}

// Closer releases a device at the end of a run; it must leave no pointer
// down.
type Closer interface {
	Close(ctx context.Context) error
}
