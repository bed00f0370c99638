package flow

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	helperapk "github.com/flow-runner/flow/helper-apk"
)

// adbDevice is one device the adb server lists (host:devices-l), reduced to
// what choosing a device needs.
type adbDevice struct {
	Serial string
	State  string // adb's own word: device, offline, unauthorized, …
	Model  string
}

// adbOnline is the state adb gives a device it can talk to.
const adbOnline = "device"

// IsAndroidDevice reports whether a --device name is android[:SERIAL].
func IsAndroidDevice(device string) bool {
	return device == "android" || strings.HasPrefix(device, "android:")
}

// androidRequest is what --device android[:SERIAL] asks of the devices adb
// lists: n devices (one per shard), or the one named.
type androidRequest struct {
	device string // android or android:SERIAL
	n      int    // devices the run needs: one per shard
	// shardFlag names the flag that asked for n > 1, for messages.
	shardFlag string
	// asked is the shard count the flag gave: more than n when there are
	// fewer flows than that (n is then the number of flows).
	asked int
}

// pickAndroid chooses the serials a run uses from the devices adb lists.
// It is the whole policy of --device android, kept pure so a table test
// pins every answer: the one online device, the one named, or, for n
// shards, the first n online devices in adb's order. Naming no device
// while several are online is invalid input (exit 2): flow will not guess
// which phone a suite runs on. Everything else that leaves the run without
// its devices is DEVICE_UNAVAILABLE (exit 3) with a hint for the state adb
// reports.
func pickAndroid(req androidRequest, seen []adbDevice) ([]string, error) {
	serial, named := strings.CutPrefix(req.device, "android:")
	n := max(req.n, 1)
	if named {
		if serial == "" {
			return nil, canonical.NewError(canonical.CodeInvalidArgs, "--device android: needs a serial after the colon").
				WithHint("write --device android:SERIAL with a serial from flow devices, or --device android for the one online device")
		}
		if n > 1 {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device %s is one device; %s %d needs %d", req.device, req.shardFlag, n, n).
				WithHint(fmt.Sprintf("use --device android %s %d to run on %d online devices", req.shardFlag, n, n))
		}
		for _, d := range seen {
			if d.Serial != serial {
				continue
			}
			if d.State != adbOnline {
				return nil, stateError(d)
			}
			return []string{serial}, nil
		}
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "Android device %q is not connected; %s", serial, listed(seen)).
			With("serial", serial).
			WithHint("check the serial with flow devices or adb devices; a device over the network needs adb connect HOST:PORT first")
	}
	if req.device != "android" {
		return nil, unknownDevice(req.device)
	}
	var online []adbDevice
	for _, d := range seen {
		if d.State == adbOnline {
			online = append(online, d)
		}
	}
	switch {
	case len(seen) == 0:
		return nil, canonical.NewError(canonical.CodeDeviceUnavailable, "no Android device: adb lists none").
			WithHint("start an emulator (emulator -avd NAME) or connect a phone with USB debugging on, then check that adb devices lists it")
	case len(online) == 0 && len(seen) == 1:
		return nil, stateError(seen[0])
	case len(online) == 0:
		e := stateError(seen[0])
		e.Message = "no Android device is online; " + listed(seen)
		return nil, e
	case n == 1 && len(online) > 1:
		var picks []string
		for _, d := range online {
			picks = append(picks, "--device android:"+d.Serial)
		}
		if req.asked > 1 {
			// --shard-split was given, but one flow runs on one device:
			// which one is still the user's choice.
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device android matches %d online Android devices: %s; %s %d has only 1 flow to run, which runs on one of them",
				len(online), names(online), req.shardFlag, req.asked).
				WithHint("name the device for it: " + strings.Join(picks, " or ") + " (flow devices lists them); a shard needs a flow of its own, so give at least as many flows as devices to run on all of them")
		}
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device android matches %d online Android devices: %s", len(online), names(online)).
			WithHint("name one: " + strings.Join(picks, " or ") + " (flow devices lists them), or run on all of them with --shard-split")
	case len(online) < n && req.asked > n:
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "%s %d has %d flows, one per device: it needs %d online Android devices; %s", req.shardFlag, req.asked, n, n, listed(seen)).
			WithHint(fmt.Sprintf("start or connect %d more (flow devices lists what adb sees), or lower %s to %d", n-len(online), req.shardFlag, len(online)))
	case len(online) < n:
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "%s %d needs %d online Android devices; %s", req.shardFlag, n, n, listed(seen)).
			WithHint(fmt.Sprintf("start or connect %d more (flow devices lists what adb sees), or lower %s to %d", n-len(online), req.shardFlag, len(online)))
	}
	out := make([]string, n)
	for i := range out {
		out[i] = online[i].Serial
	}
	return out, nil
}

// pickAndroidList picks the devices of a run whose --device listed them
// (android:A,android:B): the first n, each of which must be online;
// without a list, pickAndroid.
func pickAndroidList(req androidRequest, list []string, seen []adbDevice) ([]string, error) {
	if len(list) == 0 || max(req.n, 1) == 1 {
		return pickAndroid(req, seen)
	}
	if len(list) < req.n {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device lists %d devices; %s %d needs %d", len(list), req.shardFlag, req.n, req.n).
			WithHint(fmt.Sprintf("list %d devices, or lower %s to %d", req.n, req.shardFlag, len(list)))
	}
	out := make([]string, req.n)
	for i := range out {
		one, err := pickAndroid(androidRequest{device: list[i], n: 1, shardFlag: req.shardFlag}, seen)
		if err != nil {
			return nil, err
		}
		out[i] = one[0]
	}
	return out, nil
}

// stateError is the error for a device adb lists but cannot use, with
// what to do about its state.
func stateError(d adbDevice) *canonical.Error {
	is := "is " + d.State
	if d.State == "no permissions" {
		is = "cannot be opened by adb (no permissions)"
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "Android device %q %s", d.Serial, is).
		With("serial", d.Serial).With("state", d.State).WithHint(stateHint(d.State))
}

// stateHint says how to bring a device in the given adb state online.
func stateHint(state string) string {
	switch state {
	case "unauthorized":
		return "unlock the phone and accept its \"Allow USB debugging?\" prompt (tick \"Always allow\"), then check adb devices"
	case "offline":
		return "an emulator still booting comes online by itself; otherwise reconnect the cable or run adb reconnect offline, then check adb devices"
	case "no permissions":
		return "adb may not open this USB device: add a udev rule for its vendor (see adb devices -l), then adb kill-server and replug"
	case "authorizing", "connecting":
		return "the device is still connecting: wait for it (adb wait-for-device) and run again"
	case "bootloader", "recovery", "sideload", "rescue":
		return "the device is in " + state + " mode: boot it into Android, then check adb devices"
	}
	return "flow needs a device adb lists as device; check adb devices -l"
}

// listed describes what adb sees, for messages.
func listed(seen []adbDevice) string {
	if len(seen) == 0 {
		return "adb lists no devices"
	}
	var parts []string
	for _, d := range seen {
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Serial, d.State))
	}
	return "adb lists " + strings.Join(parts, ", ")
}

func names(ds []adbDevice) string {
	var parts []string
	for _, d := range ds {
		if d.Model != "" {
			parts = append(parts, fmt.Sprintf("%s (%s)", d.Serial, d.Model))
			continue
		}
		parts = append(parts, d.Serial)
	}
	return strings.Join(parts, ", ")
}

// androidHost is the adb server as flow uses it: the devices it lists, and
// opening one of them (helper install, session start).
type androidHost interface {
	// Addr is the server's address, for messages.
	Addr() string
	Devices(ctx context.Context) ([]adbDevice, error)
	// APILevel is the device's ro.build.version.sdk.
	APILevel(ctx context.Context, serial string) (string, error)
	Open(ctx context.Context, o androidOpen) (exec.Device, error)
}

// androidOpen is what opening one Android device takes.
type androidOpen struct {
	Serial string
	Helper helperapk.Helper // the helper APK to install
	// Command is the run's command line, for the device lock.
	Command string
	// ReadyTimeout bounds the helper's start (0: exec/android's 15 s).
	ReadyTimeout time.Duration
	Clock        exec.Clock
	Events       exec.EventLog
	// Warn prints what the user should know about a device's results
	// (android.Config.Warn: an all-black screenshot).
	Warn func(msg string)
}

// androidWarn prints device warnings on w, one "warning: " line each;
// the devices of every shard share it, so lines never interleave.
func androidWarn(w io.Writer) func(string) {
	if w == nil {
		return nil
	}
	var mu sync.Mutex
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "warning: %s\n", msg)
	}
}

// connectAndroid reaches the adb server, starting it when it is not
// running and adb is on PATH (Maestro does the same).
func connectAndroid(ctx context.Context, env Env) (androidHost, error) {
	if env.ADB != nil {
		return env.ADB(ctx, env)
	}
	return dialADB(ctx, env)
}

// openAndroid chooses the run's devices (one per shard) and opens them at
// once: each installs and starts the helper, which takes seconds.
func openAndroid(ctx context.Context, o Target, clocks []exec.Clock, logs []exec.EventLog) ([]exec.Device, error) {
	host, err := connectAndroid(ctx, o.Env)
	if err != nil {
		return nil, err
	}
	seen, err := host.Devices(ctx)
	if err != nil {
		return nil, err
	}
	serials, err := pickAndroidList(androidRequest{device: o.Device, n: len(clocks), shardFlag: o.shardFlag(), asked: o.Shards}, o.Devices, seen)
	if err != nil {
		return nil, canonical.Coded(err).With("adb", host.Addr())
	}
	ready, err := driverStartupTimeout(o.Env)
	if err != nil {
		return nil, err
	}
	// The helper given (--android-helper, FLOW_ANDROID_HELPER), else the
	// one this binary embeds: a run needs neither an SDK nor a JDK.
	helper, err := helperapk.Locate(helperapk.Source{APK: o.AndroidHelper, Getenv: o.Env.Getenv})
	if err != nil {
		return nil, err
	}
	warn := androidWarn(o.Env.Stderr)
	return openAll(ctx, len(serials), func(i int) (exec.Device, error) {
		d, err := host.Open(ctx, androidOpen{Serial: serials[i], Helper: helper, Command: strings.Join(o.Env.Args, " "),
			ReadyTimeout: ready, Clock: clocks[i], Events: logs[i], Warn: warn})
		if err != nil {
			return nil, namingSerial(err, serials[i])
		}
		return d, nil
	})
}

// startupTimeoutVar is Maestro's variable for its driver's start-up wait,
// in milliseconds (Maestro's AndroidDriver reads it as a Long of ms; users
// set it to 120000 or 180000 on slow CI emulators). flow reads it for the
// helper's ready wait so the same CI settings work.
const startupTimeoutVar = "MAESTRO_DRIVER_STARTUP_TIMEOUT"

// driverStartupTimeout is MAESTRO_DRIVER_STARTUP_TIMEOUT as a duration, 0
// when unset. A value that is not a positive whole number of milliseconds
// is refused rather than ignored: a CI that set it meant it.
func driverStartupTimeout(env Env) (time.Duration, error) {
	v := strings.TrimSpace(env.Var(startupTimeoutVar))
	if v == "" {
		return 0, nil
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms <= 0 || ms > int64(24*time.Hour/time.Millisecond) {
		return 0, canonical.Errorf(canonical.CodeInvalidArgs, "%s=%q is not a number of milliseconds between 1 and 86400000", startupTimeoutVar, v).
			With("variable", startupTimeoutVar).
			WithHint("set it in milliseconds, as for Maestro (e.g. " + startupTimeoutVar + "=120000 for two minutes), or unset it for the default 15 s")
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// namingSerial makes sure a device error says which device it is about.
func namingSerial(err error, serial string) error {
	ce := canonical.Coded(err)
	if !strings.Contains(ce.Message, serial) {
		ce.Message = fmt.Sprintf("Android device %q: %s", serial, ce.Message)
	}
	if ce.Details["serial"] == nil {
		ce.With("serial", serial)
	}
	return ce
}
