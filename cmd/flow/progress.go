package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

// progress is the live console view of flow test: a line per flow, a line
// per step as it finishes, errors with their position and hint, and, on a
// terminal, the running step shown until it ends.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	total int
	index int
	color bool
	// quietSteps prints flows and failures only: the steps of shards
	// running at once would interleave into noise.
	quietSteps bool
	// loopShown is when a long loop's run number was last shown.
	loopShown time.Time
	// onStep hears every finished step (Env.OnStep).
	onStep func(flow string, step exec.StepResult, description string)
}

func newProgress(w io.Writer, tty bool, total int) *progress {
	return &progress{w: w, tty: tty, total: total, color: tty}
}

func (p *progress) paint(code, s string) string {
	if !p.color {
		return s
	}
	return "\033[" + code + "m" + s + "\033[0m"
}

func (p *progress) FlowStarted(f *canonical.Flow, shard int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.index++
	prefix := ""
	if shard > 0 {
		prefix = fmt.Sprintf("[shard %d] ", shard)
	}
	fmt.Fprintf(p.w, "%s[%d/%d] %s (%s)\n", prefix, p.index, p.total, p.paint("1", oneLine(f.Name)), oneLine(f.File))
}

// FlowRequeued is a parallel run's flow whose device was lost: it starts
// again on another device, where it is counted.
func (p *progress) FlowRequeued(f *canonical.Flow, shard int, why *canonical.Error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.index--
	msg := "the device was lost"
	if why != nil {
		msg = oneLine(why.Message)
	}
	fmt.Fprintf(p.w, "[shard %d] %s: %s; the flow goes back to the queue for another device\n", shard, oneLine(f.Name), msg)
}

func (p *progress) StepStarted(_ *canonical.Flow, _ canonical.Command, desc string, depth int) {
	if !p.tty || p.quietSteps {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "%s… %s", indent(depth), oneLine(desc))
}

func indent(depth int) string { return strings.Repeat("  ", depth+1) }

func (p *progress) StepFinished(f *canonical.Flow, s exec.StepResult, desc string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.onStep != nil {
		p.onStep(f.Name, s, desc)
	}
	if p.quietSteps && s.Status != exec.StatusFailed && s.Status != exec.StatusInterrupted {
		return
	}
	if p.tty && !p.quietSteps {
		fmt.Fprint(p.w, "\r\033[K")
	}
	symbol := map[exec.Status]string{
		exec.StatusPassed:      p.paint("32", "✓"),
		exec.StatusFailed:      p.paint("31", "✗"),
		exec.StatusWarned:      p.paint("33", "!"),
		exec.StatusSkipped:     p.paint("2", "-"),
		exec.StatusInterrupted: p.paint("33", "■"),
	}[s.Status]
	suffix := ""
	// A runFlow or retry summarised whole says so on the ⋯ line above it.
	if it := s.Iterations; it != nil && it.Count > 0 && s.Command == "repeat" {
		suffix = fmt.Sprintf(" (%d %s)", it.Count, plural(it.Count, "run"))
	}
	switch s.Status {
	case exec.StatusWarned:
		suffix = " (warned)"
	case exec.StatusSkipped:
		suffix = " (skipped)"
	case exec.StatusInterrupted:
		suffix = " (interrupted)"
	}
	fmt.Fprintf(p.w, "%s%s %s%s %s\n", indent(s.Depth), symbol, oneLine(desc), suffix, p.paint("2", duration(s.DurationMs)))
	for _, l := range s.Logs {
		fmt.Fprintf(p.w, "%s    log: %s\n", indent(s.Depth), oneLine(l))
	}
	if s.Error != nil && (s.Status == exec.StatusFailed || s.Status == exec.StatusWarned || s.Status == exec.StatusInterrupted) {
		printError(p.w, indent(s.Depth)+"    ", s.Error)
	}
}

// printError prints an error for people: its line, then its hint, each
// continuation line indented under the first, every field made printable.
func printError(w io.Writer, indent string, e *canonical.Error) {
	fmt.Fprintf(w, "%s%s\n", indent, indentLines(printable(e.Error()), indent+"  "))
	if e.Hint != "" {
		fmt.Fprintf(w, "%shint: %s\n", indent, indentLines(printable(e.Hint), indent+"      "))
	}
}

// indentLines indents every line of s but the first.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// printable and oneLine neutralise the control characters and escape
// sequences of text from flows, paths and scripts before it reaches the
// terminal (report.Printable); oneLine also escapes line breaks, for
// fields that must stay on one line. Both cut the text at
// exec.MaxErrorChars: whatever an input holds, a field stays readable.
func printable(s string) string { return report.Printable(exec.CutText(s, exec.MaxErrorChars)) }

func oneLine(s string) string { return report.OneLine(exec.CutText(s, exec.MaxErrorChars)) }

// LoopRunning shows, on a terminal, the run a long loop is in: past the
// first runs its steps are not printed until its last run.
func (p *progress) LoopRunning(_ *canonical.Flow, depth, run int) {
	if !p.tty || p.quietSteps {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.loopShown) >= 100*time.Millisecond {
		p.loopShown = now
		fmt.Fprintf(p.w, "\r\033[K%s… run %d", indent(depth), run)
	}
}

// RunsOmitted says which runs of a loop were not printed and what they
// did, before the steps of its last run.
func (p *progress) RunsOmitted(_ *canonical.Flow, depth int, o exec.OmittedRuns) {
	if p.quietSteps {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintf(p.w, "%s%s %s %s\n", indent(depth), p.paint("2", "⋯"), o.String(), p.paint("2", duration(o.DurationMs)))
}

func (p *progress) FlowFinished(r exec.FlowResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	prefix := ""
	if r.Shard > 0 {
		prefix = fmt.Sprintf("[shard %d] ", r.Shard)
	}
	switch r.Status {
	case exec.StatusFailed:
		fmt.Fprintf(p.w, "  %s%s %s %s\n", prefix, p.paint("31;1", "FAILED"), oneLine(r.Name), duration(r.DurationMs))
		if len(r.Steps) == 0 && r.Error != nil {
			// It never ran (it could not load): show why here.
			printError(p.w, "    ", r.Error)
		}
		for _, a := range r.Artifacts {
			fmt.Fprintf(p.w, "    artifact: %s\n", oneLine(a))
		}
	case exec.StatusInterrupted:
		fmt.Fprintf(p.w, "  %s%s %s %s\n", prefix, p.paint("33;1", "INTERRUPTED"), oneLine(r.Name), duration(r.DurationMs))
	case exec.StatusSkipped:
		why := ""
		if r.Error != nil {
			why = " " + p.paint("2", "("+oneLine(r.Error.Message)+")")
		}
		fmt.Fprintf(p.w, "  %s%s %s%s\n", prefix, p.paint("2", "SKIPPED"), oneLine(r.Name), why)
	default:
		fmt.Fprintf(p.w, "  %s%s %s %s\n", prefix, p.paint("32;1", "PASSED"), oneLine(r.Name), duration(r.DurationMs))
	}
}

func duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", ms)
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}
