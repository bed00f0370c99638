//go:build linux

package main

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// stallingPhone is a fake phone behind a relay that can stop answering,
// connected to a real adb server of the test's own, and a two-flow suite
// for it: a waits for an element that never shows (polling the helper
// all the while), b only launches the app.
func stallingPhone(t *testing.T) (d *adbtest.Device, r *adbtest.Relay, dir, apk string) {
	t.Helper()
	fs := adbd.NewMemFS()
	p := phone.New(phone.Options{Files: fs})
	t.Cleanup(func() { p.Close() })
	d, r = adbtest.StartStalling(t, p, adbd.Options{Props: p.Props(), FS: fs})
	dir = writeFiles(t, map[string]string{
		"a.yaml":     "appId: com.example.shop\n---\n- launchApp\n- extendedWaitUntil:\n    visible: Never shown\n    timeout: 120000\n",
		"b.yaml":     "appId: com.example.shop\n---\n- launchApp\n",
		"helper.apk": "a helper the fake phone accepts",
	})
	return d, r, dir, filepath.Join(dir, "helper.apk")
}

// startFlowEnv is startFlow with more environment (the adb server's port
// and HOME).
func startFlowEnv(t *testing.T, dir string, env []string, args ...string) *cliProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &cliProcess{cmd: osexec.Command(exe, args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(append(os.Environ(), env...), asCLIEnv+"=1", "FLOW_STATE_DIR="+t.TempDir(), "CI=1")
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

func adbEnv(d *adbtest.Device) []string {
	return []string{"HOME=" + d.Getenv("HOME"), "ANDROID_ADB_SERVER_PORT=" + d.Getenv("ANDROID_ADB_SERVER_PORT")}
}

// startStalledRun starts the suite on the phone and stalls its link once
// the first flow has launched the app and is polling for the element.
func startStalledRun(t *testing.T) (p *cliProcess, dir string, stalledAt time.Time) {
	t.Helper()
	d, r, dir, apk := stallingPhone(t)
	events := filepath.Join(dir, "events.jsonl")
	p = startFlowEnv(t, dir, adbEnv(d), "test", "a.yaml", "b.yaml", "--device", "android:"+d.Serial,
		"--android-helper", apk, "--format", "json", "--output", "report.json", "--events", events)
	waitForEvent(t, events, `"type":"launchApp"`, 60*time.Second)
	time.Sleep(time.Second)
	r.Stall()
	return p, dir, time.Now()
}

// A phone whose adb link stays open but stops answering mid-flow (a
// wedged USB link, a frozen emulator) is a lost device: the run ends in
// seconds with exit 3, the flow that met the stall failed with
// DEVICE_UNAVAILABLE, the next one skipped, and the report written. On
// b5e1447 the helper call waited its 30 s, then the cleanup's
// `am force-stop` waited for ever.
func TestAndroidStalledLinkIsALostDevice(t *testing.T) {
	p, dir, stalledAt := startStalledRun(t)
	p.wait(t, 40*time.Second)
	took := time.Since(stalledAt)
	t.Logf("the run ended %s after the stall", took.Round(time.Millisecond))
	if p.exitCode() != 3 {
		t.Fatalf("want exit 3:\n%s", p)
	}
	if took > 25*time.Second {
		t.Errorf("the stall took %s to end the run; it must be detected in seconds", took)
	}
	if !strings.Contains(p.stdout.String(), "a.yaml:4:3: DEVICE_UNAVAILABLE: ") || !strings.Contains(p.stdout.String(), "stopped answering") {
		t.Errorf("want DEVICE_UNAVAILABLE at the wait, saying the device stopped answering:\n%s", p)
	}
	if got := strings.Join(lostReport(t, filepath.Join(dir, "report.json")), "; "); got != "a failed DEVICE_UNAVAILABLE; b skipped DEVICE_UNAVAILABLE" {
		t.Errorf("report: %s", got)
	}
}

// The first SIGINT or SIGTERM during such a stall ends the run (130,
// 143) with the report written: the device's cleanup gets a few seconds,
// never an unbounded wait on the dead link.
func TestAndroidStalledLinkFirstSignal(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			p, dir, _ := startStalledRun(t)
			sentAt := p.signal(t, time.Second, tc.sig)
			p.wait(t, 20*time.Second)
			t.Logf("the run ended %s after the signal", time.Since(sentAt).Round(time.Millisecond))
			if p.exitCode() != tc.code {
				t.Fatalf("want exit %d:\n%s", tc.code, p)
			}
			if got := strings.Join(lostReport(t, filepath.Join(dir, "report.json")), "; "); got != "a interrupted INTERRUPTED; b skipped INTERRUPTED" {
				t.Errorf("report: %s", got)
			}
		})
	}
}

// A phone that stops answering before the run starts: opening it ends
// with exit 3 in seconds (the report written, every flow skipped with the
// reason); interrupted while opening it, the flows are skipped as
// INTERRUPTED, never INTERNAL "context canceled".
func TestAndroidStalledBeforeTheRun(t *testing.T) {
	t.Run("no signal", func(t *testing.T) {
		d, r, dir, apk := stallingPhone(t)
		r.Stall()
		start := time.Now()
		p := startFlowEnv(t, dir, adbEnv(d), "test", "a.yaml", "b.yaml", "--device", "android:"+d.Serial,
			"--android-helper", apk, "--format", "json", "--output", "report.json")
		p.wait(t, 40*time.Second)
		if p.exitCode() != 3 || !strings.Contains(p.stderr.String()+p.stdout.String(), d.Serial) {
			t.Fatalf("want exit 3 naming the device:\n%s", p)
		}
		if took := time.Since(start); took > 25*time.Second {
			t.Errorf("took %s", took)
		}
		if got := strings.Join(lostReport(t, filepath.Join(dir, "report.json")), "; "); got != "a skipped DEVICE_UNAVAILABLE; b skipped DEVICE_UNAVAILABLE" {
			t.Errorf("report: %s", got)
		}
	})
	t.Run("SIGINT while opening", func(t *testing.T) {
		d, r, dir, apk := stallingPhone(t)
		r.Stall()
		p := startFlowEnv(t, dir, adbEnv(d), "test", "a.yaml", "b.yaml", "--device", "android:"+d.Serial,
			"--android-helper", apk, "--format", "json", "--output", "report.json")
		p.signal(t, 2*time.Second, syscall.SIGINT)
		p.wait(t, 20*time.Second)
		if p.exitCode() != 130 {
			t.Fatalf("want exit 130:\n%s", p)
		}
		if got := strings.Join(lostReport(t, filepath.Join(dir, "report.json")), "; "); got != "a skipped INTERRUPTED; b skipped INTERRUPTED" {
			t.Errorf("report: %s\n%s", got, p)
		}
	})
}

// An adb server that accepts connections and never answers: flow devices
// still lists the other devices, with a note about adb, in seconds; flow
// test --device android ends with exit 3 and the hint to restart adb.
// Neither runs `adb start-server` against it (that would hang as well).
func TestWedgedADBServer(t *testing.T) {
	port := strconv.Itoa(adbtest.WedgedServer(t))
	env := []string{"ANDROID_ADB_SERVER_PORT=" + port, "HOME=" + t.TempDir()}
	dir := writeFiles(t, map[string]string{"a.yaml": "appId: com.example.shop\n---\n- launchApp\n", "helper.apk": "helper"})
	t.Run("devices", func(t *testing.T) {
		start := time.Now()
		p := startFlowEnv(t, dir, env, "devices")
		p.wait(t, 30*time.Second)
		out := p.stdout.String()
		if p.exitCode() != 0 || !strings.Contains(out, "sim:android") || !strings.Contains(out, "no android devices listed: ") ||
			!strings.Contains(out, "adb kill-server") {
			t.Fatalf("want the other devices and a note on adb with the restart hint:\n%s", p)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("took %s", took)
		}
	})
	t.Run("test", func(t *testing.T) {
		start := time.Now()
		p := startFlowEnv(t, dir, env, "test", "a.yaml", "--device", "android", "--android-helper", "helper.apk")
		p.wait(t, 30*time.Second)
		if p.exitCode() != 3 || !strings.Contains(p.stdout.String()+p.stderr.String(), "adb kill-server") {
			t.Fatalf("want exit 3 with the hint to restart adb:\n%s", p)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("took %s", took)
		}
	})
}
