package main

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
)

// TestKilledOutputWriter: a flow process killed while it writes a
// recording or an event log leaves both files as they were, whole: the
// appends of device commands and flow test --record, and flow test's
// streamed --events, replace their file only once complete.
func TestKilledOutputWriter(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("parks the writer and kills it with SIGKILL")
	}
	cases := []struct {
		name string
		args func(script, events string) []string
	}{
		{"device command appending", func(s, e string) []string {
			return []string{"press", "text=Log in", "--record", s, "--events", e}
		}},
		{"flow test recording", func(s, e string) []string {
			return []string{"test", "../../flows/demo/02-login.yaml", "--record", s, "--events", e}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			state := filepath.Join(dir, "state")
			script, events := filepath.Join(dir, "session.ad"), filepath.Join(dir, "events.jsonl")
			if r := inState(state, nil, "open", "com.example.shop", "--record", script, "--events", events); r.code != 0 {
				t.Fatalf("%s", r)
			}
			oldScript, _ := os.ReadFile(script)
			oldEvents, _ := os.ReadFile(events)
			if !strings.HasPrefix(string(oldScript), "context ") || !strings.Contains(string(oldEvents), `"type":"launchApp"`) {
				t.Fatalf("setup: script %q, events %q", oldScript, oldEvents)
			}
			writer := flowProcess(t, state, []string{parkEnv + "=1"}, c.args(script, events)...)
			stderr, err := writer.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := writer.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(stderr).ReadString('\n')
			if err != nil || !strings.Contains(line, "parked before renaming") {
				writer.Process.Kill()
				writer.Wait()
				t.Fatalf("the writer did not park: %q %v", line, err)
			}
			if err := writer.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			writer.Wait()
			if got, _ := os.ReadFile(script); string(got) != string(oldScript) {
				t.Errorf("the killed writer changed the script:\nbefore:\n%s\nafter:\n%s", oldScript, got)
			}
			if got, _ := os.ReadFile(events); string(got) != string(oldEvents) {
				t.Errorf("the killed writer changed the event log:\nbefore:\n%s\nafter:\n%s", oldEvents, got)
			}
			// The next command appends to the whole files.
			if r := inState(state, nil, "press", "text=Log in", "--record", script, "--events", events); r.code != 0 {
				t.Fatalf("%s", r)
			}
			if got, _ := os.ReadFile(script); string(got) != string(oldScript)+"press \"text=\\\"Log in\\\"\"\n" {
				t.Errorf("script after the next command:\n%s", got)
			}
			untimedEvents(t, events) // every line is whole JSON
		})
	}
}

// TestOutputsWrittenAtomically: reports, event logs and recordings leave
// no temporary file behind, and a report replaces the old one whole.
func TestOutputsWrittenAtomically(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	report, events, script := filepath.Join(dir, "r.json"), filepath.Join(dir, "e.jsonl"), filepath.Join(dir, "s.ad")
	os.WriteFile(report, []byte(strings.Repeat("old report ", 10000)), 0o644)
	r := runFlow(t, "", "test", "../../flows/demo/01-launch.yaml", "--output", report, "--events", events, "--record", script)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	data, _ := os.ReadFile(report)
	if !strings.HasPrefix(string(data), "{") || strings.Contains(string(data), "old report") {
		t.Fatalf("the report was not replaced whole:\n%.200s", data)
	}
	untimedEvents(t, events)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "e.jsonl r.json s.ad" {
		t.Fatalf("files left: %v", names)
	}
}

// TestDeviceCommandOutputsChecked: a device command's --record and
// --events that share a file, or name a folder, are refused before the
// device is touched.
func TestDeviceCommandOutputsChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	same := filepath.Join(dir, "x.ad")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"open", "com.example.shop", "--record", same, "--events", same}, "--record and --events both name " + same},
		{[]string{"open", "com.example.shop", "--events", dir}, "--events " + dir + " is a folder, not a file"},
	} {
		r := inState(state, nil, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: want exit 2 and %q:\n%s", c.args, c.want, r)
		}
	}
	if _, err := os.Stat(filepath.Join(state, flowapi.SimStateFile)); err == nil {
		t.Error("a refused command touched the device")
	}
}
