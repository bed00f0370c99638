package ios_test

import (
	"context"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// mac is a fake Mac: an xcrun that lists one booted simulator U1, answers
// simctl get_app_container as simctl does (the bundle's path, or for an
// app the simulator lacks exit 2 with NSPOSIXErrorDomain code=2 "No such
// file or directory", as in appium/appium#15256), and runs xcodebuild
// test-without-building as a process that never prints the ready line
// (xcodebuild buffers the test's output when it is not a terminal) and
// returns once the runner's test does (after quit). The runner itself is
// the fake runner, started by the test on TEST_RUNNER_FLOW_RUNNER_PORT.
type mac struct {
	dir, xcrun string
	mu         sync.Mutex
	commands   []string
}

func newMac(t *testing.T, exitOnQuit bool) *mac {
	t.Helper()
	if _, err := osexec.LookPath("sh"); err != nil {
		t.Skip("no sh for the fake xcrun")
	}
	m := &mac{dir: t.TempDir()}
	m.xcrun = filepath.Join(m.dir, "xcrun")
	script := `#!/bin/sh
D='` + m.dir + `'
echo "$*" >> "$D/log"
case "$1 $2" in
"simctl list") echo '{"devices":{"iOS-17":[{"udid":"U1","name":"iPhone 15","state":"Booted","isAvailable":true}]}}' ;;
"simctl get_app_container")
  case "$4" in
  com.example.shop) echo "$D/shop.app" ;;
  *) echo "An error was encountered processing the command (domain=NSPOSIXErrorDomain, code=2):" >&2
     echo "No such file or directory" >&2; exit 2 ;;
  esac ;;
"xcodebuild test-without-building")
  n=$(ls "$D" | grep -c '^port')
  echo "$TEST_RUNNER_FLOW_RUNNER_PORT" > "$D/port$n.tmp" && mv "$D/port$n.tmp" "$D/port$n"
  rm -f "$D/quit"
  trap 'echo "xcodebuild got SIGTERM" >> "$D/log"; exit 143' TERM
  echo "Test Suite 'FlowRunnerUITests' started"
  while [ ! -f "$D/quit" ]; do sleep 0.05; done
  echo "xcodebuild returned after quit" >> "$D/log" ;;
*) exit 0 ;;
esac
`
	if err := os.WriteFile(m.xcrun, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Add(1)
	go func() { // serve a runner on each port an xcodebuild was given
		defer wg.Done()
		for n := 0; ; {
			select {
			case <-ctx.Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			b, err := os.ReadFile(filepath.Join(m.dir, "port"+strconv.Itoa(n)))
			if err != nil {
				continue
			}
			n++
			l, err := net.Listen("tcp", "127.0.0.1:"+strings.TrimSpace(string(b)))
			if err != nil {
				continue
			}
			o := runner.Options{Simulator: true, Tamper: func(command string, _ map[string]any) {
				m.mu.Lock()
				m.commands = append(m.commands, command)
				m.mu.Unlock()
			}}
			if exitOnQuit {
				o.OnQuit = func() { os.WriteFile(filepath.Join(m.dir, "quit"), nil, 0o644) }
			}
			wg.Add(1)
			go func() { defer wg.Done(); runner.New(o).Serve(ctx, l) }()
		}
	}()
	return m
}

func (m *mac) log() string {
	b, _ := os.ReadFile(filepath.Join(m.dir, "log"))
	return string(b)
}

func (m *mac) sent() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.commands, " ")
}

func (m *mac) open(ctx context.Context, t *testing.T, locks string) (*ios.Device, error) {
	return ios.OpenSimulator(ctx, ios.SimulatorConfig{Xcrun: m.xcrun, XCTestRun: "F.xctestrun", Env: os.Environ(),
		ReadyTimeout: 15 * time.Second, LockDir: locks, StopGrace: 2 * time.Second})
}

// TestSimulatorSession: the runner is ready once it answers status, with
// no ready line (R11); stopping it sends quit, waits for xcodebuild to
// return by itself, then terminates the runner app with simctl (R12); a
// second session on the simulator is refused with DEVICE_UNAVAILABLE
// naming the first and starts nothing (R19); launchApp of an app the
// simulator lacks fails COMMAND_FAILED before any launch reaches the
// runner, and stopApp of it passes (M6).
func TestSimulatorSession(t *testing.T) {
	m := newMac(t, true)
	ctx := context.Background()
	locks := t.TempDir()
	d, err := m.open(ctx, t, locks)
	if err != nil {
		t.Fatalf("a runner that answers status is ready without the log line: %v", err)
	}
	_, err = m.open(ctx, t, locks)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "U1 is in use by another flow run") ||
		!strings.Contains(ce.Message, "pid "+strconv.Itoa(os.Getpid())) || ce.Hint == "" {
		t.Fatalf("a second session on U1 must be refused naming the first: %v", err)
	}
	if n := strings.Count(m.log(), "xcodebuild test-without-building"); n != 1 {
		t.Fatalf("the refused session started a runner (%d starts):\n%s", n, m.log())
	}

	err = d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.missing", StopApp: true})
	ce, ok = canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Message, "com.example.missing") || !strings.Contains(ce.Message, "not installed") {
		t.Fatalf("launching an app the simulator lacks: %v", err)
	}
	if err := d.StopApp(ctx, "com.example.missing", false); err != nil {
		t.Fatalf("stopApp of a missing app passes, as Maestro ignores simctl terminate's failure: %v", err)
	}
	if s := m.sent(); strings.Contains(s, "launch") || strings.Contains(s, "terminate") {
		t.Fatalf("nothing about the missing app may reach the runner: %s", s)
	}
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true}); err != nil {
		t.Fatal(err)
	}

	if err := d.Close(ctx); err != nil {
		t.Fatal(err)
	}
	log := m.log()
	quit, term := strings.Index(log, "xcodebuild returned after quit"), strings.Index(log, "simctl terminate U1 dev.flow.runner.UITests.xctrunner")
	if quit < 0 || term < quit || strings.Contains(log, "SIGTERM") {
		t.Fatalf("stop: xcodebuild must return after quit, unsignalled, then the runner app be terminated:\n%s", log)
	}
	d, err = m.open(ctx, t, locks)
	if err != nil {
		t.Fatalf("U1 is free once the first session closed: %v", err)
	}
	d.Close(ctx)
}

// TestSimulatorStopEndsAWedgedRunner (R12): a runner whose test does not
// return after quit has xcodebuild ended after the grace, and the runner
// app terminated still.
func TestSimulatorStopEndsAWedgedRunner(t *testing.T) {
	m := newMac(t, false)
	d, err := m.open(context.Background(), t, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	d.Close(context.Background())
	log := m.log()
	sig, term := strings.Index(log, "xcodebuild got SIGTERM"), strings.Index(log, "simctl terminate U1 dev.flow.runner.UITests.xctrunner")
	if sig < 0 || term < sig {
		t.Fatalf("a wedged runner: xcodebuild signalled, then the app terminated:\n%s", log)
	}
	if d := time.Since(start); d < 2*time.Second || d > 10*time.Second {
		t.Fatalf("stop took %s; the grace is 2 s", d)
	}
}
