package ios

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	goios "github.com/danielpaulus/go-ios/ios"
	"github.com/danielpaulus/go-ios/ios/forward"
	"github.com/danielpaulus/go-ios/ios/imagemounter"
	"github.com/danielpaulus/go-ios/ios/installationproxy"
	"github.com/danielpaulus/go-ios/ios/testmanagerd"
	"github.com/danielpaulus/go-ios/ios/zipconduit"

	"github.com/flow-runner/flow/canonical"
)

// The runner's identifiers (ios-runner/PROTOCOL.md). A runner built
// with a signing team has ids made of the team (ios-runner.BundleIDs);
// these are a build's without one (simulators).
const (
	runnerBundleID   = "dev.flow.runner.UITests.xctrunner"
	runnerTestConfig = "FlowRunnerUITests.xctest"
)

// GoIOS is the PhoneLink of a real computer: go-ios over usbmuxd, and on
// iOS 17 and later through the tunnel go-ios's agent keeps.
type GoIOS struct{}

// List is usbmuxd's device list with each phone's name and version.
func (GoIOS) List(ctx context.Context) ([]Phone, error) {
	list, err := goios.ListDevices()
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "cannot list iPhones: %v", err).Wrap(err).
			WithHint("real iPhones need usbmuxd (Debian: apt-get install usbmuxd; macOS has it); simulators need a Mac with Xcode")
	}
	var out []Phone
	for _, d := range list.DeviceList {
		p := Phone{UDID: d.Properties.SerialNumber}
		if v, err := goios.GetValues(d); err == nil {
			p.Name, p.Version = v.Value.DeviceName, v.Value.ProductVersion
		}
		out = append(out, p)
	}
	return out, nil
}

// tunnelAgent is where go-ios's agent (`ios tunnel start`) serves its
// tunnel list: GO_IOS_AGENT_HOST and GO_IOS_AGENT_PORT, else 127.0.0.1
// and its default port (go-ios ios/connect.go HttpApiHost, HttpApiPort).
func tunnelAgent() (string, int) { return goios.HttpApiHost(), goios.HttpApiPort() }

// agentTunnel is a tunnel as go-ios's agent describes it (GET
// /tunnel/UDID answers its tunnel.Tunnel as JSON; go-ios
// ios/tunnel/tunnel.go, tunnel_api.go). flow reads the agent over HTTP
// itself: go-ios's tunnel package would bring in the whole userspace
// network stack that only the agent needs.
type agentTunnel struct {
	Address          string `json:"address"`
	RsdPort          int    `json:"rsdPort"`
	Udid             string `json:"udid"`
	UserspaceTUN     bool   `json:"userspaceTun"`
	UserspaceTUNPort int    `json:"userspaceTunPort"`
}

// lookupTunnel asks go-ios's agent at host:port for udid's tunnel, as
// go-ios's own CLI does before any iOS 17+ command (its resolveDevice,
// through tunnel.TunnelInfoForDevice). No agent, or an agent without a
// tunnel for this phone (HTTP 404), is DEVICE_UNAVAILABLE saying how to
// start one.
func lookupTunnel(ctx context.Context, udid, host string, port int) (agentTunnel, error) {
	agent := net.JoinHostPort(host, strconv.Itoa(port))
	fail := func(what string, err error) (agentTunnel, error) {
		return agentTunnel{}, canonical.Errorf(canonical.CodeDeviceUnavailable, "iPhone %s runs iOS 17 or later, which XCUITest reaches only through a tunnel: %s (%v)", udid, what, err).
			Wrap(err).With("device", udid).
			WithHint("start go-ios's tunnel on this computer and leave it running: `ios tunnel start --userspace` (or `sudo ios tunnel start`); GO_IOS_AGENT_HOST and GO_IOS_AGENT_PORT name an agent elsewhere")
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, "http://"+agent+"/tunnel/"+url.PathEscape(udid), nil)
	if err != nil {
		return fail("bad agent address "+agent, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fail("no go-ios tunnel agent answers at "+agent, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusNotFound {
		return fail("go-ios's tunnel agent at "+agent+" has no tunnel to this iPhone", fmt.Errorf("HTTP 404: %s", clip(body, 200)))
	}
	if resp.StatusCode != http.StatusOK {
		return fail("go-ios's tunnel agent at "+agent+" failed", fmt.Errorf("HTTP %d: %s", resp.StatusCode, clip(body, 200)))
	}
	var t agentTunnel
	if err := json.Unmarshal(body, &t); err != nil || t.Address == "" || t.RsdPort <= 0 || t.RsdPort > 65535 {
		return fail("go-ios's tunnel agent at "+agent+" answered no tunnel address and RSD port", fmt.Errorf("%s", clip(body, 200)))
	}
	return t, nil
}

// device is the phone's go-ios entry, with the tunnel's address and RSD
// services filled in on iOS 17 and later: GetDevice alone has neither,
// and every testmanagerd, installation and image call then fails
// "missing tunnel address and RSD port" (go-ios ios/connect.go).
func (GoIOS) device(ctx context.Context, udid string) (goios.DeviceEntry, error) {
	dev, err := goios.GetDevice(udid)
	if err != nil {
		return dev, err
	}
	v, err := goios.GetProductVersion(dev)
	if err != nil || v.Major() < 17 {
		return dev, nil
	}
	host, port := tunnelAgent()
	t, err := lookupTunnel(ctx, udid, host, port)
	if err != nil {
		return dev, err
	}
	rsd, err := goios.NewWithAddrPortDevice(t.Address, t.RsdPort, withUserspace(dev, t, host))
	if err != nil {
		return dev, tunnelBroken(udid, t, err)
	}
	defer rsd.Close()
	services, err := rsd.Handshake()
	if err != nil {
		return dev, tunnelBroken(udid, t, err)
	}
	full, err := goios.GetDeviceWithAddress(udid, t.Address, services)
	if err != nil {
		return dev, err
	}
	return withUserspace(full, t, host), nil
}

// withUserspace copies the agent's userspace-TUN port onto an entry, as
// go-ios's CLI does (a userspace tunnel is reached through the agent's
// host).
func withUserspace(dev goios.DeviceEntry, t agentTunnel, host string) goios.DeviceEntry {
	dev.UserspaceTUN, dev.UserspaceTUNPort, dev.UserspaceTUNHost = t.UserspaceTUN, t.UserspaceTUNPort, host
	return dev
}

func tunnelBroken(udid string, t agentTunnel, err error) error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "iPhone %s: go-ios's tunnel at [%s]:%d does not answer: %v", udid, t.Address, t.RsdPort, err).
		Wrap(err).With("device", udid).
		WithHint("restart the tunnel (`ios tunnel stop`, then `ios tunnel start --userspace`), unlock the phone and run again")
}

// checkDiskImage says what to do when the phone has no developer disk
// image mounted: testmanagerd, which runs the runner, exists only once one
// is (Xcode mounts it when the phone is first used for development).
func checkDiskImage(udid string, images [][]byte, err error) error {
	if err != nil {
		return canonical.Errorf(canonical.CodeDeviceUnavailable, "iPhone %s: cannot ask which developer disk image is mounted: %v", udid, err).
			Wrap(err).With("device", udid).
			WithHint("turn on Developer Mode (Settings → Privacy & Security), unlock the phone and trust this computer, then run again")
	}
	if len(images) == 0 {
		return canonical.Errorf(canonical.CodeDeviceUnavailable, "iPhone %s has no developer disk image mounted, so XCUITest cannot run on it", udid).
			With("device", udid).
			WithHint("mount one: `ios image auto --udid=" + udid + "` (go-ios downloads and mounts the image for the phone's iOS), or connect the phone to Xcode once")
	}
	return nil
}

// runnerEnv is the runner test's environment: go-ios hands testmanagerd
// string values (its own callers pass strings), and the runner reads
// FLOW_RUNNER_PORT as a string.
func runnerEnv(port int) map[string]any {
	return map[string]any{"FLOW_RUNNER_PORT": strconv.Itoa(port)}
}

// StartRunner runs the runner's UI test through testmanagerd until ctx
// ends.
func (g GoIOS) StartRunner(ctx context.Context, udid, bundleID string, port int) (<-chan error, error) {
	dev, err := g.device(ctx, udid)
	if err != nil {
		return nil, err
	}
	mounter, err := imagemounter.NewImageMounter(dev)
	var images [][]byte
	if err == nil {
		images, err = mounter.ListImages()
		mounter.Close()
	}
	if err := checkDiskImage(udid, images, err); err != nil {
		return nil, err
	}
	logs := filepath.Join(os.TempDir(), "flow-ios-runner-"+udid)
	listener := testmanagerd.NewTestListener(io.Discard, io.Discard, logs)
	done := make(chan error, 1)
	go func() {
		_, err := testmanagerd.RunTestWithConfig(ctx, testmanagerd.TestConfig{
			BundleId: bundleID, TestRunnerBundleId: bundleID, XctestConfigName: runnerTestConfig,
			Env: runnerEnv(port), Device: dev, Listener: listener})
		done <- err
	}()
	return done, nil
}

// Forward relays a local port to the phone.
func (g GoIOS) Forward(ctx context.Context, udid string, local, port int) (func() error, error) {
	dev, err := g.device(ctx, udid)
	if err != nil {
		return nil, err
	}
	cl, err := forward.Forward(dev, uint16(local), uint16(port))
	if err != nil {
		return nil, err
	}
	return cl.Close, nil
}

// Apps asks the installation proxy for every app on the phone, user and
// system (Safari, Settings), with its CFBundleVersion.
func (g GoIOS) Apps(ctx context.Context, udid string) (map[string]string, error) {
	dev, err := g.device(ctx, udid)
	if err != nil {
		return nil, err
	}
	conn, err := installationproxy.New(dev)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	apps, err := conn.BrowseAllApps()
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(apps))
	for _, a := range apps {
		v, _ := a[installationproxy.CFBundleVersion].(string)
		out[a.CFBundleIdentifier()] = v
	}
	return out, nil
}

// Install streams an .app folder to the phone (streaming_zip_conduit, as
// Xcode installs) and waits for the installation to finish.
func (g GoIOS) Install(ctx context.Context, udid, app string) error {
	dev, err := g.device(ctx, udid)
	if err != nil {
		return err
	}
	conn, err := zipconduit.New(dev)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.SendFile(app)
}
