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
	// StartRunner starts the runner's UI test with FLOW_RUNNER_PORT=port;
	// done receives the test's end (an error when it could not run).
	StartRunner(ctx context.Context, udid string, port int) (done <-chan error, err error)
	// Forward relays connections to 127.0.0.1:local to port on the phone.
	Forward(ctx context.Context, udid string, local, port int) (stop func() error, err error)
	// InstalledVersion is the CFBundleVersion of the app bundleID on the
	// phone, or "" when it is not installed.
	InstalledVersion(ctx context.Context, udid, bundleID string) (string, error)
	// Install installs an .app folder (built for iphoneos and signed).
	Install(ctx context.Context, udid, app string) error
}

// RunnerApp is a runner built for iPhones: the signed
// FlowRunnerUITests-Runner.app and the build number it carries.
type RunnerApp struct {
	App     string
	Version string
}

// runnerPhonePort is the port the runner listens on inside the phone.
const runnerPhonePort = 22087

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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "no free local port for the iOS runner: %v", err)
	}
	local := l.Addr().(*net.TCPAddr).Port
	l.Close()
	if cfg.Runner != nil {
		if err := installRunner(ctx, cfg, phone); err != nil {
			return nil, err
		}
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done, err := cfg.Link.StartRunner(rctx, phone.UDID, runnerPhonePort)
	if err != nil {
		cancel()
		return nil, phoneErr(phone, "cannot start the runner", err)
	}
	stopFwd, err := cfg.Link.Forward(ctx, phone.UDID, local, runnerPhonePort)
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
	d, err := Attach(ctx, Config{URL: url, Name: phone.UDID})
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
// install costs seconds.
func installRunner(ctx context.Context, cfg IPhoneConfig, phone Phone) error {
	app, err := cfg.Runner(ctx)
	if err != nil {
		if ce, ok := canonical.AsError(err); ok {
			return ce.With("device", phone.UDID)
		}
		return err
	}
	have, err := cfg.Link.InstalledVersion(ctx, phone.UDID, runnerBundleID)
	if err != nil {
		return phoneErr(phone, "cannot list its apps", err)
	}
	if have != "" && have == app.Version {
		return nil
	}
	if err := cfg.Link.Install(ctx, phone.UDID, app.App); err != nil {
		return phoneErr(phone, "cannot install the runner "+app.App, err)
	}
	return nil
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
