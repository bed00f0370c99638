package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
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
	fmt.Fprintf(p.w, "%s[%d/%d] %s (%s)\n", prefix, p.index, p.total, p.paint("1", f.Name), f.File)
}

func (p *progress) StepStarted(_ *canonical.Flow, _ canonical.Command, desc string, depth int) {
	if !p.tty || p.quietSteps {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "%s… %s", indent(depth), desc)
}

func indent(depth int) string { return strings.Repeat("  ", depth+1) }

func (p *progress) StepFinished(_ *canonical.Flow, s exec.StepResult, desc string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quietSteps && s.Status != exec.StatusFailed {
		return
	}
	if p.tty && !p.quietSteps {
		fmt.Fprint(p.w, "\r\033[K")
	}
	symbol := map[exec.Status]string{
		exec.StatusPassed:  p.paint("32", "✓"),
		exec.StatusFailed:  p.paint("31", "✗"),
		exec.StatusWarned:  p.paint("33", "!"),
		exec.StatusSkipped: p.paint("2", "-"),
	}[s.Status]
	suffix := ""
	switch s.Status {
	case exec.StatusWarned:
		suffix = " (warned)"
	case exec.StatusSkipped:
		suffix = " (skipped)"
	}
	fmt.Fprintf(p.w, "%s%s %s%s %s\n", indent(s.Depth), symbol, desc, suffix, p.paint("2", duration(s.DurationMs)))
	for _, l := range s.Logs {
		fmt.Fprintf(p.w, "%s    log: %s\n", indent(s.Depth), l)
	}
	if s.Error != nil && (s.Status == exec.StatusFailed || s.Status == exec.StatusWarned) {
		fmt.Fprintf(p.w, "%s    %s\n", indent(s.Depth), s.Error.Error())
		if s.Error.Hint != "" {
			fmt.Fprintf(p.w, "%s    hint: %s\n", indent(s.Depth), strings.ReplaceAll(s.Error.Hint, "\n", "\n"+indent(s.Depth)+"          "))
		}
	}
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
		fmt.Fprintf(p.w, "  %s%s %s %s\n", prefix, p.paint("31;1", "FAILED"), r.Name, duration(r.DurationMs))
		if len(r.Steps) == 0 && r.Error != nil {
			// It never ran (it could not load): show why here.
			fmt.Fprintf(p.w, "    %s\n", r.Error.Error())
			if r.Error.Hint != "" {
				fmt.Fprintf(p.w, "    hint: %s\n", r.Error.Hint)
			}
		}
		for _, a := range r.Artifacts {
			fmt.Fprintf(p.w, "    artifact: %s\n", a)
		}
	case exec.StatusSkipped:
		fmt.Fprintf(p.w, "  %s%s %s\n", prefix, p.paint("2", "SKIPPED"), r.Name)
	default:
		fmt.Fprintf(p.w, "  %s%s %s %s\n", prefix, p.paint("32;1", "PASSED"), r.Name, duration(r.DurationMs))
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
