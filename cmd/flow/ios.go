package main

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/ios"
)

func isIOSDevice(device string) bool {
	return device == "ios" || strings.HasPrefix(device, "ios:")
}

// openIOS attaches to the runner --ios-runner-url names, or, on a Mac,
// opens the simulator --device ios[:UDID] names and starts the runner on
// it (FLOW_IOS_RUNNER_XCTESTRUN: the built runner). Real iPhones (go-ios)
// are not in this flow yet.
func openIOS(ctx context.Context, o testOptions) (exec.Device, error) {
	udid, _ := strings.CutPrefix(o.device, "ios:")
	if udid == "ios" {
		udid = ""
	}
	if o.iosRunnerURL != "" {
		name := o.iosRunnerURL
		if udid != "" {
			name = udid
		}
		return ios.Attach(ctx, ios.Config{URL: o.iosRunnerURL, Name: name})
	}
	lookPath := o.sys.LookPath
	if lookPath == nil {
		lookPath = func(string) (string, error) { return "", errNoLookPath }
	}
	xcrun, err := lookPath("xcrun")
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "device %q needs Xcode: xcrun is not on PATH", o.device).
			WithHint("run flow on a Mac with Xcode (xcode-select --install), or attach to a runner started elsewhere with --ios-runner-url http://HOST:PORT")
	}
	getenv := o.sys.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var env []string
	if o.sys.Environ != nil {
		env = o.sys.Environ()
	}
	return ios.OpenSimulator(ctx, ios.SimulatorConfig{UDID: udid, Xcrun: xcrun, XCTestRun: getenv("FLOW_IOS_RUNNER_XCTESTRUN"), Env: env})
}
