package ios

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/procgroup"
)

// SimulatorConfig opens an iOS simulator on this Mac.
type SimulatorConfig struct {
	// UDID names the simulator; empty picks the one booted.
	UDID string
	// Xcrun is the xcrun program (PATH's when empty).
	Xcrun string
	// XCTestRun is the runner built by `xcodebuild build-for-testing`
	// (its .xctestrun file).
	XCTestRun string
	// BuildRunner, when XCTestRun is empty, returns one: it builds the
	// runner (cached) once the simulator is known to exist.
	BuildRunner func(ctx context.Context) (string, error)
	// ReadyTimeout bounds the runner's start; 0 is 120 s (Maestro's bound
	// for its XCTest driver).
	ReadyTimeout time.Duration
	// Env is the environment xcrun runs with; nil is this process's.
	Env []string
	// LockDir keeps the per-device locks (one session per UDID); empty is
	// DefaultLockDir.
	LockDir string
	// StopGrace is how long a stop waits for the runner's test to return
	// after quit before it ends xcodebuild; 0 is 5 s.
	StopGrace time.Duration
}

// Simulator is one simulator as simctl lists it.
type Simulator struct {
	UDID    string `json:"udid"`
	Name    string `json:"name"`
	State   string `json:"state"`
	Runtime string `json:"runtime"`
}

// simctl runs xcrun simctl.
type simctl struct {
	xcrun string
	env   []string
	udid  string
}

func (s simctl) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := osexec.CommandContext(ctx, s.xcrun, append([]string{"simctl"}, args...)...)
	cmd.Env = s.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, canonical.Interrupted(ctx.Err())
		}
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, canonical.Errorf(canonical.CodeCommandFailed, "`xcrun simctl %s` failed: %s", strings.Join(args, " "), clip([]byte(msg), 400)).
			Wrap(err).With("device", s.udid).WithHint("run it yourself on the Mac to see why")
	}
	return out.Bytes(), nil
}

// ListSimulators is `xcrun simctl list -j devices`: every available
// simulator, booted ones first (Maestro's util/SimctlList.kt shape:
// {"devices": {RUNTIME: [{udid, name, state, isAvailable}]}}).
func ListSimulators(ctx context.Context, xcrun string, env []string) ([]Simulator, error) {
	out, err := simctl{xcrun: xcrun, env: env}.run(ctx, "list", "-j", "devices")
	if err != nil {
		return nil, err
	}
	var list struct {
		Devices map[string][]struct {
			Simulator
			IsAvailable *bool `json:"isAvailable"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "`xcrun simctl list -j devices` printed no device list: %v", err).
			WithHint("check Xcode's command line tools (xcode-select -p)")
	}
	var sims []Simulator
	for runtime, ds := range list.Devices {
		for _, d := range ds {
			if d.IsAvailable != nil && !*d.IsAvailable {
				continue
			}
			s := d.Simulator
			s.Runtime = runtime
			sims = append(sims, s)
		}
	}
	sort.Slice(sims, func(i, j int) bool {
		bi, bj := sims[i].State == "Booted", sims[j].State == "Booted"
		if bi != bj {
			return bi
		}
		return sims[i].UDID < sims[j].UDID
	})
	return sims, nil
}

// OpenSimulator picks (and boots) the simulator, starts the runner on it
// with xcodebuild test-without-building, and attaches to it. simctl does
// what the runner cannot: clearState, privacy, location, media.
func OpenSimulator(ctx context.Context, cfg SimulatorConfig) (*Device, error) {
	if cfg.Xcrun == "" {
		cfg.Xcrun = "xcrun"
	}
	if cfg.ReadyTimeout == 0 {
		cfg.ReadyTimeout = 120 * time.Second
	}
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	if cfg.StopGrace == 0 {
		cfg.StopGrace = 5 * time.Second
	}
	sims, err := ListSimulators(ctx, cfg.Xcrun, cfg.Env)
	if err != nil {
		return nil, err
	}
	pick, err := pickSimulator(cfg.UDID, sims)
	if err != nil {
		return nil, err
	}
	return openHeld(ctx, cfg.LockDir, pick.UDID, func() (*Device, error) { return openLockedSimulator(ctx, cfg, pick) })
}

// openLockedSimulator is OpenSimulator once this run holds the device.
func openLockedSimulator(ctx context.Context, cfg SimulatorConfig, pick Simulator) (*Device, error) {
	sc := simctl{xcrun: cfg.Xcrun, env: cfg.Env, udid: pick.UDID}
	if pick.State != "Booted" {
		if _, err := sc.run(ctx, "boot", pick.UDID); err != nil {
			return nil, err
		}
		if _, err := sc.run(ctx, "bootstatus", pick.UDID, "-b"); err != nil {
			return nil, err
		}
	}
	if cfg.XCTestRun == "" && cfg.BuildRunner != nil {
		built, err := cfg.BuildRunner(ctx)
		if err != nil {
			if ce, ok := canonical.AsError(err); ok {
				return nil, ce.With("device", pick.UDID)
			}
			return nil, err
		}
		cfg.XCTestRun = built
	}
	if cfg.XCTestRun == "" {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "simulator %s: flow has no built iOS runner to start", pick.UDID).
			With("device", pick.UDID).
			WithHint("build it on this Mac with xcodebuild build-for-testing (ios-runner/) and set FLOW_IOS_RUNNER_XCTESTRUN to its .xctestrun, or start it yourself and pass --ios-runner-url")
	}
	run, err := startRunner(ctx, cfg, pick.UDID)
	if err != nil {
		return nil, err
	}
	host := &simHost{sc: sc}
	d, err := Attach(ctx, Config{URL: run.url, Name: pick.UDID, Host: host, Installed: host.Installed})
	if err != nil {
		run.stop(context.WithoutCancel(ctx), 0)
		return nil, err
	}
	// Close sends quit first: the runner's test returns and xcodebuild
	// exits by itself within the grace.
	d.stop = func(ctx context.Context) error { return run.stop(ctx, cfg.StopGrace) }
	d.install = func(ctx context.Context, app string) error {
		if _, err := sc.run(ctx, "install", pick.UDID, app); err != nil {
			return appFileError(err, app, pick.UDID)
		}
		return nil
	}
	return d, nil
}

// appFileError is an app file the device refused: the tool's own words,
// naming the file and the device. simctl that ran and refused the file is
// the file's fault (INVALID_ARGS, exit 2); a link that failed (go-ios's
// plain errors) is the device's (DEVICE_UNAVAILABLE).
func appFileError(err error, app, udid string) error {
	ce := canonical.Coded(err)
	switch ce.Code {
	case canonical.CodeCommandFailed:
		ce.Code = canonical.CodeInvalidArgs
	case canonical.CodeInternal:
		ce.Code = canonical.CodeDeviceUnavailable
	}
	ce.Message = fmt.Sprintf("--app-file %s does not install on %s: %s", app, udid, ce.Message)
	return ce.With("file", app).With("device", udid).
		WithHint("check that the app is built for this device (a simulator build for a simulator, a signed iphoneos build for an iPhone)")
}

func pickSimulator(udid string, sims []Simulator) (Simulator, error) {
	if udid != "" {
		for _, s := range sims {
			if s.UDID == udid {
				return s, nil
			}
		}
		return Simulator{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "no iOS simulator %s on this Mac", udid).With("device", udid).
			WithHint("`xcrun simctl list devices` lists them; create one in Xcode's Devices window")
	}
	var booted []Simulator
	for _, s := range sims {
		if s.State == "Booted" {
			booted = append(booted, s)
		}
	}
	switch len(booted) {
	case 1:
		return booted[0], nil
	case 0:
		return Simulator{}, canonical.NewError(canonical.CodeDeviceUnavailable, "no iOS simulator is booted").
			WithHint("boot one (xcrun simctl boot UDID, or open Simulator.app), or name one with --device ios:UDID")
	}
	var names []string
	for _, s := range booted {
		names = append(names, s.UDID+" ("+s.Name+")")
	}
	return Simulator{}, canonical.Errorf(canonical.CodeInvalidArgs, "--device ios matches %d booted simulators: %s", len(booted), strings.Join(names, ", ")).
		WithHint("name one: --device ios:UDID")
}

// readyLine starts the runner's log line once it listens.
const readyLine = "FLOW_RUNNER_READY port="

// runnerProcess is a started xcodebuild.
type runnerProcess struct {
	url string
	// stop ends it: it waits grace for xcodebuild to exit by itself (after
	// quit), then ends its process group, then terminates the runner app,
	// which launchd_sim owns and a killed xcodebuild can leave listening.
	stop func(ctx context.Context, grace time.Duration) error
}

// startRunner runs `xcrun xcodebuild test-without-building` with the
// runner's port passed through TEST_RUNNER_FLOW_RUNNER_PORT (xcodebuild
// hands TEST_RUNNER_-prefixed variables to the test without the prefix)
// and waits for the ready line.
func startRunner(ctx context.Context, cfg SimulatorConfig, udid string) (*runnerProcess, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "no free local port for the iOS runner: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	derived := filepath.Join(os.TempDir(), fmt.Sprintf("flow-ios-runner-%d", port))
	cmd := osexec.Command(cfg.Xcrun, "xcodebuild", "test-without-building", "-xctestrun", cfg.XCTestRun,
		"-destination", "id="+udid, "-derivedDataPath", derived)
	cmd.Env = append(append([]string{}, cfg.Env...), "TEST_RUNNER_FLOW_RUNNER_PORT="+strconv.Itoa(port))
	procgroup.Own(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "cannot read xcodebuild's output: %v", err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "cannot start xcodebuild: %v", err).Wrap(err).With("device", udid).
			WithHint("install Xcode and its command line tools (xcode-select --install)")
	}
	exited := make(chan struct{})
	var tail tailBuffer
	ready := make(chan struct{})
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			tail.add(line)
			if strings.Contains(line, readyLine) {
				once.Do(func() { close(ready) })
			}
		}
		cmd.Wait()
		close(exited)
	}()
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	// The log line can come late or never (xcodebuild buffers the test's
	// output when it is not a terminal): a runner that answers status is
	// ready too, as PROTOCOL.md says and as Appium, Maestro and
	// agent-device decide.
	pollCtx, stopPolling := context.WithCancel(ctx)
	defer stopPolling()
	go func() {
		if pollStatus(pollCtx, url) {
			once.Do(func() { close(ready) })
		}
	}()
	sc := simctl{xcrun: cfg.Xcrun, env: cfg.Env, udid: udid}
	stop := func(ctx context.Context, grace time.Duration) error {
		defer os.RemoveAll(derived)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-exited:
		case <-t.C:
			procgroup.Signal(cmd, false)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				procgroup.Signal(cmd, true)
				<-exited
			}
		}
		// Whatever xcodebuild did, the runner app may still run under
		// launchd_sim, holding its port; simctl says "found nothing to
		// terminate" when it does not, which is no failure here.
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		sc.run(tctx, "terminate", udid, runnerBundleID)
		return nil
	}
	timer := time.NewTimer(cfg.ReadyTimeout)
	defer timer.Stop()
	select {
	case <-ready:
		return &runnerProcess{url: url, stop: stop}, nil
	case <-exited:
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner on %s stopped before it was ready: %s", udid, tail.String()).
			With("device", udid).WithHint("see xcodebuild's output above; rebuild the runner for this Xcode (xcodebuild build-for-testing in ios-runner/)")
	case <-timer.C:
		stop(context.WithoutCancel(ctx), 0)
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "the iOS runner on %s did not say it was ready within %v", udid, cfg.ReadyTimeout).
			With("device", udid).WithHint("the simulator may still be booting or blocked by a dialog; look at it, then run again, or allow more time with MAESTRO_DRIVER_STARTUP_TIMEOUT (milliseconds)")
	case <-ctx.Done():
		stop(context.WithoutCancel(ctx), 0)
		return nil, canonical.Interrupted(ctx.Err()).With("device", udid)
	}
}

// pollStatus asks url for the runner's status every 250 ms until one
// answers in flow-runner-v1 (true) or ctx ends (false).
func pollStatus(ctx context.Context, url string) bool {
	hc := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/command", strings.NewReader(`{"command":"status","commandId":0}`))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := hc.Do(req); err == nil {
			var st struct {
				OK   bool        `json:"ok"`
				Data statusReply `json:"data"`
			}
			err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&st)
			resp.Body.Close()
			if err == nil && resp.StatusCode == http.StatusOK && st.OK && st.Data.Protocol == RunnerProtocol {
				return true
			}
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// tailBuffer keeps the last lines of xcodebuild's output for errors.
type tailBuffer struct {
	mu    sync.Mutex
	lines []string
}

func (t *tailBuffer) add(l string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, l)
	if len(t.lines) > 8 {
		t.lines = t.lines[len(t.lines)-8:]
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return clip([]byte(strings.Join(t.lines, " | ")), 400)
}

// simHost is simctl for one simulator.
type simHost struct {
	sc        simctl
	recording *osexec.Cmd
}

// ClearKeychain is simctl keychain reset.
func (h *simHost) ClearKeychain(ctx context.Context) error {
	_, err := h.sc.run(ctx, "keychain", h.sc.udid, "reset")
	return err
}

// StartRecording runs simctl io recordVideo until StopRecording sends it
// SIGINT, which makes it finish the file.
func (h *simHost) StartRecording(ctx context.Context, path string) error {
	if h.recording != nil {
		return canonical.NewError(canonical.CodeCommandFailed, "a screen recording is already running").With("device", h.sc.udid).
			WithHint("stop it with stopRecording first")
	}
	cmd := osexec.Command(h.sc.xcrun, "simctl", "io", h.sc.udid, "recordVideo", "--force", path)
	cmd.Env = h.sc.env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return canonical.Errorf(canonical.CodeInternal, "cannot read simctl's output: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "cannot start simctl io recordVideo: %v", err).With("device", h.sc.udid)
	}
	// simctl says "Recording started" once frames are being written; an
	// interrupt before that leaves no video at all.
	started := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		ok := false
		for sc.Scan() {
			if !ok && strings.Contains(sc.Text(), "Recording started") {
				ok = true
				started <- true
			}
		}
		if !ok {
			started <- false
		}
	}()
	select {
	case ok := <-started:
		if !ok {
			cmd.Wait()
			return canonical.Errorf(canonical.CodeCommandFailed, "simctl io recordVideo ended before it started recording").With("device", h.sc.udid).
				WithHint("run `xcrun simctl io " + h.sc.udid + " recordVideo x.mp4` yourself to see why")
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return canonical.Errorf(canonical.CodeCommandFailed, "simctl io recordVideo did not start recording within 10 s").With("device", h.sc.udid)
	case <-ctx.Done():
		cmd.Process.Kill()
		cmd.Wait()
		return canonical.Interrupted(ctx.Err())
	}
	h.recording = cmd
	return nil
}

// StopRecording interrupts the recorder and waits (at most 10 s) for it
// to write the video.
func (h *simHost) StopRecording(ctx context.Context) error {
	cmd := h.recording
	if cmd == nil {
		return canonical.NewError(canonical.CodeCommandFailed, "no screen recording is running").With("device", h.sc.udid).
			WithHint("start one with startRecording")
	}
	h.recording = nil
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return nil
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		return canonical.Errorf(canonical.CodeCommandFailed, "simctl io recordVideo did not finish within 10 s").With("device", h.sc.udid)
	}
}

// Installed asks simctl for the app's bundle. simctl get_app_container
// of a bundle id the simulator lacks fails with NSPOSIXErrorDomain code 2
// "No such file or directory" (as reported in appium/appium#15256); any
// other failure (a simulator shut down meanwhile) is simctl's error.
func (h *simHost) Installed(ctx context.Context, appID string) (bool, error) {
	_, err := h.sc.run(ctx, "get_app_container", h.sc.udid, appID)
	if err == nil {
		return true, nil
	}
	if ce, ok := canonical.AsError(err); ok && (strings.Contains(ce.Message, "code=2") || strings.Contains(ce.Message, "No such file or directory")) {
		return false, nil
	}
	return false, err
}

// ClearState is Maestro's on a simulator: the app's bundle is copied
// out, the app uninstalled and the copy installed again.
func (h *simHost) ClearState(ctx context.Context, appID string) error {
	out, err := h.sc.run(ctx, "get_app_container", h.sc.udid, appID)
	if err != nil {
		return err
	}
	bundle := strings.TrimSpace(string(out))
	tmp, err := os.MkdirTemp("", "flow-clearstate-")
	if err != nil {
		return canonical.Errorf(canonical.CodeInternal, "no temporary folder for clearState: %v", err)
	}
	defer os.RemoveAll(tmp)
	copyPath := filepath.Join(tmp, filepath.Base(bundle))
	if err := osexec.CommandContext(ctx, "cp", "-R", bundle, copyPath).Run(); err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "cannot copy %s's bundle for clearState: %v", appID, err).With("device", h.sc.udid)
	}
	if _, err := h.sc.run(ctx, "uninstall", h.sc.udid, appID); err != nil {
		return err
	}
	_, err = h.sc.run(ctx, "install", h.sc.udid, copyPath)
	return err
}

// privacyServices maps Maestro's iOS permission names to simctl privacy
// services.
var privacyServices = map[string]string{
	"calendar": "calendar", "camera": "camera", "contacts": "contacts", "location": "location-always",
	"medialibrary": "media-library", "microphone": "microphone", "motion": "motion", "photos": "photos",
	"reminders": "reminders", "siri": "siri",
}

// SetPermissions grants (allow) or revokes (deny, unset: reset) through
// simctl privacy; names simctl does not know are skipped, as without
// applesimutils Maestro cannot set them either.
func (h *simHost) SetPermissions(ctx context.Context, appID string, perms map[string]string) error {
	keys := make([]string, 0, len(perms))
	for k := range perms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		service := privacyServices[k]
		if k == "all" {
			service = "all"
		}
		if service == "" {
			continue
		}
		verb := map[string]string{"allow": "grant", "deny": "revoke"}[perms[k]]
		if verb == "" {
			verb = "reset"
		}
		if _, err := h.sc.run(ctx, "privacy", h.sc.udid, verb, service, appID); err != nil {
			return err
		}
	}
	return nil
}

// SetLocation is simctl location set.
func (h *simHost) SetLocation(ctx context.Context, lat, lon float64) error {
	_, err := h.sc.run(ctx, "location", h.sc.udid, "set", strconv.FormatFloat(lat, 'f', -1, 64)+","+strconv.FormatFloat(lon, 'f', -1, 64))
	return err
}

// AddMedia is simctl addmedia.
func (h *simHost) AddMedia(ctx context.Context, files []string) error {
	_, err := h.sc.run(ctx, append([]string{"addmedia", h.sc.udid}, files...)...)
	return err
}
