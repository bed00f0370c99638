package exec

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

func TestLogBufferKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, LogHeadLines, LogHeadLines + LogTailLines, LogHeadLines + LogTailLines + 1, 12345} {
		var b logBuffer
		for i := range n {
			b.add(fmt.Sprint(i))
		}
		got := b.lines()
		var want []string
		if n <= LogHeadLines+LogTailLines {
			for i := range n {
				want = append(want, fmt.Sprint(i))
			}
		} else {
			for i := range LogHeadLines {
				want = append(want, fmt.Sprint(i))
			}
			want = append(want, fmt.Sprintf("… %d %s omitted", n-LogHeadLines-LogTailLines,
				plural(n-LogHeadLines-LogTailLines, "line", "lines")))
			for i := n - LogTailLines; i < n; i++ {
				want = append(want, fmt.Sprint(i))
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%d lines: got %v, want %v", n, got, want)
		}
	}
}

// TestRunLogsSplitCutAndPassUp: a message is split into lines, each line
// cut to MaxLogLineChars, and a step's lines pass to the step around it.
func TestRunLogsSplitCutAndPassUp(t *testing.T) {
	t.Parallel()
	r := &run{}
	r.log("dropped: no step runs")
	r.pushLogs()
	r.log("outer")
	r.pushLogs()
	r.log("a\r\nb\n")
	r.log("")
	r.log(strings.Repeat("é", MaxLogLineChars+5))
	inner := r.popLogs()
	outer := r.popLogs()
	long := strings.Repeat("é", MaxLogLineChars) + "… [5 more characters]"
	if want := []string{"a", "b", "", long}; strings.Join(inner, "|") != strings.Join(want, "|") {
		t.Errorf("inner step logs %q, want %q", inner, want)
	}
	if want := []string{"outer", "a", "b", "", long}; strings.Join(outer, "|") != strings.Join(want, "|") {
		t.Errorf("outer step logs %q, want %q", outer, want)
	}
	if !utf8.ValidString(long) {
		t.Error("a cut line is not UTF-8")
	}
}

// TestLogMemoryBounded: a million distinct console lines in one step
// keep the heap flat: memory follows what a step keeps, not what a
// script prints.
func TestLogMemoryBounded(t *testing.T) {
	r := &run{}
	r.pushLogs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line := strings.Repeat("x", 300)
	for i := range 1_000_000 {
		r.log(line + fmt.Sprint(i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
		t.Errorf("the heap grew by %d MB for 1M log lines", grew>>20)
	}
	lines := r.popLogs()
	if len(lines) != LogHeadLines+1+LogTailLines || lines[LogHeadLines] != fmt.Sprintf("… %d lines omitted", 1_000_000-LogHeadLines-LogTailLines) ||
		lines[len(lines)-1] != line+"999999" {
		t.Errorf("kept %d lines, marker %q, last %.20q", len(lines), lines[LogHeadLines], lines[len(lines)-1])
	}
}

func TestCapError(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("m", MaxErrorChars+100)
	e := canonical.NewError(canonical.CodeCommandFailed, big).WithHint(big).With("text", big).With("n", 3)
	CapError(e)
	want := strings.Repeat("m", MaxErrorChars) + "… [100 more characters]"
	if e.Message != want || e.Hint != want || e.Details["text"] != want || e.Details["n"] != 3 {
		t.Errorf("not capped: message %d, hint %d, detail %v chars", len(e.Message), len(e.Hint), len(fmt.Sprint(e.Details["text"])))
	}
	small := canonical.NewError(canonical.CodeCommandFailed, "short")
	if CapError(small).Message != "short" || CapError(nil) != nil {
		t.Error("a short error changed")
	}
}
