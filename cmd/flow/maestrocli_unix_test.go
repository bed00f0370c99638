//go:build unix

package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMaestroCommandLinesAsProcesses runs a few of the table's command
// lines as separate flow processes (the test binary as the CLI), the way
// CI scripts do: argument parsing from os.Args, exit status from the
// process, and -c ended by a real SIGINT (Ctrl-C) with the shell's 130.
func TestMaestroCommandLinesAsProcesses(t *testing.T) {
	t.Parallel()
	ws := maestroWorkspace(t)
	state := t.TempDir()
	pass, fail, ios := filepath.Join(ws, "pass.yaml"), filepath.Join(ws, "fail.yaml"), filepath.Join(ws, "ios.yaml")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-p", "ios", "--device", "sim", "--no-ansi", "test", ios}, 0, "1 passed, 0 failed"},
		{[]string{"--udid", "sim:android", "test", ios, "--format", "noop"}, 1, "0 passed, 1 failed"},
		{[]string{"--verbose", "test", "-s", "2", pass, fail}, 1, "--shards option is deprecated"},
		{[]string{"-v"}, 0, "flow "},
		{[]string{"check", "--include-tags", "smoke", ws}, 0, "checked 1 file"},
	}
	for _, c := range cases {
		cmd := flowProcess(t, state, nil, c.args...)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("flow %s: exit %d, want %d and %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}

	// -c until Ctrl-C.
	var out, errb syncBuffer
	cmd := flowProcess(t, state, nil, "--no-ansi", "test", "-c", pass)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, "the first continuous run", &out, &errb, time.Minute, func(o, _ string) bool { return strings.Contains(o, "watching ") })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(out.String(), "1 passed, 0 failed") {
		t.Fatalf("Ctrl-C ends -c with 130 after the run passed: %v\n%s\n%s", err, out.String(), errb.String())
	}
}
