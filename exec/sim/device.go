package sim

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Options configure a sim device.
type Options struct {
	// Apps are installed in order, then the demo app unless one of Apps
	// has its appId (an app given here replaces the built-in one).
	Apps []*App
	// Platform overrides every app model's planning profile: "" keeps the
	// model's, "android" or "ios" come from --device sim:android / sim:ios
	// (see PlatformFromID).
	Platform string
	// Clock is the run's clock; sim advances it by each gesture's duration
	// and by small per-action costs. Nil means a fresh virtual clock.
	Clock exec.Clock
	// Events receives the app's observations (contracts §8). Nil discards
	// them.
	Events exec.EventLog
}

// Virtual time each action costs on top of a gesture's own duration. They
// are small, fixed and documented so event-log timestamps are predictable:
// a finger down and up, one key or character, an app or link launch.
const (
	tapCostMs    = 50
	keyCostMs    = 10
	launchCostMs = 100
	stopCostMs   = 10
)

// longPressTimeoutMs is Android's ViewConfiguration long-press timeout and
// UIKit's minimumPressDuration: a shorter press is a tap.
const longPressTimeoutMs = 500

// Device is the simulated touchscreen. It implements exec.Device, Closer,
// Locator, AirplaneMode, KeychainClearer, MediaAdder and AnimationRecorder. It is
// safe for concurrent use, though the runtime uses it from one goroutine.
type Device struct {
	mu     sync.Mutex
	procs  []*process // install order
	front  *process   // nil: the home screen
	shown  *process   // the app whose viewport the screen has
	plat   string
	clock  exec.Clock
	events exec.EventLog
	closed bool
	extras extras
	// rec is the recording between StartAnimation and StopAnimation.
	rec *exec.Animation
}

// New builds a device with opts.Apps and the demo app installed and no app
// in front (the home screen).
func New(opts Options) *Device {
	d := &Device{plat: opts.Platform, clock: opts.Clock, events: opts.Events}
	if d.clock == nil {
		d.clock = exec.NewVirtualClock(time.Unix(0, 0).UTC())
	}
	if d.events == nil {
		d.events = exec.NopLog{}
	}
	for _, a := range append(append([]*App(nil), opts.Apps...), demoAppFor(opts.Platform)) {
		if a != nil && d.proc(a.AppID) == nil {
			d.procs = append(d.procs, newProcess(a))
		}
	}
	return d
}

// PlatformFromID reads a --device value for sim: "sim" keeps each app
// model's platform (""), "sim:android" and "sim:ios" override it.
func PlatformFromID(id string) (string, error) {
	switch id {
	case "sim":
		return "", nil
	case "sim:android":
		return "android", nil
	case "sim:ios":
		return "ios", nil
	}
	return "", canonical.Errorf(canonical.CodeInvalidArgs, "unknown sim device %q", id).
		WithHint("use --device sim, sim:android or sim:ios")
}

func (d *Device) proc(appID string) *process {
	for _, p := range d.procs {
		if p.model.AppID == appID {
			return p
		}
	}
	return nil
}

// screenApp is the app whose viewport and platform the screen has: the one
// in front, else the last one shown, else the first installed.
func (d *Device) screenApp() *process {
	switch {
	case d.front != nil:
		return d.front
	case d.shown != nil:
		return d.shown
	}
	return d.procs[0]
}

func (d *Device) platform() string {
	if d.plat != "" {
		return d.plat
	}
	return d.screenApp().model.Platform
}

// begin locks the device for one call and refuses calls after Close or on
// a finished context. The caller must call d.end.
func (d *Device) begin(ctx context.Context) error {
	d.mu.Lock()
	if d.closed {
		return canonical.NewError(canonical.CodeDeviceUnavailable, "the sim device is closed").
			WithHint("create a new device with sim.New")
	}
	if err := ctx.Err(); err != nil {
		return interrupted(err)
	}
	return nil
}

// end finishes a call begun with begin. While a recording runs it draws
// the screen the call left, so the recording has a frame for every change
// (Animation keeps only frames that differ), including elements that
// appeared as the clock moved during a read.
func (d *Device) end() {
	if d.rec != nil && !d.closed {
		d.rec.Add(d.render(), d.clock.Now())
	}
	d.mu.Unlock()
}

// spend advances the clock by an action's cost.
func (d *Device) spend(ctx context.Context, ms int) error {
	if err := d.clock.Sleep(ctx, time.Duration(ms)*time.Millisecond); err != nil {
		return interrupted(err)
	}
	return nil
}

func interrupted(err error) *canonical.Error {
	return canonical.Errorf(canonical.CodeCommandFailed, "device action interrupted: %v", err).Wrap(err)
}

// observe records what the app saw (contracts §8), right after the action
// that caused it; the runtime has already recorded the action itself.
// Elements without an id are recorded without "element".
func (d *Device) observe(el *Element, event string, extra map[string]any) {
	f := map[string]any{"event": event}
	if el != nil && el.ID != "" {
		f["element"] = el.ID
	}
	for k, v := range extra {
		f[k] = v
	}
	d.events.Record("observed", f)
}

// Info names the device and its current platform.
func (d *Device) Info(ctx context.Context) (exec.DeviceInfo, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return exec.DeviceInfo{}, err
	}
	id := "sim"
	if d.plat != "" {
		id += ":" + d.plat
	}
	return exec.DeviceInfo{Platform: d.platform(), Name: "flow sim (" + strings.Join(d.appIDs(), ", ") + ")", ID: id}, nil
}

func (d *Device) appIDs() []string {
	var out []string
	for _, p := range d.procs {
		out = append(out, p.model.AppID)
	}
	return out
}

// Viewport is the screen's app model viewport at (0,0).
func (d *Device) Viewport(ctx context.Context) (canonical.Viewport, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return canonical.Viewport{}, err
	}
	return d.viewport(), nil
}

var _ exec.AppViewports = (*Device)(nil)

// AppViewport is the viewport of an installed app's model, read without
// launching it (exec.AppViewports).
func (d *Device) AppViewport(ctx context.Context, appID string) (canonical.Viewport, bool, error) {
	defer d.end()
	if err := d.begin(ctx); err != nil {
		return canonical.Viewport{}, false, err
	}
	for _, p := range d.procs {
		if p.model.AppID == appID {
			s := p.model.Viewport
			return canonical.Viewport{Width: float64(s.Width), Height: float64(s.Height)}, true, nil
		}
	}
	return canonical.Viewport{}, false, nil
}

func (d *Device) viewport() canonical.Viewport {
	s := d.screenApp().model.Viewport
	return canonical.Viewport{Width: float64(s.Width), Height: float64(s.Height)}
}

// Close ends the device; no pointer is ever left down, so there is nothing
// to release. Later calls fail with DEVICE_UNAVAILABLE.
func (d *Device) Close(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}
