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

// openIOS attaches to the runner --ios-runner-url names. Starting a
// runner on a simulator (xcrun simctl, xcodebuild) or an iPhone (go-ios)
// is not in this flow yet: without the URL, an iOS device is unavailable
// and the hint says how to run one.
func openIOS(ctx context.Context, o testOptions) (exec.Device, error) {
	if o.iosRunnerURL == "" {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "device %q: flow cannot start its iOS runner here yet", o.device).
			WithHint("start the runner on the Mac (ios-runner/PROTOCOL.md, \"Start and stop\") and pass --ios-runner-url http://HOST:PORT; go run ./internal/fakeios serves a fake one")
	}
	name := o.iosRunnerURL
	if udid, ok := strings.CutPrefix(o.device, "ios:"); ok && udid != "" {
		name = udid
	}
	return ios.Attach(ctx, ios.Config{URL: o.iosRunnerURL, Name: name})
}
