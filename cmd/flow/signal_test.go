//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/peakrss"
)

// cliProcess is flow as a real process (this test binary re-executed as
// flow's main), in dir, with its own state folder.
type cliProcess struct {
	cmd            *osexec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
	peak           *peakrss.Probe // set by startFlowMeasured
}

func startFlow(t *testing.T, dir string, args ...string) *cliProcess {
	t.Helper()
	return startFlowWith(t, dir, false, args...)
}

// startFlowMeasured is startFlow with the process's own peak memory
// measured (peakrss: a plain ru_maxrss would report this test binary's).
func startFlowMeasured(t *testing.T, dir string, args ...string) (*cliProcess, *peakrss.Probe) {
	t.Helper()
	p := startFlowWith(t, dir, true, args...)
	return p, p.peak
}

func startFlowWith(t *testing.T, dir string, measure bool, args ...string) *cliProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &cliProcess{cmd: osexec.Command(exe, args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), asCLIEnv+"=1", "FLOW_STATE_DIR="+t.TempDir(), "CI=1")
	if measure {
		p.peak = peakrss.Wrap(p.cmd, t.TempDir())
	}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// signal sends sig once the process has had time to install its handler
// and start working; it fails the test if the process already ended.
func (p *cliProcess) signal(t *testing.T, after time.Duration, sig os.Signal) time.Time {
	t.Helper()
	select {
	case <-p.done:
		t.Fatalf("flow ended before the signal (input too small for this machine?):\n%s", p)
	case <-time.After(after):
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return time.Now()
}

// wait waits at most limit for the process to end.
func (p *cliProcess) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("flow did not stop within %s of the signal:\n%s", limit, p)
	}
}

func (p *cliProcess) exitCode() int {
	var ee *osexec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		return -2
	}
	return 0
}

func (p *cliProcess) String() string {
	return fmt.Sprintf("err %v\n--- stdout\n%s--- stderr\n%s", p.err, p.stdout.String(), p.stderr.String())
}

// slowWorkspace writes a folder of n flows of 120 commands each: loading
// and checking them takes seconds. The folder lives as long as t.
func slowWorkspace(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("appId: com.example.shop\n---\n")
	for i := range 40 {
		fmt.Fprintf(&b, "- tapOn: \"Item %d\"\n- assertVisible:\n    id: item_%d\n- swipe:\n    start: 50%%, 80%%\n    end: 50%%, 20%%\n", i, i)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.yaml", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// signalWhileLoading starts flow (args for the workspace folder) on a
// workspace that takes seconds to load, and sends sig once it is busy. A
// machine fast enough to finish first gets a four times larger workspace.
func signalWhileLoading(t *testing.T, dirs *workspaces, sig os.Signal, args func(ws string) []string) *cliProcess {
	t.Helper()
	for _, n := range []int{1500, 6000} {
		ws := dirs.get(n)
		p := startFlow(t, ws, args(ws)...)
		select {
		case <-p.done:
			t.Logf("%d files loaded within 700 ms; trying a larger workspace", n)
			continue
		case <-time.After(700 * time.Millisecond):
		}
		p.signal(t, 0, sig)
		return p
	}
	t.Fatal("flow loads even 6,000 files within 700 ms: no workspace is slow enough to interrupt")
	return nil
}

// workspaces are slow workspaces by size, made once for a test and its
// subtests.
type workspaces struct {
	t    *testing.T
	dirs map[int]string
}

func newWorkspaces(t *testing.T) *workspaces { return &workspaces{t: t, dirs: map[int]string{}} }

func (w *workspaces) get(n int) string {
	if _, ok := w.dirs[n]; !ok {
		w.dirs[n] = slowWorkspace(w.t, n)
	}
	return w.dirs[n]
}

// The first Ctrl-C or SIGTERM stops flow check while it loads and checks
// files: it exits at once with 128+signal (130, 143) and an INTERRUPTED
// error naming the signal, and prints no summary that could pass for a
// verdict. (Before, loading ignored the signal and finished.)
func TestSignalStopsCheck(t *testing.T) {
	ws := newWorkspaces(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT (Ctrl-C)"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			p := signalWhileLoading(t, ws, tc.sig, func(string) []string { return []string{"check", "."} })
			p.wait(t, 10*time.Second)
			if p.exitCode() != tc.code {
				t.Fatalf("want exit %d:\n%s", tc.code, p)
			}
			if want := "INTERRUPTED: flow check was stopped by " + tc.name; !strings.Contains(p.stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, p)
			}
			if strings.Contains(p.stdout.String(), "checked ") {
				t.Errorf("the check ran to its end despite the signal:\n%s", p)
			}
		})
	}
}

// The first Ctrl-C stops flow test while it loads the workspace: no flow
// starts, the device does nothing (the event log stays empty).
func TestSignalStopsTestWhileLoading(t *testing.T) {
	var events string
	p := signalWhileLoading(t, newWorkspaces(t), syscall.SIGINT, func(string) []string {
		events = filepath.Join(t.TempDir(), "events.jsonl")
		return []string{"test", ".", "--events", events}
	})
	p.wait(t, 10*time.Second)
	if p.exitCode() != 130 || !strings.Contains(p.stderr.String(), "INTERRUPTED: flow test was stopped by SIGINT (Ctrl-C)") {
		t.Fatalf("want exit 130 and the INTERRUPTED error:\n%s", p)
	}
	if strings.Contains(p.stdout.String(), "[1/") {
		t.Errorf("flows were started (or listed) after the signal:\n%s", p)
	}
	if data, _ := os.ReadFile(events); len(data) > 0 {
		t.Errorf("the device acted after the signal:\n%s", data)
	}
}

// A signal during a run stops the running flow at once: it is reported
// interrupted, the flow not started skipped, the report is still written
// and the exit status is 128+signal.
func TestSignalStopsRunAndKeepsReport(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := endlessSuite(t)
			p := startFlow(t, dir, "test", "a.yaml", "b.yaml", "c.yaml", "--format", "json", "--output", "report.json")
			p.signal(t, time.Second, tc.sig)
			p.wait(t, 10*time.Second)
			if p.exitCode() != tc.code {
				t.Fatalf("want exit %d:\n%s", tc.code, p)
			}
			if !strings.Contains(p.stdout.String(), "1 passed, 0 failed, 1 interrupted, 1 skipped") {
				t.Errorf("no interrupted summary:\n%s", p)
			}
			data, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if err != nil {
				t.Fatalf("no report after the signal: %v\n%s", err, p)
			}
			var rep struct {
				Summary map[string]int
				Flows   []struct{ Name, Status string }
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(rep.Flows)
			if got != "[{a passed} {b interrupted} {c skipped}]" || rep.Summary["interrupted"] != 1 {
				t.Errorf("report flows %s summary %v", got, rep.Summary)
			}
		})
	}
}

// A second signal kills flow at once, even while the first one's cleanup
// hangs (here: a WebDriver endpoint that never answers the session's
// deletion, which flow would wait 10 s for).
func TestSecondSignalKills(t *testing.T) {
	hung := make(chan struct{})
	defer close(hung)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/session":
			fmt.Fprint(w, `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome"}}}`)
		case r.Method == http.MethodDelete:
			select {
			case <-hung:
			case <-r.Context().Done():
			}
		default:
			fmt.Fprint(w, `{"value":null}`)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	flow := "url: http://127.0.0.1:1/\n---\n- evalScript: ${while (true) {}}\n"
	if err := os.WriteFile(filepath.Join(dir, "web.yaml"), []byte(flow), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startFlow(t, dir, "test", "web.yaml", "--webdriver-url", srv.URL)
	p.signal(t, time.Second, syscall.SIGINT)
	// The first signal's cleanup now waits on the endpoint.
	select {
	case <-p.done:
		t.Fatalf("flow ended before the second signal; the cleanup did not hang:\n%s", p)
	case <-time.After(500 * time.Millisecond):
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	p.wait(t, 3*time.Second)
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Fatalf("want flow killed by the second SIGINT, got %v:\n%s", p.cmd.ProcessState, p)
	}
	if !strings.Contains(p.stderr.String(), "SIGINT (Ctrl-C) received, stopping") {
		t.Errorf("the first signal was not acknowledged:\n%s", p)
	}
}
