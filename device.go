package flow

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/appium"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/maestro"
)

// OpenDevice connects to the device --device names, restoring sim
// from the saved state when state holds one (a nil state starts fresh).
func OpenDevice(ctx context.Context, o Target, state *SimState, clock exec.Clock, events exec.EventLog) (exec.Device, error) {
	switch {
	case o.Device == "web" || o.Device == "appium":
		return openWeb(ctx, o)
	case IsIOSDevice(o.Device):
		return openIOS(ctx, o)
	case IsAndroidDevice(o.Device):
		devs, err := openAndroid(ctx, o, []exec.Clock{clock}, []exec.EventLog{events})
		if err != nil {
			return nil, err
		}
		return devs[0], nil
	case IsSimDevice(o.Device):
		platform, err := sim.PlatformFromID(o.Device)
		if err != nil {
			return nil, err
		}
		var apps []*sim.App
		// --app-file's app models install as --app's do (CheckAppFiles
		// let nothing else through on sim).
		for _, file := range append(append([]string(nil), o.Apps...), o.AppFiles...) {
			data, err := fsext.ReadFile(file, MaxAppModelBytes)
			if err != nil {
				if ce, ok := canonical.AsError(err); ok {
					ce.Message = "--app: " + ce.Message
					ce.Hint = "--app takes a sim app model file (contracts §7)"
				}
				return nil, err
			}
			app, err := sim.LoadApp(file, data)
			if err != nil {
				return nil, err
			}
			apps = append(apps, app)
		}
		opts := sim.Options{Apps: apps, Platform: platform, Clock: clock, Events: events}
		data, err := state.readSim()
		if err != nil {
			return nil, err
		}
		if data != nil {
			return state.restoreSim(data, opts)
		}
		return sim.New(opts), nil
	}
	return nil, unknownDevice(o.Device)
}

// unknownDevice is the error for a --device flow cannot open: a device
// kind contracts §6 names (ios, with or without an id) is not available
// here (DEVICE_UNAVAILABLE, exit 3); any other name is a typo
// (INVALID_ARGS, exit 2).
func unknownDevice(name string) *canonical.Error {
	hint := "use --device android[:SERIAL], ios[:UDID], sim (sim:android, sim:ios), web (--webdriver-url for a remote endpoint) or appium (with --webdriver-url and --capabilities); flow devices lists them"
	kind, _, _ := strings.Cut(name, ":")
	switch kind {
	case "ios":
		return canonical.Errorf(canonical.CodeDeviceUnavailable, "device %q is not available", name).WithHint(hint)
	}
	e := canonical.Errorf(canonical.CodeInvalidArgs, "unknown device %q", name)
	if near := canonical.Suggest(kind, []string{"sim", "web", "android", "ios", "appium"}); near != "" {
		return e.WithHint("did you mean --device " + near + "? " + hint)
	}
	return e.WithHint(hint)
}

// IsSimDevice reports whether a --device name is sim (sim:android, sim:ios).
func IsSimDevice(device string) bool {
	return device == "sim" || strings.HasPrefix(device, "sim:")
}

// openWeb starts a local headless Chromium, or connects to the remote
// endpoint, for one shard. A remote session is native (an Appium phone)
// when the device is appium or the capabilities say so; when they say
// neither native nor browser, Appium's page source decides.
func openWeb(ctx context.Context, o Target) (exec.Device, error) {
	if o.Device == "appium" && o.WebDriverURL == "" {
		return nil, canonical.NewError(canonical.CodeInvalidArgs, "--device appium needs the Appium server's URL").
			WithHint("give --webdriver-url URL or set FLOW_WEBDRIVER_URL, e.g. http://127.0.0.1:4723")
	}
	cfg := webdriver.Config{URL: o.WebDriverURL}
	if o.Capabilities != "" {
		data, err := fsext.ReadFile(o.Capabilities, maestro.MaxFileSize)
		if err != nil {
			if ce, ok := canonical.AsError(err); ok {
				ce.Message = "--capabilities: " + ce.Message
				ce.Hint = "--capabilities takes a JSON file with the session's capabilities object"
			}
			return nil, err
		}
		caps, err := webdriver.ParseCapabilities(o.Capabilities, data)
		if err != nil {
			return nil, err
		}
		cfg.Capabilities = caps
	}
	if o.WebDriverURL != "" {
		caps, err := appiumFiles(cfg.Capabilities, o.AppFiles)
		if err != nil {
			return nil, err
		}
		cfg.Capabilities = caps
		native, known := appium.Native(cfg.Capabilities)
		if o.Device == "appium" || native || (!known && len(cfg.Capabilities) > 0) {
			d, err := appium.Open(ctx, appium.Config{URL: cfg.URL, Capabilities: cfg.Capabilities})
			if err != nil {
				return nil, err
			}
			return d, nil
		}
	}
	d, err := webdriver.Open(ctx, cfg)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return d, nil
}

// OpenDevices opens the devices of every shard at once where opening
// is slow: a browser session takes about a second to start, an Android
// device its helper's install check and session start. Sim devices are
// cheap and opened by the caller (nil entries).
func OpenDevices(ctx context.Context, o Target, clocks []exec.Clock, logs []exec.EventLog) ([]exec.Device, error) {
	n := len(clocks)
	// Android and iOS pick listed devices among those they find, with
	// their own messages; other kinds open each entry as it is.
	if len(o.Devices) > 0 && !IsAndroidDevice(o.Device) && !IsIOSDevice(o.Device) {
		return openList(ctx, o, clocks, logs)
	}
	if IsAndroidDevice(o.Device) {
		return openAndroid(ctx, o, clocks, logs)
	}
	if IsIOSDevice(o.Device) {
		return openIOSShards(ctx, o, n)
	}
	devs := make([]exec.Device, n)
	if o.Device != "web" && o.Device != "appium" {
		return devs, nil
	}
	return openAll(ctx, n, func(int) (exec.Device, error) { return openWeb(ctx, o) })
}

// openList opens the devices --device a,b,c names, in order, one per
// shard or worker: each entry as --device ENTRY alone would open it.
func openList(ctx context.Context, o Target, clocks []exec.Clock, logs []exec.EventLog) ([]exec.Device, error) {
	if len(o.Devices) < len(clocks) {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device lists %d devices; %s %d needs %d", len(o.Devices), o.shardFlag(), len(clocks), len(clocks)).
			WithHint(fmt.Sprintf("list %d devices, comma-separated, or lower %s to %d", len(clocks), o.shardFlag(), len(o.Devices)))
	}
	return openAll(ctx, len(clocks), func(i int) (exec.Device, error) {
		one := o
		one.Device, one.Devices = o.Devices[i], nil
		return OpenDevice(ctx, one, nil, clocks[i], logs[i])
	})
}

// openAll opens n devices at once (a device takes seconds to start); when
// one fails, those opened are closed and its error is returned.
func openAll(ctx context.Context, n int, open func(i int) (exec.Device, error)) ([]exec.Device, error) {
	devs := make([]exec.Device, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := open(i)
			if err != nil {
				errs[i] = err
				return // never a typed nil in the interface
			}
			devs[i] = d
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			CloseDevices(ctx, devs)
			return nil, err
		}
	}
	return devs, nil
}

// CloseDevices releases the devices a failed open left behind.
func CloseDevices(ctx context.Context, devs []exec.Device) {
	for _, d := range devs {
		if c, ok := d.(exec.Closer); ok {
			_ = c.Close(context.WithoutCancel(ctx))
		}
	}
}

// ClockFor is the run's clock: virtual on sim, the wall clock elsewhere.
func ClockFor(device string) exec.Clock {
	if IsSimDevice(device) {
		return exec.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	}
	return exec.WallClock{}
}

// DefaultStateDir is where sim keeps its device state between invocations:
// FLOW_STATE_DIR, else .flow in the working folder, so every checkout (and
// every CI job) has its own device.
func DefaultStateDir(getenv func(string) string) string {
	if d := getenv("FLOW_STATE_DIR"); d != "" {
		return d
	}
	return ".flow"
}
