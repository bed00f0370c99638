package studio

import (
	"context"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Session is the one device studio drives. Studio calls it from one
// request at a time.
type Session interface {
	// Screenshot is a PNG of the screen.
	Screenshot(ctx context.Context) ([]byte, error)
	// Hierarchy reads the element tree and the viewport it lies in.
	Hierarchy(ctx context.Context) (*exec.Node, canonical.Viewport, error)
	// ParseLine normalizes one .ad action line as the CLI does.
	ParseLine(line string) (*canonical.Flow, error)
	// Run runs a normalized flow on the device.
	Run(ctx context.Context, f *canonical.Flow) (exec.FlowResult, error)
	// Reopen drops the device and opens it again, after it was lost.
	Reopen(ctx context.Context) error
}
