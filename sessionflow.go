package flow

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// ParseLine normalizes one .ad action line as Do would, without running
// it: flow studio shows a mistyped line's error before touching the
// device.
func (s *Session) ParseLine(line string) (*canonical.Flow, error) {
	command, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	act, err := s.parse(command, line)
	if err != nil {
		return nil, err
	}
	return act.flow, nil
}

// RunFlow runs a normalized flow (a Maestro snippet the maestro loader
// read, a line ParseLine read) on the session's device as one action:
// the sim state and the event log are kept as after Do. The flow's Name
// names it in the events.
func (s *Session) RunFlow(ctx context.Context, f *canonical.Flow) (Outcome, error) {
	if err := s.open(ctx); err != nil {
		return Outcome{}, err
	}
	out, err := s.run(ctx, &deviceAction{command: "flow", line: f.Name, flow: f})
	for _, w := range f.Warnings {
		out.Warnings = append(out.Warnings, w.Message)
	}
	return out, err
}
