package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitOutput waits until cond holds for the command's output so far, or
// fails the test after limit: the test waits on what flow says, never on
// a sleep.
func waitOutput(t *testing.T, what string, out, errb *syncBuffer, limit time.Duration, cond func(stdout, stderr string) bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond(out.String(), errb.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s\n--- stdout\n%s--- stderr\n%s", limit, what, out, errb)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestContinuousRerunsOnSave: flow test -c runs the flow, then again each
// time a file it runs is saved (here its subflow), shows a flow that no
// longer loads and keeps watching, and ends only when stopped, with the
// interrupted status (Maestro's TestRunner.runContinuous loops until the
// process is killed).
func TestContinuousRerunsOnSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	main, sub := filepath.Join(dir, "main.yaml"), filepath.Join(dir, "sub.yaml")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(main, "appId: com.example.shop\n---\n- launchApp\n- runFlow: sub.yaml\n")
	write(sub, "appId: com.example.shop\n---\n- assertVisible: Shop\n")
	var out, errb syncBuffer
	keys, typing := io.Pipe()
	defer typing.Close()
	env := Env{Stdin: keys, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, []string{"flow", "test", "-c", main}) }()
	watching := func(n int) func(string, string) bool {
		return func(o, _ string) bool { return strings.Count(o, "watching ") >= n }
	}
	limit := 30 * time.Second
	waitOutput(t, "the first run", &out, &errb, limit, watching(1))
	if o := out.String(); !strings.Contains(o, "1 passed, 0 failed") || !strings.Contains(o, "watching "+main+", "+sub) {
		t.Fatalf("the first run passes and watches the flow and its subflow:\n%s", o)
	}
	// ENTER runs it again, changed or not (Maestro's "Press [ENTER] to
	// restart the Flow").
	if _, err := typing.Write([]byte("\n")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, "the rerun after ENTER", &out, &errb, limit, watching(2))
	if o := out.String(); !strings.Contains(o, "ENTER: running again") || strings.Count(o, "1 passed, 0 failed") != 2 {
		t.Fatalf("ENTER reruns the flow:\n%s", o)
	}
	write(sub, "appId: com.example.shop\n---\n- assertVisible: Nothing like this\n")
	waitOutput(t, "the rerun after the subflow's save", &out, &errb, limit, watching(3))
	if o := out.String(); !strings.Contains(o, sub+" changed: running again") || !strings.Contains(o, "0 passed, 1 failed") {
		t.Fatalf("the save reruns the flow, which fails now:\n%s", o)
	}
	write(main, "appId: com.example.shop\n---\n- launchApp: [\n")
	waitOutput(t, "the run of a flow that does not load", &out, &errb, limit, watching(4))
	if o := out.String(); !strings.Contains(o, "INVALID_ARGS: invalid YAML") || !strings.HasSuffix(strings.TrimSpace(o), "watching "+main+" for changes; press ENTER to run again (Ctrl-C to stop)") {
		t.Fatalf("a flow that does not load is shown, and the file is watched still:\n%s\n%s", o, errb.String())
	}
	write(main, "appId: com.example.shop\n---\n- launchApp\n")
	waitOutput(t, "the run of the mended flow", &out, &errb, limit, watching(5))
	if o := out.String(); strings.Count(o, "1 passed, 0 failed") != 3 {
		t.Fatalf("the mended flow passes again:\n%s", o)
	}
	select {
	case code := <-done:
		t.Fatalf("continuous mode ended by itself with %d:\n%s\n%s", code, out.String(), errb.String())
	default:
	}
	cancel()
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(errb.String(), "INTERRUPTED") {
			t.Fatalf("a stop ends it with 130 and INTERRUPTED; got %d\n%s", code, errb.String())
		}
	case <-time.After(limit):
		t.Fatal("the stop did not end continuous mode")
	}
}
