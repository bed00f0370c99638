package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/planner"
)

// twoContactLines is bench/inputs/two-contact.jsonl in the public --jsonl
// form ({"input":{"kind":...}}), repeated to n lines: the input that
// bench/plan-jsonl-side-by-side.sh feeds the built binary.
func twoContactLines(tb testing.TB, n int) []byte {
	tb.Helper()
	data, err := os.ReadFile("../../bench/inputs/two-contact.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	var out bytes.Buffer
	for i := 0; i < n; i++ {
		l := lines[i%len(lines)]
		rest, ok := bytes.CutPrefix(l, []byte(`{"intent":{"intent":`))
		if !ok {
			tb.Fatalf("benchmark input line %d is not an intent line: %s", i%len(lines)+1, l)
		}
		out.WriteString(`{"input":{"kind":`)
		out.Write(rest)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// BenchmarkPlanJSONLines3000 runs what `flow plan --jsonl` does for 3,000
// two-contact inputs, in process: read lines, decode, plan, encode, write.
// One op is the whole stream.
func BenchmarkPlanJSONLines3000(b *testing.B) {
	in := twoContactLines(b, 3000)
	o := planOptions{platform: planner.Android, viewport: flowapi.DefaultViewport(planner.Android)}
	var n countingWriter
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := planJSONLines(context.Background(), bytes.NewReader(in), &n, o); err != nil {
			b.Fatal(err)
		}
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)
