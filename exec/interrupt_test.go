package exec_test

import (
	"context"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// cancellingDevice is a still device on which Ctrl-C lands while the
// runtime reads the screen: its read number cancelAt cancels the run and
// still answers, as a device whose read was already under way does.
type cancellingDevice struct {
	stillDevice
	cancel   context.CancelFunc
	cancelAt int
	reads    int
}

func (d *cancellingDevice) Hierarchy(ctx context.Context) (*exec.Node, error) {
	d.reads++
	if d.reads == d.cancelAt {
		d.cancel()
	}
	return d.stillDevice.Hierarchy(ctx)
}

// verdictWatch fails the test when a step that finished after the run's
// context was done carries a verdict (failed, or warned by optional:).
type verdictWatch struct {
	exec.NopObserver
	t   *testing.T
	ctx context.Context
	at  int
}

func (w verdictWatch) StepFinished(_ *canonical.Flow, s exec.StepResult, _ string) {
	if w.ctx.Err() == nil {
		return
	}
	if s.Status == exec.StatusFailed || s.Status == exec.StatusWarned {
		w.t.Errorf("Ctrl-C at read %d: %s at line %d finished %s (%v) after the run was stopped; want interrupted",
			w.at, s.Command, s.Pos.Line, s.Status, s.Error)
	}
}

// TestCtrlCIsNeverAVerdict: wherever Ctrl-C lands in a flow of lookups
// that poll (optional and not, conditions, notVisible probes, scrolling),
// the step that was running and the flow are interrupted with
// INTERRUPTED: never failed with ELEMENT_NOT_FOUND or ASSERTION_FAILED,
// never excused as a warning. The cancellation is placed at every read
// of the screen the flow makes, in turn, so the moment where a lookup's
// budget runs out as the signal arrives is among them.
func TestCtrlCIsNeverAVerdict(t *testing.T) {
	optional := func(c canonical.Command) canonical.Command { c.Base().Optional = true; return c }
	assert := func(line int, visible, notVisible *canonical.Selector) *canonical.Assert {
		return &canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(line)}, Visible: visible, NotVisible: notVisible}
	}
	back := func(line int) canonical.Command {
		return &canonical.Simple{Meta: canonical.Meta{Name: "back", Pos: at(line)}, Action: "back"}
	}
	three := canonical.Text("3", canonical.Pos{})
	cmds := []canonical.Command{
		launch(3),
		optional(assert(4, text("Missing"), nil)),
		optional(tap(5, text("Missing"), true)),
		optional(assert(6, nil, text("Plain"))),
		&canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: at(7)}, When: &canonical.Condition{Visible: text("Missing")},
			Commands: []canonical.Command{back(8)}},
		&canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: at(9)}, When: &canonical.Condition{NotVisible: text("Plain")},
			Commands: []canonical.Command{back(10)}},
		optional(&canonical.ScrollUntilVisible{Meta: canonical.Meta{Name: "scrollUntilVisible", Pos: at(11)},
			Element: *text("Missing"), Direction: "down", TimeoutMs: canonical.Text("3000", canonical.Pos{}),
			Speed: canonical.Text("40", canonical.Pos{}), VisibilityPercentage: 100}),
		optional(&canonical.CopyText{Meta: canonical.Meta{Name: "copyTextFrom", Pos: at(12)}, Selector: *text("Missing")}),
		&canonical.Retry{Meta: canonical.Meta{Name: "retry", Pos: at(13)}, MaxRetries: canonical.Text("1", canonical.Pos{}),
			Commands: []canonical.Command{optional(assert(14, text("Missing"), nil))}},
		&canonical.Repeat{Meta: canonical.Meta{Name: "repeat", Pos: at(15)}, Times: &three,
			While: &canonical.Condition{NotVisible: text("Missing")}, Commands: []canonical.Command{back(16)}},
		// Long after the last interaction, a lookup has no budget left:
		// it reads once and gives its verdict, as in a long loop.
		optional(assert(17, text("Missing"), nil)),
		assert(18, text("Missing"), nil),
	}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: cmds}
	run := func(cancelAt int, obs exec.Observer, ctx context.Context, cancel context.CancelFunc) (exec.FlowResult, int) {
		clock := newClock()
		dev := &cancellingDevice{stillDevice: stillDevice{clock: clock, start: clock.Now()}, cancel: cancel, cancelAt: cancelAt}
		cfg := exec.Config{Device: dev, Clock: clock, Observer: obs,
			NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
		return exec.RunFlow(ctx, cfg, flow), dev.reads
	}
	// Uncancelled, the flow fails at its last, mandatory lookup: every
	// read before that one is a moment to stop it at.
	base, reads := run(0, nil, context.Background(), func() {})
	if base.Status != exec.StatusFailed || base.Error.Pos.Line != 18 || reads < 50 {
		t.Fatalf("the flow must run every command and fail at line 18 after many reads: %s %v, %d reads", base.Status, base.Error, reads)
	}
	for k := 1; k <= reads; k++ {
		ctx, cancel := context.WithCancel(context.Background())
		res, _ := run(k, verdictWatch{t: t, ctx: ctx, at: k}, ctx, cancel)
		cancel()
		if res.Status != exec.StatusInterrupted || res.Error == nil || res.Error.Code != canonical.CodeInterrupted {
			t.Errorf("Ctrl-C at read %d: the flow is %s %v; want interrupted with INTERRUPTED", k, res.Status, res.Error)
			continue
		}
		var last exec.StepResult // the top-level step that was running
		for _, s := range res.Steps {
			if s.Depth == 0 {
				last = s
			}
		}
		// A step whose work was done when the signal came (a settle's
		// last read) passed; any other is interrupted.
		if last.Status != exec.StatusPassed && (last.Status != exec.StatusInterrupted || last.Error == nil || last.Error.Code != canonical.CodeInterrupted) {
			t.Errorf("Ctrl-C at read %d: the running step %s (line %d) is %s %v; want interrupted", k, last.Command, last.Pos.Line, last.Status, last.Error)
		}
		for _, s := range res.Steps {
			if s.Status == exec.StatusFailed {
				t.Errorf("Ctrl-C at read %d: step %s at line %d failed: %v", k, s.Command, s.Pos.Line, s.Error)
			}
		}
	}
}
