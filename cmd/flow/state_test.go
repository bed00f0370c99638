package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// asCLIEnv makes the test binary run as the flow CLI (see TestMain), so a
// test can start flow commands as separate processes without building a
// binary.
const asCLIEnv = "FLOW_TEST_AS_CLI"

// parkEnv is the state folder's test switch (the root package's state.go):
// a process with it set parks before each rename into the state dir.
const parkEnv = "FLOW_TEST_PARK_BEFORE_RENAME"

// flowProcess is a flow command as its own process on the state dir.
func flowProcess(t *testing.T, state string, env []string, args ...string) *osexec.Cmd {
	t.Helper()
	cmd := osexec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asCLIEnv+"=1", "FLOW_STATE_DIR="+state, "FLOW_LOCK_TIMEOUT=5m")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// inState runs a flow command in-process on the state dir.
func inState(state string, vars map[string]string, args ...string) result {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(func(k string) string { return vars[k] }), StateDir: state}
	code := run(context.Background(), env, append([]string{"flow"}, args...))
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// focusSearch leaves the demo app open with its search field focused.
func focusSearch(t *testing.T, state string) {
	t.Helper()
	for _, args := range [][]string{{"open", "com.example.shop"}, {"press", "id=search"}} {
		if r := inState(state, nil, args...); r.code != 0 {
			t.Fatalf("flow %v: %s", args, r)
		}
	}
}

// searchText is the search field's text on the saved device.
func searchText(t *testing.T, state string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, flowapi.SimStateFile))
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("the state file is not valid JSON:\n%s", data)
	}
	dev, err := sim.Restore(data, sim.Options{})
	if err != nil {
		t.Fatalf("the state file cannot be restored: %v", err)
	}
	root, err := dev.Hierarchy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var walk func(n *exec.Node)
	walk = func(n *exec.Node) {
		if n.ID == "search" {
			text = n.Text
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	return text
}

// leftovers are the temporary files in the state dir.
func leftovers(t *testing.T, state string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(state, ".*.flowtmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestConcurrentDeviceCommands: twenty `flow type a` started at once as
// separate processes on one state dir all apply, in some order: the field
// holds twenty a's, the shared event log has twenty inputText lines, the
// state file is valid and no temporary file is left. Without the state
// dir's lock, commands read the same old state and overwrite each other.
func TestConcurrentDeviceCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	events := filepath.Join(dir, "events.jsonl")
	focusSearch(t, state)
	const n = 20
	cmds := make([]*osexec.Cmd, n)
	outs := make([]bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = flowProcess(t, state, nil, "type", "a", "--events", events)
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
	if got := searchText(t, state); got != strings.Repeat("a", n) {
		t.Fatalf("the field holds %q (%d a's): updates were lost", got, len(got))
	}
	data, _ := os.ReadFile(events)
	if got := strings.Count(string(data), `"type":"inputText"`); got != n {
		t.Fatalf("want %d inputText events, got %d:\n%s", n, got, data)
	}
	if l := leftovers(t, state); len(l) != 0 {
		t.Fatalf("temporary files left: %v", l)
	}
}

// TestConcurrentTestRunsAndCommands: flow test runs that read and write
// the saved device hold the lock for the whole run, so they queue with
// device commands: every run's inputText and every command's type apply.
func TestConcurrentTestRunsAndCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	flow := filepath.Join(dir, "type-t.yaml")
	// No launchApp: the run types into the field the saved device has
	// focused, so it reads the state, changes it and writes it back.
	if err := os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- inputText: t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	focusSearch(t, state)
	var cmds []*osexec.Cmd
	for i := range 12 {
		args := []string{"type", "a"}
		if i%3 == 0 {
			args = []string{"test", flow}
		}
		cmds = append(cmds, flowProcess(t, state, nil, args...))
	}
	var wg sync.WaitGroup
	for _, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := c.CombinedOutput(); err != nil {
				t.Errorf("%v: %v\n%s", c.Args[1:], err, out)
			}
		}()
	}
	wg.Wait()
	got := searchText(t, state)
	if strings.Count(got, "t") != 4 || strings.Count(got, "a") != 8 || len(got) != 12 {
		t.Fatalf("want 4 t's and 8 a's in some order, got %q", got)
	}
}

// TestKilledWriter: a command killed while it holds the lock, after its
// temporary file is complete and before the rename, leaves the previous
// state whole; meanwhile other commands wait and time out with a clear
// error; after the kill the lock is free, the next command reads the
// state, and the dead writer's temporary file is cleaned up.
func TestKilledWriter(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("parks the writer and kills it with SIGKILL; the lock itself is tested on Windows in exec/fsext")
	}
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	focusSearch(t, state)
	if r := inState(state, nil, "type", "a"); r.code != 0 {
		t.Fatalf("%s", r)
	}
	before, _ := os.ReadFile(filepath.Join(state, flowapi.SimStateFile))

	writer := flowProcess(t, state, []string{parkEnv + "=1"}, "type", "b")
	stderr, err := writer.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			writer.Process.Kill()
			writer.Wait()
		}
	}()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil || !strings.Contains(line, "parked before renaming") {
		t.Fatalf("the writer did not park: %q %v", line, err)
	}
	if l := leftovers(t, state); len(l) != 1 {
		t.Fatalf("want the parked writer's temporary file, found %v", l)
	}

	busy := inState(state, map[string]string{"FLOW_LOCK_TIMEOUT": "300ms"}, "type", "c")
	if busy.code != 3 || !strings.Contains(busy.stderr, "DEVICE_UNAVAILABLE: the sim device in "+state+" is busy: another flow command held its lock") ||
		!strings.Contains(busy.stderr, "FLOW_LOCK_TIMEOUT") {
		t.Fatalf("a command while the lock is held must wait, then fail with a clear exit 3:\n%s", busy)
	}

	if err := writer.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	writer.Wait()
	killed = true
	after, _ := os.ReadFile(filepath.Join(state, flowapi.SimStateFile))
	if !bytes.Equal(before, after) {
		t.Fatalf("the killed writer changed the state file:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	start := time.Now()
	next := flowProcess(t, state, []string{"FLOW_LOCK_TIMEOUT=10s"}, "type", "c")
	if out, err := next.CombinedOutput(); err != nil {
		t.Fatalf("the next command after the kill: %v\n%s", err, out)
	}
	if waited := time.Since(start); waited > 9*time.Second {
		t.Fatalf("the next command waited %s: the dead writer's lock was not released", waited)
	}
	if got := searchText(t, state); got != "ac" {
		t.Fatalf("want the state before the kill plus the next command (\"ac\"), got %q", got)
	}
	if l := leftovers(t, state); len(l) != 0 {
		t.Fatalf("the dead writer's temporary file was not cleaned up: %v", l)
	}
}

// TestStateFileRefusals: a state or refs file that is a folder, oversized
// or damaged fails before it is read (or parsed) with INVALID_ARGS naming
// the file, and the hint names flow sim reset; a reset then recovers.
func TestStateFileRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		file  string
		setup func(path string) error
		args  []string
		want  string
	}{
		{"state_folder", flowapi.SimStateFile, func(p string) error { return os.Mkdir(p, 0o755) }, []string{"back"},
			"sim-state.json is a folder, not a regular file"},
		{"state_oversized", flowapi.SimStateFile, oversized(flowapi.MaxSimStateBytes + 1), []string{"back"},
			"sim-state.json is 67108865 bytes, over the 64 MiB limit"},
		{"state_invalid_json", flowapi.SimStateFile, func(p string) error { return os.WriteFile(p, []byte(`{"format": "flow-sim`), 0o644) }, []string{"back"},
			"sim-state.json: the saved sim state is damaged: cannot read it"},
		{"state_fifo", flowapi.SimStateFile, makeFIFO, []string{"back"}, "sim-state.json is a named pipe (FIFO), not a regular file"},
		{"refs_folder", flowapi.RefsFile, func(p string) error { return os.Mkdir(p, 0o755) }, []string{"press", "@e1"},
			"refs.json is a folder, not a regular file"},
		{"refs_oversized", flowapi.RefsFile, oversized(flowapi.MaxRefsBytes + 1), []string{"press", "@e1"},
			"refs.json is 16777217 bytes, over the 16 MiB limit"},
		{"refs_fifo", flowapi.RefsFile, makeFIFO, []string{"press", "@e1"}, "refs.json is a named pipe (FIFO), not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			state := t.TempDir()
			focusSearch(t, state)
			if r := inState(state, nil, "snapshot"); r.code != 0 {
				t.Fatalf("%s", r)
			}
			p := filepath.Join(state, tc.file)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := tc.setup(p); err != nil {
				t.Skipf("cannot make the file here: %v", err)
			}
			done := make(chan result, 1)
			go func() { done <- inState(state, nil, tc.args...) }()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the command blocked on the file")
			}
			if r.code != 2 || !strings.Contains(r.stderr, "INVALID_ARGS: "+p) || !strings.Contains(r.stderr, tc.want) ||
				!strings.Contains(r.stderr, "hint: run flow sim reset") {
				t.Fatalf("want exit 2 with %q naming %s and a hint to flow sim reset:\n%s", tc.want, p, r)
			}
			if r := inState(state, nil, "sim", "reset"); r.code != 0 {
				t.Fatalf("reset: %s", r)
			}
			if r := inState(state, nil, "open", "com.example.shop"); r.code != 0 {
				t.Fatalf("after a reset the device starts fresh:\n%s", r)
			}
		})
	}
}

// oversized makes a sparse file of n bytes.
func oversized(n int64) func(string) error {
	return func(p string) error {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
		return os.Truncate(p, n)
	}
}

// TestAppFileRefusals: an --app path that is a folder or oversized is
// refused before it is read, naming the file and the limit.
func TestAppFileRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, flowapi.MaxAppModelBytes+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir: "INVALID_ARGS: --app: " + dir + " is a folder, not a regular file",
		big: "INVALID_ARGS: --app: " + big + " is 16777217 bytes, over the 16 MiB limit",
	} {
		r := inState(t.TempDir(), nil, "open", "com.example.shop", "--app", path)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("want exit 2 with %q:\n%s", want, r)
		}
	}
}

// TestSimResetWaitsForLock: flow sim reset takes the lock too, so it
// never lands between another command's read and write.
func TestSimResetWaitsForLock(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	focusSearch(t, state)
	held, err := flowapi.LockSimState(context.Background(), Env{StateDir: state, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	r := inState(state, map[string]string{"FLOW_LOCK_TIMEOUT": "0"}, "sim", "reset")
	if r.code != 3 || !strings.Contains(r.stderr, "FLOW_LOCK_TIMEOUT=0 does not wait") {
		t.Fatalf("reset must not run while the lock is held:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(state, flowapi.SimStateFile)); err != nil {
		t.Fatalf("the state was removed under another holder: %v", err)
	}
	held.Release()
	if r := inState(state, nil, "sim", "reset"); r.code != 0 {
		t.Fatalf("%s", r)
	}
	for _, f := range []string{flowapi.SimStateFile, flowapi.RefsFile} {
		if _, err := os.Stat(filepath.Join(state, f)); !os.IsNotExist(err) {
			t.Errorf("%s survived the reset: %v", f, err)
		}
	}
}

// TestLockWaitNoticeAndCancel: a waiting command says once on stderr that
// it waits, and Ctrl-C (a cancelled context) ends the wait at once.
func TestLockWaitNoticeAndCancel(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	held, err := flowapi.LockSimState(context.Background(), Env{StateDir: state, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	ctx, cancel := context.WithCancel(context.Background())
	var errb syncBuffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: getenv139, StateDir: state}
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, []string{"flow", "back"}) }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(errb.String(), "waiting for another flow command to finish with the device state in "+state+" (up to 30s)") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no waiting notice on stderr: %q", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code == 0 || !strings.Contains(errb.String(), "interrupted while waiting for the lock on "+state) {
			t.Fatalf("want an interrupted wait, exit %d:\n%s", code, errb.String())
		}
		if n := strings.Count(errb.String(), "waiting for another flow command"); n != 1 {
			t.Fatalf("the notice must be said once, said %d times", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not end the wait")
	}
}

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
