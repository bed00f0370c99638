package exec_test

// Regression tests for repeat and retry: Maestro's counts, the bounded
// result of long loops, and Ctrl-C inside loops. The body commands are
// evalScript and assertTrue over a scripted engine that counts what it
// evaluates, so a loop's runs are counted exactly without a device.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// countingScripts evaluates literal templates and counts them: "count"
// counts a body run, "cond" a while condition ("true" until condFalseAt
// evaluations, if set), "log" prints a line, and "check" is "false" on body
// run failAt. The run is cancelled when the count reaches stopAt.
type countingScripts struct {
	literalScripts
	log                 func(string)
	count, conds, times int
	stopAt, failAt      int
	condFalseAt         int
	cancel              context.CancelFunc
}

func (s *countingScripts) Interpolate(_ context.Context, t canonical.Template) (string, error) {
	switch t.Raw {
	case "count":
		s.count++
		if s.count == s.stopAt {
			s.cancel()
		}
	case "cond":
		s.conds++
		if s.condFalseAt > 0 && s.conds >= s.condFalseAt {
			return "false", nil
		}
		return "true", nil
	case "log":
		s.log(fmt.Sprintf("line %d", s.count))
	case "check":
		if s.count == s.failAt {
			return "false", nil
		}
		return "true", nil
	}
	if strings.HasPrefix(t.Raw, "times:") {
		s.times++
		return strings.TrimPrefix(t.Raw, "times:"), nil
	}
	v, _ := t.Literal()
	return v, nil
}

func eval(line int, what string) canonical.Command {
	return &canonical.EvalScript{Meta: canonical.Meta{Name: "evalScript", Pos: at(line)}, Script: canonical.Text(what, at(line))}
}

func check(line int) canonical.Command {
	return &canonical.AssertTrue{Meta: canonical.Meta{Name: "assertTrue", Pos: at(line)}, Condition: canonical.Text("check", at(line))}
}

func repeatCmd(line int, times *string, while bool, body ...canonical.Command) *canonical.Repeat {
	r := &canonical.Repeat{Meta: canonical.Meta{Name: "repeat", Pos: at(line)}, Commands: body}
	if times != nil {
		t := canonical.Text("times:"+*times, at(line))
		r.Times = &t
	}
	if while {
		c := canonical.Text("cond", at(line))
		r.While = &canonical.Condition{True: &c}
	}
	return r
}

func str(s string) *string { return &s }

// runCounting runs cmds on the still device (launched) with s as the
// script engine and obs as the observer.
func runCounting(t *testing.T, s *countingScripts, obs exec.Observer, cmds ...canonical.Command) exec.FlowResult {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.cancel = cancel
	clock := newClock()
	cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock, Observer: obs,
		NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
	return exec.RunFlow(ctx, cfg, &canonical.Flow{File: "flow.yaml", Name: "flow", Commands: cmds})
}

// TestRepeatCountsFollowMaestro: times is times.toDoubleOrNull()?.toInt()
// ?: Int.MAX_VALUE (Orchestra.kt repeatCommand). Counts at or below zero,
// and NaN, run nothing and the repeat is skipped; text that is not a
// number, infinity and counts beyond the Int range have no practical
// limit, so those loops run until Ctrl-C (here: after 3,000 runs).
func TestRepeatCountsFollowMaestro(t *testing.T) {
	t.Parallel()
	const stop = 3000
	for _, tc := range []struct {
		times *string
		runs  int
	}{
		{str("3"), 3}, {str(" 3 "), 3}, {str("+3"), 3}, {str("3.99"), 3}, {str("0x1p2"), 4}, {str("5d"), 5}, {str("1e1"), 10},
		{str("0"), 0}, {str("0.99"), 0}, {str("-0.5"), 0}, {str("-1"), 0}, {str("-1e30"), 0}, {str("-Infinity"), 0},
		{str("NaN"), 0},
		{str("Infinity"), stop}, {str("1e30"), stop}, {str("9223372036854775808"), stop}, {str("2147483648"), stop},
		{str("1_000"), stop}, {str("three"), stop}, {str(""), stop}, {str("inf"), stop}, {str("0x10"), stop}, {nil, stop},
	} {
		name := "absent"
		if tc.times != nil {
			name = fmt.Sprintf("%q", *tc.times)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := &countingScripts{stopAt: stop}
			res := runCounting(t, s, nil, repeatCmd(4, tc.times, false, eval(5, "count")))
			if s.count != tc.runs {
				t.Errorf("times %s ran the body %d times, Maestro runs it %d times", name, s.count, tc.runs)
			}
			if tc.times != nil && s.times != 1 {
				t.Errorf("times was interpolated %d times, want once", s.times)
			}
			rep := res.Steps[0]
			switch tc.runs {
			case 0:
				if rep.Status != exec.StatusSkipped || res.Status != exec.StatusPassed {
					t.Errorf("zero runs: repeat %s, flow %s; want skipped and passed", rep.Status, res.Status)
				}
			case stop:
				if !stopped(res.Status) || res.Error == nil || !strings.Contains(res.Error.Message, "interrupted") {
					t.Errorf("an unlimited loop ends only when stopped: flow %s %+v", res.Status, res.Error)
				}
			default:
				if rep.Status != exec.StatusPassed || rep.Iterations == nil || rep.Iterations.Count != tc.runs {
					t.Errorf("repeat %s with %+v, want passed with %d runs", rep.Status, rep.Iterations, tc.runs)
				}
			}
		})
	}
}

// TestRepeatChecksConditionBeforeCount: Maestro evaluates while before it
// compares the count (checkCondition() && counter < maxRuns), so the
// condition runs once more than the body when the count ends the loop,
// and once even when the count is zero.
func TestRepeatChecksConditionBeforeCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		times             *string
		condFalseAt       int
		wantRuns, wantCnd int
	}{
		{str("2"), 0, 2, 3}, {str("0"), 0, 0, 1}, {str("-1"), 0, 0, 1}, {str("5"), 3, 2, 3}, {nil, 4, 3, 4}, {str("x"), 1, 0, 1},
	} {
		s := &countingScripts{condFalseAt: tc.condFalseAt}
		runCounting(t, s, nil, repeatCmd(4, tc.times, true, eval(5, "count")))
		if s.count != tc.wantRuns || s.conds != tc.wantCnd {
			t.Errorf("times %v, condition false from evaluation %d: %d runs and %d conditions, want %d and %d",
				tc.times, tc.condFalseAt, s.count, s.conds, tc.wantRuns, tc.wantCnd)
		}
	}
}

// loopObserver records what a console would show.
type loopObserver struct {
	exec.NopObserver
	lines   []string
	started int
	running []int
}

func (o *loopObserver) StepStarted(*canonical.Flow, canonical.Command, string, int) { o.started++ }
func (o *loopObserver) StepFinished(_ *canonical.Flow, s exec.StepResult, _ string) {
	o.lines = append(o.lines, stepLine(s))
}
func (o *loopObserver) LoopRunning(_ *canonical.Flow, _, run int) { o.running = append(o.running, run) }
func (o *loopObserver) RunsOmitted(_ *canonical.Flow, depth int, om exec.OmittedRuns) {
	o.lines = append(o.lines, fmt.Sprintf("%s%s", strings.Repeat("  ", depth), om))
}

// stepLine is "  L5 evalScript passed #3" (indent by depth, run number).
func stepLine(s exec.StepResult) string {
	line := fmt.Sprintf("%sL%d %s %s", strings.Repeat("  ", s.Depth), s.Pos.Line, s.Command, s.Status)
	if s.Iteration > 0 {
		line += fmt.Sprintf(" #%d", s.Iteration)
	}
	if s.Iterations != nil {
		line += fmt.Sprintf(" (%d runs)", s.Iterations.Count)
	}
	return line
}

func stepLines(steps []exec.StepResult) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = stepLine(s)
	}
	return out
}

func runLines(from, to int, body ...string) []string {
	var out []string
	for i := from; i <= to; i++ {
		for _, b := range body {
			out = append(out, fmt.Sprintf("%s #%d", b, i))
		}
	}
	return out
}

// TestLongLoopKeepsFirstAndLastRuns: the result lists the first ten runs
// and the last one; the runs between are counted, their logs too. The
// observer sees the same: ten runs live, the summary, then the last run.
func TestLongLoopKeepsFirstAndLastRuns(t *testing.T) {
	t.Parallel()
	s := &countingScripts{}
	obs := &loopObserver{}
	res := runCounting(t, s, obs, repeatCmd(4, str("25"), false, eval(5, "count"), eval(6, "log")))
	body := []string{"  L5 evalScript passed", "  L6 evalScript passed"}
	want := append(append([]string{"L4 repeat passed (25 runs)"}, runLines(1, 10, body...)...), runLines(25, 25, body...)...)
	checkList(t, "steps", stepLines(res.Steps), want)
	om := res.Steps[0].Iterations.Omitted
	if om == nil || om.First != 11 || om.Last != 24 || om.Steps[exec.StatusPassed] != 28 || len(om.Steps) != 1 || om.Logs != 14 {
		t.Fatalf("omitted runs: %+v, want runs 11-24 with 28 passed steps and 14 log lines", om)
	}
	if got := res.Steps[len(res.Steps)-1].Logs; len(got) != 1 || got[0] != "line 25" {
		t.Errorf("the last run keeps its logs: %q", got)
	}
	// The loop step shows its body's output, all 25 lines (the log cap
	// bounds it, not the run cap).
	if got := res.Steps[0].Logs; len(got) != 25 || got[24] != "line 25" {
		t.Errorf("the repeat step shows the output of every run: %q", got)
	}
	wantObs := append(append(runLines(1, 10, body...), "  runs 11–24 not listed: 28 steps passed, 14 log lines"),
		append(runLines(25, 25, body...), "L4 repeat passed (25 runs)")...)
	checkList(t, "observer", obs.lines, wantObs)
	if obs.started != 21 {
		t.Errorf("StepStarted %d times, want 21 (the repeat and the ten runs shown live)", obs.started)
	}
	if len(obs.running) != 15 || obs.running[0] != 11 || obs.running[14] != 25 {
		t.Errorf("LoopRunning for runs %v, want 11 to 25", obs.running)
	}
}

// TestFailingRunIsKept: the run that fails is the last run, listed in full
// with its error, and shown to the observer with it.
func TestFailingRunIsKept(t *testing.T) {
	t.Parallel()
	s := &countingScripts{failAt: 17}
	obs := &loopObserver{}
	res := runCounting(t, s, obs, repeatCmd(4, nil, false, eval(5, "count"), check(6)), eval(7, "count"))
	if res.Status != exec.StatusFailed || res.Error == nil || res.Error.Code != canonical.CodeAssertionFailed || res.Error.Pos.Line != 6 {
		t.Fatalf("flow %s %+v, want ASSERTION_FAILED at line 6", res.Status, res.Error)
	}
	want := append(append([]string{"L4 repeat failed (17 runs)"}, runLines(1, 10, "  L5 evalScript passed", "  L6 assertTrue passed")...),
		"  L5 evalScript passed #17", "  L6 assertTrue failed #17")
	checkList(t, "steps", stepLines(res.Steps), want)
	if om := res.Steps[0].Iterations.Omitted; om.First != 11 || om.Last != 16 || om.Steps[exec.StatusPassed] != 12 {
		t.Errorf("omitted %+v, want runs 11-16 with 12 passed steps", om)
	}
	if n := len(obs.lines); n < 3 || obs.lines[n-2] != "  L6 assertTrue failed #17" {
		t.Errorf("the observer is shown the failing step: %q", obs.lines)
	}
}

// TestNestedLoopsStayBounded: loops in loops keep ten plus one runs at
// each level, and every step that ran is either listed or counted.
func TestNestedLoopsStayBounded(t *testing.T) {
	t.Parallel()
	s := &countingScripts{}
	res := runCounting(t, s, nil, repeatCmd(4, str("30"), false, repeatCmd(5, str("30"), false, eval(6, "count"))))
	if s.count != 900 {
		t.Fatalf("the inner body ran %d times, want 900", s.count)
	}
	if len(res.Steps) != 1+11*(1+11) {
		t.Fatalf("%d steps listed, want %d", len(res.Steps), 1+11*12)
	}
	accounted := 0
	for _, st := range res.Steps {
		accounted++
		if it := st.Iterations; it != nil && it.Omitted != nil {
			accounted += it.Omitted.Steps[exec.StatusPassed]
		}
	}
	if ran := 1 + 30*(1+30); accounted != ran {
		t.Errorf("%d steps listed or counted, %d ran", accounted, ran)
	}
}

// TestRetryCountsFollowMaestro: maxRetries is toIntOrNull() ?: 1, capped
// at 3 (Orchestra.kt retryCommand); a negative count runs nothing.
func TestRetryCountsFollowMaestro(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max      string
		attempts int
	}{{"0", 1}, {"2", 3}, {"+2", 3}, {"3", 4}, {"10", 4}, {"2.0", 2}, {"abc", 2}, {" 2", 2}, {"", 2}, {"-1", 0}, {"99999999999", 2}} {
		s := &countingScripts{failAt: -1}
		retry := &canonical.Retry{Meta: canonical.Meta{Name: "retry", Pos: at(4)}, MaxRetries: canonical.Text(tc.max, at(4)),
			Commands: []canonical.Command{eval(5, "count"), &canonical.AssertTrue{Meta: canonical.Meta{Name: "assertTrue", Pos: at(6)},
				Condition: canonical.Text("false", at(6))}}}
		res := runCounting(t, s, nil, retry)
		if s.count != tc.attempts {
			t.Errorf("maxRetries %q: %d attempts, Maestro makes %d", tc.max, s.count, tc.attempts)
		}
		if want := exec.StatusFailed; tc.attempts == 0 {
			if res.Status != exec.StatusPassed {
				t.Errorf("maxRetries %q runs nothing and passes, got %s", tc.max, res.Status)
			}
		} else if res.Status != want {
			t.Errorf("maxRetries %q: flow %s, want %s", tc.max, res.Status, want)
		}
		for _, st := range res.Steps[1:] {
			if st.Iteration < 1 || st.Iteration > tc.attempts {
				t.Errorf("maxRetries %q: step %s has attempt %d", tc.max, st.Command, st.Iteration)
			}
		}
	}
}

// TestCtrlCStopsLoops: a cancelled run stops every kind of loop between
// commands, including an endless loop whose body is empty or does
// nothing, and the flow is reported as interrupted, not warned or
// retried.
func TestCtrlCStopsLoops(t *testing.T) {
	t.Parallel()
	skippedRun := &canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: at(5)},
		When: &canonical.Condition{Platform: "ios"}, Commands: []canonical.Command{eval(6, "count")}}
	optional := repeatCmd(4, nil, true)
	optional.Optional = true
	retry := &canonical.Retry{Meta: canonical.Meta{Name: "retry", Pos: at(4)}, MaxRetries: canonical.Text("3", at(4)),
		Commands: []canonical.Command{repeatCmd(5, nil, false, eval(6, "true"))}}
	for name, cmd := range map[string]canonical.Command{
		"empty body":         repeatCmd(4, nil, false),
		"while true, empty":  repeatCmd(4, nil, true),
		"skipped body":       repeatCmd(4, str("Infinity"), false, skippedRun),
		"optional repeat":    optional,
		"retry of a loop":    retry,
		"nested empty loops": repeatCmd(4, nil, false, repeatCmd(5, str("0"), false, eval(6, "count"))),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			s := &countingScripts{}
			clock := newClock()
			cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock,
				NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
			res := exec.RunFlow(ctx, cfg, &canonical.Flow{File: "flow.yaml", Name: "flow", Commands: []canonical.Command{cmd, eval(9, "count")}})
			if !stopped(res.Status) || res.Error == nil || !strings.Contains(res.Error.Message, "interrupted") {
				t.Fatalf("flow %s %+v, want interrupted", res.Status, res.Error)
			}
			if st := res.Steps[0]; !stopped(st.Status) {
				t.Errorf("the loop step is %s, want it stopped", st.Status)
			}
			for _, st := range res.Steps {
				if strings.Contains(strings.Join(st.Logs, "\n"), "Retrying") {
					t.Errorf("an interrupted attempt is not retried: %q", st.Logs)
				}
				if st.Pos.Line == 9 {
					t.Errorf("the command after the loop ran")
				}
			}
			if len(res.Steps) > 1+2*(exec.KeptIterations+1)*(exec.KeptIterations+2) {
				t.Errorf("%d steps kept", len(res.Steps))
			}
		})
	}
}

// TestReplayAnnouncesNestedLoops: the last run of a long loop, replayed to
// the observer, shows a nested long loop as it would have been shown live:
// its first runs, the summary of the others, its last run, the loop.
func TestReplayAnnouncesNestedLoops(t *testing.T) {
	t.Parallel()
	s := &countingScripts{}
	obs := &loopObserver{}
	runCounting(t, s, obs, repeatCmd(4, str("12"), false, repeatCmd(5, str("12"), false, eval(6, "count"))))
	inner := func(run int) []string {
		lines := runLines(1, 10, "    L6 evalScript passed")
		lines = append(lines, "    run 11 not listed: 1 step passed")
		lines = append(lines, runLines(12, 12, "    L6 evalScript passed")...)
		return append(lines, fmt.Sprintf("  L5 repeat passed #%d (12 runs)", run))
	}
	var want []string
	for run := 1; run <= 10; run++ {
		want = append(want, inner(run)...)
	}
	want = append(want, "  run 11 not listed: 13 steps passed")
	want = append(want, inner(12)...)
	want = append(want, "L4 repeat passed (12 runs)")
	checkList(t, "observer", obs.lines, want)
}

// stopped is the status of a flow or step Ctrl-C ended: failed, or
// interrupted where the runtime tells the two apart.
func stopped(s exec.Status) bool { return s == exec.StatusFailed || s == "interrupted" }
