package android

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/android/adb"
	"github.com/flow-runner/flow/planner"
)

// MinSDK is the oldest Android the helper runs on (API 24, Android 7: the
// "cmd" service that streamed installs need, and UiAutomation flags the
// helper uses).
const MinSDK = 24

// Config opens one Android device.
type Config struct {
	// Serial names the device as adb lists it.
	Serial string
	// ADB is the client of the adb server the device is attached to.
	ADB *adb.Client
	// HelperAPK is the flow helper to install, a file (helperapk.Locate
	// picks it); without it or HelperData the device cannot be opened.
	HelperAPK string
	// HelperData, when set, is the helper APK itself (flow's embedded
	// one) and HelperAPK is not read.
	HelperData []byte
	// HelperVersionCode is the helper's versionCode (helperapk.VersionCode);
	// 0 skips the version check and compares checksums only.
	HelperVersionCode int64
	// Installs is shared by the devices of one process (shards, a
	// restarted session) so a helper known to be installed is not checked
	// again; nil gives the device its own.
	Installs *InstallCache
	// ReadyTimeout bounds the helper's start; 0 is 15 s (Maestro's bound
	// for its driver; MAESTRO_DRIVER_STARTUP_TIMEOUT sets it in flow too).
	ReadyTimeout time.Duration
	// Warn, when set, hears what the user should know about a result that
	// is not an error: an all-black screenshot, which is how secure
	// windows (FLAG_SECURE) are captured. Each warning is given once per
	// device.
	Warn func(msg string)
	// Command is this run's command line, written into the device lock
	// (lock.go) so that a second run on the device can name this one.
	Command string
}

// Device is an Android phone or emulator driven through adb and the flow
// helper: every read of the screen and every touch goes over one
// persistent helper session; the shell does what only the shell can (the
// package manager, activity manager, settings, screen recording).
type Device struct {
	cfg    Config
	serial string
	// t is raw with every call watched (link.go); raw is adb itself, for
	// pings and for cleanup, which has its own bound.
	t         transport
	raw       transport
	installed *InstallCache
	model     string
	sdk       int
	// manufacturer is ro.product.manufacturer, for vendor hints.
	manufacturer string

	readyTimeout, quitWait             time.Duration
	probeAfter, probeEvery, cleanupMax time.Duration
	// lost is set once a ping found the link gone; watching says a watch
	// is running (the device is used from one goroutine; its pinger only
	// sets lost).
	lost     atomic.Pointer[canonical.Error]
	watching bool

	sess     *session
	restarts int
	dead     error
	closed   bool

	recording     shellStream
	recordingPath string
	warnedBlack   bool

	// owner is this run as the device lock names it; locked says the
	// lock is held. alive and now are the host's process table and
	// clock, replaced in tests.
	owner  lockOwner
	locked bool
	alive  processAlive
	now    func() time.Time
}

var (
	_ exec.Device        = (*Device)(nil)
	_ exec.SettledReader = (*Device)(nil)
	_ exec.Locator       = (*Device)(nil)
	_ exec.MediaAdder    = (*Device)(nil)
	_ exec.AirplaneMode  = (*Device)(nil)
	_ exec.Recorder      = (*Device)(nil)
	_ exec.Closer        = (*Device)(nil)
	_ exec.AppInstaller  = (*Device)(nil)
)

// Open checks the device is online and new enough, takes the device's
// lock (lock.go: one flow run per device), installs the helper when it
// is missing or another build, and starts its session. Whatever
// fails is DEVICE_UNAVAILABLE naming the serial, with a hint: a run never
// starts on a device it could not fully open (ADR 0013: no shell mode).
func Open(ctx context.Context, cfg Config) (*Device, error) {
	if cfg.ADB == nil {
		return nil, canonical.NewError(canonical.CodeInternal, "android.Open needs an adb client")
	}
	return open(ctx, cfg, adbTransport{cfg.ADB})
}

func open(ctx context.Context, cfg Config, t transport) (*Device, error) {
	return openOn(ctx, cfg, t, hostFacts{alive: processAliveOS, now: time.Now})
}

// hostFacts are what the device lock asks of the host: whether a process
// lives, and the time. Tests give their own.
type hostFacts struct {
	alive processAlive
	now   func() time.Time
	// host (with pidNS) and pid replace os.Hostname, the pid namespace
	// and os.Getpid when set.
	host, pidNS string
	pid         int
}

func openOn(ctx context.Context, cfg Config, t transport, h hostFacts) (*Device, error) {
	d := &Device{cfg: cfg, serial: cfg.Serial, raw: t, installed: cfg.Installs,
		readyTimeout: cfg.ReadyTimeout, quitWait: quitTimeout,
		probeAfter: probeAfter, probeEvery: probeEvery, cleanupMax: cleanupTimeout}
	d.t = watched{d}
	d.alive, d.now = h.alive, h.now
	var token [8]byte
	if _, err := rand.Read(token[:]); err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "no randomness for the device lock: %v", err).Wrap(err)
	}
	d.owner = newOwner(cfg.Command, hex.EncodeToString(token[:]), d.now())
	if h.host != "" {
		d.owner.Host, d.owner.PIDNS = h.host, h.pidNS
	}
	if h.pid != 0 {
		d.owner.PID = h.pid
	}
	if d.installed == nil {
		d.installed = &InstallCache{}
	}
	if d.readyTimeout == 0 {
		d.readyTimeout = readyTimeout
	}
	if err := d.checkOnline(ctx); err != nil {
		return nil, err
	}
	sdk, err := d.shellOK(ctx, "getprop", "ro.build.version.sdk")
	if err != nil {
		return nil, err
	}
	d.sdk, _ = strconv.Atoi(strings.TrimSpace(sdk))
	// Only hints depend on it: a device that does not answer keeps none.
	if res, err := d.t.Shell(ctx, d.serial, "getprop", "ro.product.manufacturer"); err == nil && res.ExitCode == 0 {
		d.manufacturer = strings.TrimSpace(string(res.Stdout))
	}
	if d.sdk != 0 && d.sdk < MinSDK {
		return nil, d.unavailable("%s runs Android API %d; flow's helper needs API %d (Android 7) or newer", d.serial, d.sdk, MinSDK).
			WithHint("use a newer emulator image or phone")
	}
	// The lock comes before the install: installing over a running
	// helper kills it as surely as am instrument does.
	if err := d.lock(ctx); err != nil {
		return nil, err
	}
	if err := d.onHelper(ctx, true, func(context.Context, *helper) error { return nil }); err != nil {
		d.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return d, nil
}

// checkOnline looks the serial up in the server's list, so an offline or
// unauthorized device is named with its fix before anything runs on it.
func (d *Device) checkOnline(ctx context.Context) error {
	devs, err := d.t.Devices(ctx)
	if err != nil {
		return err
	}
	var known []string
	for _, e := range devs {
		if e.Serial != d.serial {
			known = append(known, e.Serial)
			continue
		}
		d.model = e.Model
		switch e.State {
		case "device":
			return nil
		case "unauthorized":
			return d.unavailable("%s is unauthorized: it has not accepted this computer's debugging key", d.serial).
				WithHint("unlock the device and accept the \"Allow USB debugging?\" prompt (tick \"Always allow\"), then run again")
		case "offline":
			return d.unavailable("%s is offline", d.serial).
				WithHint("reconnect its cable or run `adb reconnect offline`; restart the emulator if it stays offline")
		default:
			return d.unavailable("%s is %s, not ready for commands", d.serial, e.State).
				WithHint("wait until `adb devices` shows it as \"device\"")
		}
	}
	hint := "no device is attached; start an emulator or connect a phone (`adb devices -l` lists what the server sees)"
	if len(known) > 0 {
		hint = "attached: " + strings.Join(known, ", ") + " (see `flow devices`)"
	}
	return d.unavailable("no Android device %s is attached to the adb server at %s", d.serial, d.cfg.addr()).WithHint(hint)
}

func (c Config) addr() string {
	if c.ADB == nil {
		return "(none)"
	}
	return c.ADB.Addr()
}

// shellOK runs a command that must succeed and returns its stdout; a
// non-zero exit is COMMAND_FAILED quoting its output.
func (d *Device) shellOK(ctx context.Context, argv ...string) (string, error) {
	res, err := d.t.Shell(ctx, d.serial, argv...)
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", canonical.Errorf(canonical.CodeCommandFailed, "`%s` failed on %s (exit %d): %s",
			strings.Join(argv, " "), d.serial, res.ExitCode, clipOutput(res)).
			With("serial", d.serial).With("exitCode", res.ExitCode).
			WithHint("run it yourself with `adb -s " + d.serial + " shell` to see why")
	}
	return string(res.Stdout), nil
}

// helperDo runs a helper call on the session (starting or restarting it
// as onHelper says). read says the call changes nothing on the device, so
// it may run again after a restart.
func (d *Device) helperDo(ctx context.Context, read bool, fn func(ctx context.Context, h *helper) error) error {
	return d.onHelper(ctx, read, fn)
}

// Info names the device.
func (d *Device) Info(ctx context.Context) (exec.DeviceInfo, error) {
	name := d.model
	if name == "" {
		name = d.serial
	}
	return exec.DeviceInfo{Platform: "android", Name: strings.ReplaceAll(name, "_", " "), ID: d.serial}, nil
}

// Viewport is the focused app window less the keyboard, read now.
func (d *Device) Viewport(ctx context.Context) (canonical.Viewport, error) {
	var vp viewportReply
	err := d.helperDo(ctx, true, func(ctx context.Context, h *helper) (err error) { vp, err = h.viewport(ctx); return })
	if err != nil {
		return canonical.Viewport{}, err
	}
	return canonical.Viewport{X: vp.X, Y: vp.Y, Width: vp.W, Height: vp.H}, nil
}

// Hierarchy reads every interactive window.
func (d *Device) Hierarchy(ctx context.Context) (*exec.Node, error) {
	var r hierarchyReply
	err := d.helperDo(ctx, true, func(ctx context.Context, h *helper) (err error) { r, err = h.hierarchy(ctx, defaultHierarchy); return })
	if err != nil {
		return nil, err
	}
	return ParseHierarchy([]byte(r.XML))
}

// ReadSettled waits in the helper until no accessibility event arrived
// for Maestro's quiet window, then reads, in one round trip.
func (d *Device) ReadSettled(ctx context.Context, timeout time.Duration) (exec.Settled, error) {
	var r settleReply
	ms := int(timeout / time.Millisecond)
	err := d.helperDo(ctx, true, func(ctx context.Context, h *helper) (err error) {
		r, err = h.settle(ctx, settleQuietMs, ms, defaultHierarchy)
		return
	})
	if err != nil {
		return exec.Settled{}, err
	}
	root, err := ParseHierarchy([]byte(r.XML))
	if err != nil {
		return exec.Settled{}, err
	}
	return exec.Settled{Root: root, Still: r.Still, Version: r.EventSeq, Opaque: r.Opaque}, nil
}

// settleQuietMs is how long the screen must stay without accessibility
// events to count as settled: Maestro's waitForAppToSettle compares
// hierarchies 200 ms apart.
const settleQuietMs = 200

// Screenshot is a PNG from the helper (UiAutomation.takeScreenshot).
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) {
	var png []byte
	var black bool
	err := d.helperDo(ctx, true, func(ctx context.Context, h *helper) (err error) { png, black, err = h.screenshot(ctx); return })
	if err == nil && black && !d.warnedBlack && d.cfg.Warn != nil {
		d.warnedBlack = true
		d.cfg.Warn(fmt.Sprintf("a screenshot of %s is all black: the app shows a secure window (FLAG_SECURE), whose pixels Android captures black, "+
			"or the screen is off; screenshot assertions and retryTapIfNoChange cannot see that screen", d.serial))
	}
	return png, err
}

// tapHoldMs is how long a tap keeps its contact down: a stationary
// one-contact plan of 50 ms (PROTOCOL.md's tap transcript).
const tapHoldMs = 50

// Tap is a touch of a stationary one-contact plan.
func (d *Device) Tap(ctx context.Context, p canonical.Point) error {
	return d.stationary(ctx, p, tapHoldMs)
}

// LongPress holds one contact still for hold.
func (d *Device) LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error {
	return d.stationary(ctx, p, int(hold/time.Millisecond))
}

func (d *Device) stationary(ctx context.Context, p canonical.Point, holdMs int) error {
	plan := planner.Plan{Topology: planner.Single, DurationMs: holdMs, Pointers: []planner.Pointer{{
		PointerID: 0,
		Samples:   []planner.Sample{{OffsetMs: 0, Point: p}, {OffsetMs: holdMs, Point: p}},
	}}}
	return d.PerformGesture(ctx, plan)
}

// PerformGesture lowers the plan (android.Lower) and has the helper
// inject it on the device's clock.
func (d *Device) PerformGesture(ctx context.Context, plan planner.Plan) error {
	tp, err := Lower(plan)
	if err != nil {
		return err
	}
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { _, err := h.touch(ctx, tp); return err })
}

// InputText types any Unicode text into the focused field.
func (d *Device) InputText(ctx context.Context, text string) error {
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { _, err := h.text(ctx, text); return err })
}

// EraseText presses DEL count times.
func (d *Device) EraseText(ctx context.Context, count int) error {
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { return h.erase(ctx, count) })
}

// PressKey presses an Android key code.
func (d *Device) PressKey(ctx context.Context, key exec.Key) error {
	if key.AndroidCode <= 0 {
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "the key %q has no Android key code", key.Name).
			With("serial", d.serial).WithHint("press a key Android has (see Maestro's pressKey list)")
	}
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { return h.key(ctx, keyArgs{Code: key.AndroidCode}) })
}

// keycodeBack is KeyEvent.KEYCODE_BACK.
const keycodeBack = 4

// Back presses BACK.
func (d *Device) Back(ctx context.Context) error {
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { return h.key(ctx, keyArgs{Code: keycodeBack}) })
}

// HideKeyboard closes the input method when one is shown.
func (d *Device) HideKeyboard(ctx context.Context) error {
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { _, err := h.hideKeyboard(ctx); return err })
}

// LaunchApp follows Maestro's launchApp on Android: clear the state when
// asked, set the permissions ({all: allow} by default), stop the app
// unless stopApp is false, then start its launcher activity with the
// arguments as typed intent extras.
func (d *Device) LaunchApp(ctx context.Context, o exec.LaunchOptions) error {
	if o.ClearState {
		if err := d.ClearState(ctx, o.AppID); err != nil {
			return err
		}
	}
	// clearKeychain is iOS's; Maestro's Android driver does nothing for
	// it, so a flow written for both platforms runs here too.
	perms := o.Permissions
	if perms == nil {
		perms = map[string]string{"all": "allow"}
	}
	if err := d.setPermissions(ctx, o.AppID, perms); err != nil {
		return err
	}
	if o.StopApp {
		if err := d.StopApp(ctx, o.AppID, false); err != nil {
			return err
		}
	}
	extras, err := launchExtras(o.Arguments)
	if err != nil {
		return err
	}
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { return h.launch(ctx, o.AppID, extras) })
}

// launchExtras types launch arguments as Maestro's AndroidLaunchArguments
// does: booleans, integers (int, or long beyond int32), doubles, strings.
func launchExtras(args map[string]any) ([]launchExtra, error) {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sortStrings(keys)
	out := []launchExtra{}
	for _, k := range keys {
		switch v := args[k].(type) {
		case bool:
			out = append(out, launchExtra{K: k, V: v, Type: "bool"})
		case int:
			out = append(out, intExtra(k, int64(v)))
		case int64:
			out = append(out, intExtra(k, v))
		case float64:
			out = append(out, launchExtra{K: k, V: v, Type: "double"})
		case string:
			out = append(out, launchExtra{K: k, V: v, Type: "string"})
		case fmt.Stringer:
			out = append(out, launchExtra{K: k, V: v.String(), Type: "string"})
		default:
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "launch argument %q has a value of type %T, which an Android intent extra cannot carry", k, v).
				WithHint("use a string, number or boolean")
		}
	}
	return out, nil
}

func intExtra(k string, v int64) launchExtra {
	if v >= -1<<31 && v < 1<<31 {
		return launchExtra{K: k, V: v, Type: "int"}
	}
	return launchExtra{K: k, V: v, Type: "long"}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// PermissionCommands are the pm commands Maestro's setPermissions runs
// for perms: allow → grant, anything else → revoke; "all" is every
// permission the app requests (requested), applied first so named entries
// override it. Exposed for tests and for `flow` to show.
func PermissionCommands(appID string, perms map[string]string, requested []string) [][]string {
	var out [][]string
	add := func(name, value string) {
		verb := "revoke"
		if value == "allow" {
			verb = "grant"
		}
		out = append(out, []string{"pm", verb, appID, name})
	}
	if v, ok := perms["all"]; ok {
		for _, p := range requested {
			add(p, v)
		}
	}
	keys := make([]string, 0, len(perms))
	for k := range perms {
		if k != "all" {
			keys = append(keys, k)
		}
	}
	sortStrings(keys)
	for _, k := range keys {
		for _, n := range exec.AndroidPermissions(k) {
			add(n, perms[k])
		}
	}
	return out
}

// setPermissions grants and revokes as Maestro does. A permission the
// system will not change (not a runtime permission, not requested, not on
// this API level) fails its pm command; Maestro ignores those, and so do
// we, so that {all: allow} works on any app.
func (d *Device) setPermissions(ctx context.Context, appID string, perms map[string]string) error {
	var requested []string
	if _, ok := perms["all"]; ok {
		err := d.helperDo(ctx, true, func(ctx context.Context, h *helper) (err error) { requested, err = h.permissions(ctx, appID); return })
		if err != nil {
			return err
		}
	}
	for _, argv := range PermissionCommands(appID, perms, requested) {
		if _, err := d.t.Shell(ctx, d.serial, argv...); err != nil {
			return err
		}
	}
	return nil
}

// SetPermissions is the current Maestro's setPermissions: the grants and
// revocations launchApp makes, at any point of a flow.
func (d *Device) SetPermissions(ctx context.Context, appID string, perms map[string]string) error {
	return d.setPermissions(ctx, appID, perms)
}

// StopApp force-stops the app, or (kill) kills its process as the system
// does under memory pressure, so it restores its state on the next start
// (Maestro's killApp: am kill).
func (d *Device) StopApp(ctx context.Context, appID string, kill bool) error {
	verb := "force-stop"
	if kill {
		verb = "kill"
	}
	_, err := d.shellOK(ctx, "am", verb, appID)
	return err
}

// ClearState wipes the app's data (pm clear); Maestro skips an app that
// is not installed, and so do we.
func (d *Device) ClearState(ctx context.Context, appID string) error {
	res, err := d.t.Shell(ctx, d.serial, "pm", "clear", appID)
	if err != nil {
		return err
	}
	out := strings.TrimSpace(string(res.Stdout))
	if res.ExitCode == 0 && strings.HasPrefix(out, "Success") {
		return nil
	}
	if installed, err := d.packageInstalled(ctx, appID); err == nil && !installed {
		return nil
	}
	return canonical.Errorf(canonical.CodeCommandFailed, "clearing %s on %s failed: %s", appID, d.serial, clipOutput(res)).
		With("serial", d.serial).WithHint("check the app id; `adb shell pm clear " + appID + "` shows the same")
}

func (d *Device) packageInstalled(ctx context.Context, appID string) (bool, error) {
	out, err := d.shellOK(ctx, "pm", "path", appID)
	if err != nil {
		if canonical.CodeOf(err) == canonical.CodeCommandFailed {
			return false, nil
		}
		return false, err
	}
	return strings.Contains(out, "package:"), nil
}

// OpenLink opens a URL with the VIEW intent, as Maestro does; browser
// targets Chrome when it is installed.
func (d *Device) OpenLink(ctx context.Context, link string, browser bool) error {
	argv := []string{"am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", link}
	if browser {
		if ok, err := d.packageInstalled(ctx, "com.android.chrome"); err == nil && ok {
			argv = append(argv, "com.android.chrome")
		}
	}
	out, err := d.shellOK(ctx, argv...)
	if err != nil {
		return err
	}
	if strings.Contains(out, "Error:") {
		return canonical.Errorf(canonical.CodeCommandFailed, "no app on %s opens %s: %s", d.serial, link, clipString(strings.TrimSpace(out), 400)).
			With("serial", d.serial).WithHint("install an app that handles the link, or check its scheme")
	}
	return nil
}

// SetLocation mocks the location through the helper's test provider.
func (d *Device) SetLocation(ctx context.Context, lat, lon float64) error {
	return d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { return h.location(ctx, lat, lon) })
}

// AddMedia puts each file in the gallery through the helper's media store
// insert.
func (d *Device) AddMedia(ctx context.Context, files []string) error {
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot read media file %s: %v", f, err).Wrap(err)
		}
		ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(f)), ".")
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if err := d.helperDo(ctx, false, func(ctx context.Context, h *helper) error { _, err := h.media(ctx, name, ext, body); return err }); err != nil {
			return err
		}
	}
	return nil
}

// AirplaneMode reads settings' airplane_mode_on.
func (d *Device) AirplaneMode(ctx context.Context) (bool, error) {
	out, err := d.shellOK(ctx, "settings", "get", "global", "airplane_mode_on")
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(out) == "1", nil
}

// SetAirplaneMode switches it with cmd connectivity (Android 11+), which
// also broadcasts the change as the quick setting does.
// userRotations are Settings.System.USER_ROTATION's values per Maestro
// orientation: Surface.ROTATION_0, _90, _180, _270 (AOSP
// frameworks/base/core/java/android/view/Surface.java). ROTATION_90 is the
// device turned 90° counter-clockwise, Maestro's LANDSCAPE_LEFT
// (docs.maestro.dev reference/commands-available/setorientation).
func userRotations() map[string]string {
	return map[string]string{"PORTRAIT": "0", "LANDSCAPE_LEFT": "1", "UPSIDE_DOWN": "2", "LANDSCAPE_RIGHT": "3"}
}

// SetOrientation is the current Maestro's setOrientation: auto-rotate off
// (Settings.System.ACCELEROMETER_ROTATION = 0), then the fixed rotation
// (Settings.System.USER_ROTATION), through `settings put system`
// (AOSP frameworks/base/core/java/android/provider/Settings.java).
func (d *Device) SetOrientation(ctx context.Context, orientation string) error {
	r, ok := userRotations()[orientation]
	if !ok {
		return canonical.Errorf(canonical.CodeInvalidArgs, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got %q", orientation).
			WithHint("use one of those four, in capitals")
	}
	if _, err := d.shellOK(ctx, "settings", "put", "system", "accelerometer_rotation", "0"); err != nil {
		return err
	}
	_, err := d.shellOK(ctx, "settings", "put", "system", "user_rotation", r)
	return err
}

func (d *Device) SetAirplaneMode(ctx context.Context, on bool) error {
	state := "disable"
	if on {
		state = "enable"
	}
	if d.sdk != 0 && d.sdk < 30 {
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "setAirplaneMode needs Android 11 (API 30) or newer; %s runs API %d", d.serial, d.sdk).
			With("serial", d.serial).WithHint("toggle airplane mode by hand on this device, or use a newer one")
	}
	_, err := d.shellOK(ctx, "cmd", "connectivity", "airplane-mode", state)
	return err
}

// recordingRemote is where screenrecord writes on the device.
const recordingRemote = "/sdcard/flow-recording.mp4"

// StartRecording starts screenrecord with Maestro's arguments
// (AndroidDriver.startScreenRecording): 100 kbit/s, and no time limit from
// Android 14 (API 34), where --time-limit 0 means none; older versions stop
// at their own 180 s.
func (d *Device) StartRecording(ctx context.Context, path string) error {
	if d.recording != nil {
		return canonical.NewError(canonical.CodeCommandFailed, "a screen recording is already running").With("serial", d.serial).
			WithHint("stop it with stopRecording first")
	}
	argv := []string{"screenrecord"}
	if d.sdk >= 34 {
		argv = append(argv, "--time-limit", "0")
	}
	argv = append(argv, "--bit-rate", "100000", recordingRemote)
	s, err := d.t.StartShell(ctx, d.serial, argv...)
	if err != nil {
		return err
	}
	d.recording, d.recordingPath = s, path
	return nil
}

// StopRecording stops screenrecord with SIGINT (so it finishes the file),
// pulls the video to the path and removes it from the device.
func (d *Device) StopRecording(ctx context.Context) error {
	if d.recording == nil {
		return canonical.NewError(canonical.CodeCommandFailed, "no screen recording is running").With("serial", d.serial).
			WithHint("start one with startRecording")
	}
	s, path := d.recording, d.recordingPath
	d.recording = nil
	if _, err := d.t.Shell(ctx, d.serial, "killall", "-INT", "screenrecord"); err != nil {
		s.Close()
		return err
	}
	done := make(chan struct{})
	go func() { s.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	case <-ctx.Done():
	}
	s.Close()
	f, err := os.Create(path)
	if err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "cannot write the recording to %s: %v", path, err).Wrap(err)
	}
	defer f.Close()
	if err := d.t.Pull(ctx, d.serial, recordingRemote, f); err != nil {
		return err
	}
	_, _ = d.t.Shell(ctx, d.serial, "rm", "-f", recordingRemote)
	return nil
}

// Close ends the helper session (no contact is left down: every touch
// ends with UP or CANCEL inside the helper) and any recording.
func (d *Device) Close(ctx context.Context) error {
	if d.closed {
		return nil
	}
	if d.recording != nil {
		d.recording.Close()
		d.recording = nil
	}
	d.stopSession(d.sess)
	d.sess = nil
	d.unlock()
	d.closed = true
	return nil
}
