package ios

import (
	"context"
	"io"
	"os"
	"path/filepath"

	goios "github.com/danielpaulus/go-ios/ios"
	"github.com/danielpaulus/go-ios/ios/forward"
	"github.com/danielpaulus/go-ios/ios/installationproxy"
	"github.com/danielpaulus/go-ios/ios/testmanagerd"
	"github.com/danielpaulus/go-ios/ios/zipconduit"

	"github.com/flow-runner/flow/canonical"
)

// The runner's identifiers (ios-runner/PROTOCOL.md).
const (
	runnerBundleID   = "dev.flow.runner.UITests.xctrunner"
	runnerTestConfig = "FlowRunnerUITests.xctest"
)

// GoIOS is the PhoneLink of a real computer: go-ios over usbmuxd.
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

// StartRunner runs the runner's UI test through testmanagerd until ctx
// ends.
func (GoIOS) StartRunner(ctx context.Context, udid string, port int) (<-chan error, error) {
	dev, err := goios.GetDevice(udid)
	if err != nil {
		return nil, err
	}
	logs := filepath.Join(os.TempDir(), "flow-ios-runner-"+udid)
	listener := testmanagerd.NewTestListener(io.Discard, io.Discard, logs)
	done := make(chan error, 1)
	go func() {
		_, err := testmanagerd.RunTestWithConfig(ctx, testmanagerd.TestConfig{
			BundleId: runnerBundleID, TestRunnerBundleId: runnerBundleID, XctestConfigName: runnerTestConfig,
			Env: map[string]any{"FLOW_RUNNER_PORT": port}, Device: dev, Listener: listener})
		done <- err
	}()
	return done, nil
}

// Forward relays a local port to the phone.
func (GoIOS) Forward(ctx context.Context, udid string, local, port int) (func() error, error) {
	dev, err := goios.GetDevice(udid)
	if err != nil {
		return nil, err
	}
	cl, err := forward.Forward(dev, uint16(local), uint16(port))
	if err != nil {
		return nil, err
	}
	return cl.Close, nil
}

// InstalledVersion asks the installation proxy for the user app's
// CFBundleVersion.
func (GoIOS) InstalledVersion(ctx context.Context, udid, bundleID string) (string, error) {
	dev, err := goios.GetDevice(udid)
	if err != nil {
		return "", err
	}
	conn, err := installationproxy.New(dev)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	apps, err := conn.BrowseUserApps()
	if err != nil {
		return "", err
	}
	for _, a := range apps {
		if a.CFBundleIdentifier() == bundleID {
			v, _ := a[installationproxy.CFBundleVersion].(string)
			return v, nil
		}
	}
	return "", nil
}

// Install streams an .app folder to the phone (streaming_zip_conduit, as
// Xcode installs) and waits for the installation to finish.
func (GoIOS) Install(ctx context.Context, udid, app string) error {
	dev, err := goios.GetDevice(udid)
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
