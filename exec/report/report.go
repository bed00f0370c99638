package report

import (
	"fmt"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// checkStatuses rejects a flow or step status outside contracts §6. Each
// format maps statuses onto its own vocabulary; an unknown one is a bug in
// whoever built the RunResult, better reported than silently misfiled.
func checkStatuses(run exec.RunResult) error {
	for i, f := range run.Flows {
		if !knownStatus(f.Status) {
			return canonical.Errorf(canonical.CodeInternal, "flow %d (%q) has unknown status %q", i+1, f.Name, f.Status)
		}
		for j, s := range f.Steps {
			if !knownStatus(s.Status) {
				return canonical.Errorf(canonical.CodeInternal, "flow %q step %d (%s) has unknown status %q", f.Name, j+1, s.Command, s.Status)
			}
			if s.Iterations != nil && s.Iterations.Omitted != nil {
				for st := range s.Iterations.Omitted.Steps {
					if !knownStatus(st) {
						return canonical.Errorf(canonical.CodeInternal, "flow %q step %d (%s) omitted steps with unknown status %q", f.Name, j+1, s.Command, st)
					}
				}
			}
		}
	}
	return nil
}

func knownStatus(s exec.Status) bool {
	switch s {
	case exec.StatusPassed, exec.StatusFailed, exec.StatusWarned, exec.StatusSkipped, exec.StatusInterrupted:
		return true
	}
	return false
}

// passedWithWarnings reports a flow that passed but had something downgraded
// to a warning: a flow marked warned, or a passed flow with a warned step
// (Maestro: WARNED commands do not change the flow status).
func passedWithWarnings(f exec.FlowResult) bool {
	switch f.Status {
	case exec.StatusWarned:
		return true
	case exec.StatusPassed:
		for _, s := range f.Steps {
			if s.Status == exec.StatusWarned {
				return true
			}
		}
	}
	return false
}

// wholeSeconds rounds a duration to whole seconds the way Maestro's
// TimeUtils.durationInSeconds does (roundToLong: halves round up), so 499 ms
// is 0 s and 500 ms is 1 s. Negative durations (a clock that went backwards)
// count as 0.
func wholeSeconds(ms int64) int64 {
	if ms <= 0 {
		return 0
	}
	return (ms + 500) / 1000
}

// humanDuration is a short, deterministic duration for people: 350ms, 4.2s,
// 1m 5s, 1h 2m 3s. Tenths of a second are truncated, not rounded.
func humanDuration(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%d.%ds", ms/1000, ms%1000/100)
	}
	s := wholeSeconds(ms)
	if s < 3600 {
		return fmt.Sprintf("%dm %ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh %dm %ds", s/3600, s%3600/60, s%60)
}

// deviceName is how a device is named in a report: its name, else its id.
func deviceName(d exec.DeviceInfo) string {
	if d.Name != "" {
		return d.Name
	}
	return d.ID
}
