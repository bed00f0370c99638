package exec

import "github.com/flow-runner/flow/canonical"

// Observer follows a run as it happens: the CLI's live progress and the
// reports are observers. Calls come from the goroutine running the flow, in
// order; a shard runs its flows on its own goroutine, so an observer shared
// by shards must be safe for concurrent use.
type Observer interface {
	FlowStarted(flow *canonical.Flow, shard int)
	// StepStarted is called before a command runs; depth is its nesting
	// (0 for top-level commands, 1 inside a runFlow, …).
	StepStarted(flow *canonical.Flow, cmd canonical.Command, description string, depth int)
	StepFinished(flow *canonical.Flow, step StepResult, description string)
	FlowFinished(result FlowResult)
}

// NopObserver ignores everything.
type NopObserver struct{}

// FlowStarted does nothing.
func (NopObserver) FlowStarted(*canonical.Flow, int) {}

// StepStarted does nothing.
func (NopObserver) StepStarted(*canonical.Flow, canonical.Command, string, int) {}

// StepFinished does nothing.
func (NopObserver) StepFinished(*canonical.Flow, StepResult, string) {}

// FlowFinished does nothing.
func (NopObserver) FlowFinished(FlowResult) {}

// TemplateObserver is an Observer that also learns what each template a
// step evaluated came to, right after it is evaluated and before the step
// uses it: flow test --record writes a step with the values it ran with,
// not with expressions a replay could not evaluate again.
type TemplateObserver interface {
	Observer
	TemplateResolved(flow *canonical.Flow, t canonical.Template, value string)
}
