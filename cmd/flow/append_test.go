package main

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestParallelAppendsFromSeparateStates: twenty `flow back` processes,
// each on a state dir of its own (so the state lock does not queue them),
// append to one --record script and one --events log at once. Every
// append lands: the script has its context header once and twenty back
// lines, the log twenty back events. Without a lock on the target file,
// two appenders copy the same old content and the later rename drops the
// other's line.
func TestParallelAppendsFromSeparateStates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.ad")
	events := filepath.Join(dir, "events.jsonl")
	const n = 20
	cmds := make([]*osexec.Cmd, n)
	outs := make([]bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = flowProcess(t, filepath.Join(dir, "state", string(rune('a'+i))), nil, "back", "--record", rec, "--events", events)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
	}
	for i, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("command %d: %v\n%s", i, err, outs[i].String())
		}
	}
	script, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(script), "\n"), "\n")
	headers, backs := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "context "):
			headers++
		case l == "back":
			backs++
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if headers != 1 || backs != n || !strings.HasPrefix(lines[0], "context ") {
		t.Fatalf("--record: want the context header first and once, then %d back lines; got %d headers and %d back lines:\n%s", n, headers, backs, script)
	}
	log, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(log), `"type":"back"`); got != n || strings.Count(string(log), "\n") != n {
		t.Fatalf("--events: want %d back events on %d lines, got %d:\n%s", n, n, got, log)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*flowtmp"))
	if runtime.GOOS != "windows" { // which cannot remove a lock file still open
		locks, _ := filepath.Glob(filepath.Join(dir, ".*flowlock"))
		left = append(left, locks...)
	}
	if len(left) != 0 {
		t.Fatalf("files left beside the outputs: %v", left)
	}
}
