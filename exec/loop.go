package exec

import (
	"context"
	"fmt"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// LoopObserver is an Observer that also follows the runs of a repeat that
// are not shown step by step. Past the first KeptIterations runs, a loop's
// steps reach no observer while they run; when the loop ends, the steps of
// its last run are replayed to StepFinished (without StepStarted), in the
// order they finished, right after RunsOmitted.
type LoopObserver interface {
	Observer
	// LoopRunning is called as such a run starts; run counts from 1 and
	// depth is the nesting of the loop's body.
	LoopRunning(flow *canonical.Flow, depth, run int)
	// RunsOmitted is called when the loop ends with runs its result
	// summarises instead of listing.
	RunsOmitted(flow *canonical.Flow, depth int, omitted OmittedRuns)
}

// repeat runs its body as Maestro's repeatCommand does: before each run the
// while condition is evaluated (interpolated anew), then the count is
// checked; times is read once, as times.toDoubleOrNull()?.toInt() ?:
// Int.MAX_VALUE, so zero, a negative count or NaN runs nothing and the
// command is skipped, and no count runs more than 2,147,483,647 times.
func (r *run) repeat(ctx context.Context, t *canonical.Repeat, depth int) error {
	if err := tooDeep(t, depth); err != nil {
		return err
	}
	limit := canonical.MaxRepeat
	if t.Times != nil {
		v, err := r.str(ctx, *t.Times)
		if err != nil {
			return err
		}
		limit, _ = canonical.RepeatCount(v)
		r.warnRepeatCount(t, v)
	}
	l := r.startLoop(depth + 1)
	defer l.end()
	for {
		// Ctrl-C stops a loop between runs, even one whose body is empty
		// or skips every command.
		if err := ctx.Err(); err != nil {
			return interrupted(err).WithHint("the flow stopped between two runs of this repeat")
		}
		if t.While != nil {
			ok, err := r.condition(ctx, t.While)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
		}
		if l.count >= limit {
			break
		}
		l.next()
		if err := r.commands(ctx, t.Commands, depth+1); err != nil {
			return err
		}
	}
	if l.count == 0 {
		return skipped{"repeat ran zero times"}
	}
	return nil
}

// warnRepeatCount warns, on the repeat's step, about a times from ${...}
// that Maestro reads as no limit, as the loader warns about such a
// literal. Zero or less is left alone: a variable that turns a repeat off
// is a way to write a flow.
func (r *run) warnRepeatCount(t *canonical.Repeat, v string) {
	if _, literal := t.Times.Literal(); literal {
		return
	}
	if limit, _ := canonical.RepeatCount(v); limit <= 0 {
		return
	}
	if msg, hint, ok := canonical.RepeatCountWarning(v, t.While != nil); ok {
		r.log(fmt.Sprintf("warning: %s: %s, from %s (hint: %s)", t.Times.Pos, msg, t.Times.Raw, hint))
	}
}

// retry runs its body up to 1+maxRetries times, as Maestro's retryCommand
// does: maxRetries is read with toIntOrNull (1 when it is not a whole
// number) and capped at 3; a negative one runs nothing. A run stopped by
// Ctrl-C is not retried.
func (r *run) retry(ctx context.Context, t *canonical.Retry, depth int) error {
	v, err := r.str(ctx, t.MaxRetries)
	if err != nil {
		return err
	}
	retries, ok := canonical.ParseKotlinInt(v)
	if !ok {
		retries = 1
	}
	retries = min(retries, canonical.MaxRetries)
	for attempt := 0; attempt <= retries; attempt++ {
		if err := ctx.Err(); err != nil {
			return interrupted(err).WithHint("the flow stopped before this attempt")
		}
		r.iteration = attempt + 1
		err := r.subflow(ctx, t, t.Flow, t.Commands, t.Env, depth)
		if err == nil || attempt == retries || ctx.Err() != nil || canonical.CodeOf(err) == canonical.CodeDeviceUnavailable {
			// A lost device fails every attempt the same way: stop.
			return err
		}
		r.log(fmt.Sprintf("Retrying the commands due to an error: %v (attempt %d)", canonical.Coded(err).Message, attempt+1))
	}
	return nil
}

// loop keeps a repeat's result bounded: the steps of its first
// KeptIterations runs stay, and each later run stays only until the next
// one starts, when it is folded into the summary. Later runs are run
// quietly, without observers, and the last one is replayed to them when
// the loop ends, so the console, the reports and memory all hold the same
// bounded steps however long the loop runs.
type loop struct {
	r     *run
	depth int // of the body
	count int // runs started
	// quiet: the current run is past KeptIterations; outermost: this loop
	// made the run quiet (no enclosing loop's run already is).
	quiet, outermost bool
	// Where the current run's steps and log lines start, and when it
	// started.
	steps, logs int
	start       time.Time
	omitted     *OmittedRuns
	omittedFor  time.Duration
}

func (r *run) startLoop(depth int) *loop { return &loop{r: r, depth: depth} }

// next starts a run: the previous run, if quiet, was not the last, so it
// is folded into the summary now.
func (l *loop) next() {
	r := l.r
	if l.quiet {
		l.fold()
	}
	l.count++
	r.iteration = l.count
	if l.count > KeptIterations && !l.quiet {
		l.quiet, l.outermost = true, r.quiet == 0
		r.quiet++
	}
	l.steps, l.logs, l.start = len(r.steps), r.logLines, r.clock.Now()
	if l.outermost {
		if o, ok := r.cfg.Observer.(LoopObserver); ok {
			o.LoopRunning(r.top, l.depth, l.count)
		}
	}
}

// fold adds the current run's steps and log lines to the summary and
// forgets the steps. (Their lines stay, bounded, in the loop step's own
// output: every step shows the output of what it ran.)
func (l *loop) fold() {
	r := l.r
	if l.omitted == nil {
		l.omitted = &OmittedRuns{First: l.count, Steps: map[Status]int{}}
	}
	o := l.omitted
	o.Last = l.count
	countSteps(r.steps[l.steps:], o.Steps)
	o.Logs += r.logLines - l.logs
	l.omittedFor += r.clock.Now().Sub(l.start)
	clear(r.steps[l.steps:]) // let the dropped steps' errors and logs go
	r.steps = r.steps[:l.steps]
}

// end records the loop's summary for its step and, when the loop ran
// quietly, shows its last run to the observers.
func (l *loop) end() {
	r := l.r
	it := &Iterations{Count: l.count}
	if l.omitted != nil {
		l.omitted.DurationMs = l.omittedFor.Milliseconds()
		it.Omitted = l.omitted
	}
	r.iterations = it
	if !l.quiet {
		return
	}
	r.quiet--
	if !l.outermost {
		return
	}
	if o, ok := r.cfg.Observer.(LoopObserver); ok && l.omitted != nil {
		o.RunsOmitted(r.top, l.depth, *l.omitted)
	}
	r.replay(l.steps)
}

// replay hands the steps from index from on to StepFinished in the order
// they finished: each after the steps nested in it. A loop among them that
// omitted runs is announced before the steps of its last run, as it would
// have been live.
func (r *run) replay(from int) {
	lo, _ := r.cfg.Observer.(LoopObserver)
	var open []int
	announced := map[int]bool{}
	finish := func() {
		i := open[len(open)-1]
		open = open[:len(open)-1]
		// A loop whose last run listed nothing, and a subflow summarised
		// whole, are announced as they end.
		if it := r.steps[i].Iterations; lo != nil && it != nil && it.Omitted != nil && !announced[i] {
			announced[i] = true
			lo.RunsOmitted(r.top, r.steps[i].Depth+1, *it.Omitted)
		}
		r.cfg.Observer.StepFinished(r.top, r.steps[i], r.steps[i].Description)
	}
	for i := from; i < len(r.steps); i++ {
		s := r.steps[i]
		for len(open) > 0 && r.steps[open[len(open)-1]].Depth >= s.Depth {
			finish()
		}
		if len(open) > 0 && lo != nil {
			p := open[len(open)-1]
			if it := r.steps[p].Iterations; it != nil && it.Omitted != nil && !announced[p] && s.Iteration > it.Omitted.Last {
				announced[p] = true
				lo.RunsOmitted(r.top, s.Depth, *it.Omitted)
			}
		}
		open = append(open, i)
	}
	for len(open) > 0 {
		finish()
	}
}

// countSteps adds steps to counts by status, with the steps each one's
// summary omitted (a loop's runs, a subflow summarised whole).
func countSteps(steps []StepResult, counts map[Status]int) {
	for _, s := range steps {
		counts[s.Status]++
		if s.Iterations != nil && s.Iterations.Omitted != nil {
			for st, n := range s.Iterations.Omitted.Steps {
				counts[st] += n
			}
		}
	}
}
