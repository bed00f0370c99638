package exec

import "github.com/flow-runner/flow/canonical"

// Status is the outcome of a flow or a step (contracts §6).
type Status string

// Outcomes.
const (
	StatusPassed  Status = "passed"
	StatusFailed  Status = "failed"
	StatusWarned  Status = "warned"
	StatusSkipped Status = "skipped"
)

// StepResult is one executed command.
type StepResult struct {
	Command string `json:"command"`
	Label   string `json:"label,omitempty"`
	// Description is the step as the console shows it ("Tap on "Log in""),
	// its label when it has one.
	Description string           `json:"description,omitempty"`
	Status      Status           `json:"status"`
	DurationMs  int64            `json:"durationMs"`
	Pos         canonical.Pos    `json:"pos"`
	Depth       int              `json:"depth,omitempty"`
	Error       *canonical.Error `json:"error,omitempty"`
	Logs        []string         `json:"logs,omitempty"`
}

// FlowResult is one flow of a run.
type FlowResult struct {
	Name       string           `json:"name"`
	File       string           `json:"file"`
	Status     Status           `json:"status"`
	DurationMs int64            `json:"durationMs"`
	Error      *canonical.Error `json:"error,omitempty"`
	Steps      []StepResult     `json:"steps"`
	// Artifacts are files written for this flow (failure screenshot and
	// hierarchy), relative to the artifacts folder.
	Artifacts []string `json:"artifacts,omitempty"`
	Shard     int      `json:"shard,omitempty"`
}

// RunResult is a whole run.
type RunResult struct {
	Device     DeviceInfo   `json:"device"`
	DurationMs int64        `json:"durationMs"`
	Flows      []FlowResult `json:"flows"`
}

// Counts tallies flows by status.
func (r RunResult) Counts() (passed, failed, skipped int) {
	for _, f := range r.Flows {
		switch f.Status {
		case StatusPassed, StatusWarned:
			passed++
		case StatusFailed:
			failed++
		case StatusSkipped:
			skipped++
		}
	}
	return passed, failed, skipped
}
