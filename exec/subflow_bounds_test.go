package exec_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// fanOut builds levels flows where each runs the next twice; the last
// evaluates "count" then "check" (false on evaluation failAt of the
// countingScripts). Run to the end it would run 2^(levels-1) leaves.
func fanOut(levels int) *canonical.Flow { return fanOutWith(levels, false) }

// fanOutWith is fanOut with retry commands (maxRetries 0) in place of
// runFlow when retry is set.
func fanOutWith(levels int, retry bool) *canonical.Flow {
	var next *canonical.Flow
	for i := levels; i >= 1; i-- {
		f := &canonical.Flow{File: fmt.Sprintf("f%02d.yaml", i), Name: fmt.Sprintf("f%02d", i)}
		if next == nil {
			f.Commands = []canonical.Command{eval(3, "count"), check(4)}
		} else {
			for line := 3; line <= 4; line++ {
				meta := canonical.Meta{Name: "runFlow", Pos: canonical.Pos{File: f.File, Line: line, Col: 3}}
				if retry {
					meta.Name = "retry"
					f.Commands = append(f.Commands, &canonical.Retry{Meta: meta, MaxRetries: canonical.Text("0", meta.Pos), File: next.File, Flow: next})
					continue
				}
				f.Commands = append(f.Commands, &canonical.RunFlow{Meta: meta, File: next.File, Flow: next})
			}
		}
		next = f
	}
	return next
}

func runFanOut(t *testing.T, s *countingScripts, obs exec.Observer) exec.FlowResult {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.cancel = cancel
	clock := newClock()
	cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock, Observer: obs,
		NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
	return exec.RunFlow(ctx, cfg, fanOut(31))
}

// tally counts a result's steps by status, listed or summarised.
func tally(steps []exec.StepResult) map[exec.Status]int {
	out := map[exec.Status]int{}
	for _, s := range steps {
		out[s.Status]++
		if s.Iterations != nil && s.Iterations.Omitted != nil {
			for st, n := range s.Iterations.Omitted.Steps {
				out[st] += n
			}
		}
	}
	return out
}

// TestSubflowFanOutStaysBounded: 31 flows that each run the next twice
// would run 2^30 leaves. As with repeat, a runFlow command lists the steps
// of its first KeptIterations runs; later runs are summarised on their
// step (run 1 not listed: N steps …), so the result holds a bounded number
// of steps however long the fan-out runs, and still accounts for every
// step that ran. Stopped after 100,000 leaves here.
func TestSubflowFanOutStaysBounded(t *testing.T) {
	t.Parallel()
	const leaves = 100_000
	obs := &loopObserver{}
	s := &countingScripts{stopAt: leaves}
	res := runFanOut(t, s, obs)
	if res.Status != exec.StatusInterrupted {
		t.Fatalf("flow %s (%v), want interrupted", res.Status, res.Error)
	}
	if n := len(res.Steps); n > 2000 {
		t.Errorf("the result lists %d steps after %d leaves; want a bounded number (at most 2,000)", n, leaves)
	}
	if n := len(obs.lines); n > 2000 {
		t.Errorf("the observer saw %d lines; want a bounded number", n)
	}
	got := tally(res.Steps)
	// Each leaf is an evalScript and an assertTrue (the last leaf stopped
	// at its evalScript), each run of a leaf a runFlow step.
	if evals := got[exec.StatusPassed] + got[exec.StatusInterrupted]; evals < 3*leaves-2 {
		t.Errorf("steps accounted for: %v; want every one of the about %d that ran", got, 3*leaves)
	}
	// The interrupted path is listed: the runFlow steps down to the leaf
	// flow that was running.
	interrupted := 0
	for _, st := range res.Steps {
		if st.Status == exec.StatusInterrupted {
			interrupted++
		}
	}
	if interrupted != 30 {
		t.Errorf("%d interrupted steps listed, want the 30 runFlow steps on the path to the leaf that was running", interrupted)
	}
}

// A fan-out that fails keeps the failing path listed, as a loop keeps its
// failing run.
func TestSubflowFanOutKeepsTheFailure(t *testing.T) {
	t.Parallel()
	s := &countingScripts{failAt: 5000}
	res := runFanOut(t, s, nil)
	if res.Status != exec.StatusFailed {
		t.Fatalf("flow %s, want failed", res.Status)
	}
	var failed []string
	for _, st := range res.Steps {
		if st.Status == exec.StatusFailed {
			failed = append(failed, fmt.Sprintf("%d:%s", st.Depth, st.Command))
		}
	}
	if len(failed) != 31 || failed[0] != "0:runFlow" || failed[30] != "30:assertTrue" {
		t.Errorf("failed steps %v, want the assertTrue at depth 30 and the 30 runFlow steps above it", failed)
	}
	if n := len(res.Steps); n > 2000 {
		t.Errorf("the result lists %d steps", n)
	}
}

// TestNestingLimitAtRunTime: a chain of subflows deeper than the limit on
// nested blocks (256), which the loader refuses in files, is refused when
// it runs too (flows built otherwise, through the Go API), with
// INVALID_ARGS at the runFlow command that would go deeper, before it
// runs anything there.
func TestNestingLimitAtRunTime(t *testing.T) {
	t.Parallel()
	var next *canonical.Flow
	for i := 300; i >= 1; i-- {
		f := &canonical.Flow{File: fmt.Sprintf("c%03d.yaml", i), Name: fmt.Sprintf("c%03d", i)}
		if next == nil {
			f.Commands = []canonical.Command{eval(3, "count")}
		} else {
			f.Commands = []canonical.Command{&canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: canonical.Pos{File: f.File, Line: 3, Col: 3}}, File: next.File, Flow: next}}
		}
		next = f
	}
	s := &countingScripts{}
	clock := newClock()
	cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock,
		NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
	res := exec.RunFlow(context.Background(), cfg, next)
	if res.Status != exec.StatusFailed || res.Error == nil || res.Error.Code != canonical.CodeInvalidArgs {
		t.Fatalf("flow %s %v, want failed with INVALID_ARGS", res.Status, res.Error)
	}
	if want := (canonical.Pos{File: "c257.yaml", Line: 3, Col: 3}); res.Error.Pos != want || !strings.Contains(res.Error.Message, "the limit is 256") {
		t.Errorf("error %v at %v, want the limit at %v", res.Error.Message, res.Error.Pos, want)
	}
	if s.count != 0 {
		t.Errorf("the leaf ran %d times", s.count)
	}
}

// retry runs its subflow file the same way, so a fan-out of retry
// commands is bounded too.
func TestRetryFanOutStaysBounded(t *testing.T) {
	t.Parallel()
	const leaves = 20_000
	s := &countingScripts{stopAt: leaves}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.cancel = cancel
	clock := newClock()
	cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock,
		NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
	res := exec.RunFlow(ctx, cfg, fanOutWith(31, true))
	if n := len(res.Steps); res.Status != exec.StatusInterrupted || n > 2000 {
		t.Errorf("flow %s with %d steps listed, want interrupted with a bounded number", res.Status, n)
	}
	if got := tally(res.Steps); got[exec.StatusPassed]+got[exec.StatusInterrupted] < 3*leaves-2 {
		t.Errorf("steps accounted for: %v", got)
	}
}
