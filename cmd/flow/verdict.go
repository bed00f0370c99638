package main

import (
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// runVerdict is what a finished run exits with (contracts §1), from the
// errors its flows ended with: 3 when any flow met a device or
// infrastructure failure (the device was lost, the driver failed: no
// verdict on the app can be trusted), else 2 when any flow had invalid
// input (it could not load, a gesture cannot fit the viewport, an
// argument was invalid once interpolated), else 1 when a flow failed, else
// nil. The error returned is the first flow error of that class; the
// flows' own lines already showed it.
func runVerdict(res exec.RunResult) error {
	var worst *canonical.Error
	for _, f := range res.Flows {
		if f.Status != exec.StatusFailed {
			continue
		}
		e := f.Error
		if e == nil {
			e = canonical.NewError(canonical.CodeAssertionFailed, "a flow failed")
		}
		if worst == nil || severity(e.Code) > severity(worst.Code) {
			worst = e
		}
	}
	if worst == nil {
		return nil
	}
	if exitCode(worst.Code) == exitOK {
		// A failed flow always fails the run.
		return reported{err: canonical.NewError(canonical.CodeAssertionFailed, "a flow failed")}
	}
	return reported{err: worst}
}

// severity orders exit statuses for a run with several failures: a device
// failure outranks invalid input, which outranks a failed flow.
func severity(code canonical.Code) int {
	switch exitCode(code) {
	case exitDevice:
		return 3
	case exitInvalid:
		return 2
	case exitFailed:
		return 1
	}
	return 0
}
