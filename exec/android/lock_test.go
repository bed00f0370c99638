package android

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// facts are a host whose processes are listed in live, at a fixed time.
func facts(host string, now time.Time, live ...int) hostFacts {
	return hostFacts{host: host, now: func() time.Time { return now },
		alive: func(pid int) (bool, bool) {
			for _, p := range live {
				if p == pid {
					return true, true
				}
			}
			return false, true
		}}
}

var lockNow = time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)

// A second run on a device that a live run holds is refused with
// DEVICE_UNAVAILABLE naming that run, before it installs or starts
// anything (am instrument would force-stop the first run's helper), and
// the first run keeps working. Closing the first frees the device.
func TestSecondOpenIsRefusedNamingTheFirst(t *testing.T) {
	p := newPhone()
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.Command = "flow test flows/demo"
	host := facts("ci-7", lockNow, 4242)
	host.pid = 4242
	first, err := openOn(ctx, cfg, p, host)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.log = nil
	p.mu.Unlock()

	second := testConfig(t)
	second.Command = "flow press 10 10"
	_, err = openOn(ctx, second, p, facts("ci-7", lockNow.Add(time.Minute), 4242))
	if canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("want DEVICE_UNAVAILABLE, got %v", err)
	}
	ce, _ := canonical.AsError(err)
	for _, want := range []string{"emulator-5554", "in use by another flow run", "`flow test flows/demo`", "pid 4242", "ci-7", "2026-12-06 03:00:00 UTC"} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("the refusal does not say %q: %s", want, ce.Message)
		}
	}
	if !strings.Contains(ce.Hint, "rm "+lockPath) {
		t.Errorf("the hint must say how to clear the lock: %s", ce.Hint)
	}
	got := strings.Join(p.log, "\n")
	if strings.Contains(got, "am instrument") || strings.Contains(got, "install") || strings.Contains(got, "force-stop") {
		t.Fatalf("a refused run must not touch the helper:\n%s", got)
	}
	if err := first.Tap(ctx, canonical.Point{X: 1, Y: 1}); err != nil {
		t.Fatalf("the first run broke: %v", err)
	}
	first.Close(ctx)
	if p.lock != "" {
		t.Fatalf("closing the owner must remove its lock: %q", p.lock)
	}
	d, err := openOn(ctx, second, p, facts("ci-7", lockNow, 4242))
	if err != nil {
		t.Fatalf("a freed device opens: %v", err)
	}
	d.Close(ctx)
}

// A lock whose owner is gone is taken over: on this host when its pid is
// no process; from another host when no helper runs and the lock is older
// than staleAfter. Otherwise the device stays refused.
func TestStaleLocksAreTakenOver(t *testing.T) {
	old := lockOwner{PID: 77, Host: "ci-7", Command: "flow test a", Start: lockNow.Add(-time.Hour), Token: "t1"}
	young := old
	young.Start = lockNow.Add(-30 * time.Second)
	inNS := old
	inNS.PIDNS = "pid:[4026532201]"
	inNSYoung := inNS
	inNSYoung.Start = young.Start
	for name, tc := range map[string]struct {
		held      lockOwner
		host      string
		live      []int
		helperPid string
		taken     bool
	}{
		"same host, owner gone":                  {held: young, host: "ci-7", taken: true},
		"same host, owner alive":                 {held: old, host: "ci-7", live: []int{77}},
		"other host, no helper, old lock":        {held: old, host: "laptop", taken: true},
		"other host, no helper, young lock":      {held: young, host: "laptop"},
		"other host, helper running, old lock":   {held: old, host: "laptop", helperPid: "3121"},
		"same host, owner alive, helper stopped": {held: young, host: "ci-7", live: []int{77}},
		// Same hostname, another pid namespace (containers on one host
		// network): the pid is not ours to check, the device's view rules.
		"same hostname, other pid namespace, helper running": {held: inNS, host: "ci-7", helperPid: "3121"},
		"same hostname, other pid namespace, young lock":     {held: inNSYoung, host: "ci-7"},
	} {
		t.Run(name, func(t *testing.T) {
			p := newPhone()
			p.lock, p.helperPid = tc.held.encode(), tc.helperPid
			d, err := openOn(context.Background(), testConfig(t), p, facts(tc.host, lockNow, tc.live...))
			if tc.taken {
				if err != nil {
					t.Fatalf("the stale lock was not taken over: %v", err)
				}
				if owner, ok := parseLockOwner(p.lock); !ok || owner.Token != d.owner.Token {
					t.Fatalf("the lock is not this run's: %q", p.lock)
				}
				d.Close(context.Background())
				return
			}
			if canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || !strings.Contains(err.Error(), "flow test a") {
				t.Fatalf("want the device refused naming its owner, got %v", err)
			}
			if p.lock != tc.held.encode() {
				t.Fatalf("a live owner's lock was changed: %q", p.lock)
			}
		})
	}
}

// Closing a device whose lock another run took over (by hand, or as stale)
// leaves that run's lock alone.
func TestCloseKeepsAnotherRunsLock(t *testing.T) {
	p := newPhone()
	ctx := context.Background()
	d, err := openOn(ctx, testConfig(t), p, facts("ci-7", lockNow))
	if err != nil {
		t.Fatal(err)
	}
	other := lockOwner{PID: 9, Host: "laptop", Start: lockNow, Token: "x"}.encode()
	p.mu.Lock()
	p.lock = other
	p.mu.Unlock()
	d.Close(ctx)
	if p.lock != other {
		t.Fatalf("Close removed another run's lock: %q", p.lock)
	}
}

// The owner survives the trip through the link's target: url-encoded, so
// no "/" makes it a path, and a command with quotes and spaces is kept.
func TestLockOwnerRoundTrip(t *testing.T) {
	o := lockOwner{PID: 12, Host: "h", PIDNS: "pid:[4026531836]", Command: `flow test "my flows/a b.yaml" --env K=v&w`, Start: lockNow, Token: "abc"}
	enc := o.encode()
	if strings.Contains(enc, "/") {
		t.Fatalf("the target holds a /: %s", enc)
	}
	got, ok := parseLockOwner(enc + "\n")
	if !ok || got != o {
		t.Fatalf("round trip: %+v (%v), want %+v", got, ok, o)
	}
	if _, ok := parseLockOwner("/some/other/link"); ok {
		t.Fatal("a foreign link read as flow's")
	}
}

// On API 24–28 WRITE_EXTERNAL_STORAGE is a runtime permission: a fresh
// install grants it with -g, and a helper that is already there gets a
// pm grant at each session start. From API 29 neither is sent.
func TestStorageGrantOnAPI28(t *testing.T) {
	for _, tc := range []struct {
		sdk, version string
		want, never  []string
	}{
		{"28", "", []string{"install -r -g", "pm grant dev.flow.helper android.permission.WRITE_EXTERNAL_STORAGE"}, nil},
		{"28", "1", []string{"pm grant dev.flow.helper android.permission.WRITE_EXTERNAL_STORAGE"}, []string{"install"}},
		{"29", "", []string{"install -r"}, []string{"-g", "WRITE_EXTERNAL_STORAGE"}},
	} {
		p := newPhone()
		p.sdk = tc.sdk
		if tc.version != "" {
			p.version, p.apk = tc.version, []byte("a helper apk")
		}
		d, err := openOn(context.Background(), testConfig(t), p, facts("ci-7", lockNow))
		if err != nil {
			t.Fatal(err)
		}
		d.Close(context.Background())
		got := strings.Join(p.log, "\n")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("API %s, installed %q: no %q among:\n%s", tc.sdk, tc.version, w, got)
			}
		}
		for _, n := range tc.never {
			if strings.Contains(got, n) {
				t.Errorf("API %s, installed %q: %q was sent:\n%s", tc.sdk, tc.version, n, got)
			}
		}
	}
}
