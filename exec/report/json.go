package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// JSON writes run as the report of contracts §6, indented by two spaces and
// ending in a newline:
//
//	{"summary":{"passed","failed","skipped","durationMs"},
//	 "flows":[{"name","file","status","durationMs","error"?,
//	           "steps":[{"command","status","durationMs","pos"}]}]}
//
// A flow's status is passed, failed, interrupted or skipped: a warned flow
// is "passed" (and counts as passed in the summary). "interrupted" is an
// addition: the flow that was running when the run was stopped (Ctrl-C,
// SIGTERM), also a step's status; the flows that had not started are
// skipped, with an INTERRUPTED error saying why. summary.interrupted is
// present when a flow was interrupted. error is the contracts §2 object
// (hint, pos and details only when known). summary.durationMs is the run's
// duration, not the sum of the flows'.
//
// Added fields, present only when they have a value: top-level "device"
// ({platform, name, id}); per flow "warned" (true when a passed flow had a
// warning), "shard", "artifacts" (file names in the artifacts folder); per
// step "label", "depth" (nesting under runFlow, repeat, retry, ...),
// "error" (why it failed or warned), "logs", "iteration" (on the steps of a
// repeat's or retry's body: which run or attempt, from 1) and, on a repeat,
// "iterations":
//
//	{"count": 100000, "omitted": {"first": 11, "last": 99999,
//	  "steps": {"passed": 199978}, "logs": 0, "durationMs": 1999780}}
//
// count is how many runs the body had. A repeat lists the steps of its
// first ten runs and of its last run; omitted ("logs" only when not 0)
// counts what the runs between did, steps of every depth by status, so a
// report stays small however long a loop ran.
func JSON(w io.Writer, run exec.RunResult) error {
	if err := checkStatuses(run); err != nil {
		return err
	}
	t := run.Tally()
	doc := jsonReport{
		Summary: jsonSummary{Passed: t.Passed, Failed: t.Failed, Interrupted: t.Interrupted, Skipped: t.Skipped,
			DurationMs: run.DurationMs},
		Flows: make([]jsonFlow, 0, len(run.Flows)),
	}
	if run.Device != (exec.DeviceInfo{}) {
		d := run.Device
		doc.Device = &d
	}
	for _, f := range run.Flows {
		doc.Flows = append(doc.Flows, newJSONFlow(f))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil { // Encode ends the document with a newline
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// The report is spelled out here, not borrowed from exec's json tags, so the
// contract lives next to the code that must keep it.
type jsonReport struct {
	Summary jsonSummary      `json:"summary"`
	Device  *exec.DeviceInfo `json:"device,omitempty"`
	Flows   []jsonFlow       `json:"flows"`
}

type jsonSummary struct {
	Passed      int   `json:"passed"`
	Failed      int   `json:"failed"`
	Interrupted int   `json:"interrupted,omitempty"`
	Skipped     int   `json:"skipped"`
	DurationMs  int64 `json:"durationMs"`
}

type jsonFlow struct {
	Name       string           `json:"name"`
	File       string           `json:"file"`
	Status     exec.Status      `json:"status"`
	DurationMs int64            `json:"durationMs"`
	Error      *canonical.Error `json:"error,omitempty"`
	Warned     bool             `json:"warned,omitempty"`
	Shard      int              `json:"shard,omitempty"`
	Artifacts  []string         `json:"artifacts,omitempty"`
	Steps      []jsonStep       `json:"steps"`
}

type jsonStep struct {
	Command     string           `json:"command"`
	Label       string           `json:"label,omitempty"`
	Description string           `json:"description,omitempty"`
	Status      exec.Status      `json:"status"`
	DurationMs  int64            `json:"durationMs"`
	Pos         canonical.Pos    `json:"pos"`
	Depth       int              `json:"depth,omitempty"`
	Error       *canonical.Error `json:"error,omitempty"`
	Logs        []string         `json:"logs,omitempty"`
	Iteration   int              `json:"iteration,omitempty"`
	Iterations  *jsonIterations  `json:"iterations,omitempty"`
}

type jsonIterations struct {
	Count   int          `json:"count"`
	Omitted *jsonOmitted `json:"omitted,omitempty"`
}

type jsonOmitted struct {
	First      int                 `json:"first"`
	Last       int                 `json:"last"`
	Steps      map[exec.Status]int `json:"steps"`
	Logs       int                 `json:"logs,omitempty"`
	DurationMs int64               `json:"durationMs"`
}

func newJSONIterations(it *exec.Iterations) *jsonIterations {
	if it == nil {
		return nil
	}
	out := &jsonIterations{Count: it.Count}
	if o := it.Omitted; o != nil {
		out.Omitted = &jsonOmitted{First: o.First, Last: o.Last, Steps: o.Steps, Logs: o.Logs, DurationMs: o.DurationMs}
	}
	return out
}

func newJSONFlow(f exec.FlowResult) jsonFlow {
	out := jsonFlow{
		Name: f.Name, File: f.File, Status: f.Status, DurationMs: f.DurationMs, Error: f.Error,
		Warned: passedWithWarnings(f), Shard: f.Shard, Artifacts: f.Artifacts,
		Steps: make([]jsonStep, 0, len(f.Steps)),
	}
	if out.Status == exec.StatusWarned {
		out.Status = exec.StatusPassed // contracts §6: a warned flow passed
	}
	for _, s := range f.Steps {
		out.Steps = append(out.Steps, jsonStep{
			Command: s.Command, Label: s.Label, Description: s.Description, Status: s.Status, DurationMs: s.DurationMs,
			Pos: s.Pos, Depth: s.Depth, Error: s.Error, Logs: s.Logs,
			Iteration: s.Iteration, Iterations: newJSONIterations(s.Iterations),
		})
	}
	return out
}
