//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledBrowserExits3: with a real Chromium, killing the browser (or
// its chromedriver) while a flow waits for an element ends the flow at
// once with DEVICE_UNAVAILABLE, never as the element not found, and the
// run exits 3.
func TestKilledBrowserExits3(t *testing.T) {
	base := needBrowser(t)
	for _, victim := range []string{"chromium", "chromedriver"} {
		t.Run(victim, func(t *testing.T) {
			// A kill that lands while a loaded machine is still navigating
			// (launchApp's event comes before its page load ends) is a loss
			// at the launch, right but not what this test is about: try
			// again, a few times, each waiting longer after the launch,
			// for one that lands in the wait.
			for attempt := 1; ; attempt++ {
				if killedWhileWaiting(t, base, victim, time.Duration(attempt)*time.Second) {
					return
				}
				if attempt == 5 {
					t.Fatal("five kills landed before the wait began")
				}
				t.Logf("attempt %d: the kill landed before the wait began; again", attempt)
			}
		})
	}
}

// killedWhileWaiting runs one attempt of TestKilledBrowserExits3, killing
// settle after the launch; false when the kill landed before the wait began.
func killedWhileWaiting(t *testing.T, base, victim string, settle time.Duration) bool {
	t.Helper()
	dir := writeFiles(t, map[string]string{
		"wait.yaml": "url: " + base + "/login.html\n---\n- launchApp\n- extendedWaitUntil:\n    visible: Never shown\n    timeout: 30000\n",
		"next.yaml": "url: " + base + "/login.html\n---\n- launchApp\n",
	})
	out := filepath.Join(t.TempDir(), "report.json")
	events := filepath.Join(t.TempDir(), "events.jsonl")
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		done <- runFlow(t, "", "test", filepath.Join(dir, "wait.yaml"), filepath.Join(dir, "next.yaml"),
			"--device", "web", "--format", "json", "--output", out, "--events", events)
	}()
	driver := waitForChild(t, "chromedriver", 20*time.Second)
	// Chromium's start takes from 0.3 s to several seconds on a busy
	// machine: kill only once the app is launched (the event log
	// says so), then give the page load and the wait settle to begin
	// polling.
	waitForEvent(t, events, `"type":"launchApp"`, 30*time.Second)
	time.Sleep(settle)
	killed := killDriver(t, driver, victim == "chromedriver")
	killedAt := time.Now()
	var r result
	select {
	case r = <-done:
	case <-time.After(40 * time.Second):
		t.Fatal("flow did not end after the browser was killed")
	}
	t.Logf("killed %d process(es) %s after the start; the run ended %s later", killed,
		killedAt.Sub(start).Round(time.Millisecond), time.Since(killedAt).Round(time.Millisecond))
	if r.code != 3 {
		t.Fatalf("want exit 3:\n%s", r)
	}
	if strings.Contains(r.stdout, "wait.yaml:3:3: DEVICE_UNAVAILABLE: ") {
		return false
	}
	if !strings.Contains(r.stdout, "wait.yaml:4:3: DEVICE_UNAVAILABLE: ") {
		t.Errorf("want DEVICE_UNAVAILABLE at the wait:\n%s", r)
	}
	if time.Since(start) > 25*time.Second {
		t.Errorf("the wait went on until its timeout instead of stopping at the loss")
	}
	if got := strings.Join(lostReport(t, out), "; "); got != "wait failed DEVICE_UNAVAILABLE; next skipped DEVICE_UNAVAILABLE" {
		t.Errorf("report: %s", got)
	}
	return true
}

// waitForEvent waits until the event log being written holds want. The
// log streams into a hidden replacement beside path until the run ends, so
// every file of path's folder is read.
func waitForEvent(t *testing.T, path, want string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"))
		for _, name := range names {
			if data, err := os.ReadFile(name); err == nil && strings.Contains(string(data), want) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the event log had no %s within %s", want, limit)
}

// waitForChild finds this process's child process named name.
func waitForChild(t *testing.T, name string, limit time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			comm, ppid, _, ok := procStat(pid)
			if ok && comm == name && ppid == os.Getpid() {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s child process within %s", name, limit)
	return 0
}

// killDriver SIGKILLs the browser processes of the driver's process group
// (all of it, the driver included, when withDriver) and returns how many.
func killDriver(t *testing.T, driver int, withDriver bool) int {
	t.Helper()
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || (pid == driver && !withDriver) {
			continue
		}
		if _, _, pgid, ok := procStat(pid); ok && pgid == driver {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("found no process to kill")
	}
	return n
}

// procStat reads a process's name, parent and process group from /proc.
func procStat(pid int) (comm string, ppid, pgid int, ok bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", 0, 0, false
	}
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", 0, 0, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 3 {
		return "", 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	pgid, _ = strconv.Atoi(f[2])
	return s[open+1 : end], ppid, pgid, true
}
