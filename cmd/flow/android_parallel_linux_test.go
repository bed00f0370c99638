//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
	"github.com/flow-runner/flow/internal/fakeandroid/phone"
)

// waitForShardEvent waits until the event log has a line of shard with
// the event type. The log streams into a temporary file beside path
// until the run ends (as waitForEvent reads it): every file there is read.
func waitForShardEvent(t *testing.T, p *cliProcess, path, shard, typ string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"))
		for _, name := range names {
			data, _ := os.ReadFile(name)
			for _, line := range strings.Split(string(data), "\n") {
				tagged := strings.Contains(line, `"shard":`+shard+`,`) || strings.Contains(line, `"shard":`+shard+`}`)
				if tagged && strings.Contains(line, `"type":"`+typ+`"`) {
					return
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the event log had no %s of shard %s within %s:\n%s", typ, shard, limit, p)
}

// TestParallelLostPhoneGivesItsFlowBack: --parallel over two fake phones
// behind the real adb server; the first phone's link stops answering
// while it runs a flow (a wedged USB link, as in
// TestAndroidStalledLinkIsALostDevice). That flow goes back to the queue
// and passes on the other phone, which runs the rest: the run passes,
// every flow reported once, passed, on phone 2 after the loss, and the
// progress says the flow went back.
func TestParallelLostPhoneGivesItsFlowBack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flows on a wall clock and waits for a stall to be detected")
	}
	var phones []*phone.Phone
	var fss []*adbd.MemFS
	for range 2 {
		fs := adbd.NewMemFS()
		p := phone.New(phone.Options{Files: fs})
		t.Cleanup(func() { p.Close() })
		phones, fss = append(phones, p), append(fss, fs)
	}
	first, relay := adbtest.StartStalling(t, phones[0], adbd.Options{Props: phones[0].Props(), FS: fss[0]})
	second := first.Add(t, phones[1], adbd.Options{Props: phones[1].Props(), FS: fss[1]})
	// Each flow swipes for 3 s after launching: the stall lands inside
	// one of phone 1's.
	swipe := "appId: com.example.shop\n---\n- launchApp\n- swipe:\n    start: 50%, 60%\n    end: 50%, 40%\n    duration: 3000\n"
	dir := writeFiles(t, map[string]string{"a.yaml": swipe, "b.yaml": swipe, "c.yaml": swipe,
		"helper.apk": "a helper the fake phones accept"})
	events := filepath.Join(dir, "events.jsonl")
	p := startFlowEnv(t, dir, adbEnv(first), "test", "a.yaml", "b.yaml", "c.yaml",
		"--device", "android:"+first.Serial+",android:"+second.Serial, "--parallel",
		"--android-helper", filepath.Join(dir, "helper.apk"), "--format", "json", "--output", "report.json", "--events", events)
	waitForShardEvent(t, p, events, "1", "launchApp", 60*time.Second)
	time.Sleep(500 * time.Millisecond)
	relay.Stall()
	p.wait(t, 90*time.Second)
	if p.exitCode() != 0 {
		t.Fatalf("want exit 0 (the lost flow passed on the other phone):\n%s", p)
	}
	if !strings.Contains(p.stdout.String(), "the flow goes back to the queue for another device") {
		t.Errorf("the progress does not say the flow went back:\n%s", p)
	}
	got := parallelReport(t, filepath.Join(dir, "report.json"))
	var onTwo int
	for _, line := range got {
		if !strings.Contains(line, " passed ") {
			t.Errorf("want every flow passed: %q", got)
		}
		if strings.HasSuffix(line, " 2") {
			onTwo++
		}
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "a ") || !strings.HasPrefix(got[1], "b ") || !strings.HasPrefix(got[2], "c ") {
		t.Fatalf("want a, b and c once each, in input order: %q", got)
	}
	if onTwo < 2 {
		t.Errorf("phone 2 must have run the lost flow and at least one more: %q", got)
	}
}
