package exec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flow-runner/flow/canonical"
)

// Status is the outcome of a flow or a step (contracts §6).
type Status string

// Outcomes.
const (
	StatusPassed  Status = "passed"
	StatusFailed  Status = "failed"
	StatusWarned  Status = "warned"
	StatusSkipped Status = "skipped"
	// StatusInterrupted is a flow (and its step) that was running when
	// the run was stopped (Ctrl-C, SIGTERM); flows that had not started
	// are skipped.
	StatusInterrupted Status = "interrupted"
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
	// Iteration numbers, from 1, the run of the enclosing repeat (or the
	// attempt of the enclosing retry) a step of its body belongs to; it is
	// set on the body's own steps, not on steps nested deeper.
	Iteration int `json:"iteration,omitempty"`
	// Iterations summarises a repeat's runs, and the one run of a runFlow
	// (or a retry's last attempt) whose steps are not listed (see
	// KeptIterations); nil for other commands.
	Iterations *Iterations `json:"iterations,omitempty"`
}

// KeptIterations is how many runs of a repeat, from the first, keep their
// steps in the result. After them only the last run is kept (the one that
// failed or was interrupted, if any); the runs between are counted in
// Iterations.Omitted. A loop of any length thus holds at most
// KeptIterations+2 runs' steps in memory and in every report. A runFlow
// or retry command likewise lists the steps of its first KeptIterations
// runs; a later run that passes, and every passing subflow inside a run
// no observer sees, is summarised on its own step (subflow.go), so
// subflows that fan out stay bounded too.
const KeptIterations = 10

// Iterations is how a repeat ran.
type Iterations struct {
	// Count is how many times the body ran, a failed or interrupted last
	// run included.
	Count int `json:"count"`
	// Omitted summarises the runs whose steps are not listed.
	Omitted *OmittedRuns `json:"omitted,omitempty"`
}

// OmittedRuns is what the runs a result does not list did: runs First to
// Last (from 1, inclusive), which always lie between the first
// KeptIterations runs and the last run.
type OmittedRuns struct {
	First int `json:"first"`
	Last  int `json:"last"`
	// Steps counts their steps at every depth by status, including the
	// steps nested loops omitted in turn.
	Steps map[Status]int `json:"steps"`
	// Logs counts the log lines they printed.
	Logs       int   `json:"logs,omitempty"`
	DurationMs int64 `json:"durationMs"`
}

// Runs is how many runs were omitted.
func (o OmittedRuns) Runs() int { return o.Last - o.First + 1 }

// String says the same in every output which runs are not listed and what
// their steps did: "runs 11–99999 not listed: 199978 steps passed", "run
// 11 not listed: 3 steps (2 passed, 1 warned), 4 log lines".
func (o OmittedRuns) String() string {
	var b strings.Builder
	if o.First == o.Last {
		fmt.Fprintf(&b, "run %d not listed: ", o.First)
	} else {
		fmt.Fprintf(&b, "runs %d–%d not listed: ", o.First, o.Last)
	}
	total := 0
	statuses := statusOrder(o.Steps)
	kinds := make([]string, len(statuses))
	for i, st := range statuses {
		total += o.Steps[st]
		kinds[i] = fmt.Sprintf("%d %s", o.Steps[st], st)
	}
	switch len(statuses) {
	case 0:
		b.WriteString("no steps")
	case 1:
		fmt.Fprintf(&b, "%d %s %s", total, plural(total, "step", "steps"), statuses[0])
	default:
		fmt.Fprintf(&b, "%d steps (%s)", total, strings.Join(kinds, ", "))
	}
	if o.Logs > 0 {
		fmt.Fprintf(&b, ", %d log %s", o.Logs, plural(o.Logs, "line", "lines"))
	}
	return b.String()
}

// statusOrder lists the statuses counted in steps: the known ones first,
// from the most common, then any other in name order.
func statusOrder(steps map[Status]int) []Status {
	var out, rest []Status
	for _, st := range []Status{StatusPassed, StatusWarned, StatusSkipped, StatusFailed} {
		if steps[st] > 0 {
			out = append(out, st)
		}
	}
	for st, n := range steps {
		if n > 0 && !slices.Contains(out, st) {
			rest = append(rest, st)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
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

// Counts tallies flows by status; interrupted flows are in none of the
// three (see Tally).
func (r RunResult) Counts() (passed, failed, skipped int) {
	t := r.Tally()
	return t.Passed, t.Failed, t.Skipped
}

// Tally is how many flows ended in each status; a warned flow passed.
type Tally struct {
	Passed, Failed, Interrupted, Skipped int
}

// Tally counts the flows by status.
func (r RunResult) Tally() Tally {
	var t Tally
	for _, f := range r.Flows {
		switch f.Status {
		case StatusPassed, StatusWarned:
			t.Passed++
		case StatusFailed:
			t.Failed++
		case StatusInterrupted:
			t.Interrupted++
		case StatusSkipped:
			t.Skipped++
		}
	}
	return t
}
