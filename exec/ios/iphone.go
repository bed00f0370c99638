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
}

// runnerPhonePort is the port the runner listens on inside the phone.
const runnerPhonePort = 22087

// IPhoneConfig opens a real device.
type IPhoneConfig struct {
	// UDID names the phone; empty picks the one connected.
	UDID         string
	Link         PhoneLink
	ReadyTimeout time.Duration // 0: 120 s
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
	return d, nil
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
	hint := "unlock the phone, trust this computer, and make sure the runner is installed and signed for it (xcodebuild build-for-testing with your team)"
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
