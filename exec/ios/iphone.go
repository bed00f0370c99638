package ios

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Phone is a connected iPhone or iPad as usbmuxd lists it.
type Phone struct {
	UDID    string `json:"udid"`
	Name    string `json:"name"`
	Version string `json:"version"`
}

// PhoneLink is what flow needs of a real device's USB link (go-ios over
// usbmuxd): listing phones, starting the runner's XCTest through
// testmanagerd, and forwarding a local port to the runner on the phone.
// It is an interface so the start-up logic is tested without a phone.
type PhoneLink interface {
	List(ctx context.Context) ([]Phone, error)
	// StartRunner starts the UI test of the runner bundleID (its
	// .xctrunner) with FLOW_RUNNER_PORT=port; done receives the test's end
	// (an error when it could not run).
	StartRunner(ctx context.Context, udid, bundleID string, port int) (done <-chan error, err error)
	// Forward relays connections to 127.0.0.1:local to port on the phone.
	Forward(ctx context.Context, udid string, local, port int) (stop func() error, err error)
	// Apps lists the bundle ids installed on the phone (user and system
	// apps), each with its CFBundleVersion.
	Apps(ctx context.Context, udid string) (map[string]string, error)
	// Install installs an .app folder (built for iphoneos and signed).
	Install(ctx context.Context, udid, app string) error
}

// RunnerApp is a runner built for iPhones: the signed
// FlowRunnerUITests-Runner.app, the build number it carries and its
// bundle id.
type RunnerApp struct {
	App      string
	Version  string
	BundleID string
}

// IPhoneConfig opens a real device.
type IPhoneConfig struct {
	// UDID names the phone; empty picks the one connected.
	UDID         string
	Link         PhoneLink
	ReadyTimeout time.Duration // 0: 120 s
	// Runner, when set, returns the runner to install before it starts:
	// it is installed when the phone has none or another build. Nil
	// starts what is installed (a runner the user put there).
	Runner func(ctx context.Context) (RunnerApp, error)
	// RunnerBundleID is the installed runner's bundle id when Runner is
	// nil; empty is a build's without a team (ios-runner.BundleIDs).
	RunnerBundleID string
	// LockDir keeps the per-device locks; empty is DefaultLockDir.
	LockDir string
}

// PickPhone chooses the phone a run uses.
func PickPhone(udid string, phones []Phone) (Phone, error) {
	if udid != "" {
		for _, p := range phones {
			if p.UDID == udid {
				return p, nil
			}
		}
		return Phone{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "no iPhone %s is connected", udid).With("device", udid).
			WithHint("connect it by USB, unlock it and trust this computer; `ios list` (go-ios) shows what usbmuxd sees")
	}
	switch len(phones) {
	case 1:
		return phones[0], nil
	case 0:
		return Phone{}, canonical.NewError(canonical.CodeDeviceUnavailable, "no iPhone is connected").
			WithHint("connect one by USB, unlock it and trust this computer")
	}
	var names []string
	for _, p := range phones {
		names = append(names, p.UDID+" ("+p.Name+")")
	}
	return Phone{}, canonical.Errorf(canonical.CodeInvalidArgs, "--device ios matches %d iPhones: %s", len(phones), strings.Join(names, ", ")).
		WithHint("name one: --device ios:UDID")
}

// OpenIPhone starts the runner on a connected phone through the link,
// forwards a local port to it and attaches. Two-finger gestures are then
// refused (the runner reports a real device), and simctl's commands are
// UNSUPPORTED_OPERATION.
func OpenIPhone(ctx context.Context, cfg IPhoneConfig) (*Device, error) {
	if cfg.ReadyTimeout == 0 {
		cfg.ReadyTimeout = 120 * time.Second
	}
	phones, err := cfg.Link.List(ctx)
	if err != nil {
		return nil, err
	}
	phone, err := PickPhone(cfg.UDID, phones)
	if err != nil {
		return nil, err
	}
	return openHeld(ctx, cfg.LockDir, phone.UDID, func() (*Device, error) { return openLockedIPhone(ctx, cfg, phone) })
}

// openLockedIPhone is OpenIPhone once this run holds the phone.
func openLockedIPhone(ctx context.Context, cfg IPhoneConfig, phone Phone) (*Device, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "no free local port for the iOS runner: %v", err)
	}
	local := l.Addr().(*net.TCPAddr).Port
	l.Close()
	// The runner listens on the phone on a port of this session, not a
	// fixed one: a runner an earlier session left behind (its test still
	// running after a crash of flow) keeps its own port and cannot answer
	// for this one. An ephemeral port free here is as good as any
	// unprivileged port there.
	port := local
	bundleID := cfg.RunnerBundleID
	if bundleID == "" {
		bundleID = runnerBundleID
	}
	if cfg.Runner != nil {
		if bundleID, err = installRunner(ctx, cfg, phone); err != nil {
			return nil, err
		}
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done, err := cfg.Link.StartRunner(rctx, phone.UDID, bundleID, port)
	if err != nil {
		cancel()
		return nil, phoneErr(phone, "cannot start the runner", err)
	}
	stopFwd, err := cfg.Link.Forward(ctx, phone.UDID, local, port)
	if err != nil {
		cancel()
		return nil, phoneErr(phone, "cannot forward a port to the runner", err)
	}
	stop := func(context.Context) error {
		cancel()
		return stopFwd()
	}
	url := "http://127.0.0.1:" + strconv.Itoa(local)
	if err := waitForRunner(ctx, url, done, cfg.ReadyTimeout); err != nil {
		stop(ctx)
		return nil, phoneErr(phone, "the runner did not become ready", err)
	}
	installed := func(ctx context.Context, appID string) (bool, error) {
		apps, err := cfg.Link.Apps(ctx, phone.UDID)
		if err != nil {
			return false, phoneErr(phone, "cannot list its apps", err)
		}
		_, ok := apps[appID]
		return ok, nil
	}
	d, err := Attach(ctx, Config{URL: url, Name: phone.UDID, Installed: installed})
	if err != nil {
		stop(ctx)
		return nil, err
	}
	d.stop = stop
	d.install = func(ctx context.Context, app string) error {
		if err := cfg.Link.Install(ctx, phone.UDID, app); err != nil {
			return appFileError(err, app, phone.UDID)
		}
		return nil
	}
	return d, nil
}

// installRunner puts the runner on the phone unless the same build is
// there: comparing build numbers costs one installation-proxy query, an
// install costs seconds. It returns the runner's bundle id.
func installRunner(ctx context.Context, cfg IPhoneConfig, phone Phone) (string, error) {
	app, err := cfg.Runner(ctx)
	if err != nil {
		if ce, ok := canonical.AsError(err); ok {
			return "", ce.With("device", phone.UDID)
		}
		return "", err
	}
	if app.BundleID == "" {
		app.BundleID = runnerBundleID
	}
	apps, err := cfg.Link.Apps(ctx, phone.UDID)
	if err != nil {
		return "", phoneErr(phone, "cannot list its apps", err)
	}
	if have, ok := apps[app.BundleID]; ok && have == app.Version {
		return app.BundleID, nil
	}
	if err := cfg.Link.Install(ctx, phone.UDID, app.App); err != nil {
		return "", phoneErr(phone, "cannot install the runner "+app.App, err)
	}
	return app.BundleID, nil
}

// waitForRunner polls status until the runner answers, its test ends, or
// the timeout.
func waitForRunner(ctx context.Context, url string, done <-chan error, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/command", strings.NewReader(`{"command":"status","commandId":0}`))
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-done:
			if err == nil {
				err = fmt.Errorf("the runner's test ended")
			}
			return err
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v", timeout)
		}
	}
}

func phoneErr(p Phone, what string, err error) *canonical.Error {
	// The link's own coded errors (no tunnel, no disk image) already say
	// what to do.
	if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeDeviceUnavailable && ce.Hint != "" {
		return ce.With("device", p.UDID)
	}
	hint := "unlock the phone and trust this computer; set FLOW_IOS_TEAM to your development team so flow builds, signs and installs the runner (flow ios runner build --iphone --team TEAM)"
	if major, _, _ := strings.Cut(p.Version, "."); atoi(major) >= 17 {
		hint = "iOS 17 and later need go-ios's tunnel: run `ios tunnel start --userspace` on this computer, then run again; " + hint
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "iPhone %s (%s): %s: %v", p.UDID, p.Name, what, err).
		Wrap(err).With("device", p.UDID).WithHint(hint)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
