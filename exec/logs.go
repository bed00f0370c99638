package exec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// Bounds on what a run keeps of script output and errors. A script may
// call console.log millions of times or throw a megabyte of text; a step
// keeps the start and the end of its output, every line and message cut
// to a readable length, so memory, reports and the console stay bounded.
const (
	// LogHeadLines and LogTailLines are the console lines a step keeps:
	// the first and the last, with one "… N lines omitted" line between.
	LogHeadLines = 100
	LogTailLines = 100
	// MaxLogLineChars cuts each console line (a console.log message is
	// split into lines first).
	MaxLogLineChars = 2000
	// MaxErrorChars cuts an error's message, its hint and each text detail.
	MaxErrorChars = 4000
)

// logBuffer keeps the console lines of one running step: the first
// LogHeadLines, and the last LogTailLines in a ring.
type logBuffer struct {
	head    []string
	tail    []string
	next    int // the ring's oldest line once it is full
	omitted int
}

// add keeps one line (already split and cut).
func (b *logBuffer) add(line string) {
	if len(b.head) < LogHeadLines {
		b.head = append(b.head, line)
		return
	}
	if len(b.tail) < LogTailLines {
		b.tail = append(b.tail, line)
		return
	}
	b.tail[b.next] = line
	b.next = (b.next + 1) % LogTailLines
	b.omitted++
}

// lines are the kept lines in order, with the omission marked.
func (b *logBuffer) lines() []string {
	if len(b.head) == 0 {
		return nil
	}
	out := make([]string, 0, len(b.head)+len(b.tail)+1)
	out = append(out, b.head...)
	if b.omitted > 0 {
		out = append(out, fmt.Sprintf("… %d %s omitted", b.omitted, plural(b.omitted, "line", "lines")))
	}
	out = append(out, b.tail[b.next:]...)
	return append(out, b.tail[:b.next]...)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// log records a console message for every step running now: the
// innermost step keeps it, and a step's lines pass to its parent when it
// ends, so a runFlow or repeat shows the output of what it ran. Output
// while no step runs (the flow's env) is dropped, as before.
func (r *run) log(msg string) {
	if len(r.logStack) == 0 {
		return
	}
	b := r.logStack[len(r.logStack)-1]
	if msg == "" {
		b.add("")
		r.logLines++
		return
	}
	for line := range strings.Lines(msg) {
		b.add(CutText(strings.TrimRight(line, "\r\n"), MaxLogLineChars))
		r.logLines++
	}
}

// pushLogs opens the buffer of a step that starts.
func (r *run) pushLogs() { r.logStack = append(r.logStack, &logBuffer{}) }

// popLogs closes the innermost step's buffer, hands its lines to the
// parent step, and returns them.
func (r *run) popLogs() []string {
	b := r.logStack[len(r.logStack)-1]
	r.logStack = r.logStack[:len(r.logStack)-1]
	lines := b.lines()
	if len(r.logStack) > 0 {
		parent := r.logStack[len(r.logStack)-1]
		for _, l := range lines {
			parent.add(l)
		}
	}
	return lines
}

// CutText keeps the first max characters of s and says how many it left
// out: "… [N more characters]" follows the cut.
func CutText(s string, max int) string {
	if len(s) <= max {
		return s // fewer bytes than max means fewer characters
	}
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	cut := 0
	for range max {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return fmt.Sprintf("%s… [%d more characters]", s[:cut], n-max)
}

// CapError cuts an error's message, hint and text details to
// MaxErrorChars, in place, so reports and the console never carry a
// megabyte-long error. The runtime caps every step's and flow's error;
// callers cap the errors they add to a RunResult themselves.
func CapError(e *canonical.Error) *canonical.Error {
	if e == nil {
		return nil
	}
	e.Message = CutText(e.Message, MaxErrorChars)
	e.Hint = CutText(e.Hint, MaxErrorChars)
	for k, v := range e.Details {
		if s, ok := v.(string); ok {
			e.Details[k] = CutText(s, MaxErrorChars)
		}
	}
	return e
}
