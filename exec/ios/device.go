package ios

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

// Host is what a Mac does for a simulator that the runner cannot do from
// inside it (xcrun simctl): wiping an app's data, privacy grants,
// location, media. A runner reached only by URL has none; those commands
// are then UNSUPPORTED_OPERATION with a hint.
type Host interface {
	ClearState(ctx context.Context, appID string) error
	SetPermissions(ctx context.Context, appID string, perms map[string]string) error
	SetLocation(ctx context.Context, lat, lon float64) error
	AddMedia(ctx context.Context, files []string) error
}

// Config attaches to a running runner.
type Config struct {
	// URL is the runner's base URL (http://127.0.0.1:PORT).
	URL string
	// Name names the device in messages (a UDID, or the URL).
	Name string
	// Host is the simulator's host side; nil when flow only has the URL.
	Host Host
	// Installed, when set, tells from outside the device whether an app
	// is installed (simctl get_app_container, the phone's installation
	// proxy). launch() of a bundle id that is not installed can block
	// for ever inside XCTest (WebDriverAgent PR #704), so flow asks
	// before it sends a launch.
	Installed func(ctx context.Context, appID string) (bool, error)
}

// Device is an iOS simulator or iPhone driven through flow's XCTest
// runner (ios-runner/PROTOCOL.md).
type Device struct {
	c         *client
	cfg       Config
	simulator bool
	apps      []string // app ids launched, most recent first: the runner reads the first running one
	// stop ends a runner flow started (nil for one attached by URL).
	stop func(context.Context) error
	// install puts an app file on the device (simctl install, go-ios);
	// nil for a runner attached by URL, which cannot install.
	install func(ctx context.Context, path string) error
}

var (
	_ exec.Device          = (*Device)(nil)
	_ exec.SettledReader   = (*Device)(nil)
	_ exec.Locator         = (*Device)(nil)
	_ exec.MediaAdder      = (*Device)(nil)
	_ exec.Closer          = (*Device)(nil)
	_ exec.KeychainClearer = (*Device)(nil)
	_ exec.Recorder        = (*Device)(nil)
	_ exec.AppInstaller    = (*Device)(nil)
)

// InstallApp installs an app file (flow test --app-file): an .app folder
// on a simulator (simctl install), an .app or .ipa on an iPhone (go-ios).
// An .ipa is built for iphoneos and a simulator cannot run it.
func (d *Device) InstallApp(ctx context.Context, path string) error {
	if d.install == nil {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s: flow reaches %s only through its runner, which cannot install apps", path, d.cfg.Name).
			With("file", path).
			WithHint("install it yourself (xcrun simctl install UDID APP), or run on the Mac with --device ios:UDID so flow can")
	}
	if d.simulator && strings.EqualFold(filepath.Ext(strings.TrimRight(path, "/")), ".ipa") {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--app-file %s is an .ipa, built for iPhones; simulator %s runs .app folders built for the simulator", path, d.cfg.Name).
			With("file", path).
			WithHint("build the app for the simulator (xcodebuild -sdk iphonesimulator) and pass its .app folder, or run on an iPhone")
	}
	return d.install(ctx, path)
}

// statusReply is the runner's status.
type statusReply struct {
	Protocol  string `json:"protocol"`
	Version   string `json:"version"`
	Simulator bool   `json:"simulator"`
}

// Attach connects to a runner that is already running and checks that it
// speaks flow-runner-v1.
func Attach(ctx context.Context, cfg Config) (*Device, error) {
	if cfg.Name == "" {
		cfg.Name = cfg.URL
	}
	d := &Device{c: newClient(cfg.URL, cfg.Name), cfg: cfg}
	var st statusReply
	if err := d.c.call(ctx, "status", nil, 10*time.Second, &st); err != nil {
		if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeDeviceUnavailable {
			ce.Message = fmt.Sprintf("no flow iOS runner answers at %s: %s", cfg.URL, ce.Message)
			ce.Hint = "start the runner on the Mac (flow ios runner build, then xcodebuild test-without-building) or check --ios-runner-url"
		}
		return nil, err
	}
	if st.Protocol != RunnerProtocol {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "the runner at %s speaks %q, not %s", cfg.URL, st.Protocol, RunnerProtocol).
			With("device", cfg.Name).WithHint("rebuild the runner from this flow's ios-runner/ (flow ios runner build)")
	}
	d.simulator = st.Simulator
	return d, nil
}

// Info names the device.
func (d *Device) Info(ctx context.Context) (exec.DeviceInfo, error) {
	return exec.DeviceInfo{Platform: "ios", Name: d.cfg.Name, ID: d.cfg.Name}, nil
}

func (d *Device) appIDs() []string {
	if d.apps == nil {
		return []string{}
	}
	return d.apps
}

type frame struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// maxPoints bounds every coordinate and size the runner reports. It is far
// beyond any screen or scroll content XCUITest snapshots (an iPad is 1366
// points long), and well inside what integer bounds and the planner's
// arithmetic take; a runner that reports more is broken.
const maxPoints = 1e7

// check refuses a frame no device has.
func (f *frame) check() error {
	for _, v := range []float64{f.X, f.Y, f.W, f.H} {
		if math.IsNaN(v) || math.Abs(v) > maxPoints {
			return fmt.Errorf("a frame {x: %g, y: %g, w: %g, h: %g} outside any screen (coordinates within ±%g points)", f.X, f.Y, f.W, f.H, float64(maxPoints))
		}
	}
	return nil
}

// checkFrames checks the frame of every element node maps.
func (e *element) checkFrames(depth int) error {
	if e == nil || depth > 512 {
		return nil
	}
	if e.Frame != nil {
		if err := e.Frame.check(); err != nil {
			return err
		}
	}
	for _, c := range e.Children {
		if err := c.checkFrames(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

// element is one node of the runner's hierarchy.
type element struct {
	Type        string     `json:"type"`
	Identifier  string     `json:"identifier"`
	Label       string     `json:"label"`
	Title       string     `json:"title"`
	Value       string     `json:"value"`
	Placeholder string     `json:"placeholder"`
	Frame       *frame     `json:"frame"`
	Enabled     bool       `json:"enabled"`
	Selected    bool       `json:"selected"`
	Checked     bool       `json:"checked"`
	HasFocus    bool       `json:"hasFocus"`
	Scrollable  string     `json:"scrollable"`
	Children    []*element `json:"children"`
}

// node maps an element as Maestro maps XCUIElement snapshots: Text is the
// title, else the value; Hint the placeholder; Label the label; ID the
// identifier.
func (e *element) node(depth int) *exec.Node {
	if e == nil || depth > 512 {
		return nil
	}
	n := &exec.Node{Text: e.Title, Hint: e.Placeholder, Label: e.Label, ID: e.Identifier, Class: e.Type,
		Enabled: e.Enabled, Selected: e.Selected, Checked: e.Checked, Focused: e.HasFocus, Scrollable: e.Scrollable}
	if n.Text == "" {
		n.Text = e.Value
	}
	if e.Frame != nil {
		// Kotlin's toInt, as Maestro's iOS driver reads a frame: truncation.
		n.Bounds = &exec.Rect{X: int(e.Frame.X), Y: int(e.Frame.Y), W: int(e.Frame.W), H: int(e.Frame.H)}
	}
	for _, c := range e.Children {
		if cn := c.node(depth + 1); cn != nil {
			n.Children = append(n.Children, cn)
		}
	}
	return n
}

const hierarchyDepth = 60

// Hierarchy reads the app in front.
func (d *Device) Hierarchy(ctx context.Context) (*exec.Node, error) {
	var r struct {
		Root *element `json:"root"`
	}
	if err := d.c.call(ctx, "hierarchy", map[string]any{"appIds": d.appIDs(), "maxDepth": hierarchyDepth}, 0, &r); err != nil {
		return nil, err
	}
	if err := r.Root.checkFrames(0); err != nil {
		return nil, d.c.badAnswer("hierarchy", err)
	}
	return r.Root.node(0), nil
}

// ReadSettled waits in the runner until the snapshot stops changing.
func (d *Device) ReadSettled(ctx context.Context, timeout time.Duration) (exec.Settled, error) {
	var r struct {
		Root    *element `json:"root"`
		Still   bool     `json:"still"`
		Version string   `json:"version"`
		Opaque  bool     `json:"opaque"`
	}
	ms := int(timeout / time.Millisecond)
	if err := d.c.call(ctx, "settle", map[string]any{"appIds": d.appIDs(), "maxDepth": hierarchyDepth, "quietMs": 200, "timeoutMs": ms},
		timeout+defaultCommandTimeout, &r); err != nil {
		return exec.Settled{}, err
	}
	if err := r.Root.checkFrames(0); err != nil {
		return exec.Settled{}, d.c.badAnswer("settle", err)
	}
	return exec.Settled{Root: r.Root.node(0), Still: r.Still, Version: r.Version, Opaque: r.Opaque}, nil
}

// Viewport is the app window, read now.
func (d *Device) Viewport(ctx context.Context) (canonical.Viewport, error) {
	var r frame
	if err := d.c.call(ctx, "viewport", map[string]any{"appIds": d.appIDs()}, 0, &r); err != nil {
		return canonical.Viewport{}, err
	}
	if err := r.check(); err != nil {
		return canonical.Viewport{}, d.c.badAnswer("viewport", err)
	}
	return canonical.Viewport{X: r.X, Y: r.Y, Width: r.W, Height: r.H}, nil
}

// Screenshot is a PNG of the screen.
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		PNG string `json:"pngBase64"`
	}
	if err := d.c.call(ctx, "screenshot", nil, 0, &r); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(r.PNG)
	if err != nil {
		return nil, d.c.broken("screenshot", err)
	}
	return png, nil
}

// Tap touches a point and lifts after 0.05 s.
func (d *Device) Tap(ctx context.Context, p canonical.Point) error {
	return d.c.call(ctx, "tap", map[string]any{"x": p.X, "y": p.Y}, 0, nil)
}

// LongPress holds a point.
func (d *Device) LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error {
	ms := int(hold / time.Millisecond)
	return d.c.call(ctx, "longPress", map[string]any{"x": p.X, "y": p.Y, "holdMs": ms}, hold+defaultCommandTimeout, nil)
}

// PerformGesture sends the plan as exec/ios's runner request. Two
// contacts on a real iPhone are refused before anything is sent (ADR
// 0013: multi-touch goes through the private bridge on simulators only).
func (d *Device) PerformGesture(ctx context.Context, plan planner.Plan) error {
	if len(plan.Pointers) > 1 && !d.simulator {
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "a %d-contact %s needs an iOS simulator; %s is an iPhone", len(plan.Pointers), plan.Intent, d.cfg.Name).
			With("device", d.cfg.Name).WithHint("run two-finger gestures on a simulator (--device ios:UDID of one), or use a one-finger gesture here")
	}
	app := ""
	if len(d.apps) > 0 {
		app = d.apps[0]
	}
	req, err := LowerRequest(plan, app)
	if err != nil {
		return err
	}
	fields := map[string]any{"gesturePlan": req.GesturePlan}
	if req.AppBundleID != "" {
		fields["appBundleId"] = req.AppBundleID
	}
	return d.c.call(ctx, CommandGesture, fields, time.Duration(plan.DurationMs)*time.Millisecond+defaultCommandTimeout, nil)
}

// InputText types any Unicode text. The runner types at Maestro's pace,
// so a long text is given the time its typing takes on top of the usual
// bound.
func (d *Device) InputText(ctx context.Context, text string) error {
	return d.c.call(ctx, "type", map[string]any{"text": text}, defaultCommandTimeout+typingTime(utf8.RuneCountInString(text)), nil)
}

// EraseText presses delete count times, in requests of at most maxErase
// deletes (the runner refuses more in one: a request holds its main thread).
func (d *Device) EraseText(ctx context.Context, count int) error {
	for {
		n := min(count, maxErase)
		if err := d.c.call(ctx, "erase", map[string]any{"count": n}, defaultCommandTimeout+typingTime(n), nil); err != nil {
			return err
		}
		if count -= n; count <= 0 {
			return nil
		}
	}
}

// PressKey presses the keys iOS has (Maestro's iOS map): enter and
// backspace on the keyboard, home and lock as buttons.
func (d *Device) PressKey(ctx context.Context, key exec.Key) error {
	switch name := strings.ToLower(strings.ReplaceAll(key.Name, " ", "")); name {
	case "enter", "backspace":
		return d.c.call(ctx, "key", map[string]any{"name": name}, 0, nil)
	case "home", "lock":
		return d.c.call(ctx, "button", map[string]any{"name": name}, 0, nil)
	}
	return canonical.Errorf(canonical.CodeUnsupportedOperation, "iOS has no %q key", key.Name).With("device", d.cfg.Name).
		WithHint("iOS presses Enter, Backspace, Home and Lock; guard other keys with `when: {platform: Android}`")
}

// Back does nothing: iOS has no back button, and Maestro's back is a
// no-op there.
func (d *Device) Back(ctx context.Context) error { return nil }

// HideKeyboard dismisses the keyboard as Maestro does on iOS.
func (d *Device) HideKeyboard(ctx context.Context) error {
	return d.c.call(ctx, "hideKeyboard", nil, 0, nil)
}

// notInstalled is launchApp's failure for an app the device does not
// have: COMMAND_FAILED, as Maestro's UnableToLaunchApp fails the step
// (its test 022) and as sim and Android answer; the device itself is fine.
func (d *Device) notInstalled(appID string) error {
	return canonical.Errorf(canonical.CodeCommandFailed, "Unable to launch app %s: it is not installed on %s", appID, d.cfg.Name).
		With("device", d.cfg.Name).With("appId", appID).
		WithHint("install it first (xcrun simctl install " + d.cfg.Name + " App.app on a simulator, Xcode or `ios install` on an iPhone), or check the appId")
}

// installed asks the host, when there is one, whether appID is there.
func (d *Device) installed(ctx context.Context, appID string) (bool, error) {
	if d.cfg.Installed == nil {
		return true, nil
	}
	return d.cfg.Installed(ctx, appID)
}

// LaunchApp follows Maestro's iOS launchApp: clear the state when asked
// (the host's simctl), permissions ({all: allow} by default; the host's
// simctl privacy, skipped without a host), then the runner launches the
// app, terminating it first unless stopApp is false.
func (d *Device) LaunchApp(ctx context.Context, o exec.LaunchOptions) error {
	if ok, err := d.installed(ctx, o.AppID); err != nil {
		return err
	} else if !ok {
		return d.notInstalled(o.AppID)
	}
	if o.ClearState {
		if err := d.ClearState(ctx, o.AppID); err != nil {
			return err
		}
	}
	// clearKeychain was done by the runtime through ClearKeychain (this
	// device is a KeychainClearer) before it asked for the launch.
	if d.cfg.Host != nil {
		perms := o.Permissions
		if perms == nil {
			perms = map[string]string{"all": "allow"}
		}
		if err := d.cfg.Host.SetPermissions(ctx, o.AppID, perms); err != nil {
			return err
		}
	} else if len(o.Permissions) > 0 && !(len(o.Permissions) == 1 && o.Permissions["all"] == "allow") {
		// Maestro's default {all: allow} grants what the app asks for;
		// without simctl there is no way to, and a flow that did not ask
		// for anything else should still run. Anything else it asked for
		// cannot be skipped silently.
		return d.noHost("permissions")
	}
	args := o.Arguments
	if args == nil {
		args = map[string]any{}
	}
	if err := d.c.call(ctx, "launch", map[string]any{"appId": o.AppID, "arguments": args, "stop": o.StopApp}, 60*time.Second, nil); err != nil {
		return err
	}
	d.front(o.AppID)
	return nil
}

func (d *Device) front(appID string) {
	out := []string{appID}
	for _, a := range d.apps {
		if a != appID {
			out = append(out, a)
		}
	}
	d.apps = out
}

// StopApp terminates the app (iOS has one way to stop an app: kill is the
// same).
func (d *Device) StopApp(ctx context.Context, appID string, kill bool) error {
	// Maestro's iOS stopApp ignores simctl terminate's failure, so
	// stopping an app the device does not have passes (as on sim); the
	// runner would answer COMMAND_FAILED.
	if ok, err := d.installed(ctx, appID); err != nil {
		return err
	} else if !ok {
		return nil
	}
	return d.c.call(ctx, "terminate", map[string]any{"appId": appID}, 0, nil)
}

// ClearState wipes the app's data through the host (simctl). Maestro's
// iOS clearState reinstalls the app from its own bundle, so an app the
// device lacks fails the step.
func (d *Device) ClearState(ctx context.Context, appID string) error {
	if d.cfg.Host == nil {
		return d.noHost("clearState")
	}
	if ok, err := d.installed(ctx, appID); err != nil {
		return err
	} else if !ok {
		return canonical.Errorf(canonical.CodeCommandFailed, "Unable to clear state for app %s: it is not installed on %s", appID, d.cfg.Name).
			With("device", d.cfg.Name).With("appId", appID).WithHint("check the appId, or install the app first")
	}
	return d.cfg.Host.ClearState(ctx, appID)
}

// ClearKeychain resets the simulator's keychain (simctl keychain reset);
// an iPhone's cannot be cleared from outside.
func (d *Device) ClearKeychain(ctx context.Context) error {
	k, ok := d.cfg.Host.(interface {
		ClearKeychain(ctx context.Context) error
	})
	if !ok {
		return d.noHost("clearKeychain")
	}
	return k.ClearKeychain(ctx)
}

// StartRecording records the simulator's screen (simctl io recordVideo).
func (d *Device) StartRecording(ctx context.Context, path string) error {
	r, ok := d.cfg.Host.(recorder)
	if !ok {
		return d.noHost("startRecording")
	}
	return r.StartRecording(ctx, path)
}

// StopRecording ends the recording and leaves the video at its path.
func (d *Device) StopRecording(ctx context.Context) error {
	r, ok := d.cfg.Host.(recorder)
	if !ok {
		return d.noHost("stopRecording")
	}
	return r.StopRecording(ctx)
}

type recorder interface {
	StartRecording(ctx context.Context, path string) error
	StopRecording(ctx context.Context) error
}

// OpenLink opens a URL on the device.
func (d *Device) OpenLink(ctx context.Context, link string, browser bool) error {
	return d.c.call(ctx, "openLink", map[string]any{"link": link}, 0, nil)
}

// SetLocation sets the simulated location through the host.
func (d *Device) SetLocation(ctx context.Context, lat, lon float64) error {
	if d.cfg.Host == nil {
		return d.noHost("setLocation")
	}
	return d.cfg.Host.SetLocation(ctx, lat, lon)
}

// AddMedia adds files to the photo library through the host.
func (d *Device) AddMedia(ctx context.Context, files []string) error {
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot read media file %s: %v", f, err).Wrap(err)
		}
	}
	if d.cfg.Host == nil {
		return d.noHost("addMedia")
	}
	return d.cfg.Host.AddMedia(ctx, files)
}

// Close stops a runner flow started (quit, then its process group); a
// runner attached by URL belongs to whoever started it and is left alone.
func (d *Device) Close(ctx context.Context) error {
	if d.stop == nil {
		return nil
	}
	_ = d.c.call(ctx, "quit", nil, 5*time.Second, nil)
	stop := d.stop
	d.stop = nil
	return stop(ctx)
}

// SetPermissions is the current Maestro's setPermissions: simctl privacy
// through the host, as launchApp's permissions; without the host (a runner
// reached by URL) it is refused, as nothing else can set them.
func (d *Device) SetPermissions(ctx context.Context, appID string, perms map[string]string) error {
	if d.cfg.Host == nil {
		return d.noHost("setPermissions")
	}
	return d.cfg.Host.SetPermissions(ctx, appID, perms)
}

func (d *Device) noHost(command string) error {
	return canonical.Errorf(canonical.CodeUnsupportedOperation, "%s needs the simulator's host (xcrun simctl on the Mac); flow reaches %s only through its runner", command, d.cfg.Name).
		With("device", d.cfg.Name).
		WithHint("run flow on the Mac with --device ios:UDID so it can use simctl, or leave " + command + " out of flows run through --ios-runner-url")
}
