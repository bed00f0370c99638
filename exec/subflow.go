package exec

import (
	"context"
	"errors"

	"github.com/flow-runner/flow/canonical"
)

// subflow defines the caller's env for it (which stays defined afterwards,
// as in Maestro), then the subflow file's own env, and runs it in a script
// scope with its own hooks. site is the command that runs it (runFlow, or
// retry for each attempt) at level depth; the subflow runs one level
// deeper, at most canonical.MaxNesting.
//
// Subflows keep a run's result bounded as loops do: a site lists the
// steps of its first KeptIterations runs; a later run, and every run
// inside a run no observer sees (a loop's unlisted run, or such a
// subflow), runs quietly and, when it passes, leaves only its step, with
// a summary of what it ran in Iterations (run 1 of 1, not listed). Files
// that each run the next twice run 2^n subflows; their result, the
// console and the reports hold about KeptIterations runs per command
// instead. A subflow that fails or is interrupted keeps its steps, as a
// loop's last run does, so the path to the failure is always listed.
func (r *run) subflow(ctx context.Context, site canonical.Command, f *canonical.Flow, inline []canonical.Command, env []canonical.EnvVar, depth int) error {
	if err := tooDeep(site, depth); err != nil {
		return err
	}
	if err := r.defineEnv(ctx, env); err != nil {
		return err
	}
	if f != nil {
		if err := r.defineEnv(ctx, f.Env); err != nil {
			return err
		}
	}
	r.js.EnterScope()
	defer r.js.LeaveScope()
	u := r.startSubflow(site, depth+1)
	var err error
	if f == nil {
		err = r.commands(ctx, inline, depth+1)
	} else {
		err = r.withHooks(ctx, f, depth+1, func() error { return r.commands(ctx, f.Commands, depth+1) })
	}
	u.end(err)
	return err
}

// tooDeep refuses a block whose body would run deeper than
// canonical.MaxNesting. The loader refuses such files and chains; this
// holds the limit for flows built otherwise.
func tooDeep(c canonical.Command, depth int) error {
	if depth+1 <= canonical.MaxNesting {
		return nil
	}
	return errorf(canonical.CodeInvalidArgs, "%s would nest the flow %d blocks deep; the limit is %d", c.Base().Name, depth+1, canonical.MaxNesting).
		With("depth", depth+1).With("limit", canonical.MaxNesting).
		WithHint("each repeat, retry and runFlow runs its commands one level deeper; a chain of subflows this deep is most likely a mistake")
}

// quietSubflow is a subflow run whose steps reach no observer while it
// runs (see subflow).
type quietSubflow struct {
	r     *run
	quiet bool
	// outermost: this run made the flow quiet (nothing enclosing it was).
	outermost bool
	depth     int // of its commands
	steps     int // where its steps start in r.steps
	logs      int
	start     int64 // virtual milliseconds
}

func (r *run) startSubflow(site canonical.Command, depth int) *quietSubflow {
	if r.subflowRuns == nil {
		r.subflowRuns = map[canonical.Command]int{}
	}
	r.subflowRuns[site]++
	q := &quietSubflow{r: r, depth: depth}
	if r.subflowRuns[site] <= KeptIterations && r.quiet == 0 {
		return q
	}
	q.quiet, q.outermost = true, r.quiet == 0
	r.quiet++
	q.steps, q.logs, q.start = len(r.steps), r.logLines, r.clock.Now().UnixMilli()
	return q
}

// end summarises a quiet run that passed and forgets its steps; a run that
// failed keeps them, and the outermost quiet run shows them to the
// observers now.
func (q *quietSubflow) end(err error) {
	if !q.quiet {
		return
	}
	r := q.r
	r.quiet--
	var skip skipped
	if err != nil && !errors.As(err, &skip) {
		if q.outermost {
			r.replay(q.steps)
		}
		return
	}
	run := max(r.iteration, 1) // a retry's attempt; a runFlow runs once
	o := &OmittedRuns{First: run, Last: run, Steps: map[Status]int{}, Logs: r.logLines - q.logs,
		DurationMs: r.clock.Now().UnixMilli() - q.start}
	countSteps(r.steps[q.steps:], o.Steps)
	clear(r.steps[q.steps:]) // let the dropped steps' errors and logs go
	r.steps = r.steps[:q.steps]
	r.iterations = &Iterations{Count: run, Omitted: o}
	if lo, ok := r.cfg.Observer.(LoopObserver); ok && q.outermost {
		lo.RunsOmitted(r.top, q.depth, *o)
	}
}
