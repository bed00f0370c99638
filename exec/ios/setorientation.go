package ios

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

var _ exec.Orienter = (*Device)(nil)

// CommandSetOrientation turns the device (ios-runner/PROTOCOL.md).
const CommandSetOrientation = "setOrientation"

// RunnerOrientation is the runner's name for one of Maestro's
// orientations: Maestro's own camel-case names (DeviceOrientation
// camelCaseName), which its iOS runner's SetOrientationHandler maps to
// UIDeviceOrientation (landscapeLeft to .landscapeLeft, upsideDown to
// .portraitUpsideDown). ok is false for any other value.
func RunnerOrientation(orientation string) (name string, ok bool) {
	switch orientation {
	case "PORTRAIT":
		return "portrait", true
	case "LANDSCAPE_LEFT":
		return "landscapeLeft", true
	case "LANDSCAPE_RIGHT":
		return "landscapeRight", true
	case "UPSIDE_DOWN":
		return "upsideDown", true
	}
	return "", false
}

// SetOrientation turns the device through the runner (XCUIDevice's
// orientation, as Maestro's iOS driver). A runner built before the
// command answers "unknown command"; that is UNSUPPORTED_OPERATION with
// the hint to rebuild it.
func (d *Device) SetOrientation(ctx context.Context, orientation string) error {
	name, ok := RunnerOrientation(orientation)
	if !ok {
		return canonical.Errorf(canonical.CodeInvalidArgs, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got %q", orientation)
	}
	err := d.c.call(ctx, CommandSetOrientation, map[string]any{"orientation": name}, 0, nil)
	if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeUnsupportedOperation && strings.Contains(ce.Message, "unknown command") {
		ce.Message = "the iOS runner of " + d.cfg.Name + " is older than setOrientation: " + ce.Message
		ce.With("reason", "RUNNER_TOO_OLD")
		ce.Hint = "rebuild the runner from this flow (flow ios runner build) and start it again; a runner attached with --ios-runner-url must be rebuilt by whoever started it"
	}
	return err
}
