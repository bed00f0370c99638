package android

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// One flow process per device (issue 19 M1). `am instrument` force-stops
// the target package before it starts the instrumentation
// (ActivityManagerService.startInstrumentation → forceStopPackageLocked),
// so a second flow process that started the helper on a busy device would
// kill the first one's session, and the two would restart each other's
// helpers until both failed. A run therefore takes a lock on the device
// before it installs or starts anything, and holds it until the device is
// closed.
//
// The lock is a symbolic link: `ln -s OWNER lockPath` either creates it or
// fails because it exists, in one system call (symlink(2) is atomic, which
// a check-then-write of a file is not), and its target carries the owner,
// read back with `readlink` (toybox ln and readlink, on every API 24+
// device). The owner is url-encoded, so the target has no "/" and never
// resolves to anything.
//
// A lock whose owner is gone is taken over, so a crashed run never blocks
// the device for good:
//   - owner on this host (same hostname and pid namespace): gone when its
//     pid is no longer a process;
//   - owner on another host (or a pid flow cannot check): gone when the
//     helper process is not running (`pidof`) and the lock is older than
//     staleAfter, the longest an owner takes from the lock to a running
//     helper (an install and the ready wait).
//
// By hand: `adb -s SERIAL shell rm /data/local/tmp/flow-helper.lock`.
const (
	lockPath   = "/data/local/tmp/flow-helper.lock"
	lockPrefix = "flow-lock-v1?"
	staleAfter = 2 * time.Minute
)

// lockOwner is who holds a device: enough for a person to find the run.
type lockOwner struct {
	PID  int
	Host string
	// PIDNS names the pid namespace the pid belongs to (Linux
	// /proc/self/ns/pid): two containers can share a hostname (docker
	// --network host) and an adb server while their pids mean different
	// processes, so a pid is checked only within its own namespace.
	PIDNS   string
	Command string
	Start   time.Time
	// Token tells this run's lock from another's with the same pid and
	// host (two devices opened in one process).
	Token string
}

func (o lockOwner) encode() string {
	v := url.Values{}
	v.Set("pid", strconv.Itoa(o.PID))
	v.Set("host", o.Host)
	if o.PIDNS != "" {
		v.Set("pidns", o.PIDNS)
	}
	v.Set("cmd", clipString(o.Command, 300))
	v.Set("start", o.Start.UTC().Format(time.RFC3339))
	v.Set("token", o.Token)
	return lockPrefix + v.Encode()
}

func parseLockOwner(s string) (lockOwner, bool) {
	q, ok := strings.CutPrefix(strings.TrimSpace(s), lockPrefix)
	if !ok {
		return lockOwner{}, false
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		return lockOwner{}, false
	}
	pid, err := strconv.Atoi(v.Get("pid"))
	if err != nil {
		return lockOwner{}, false
	}
	start, _ := time.Parse(time.RFC3339, v.Get("start"))
	return lockOwner{PID: pid, Host: v.Get("host"), PIDNS: v.Get("pidns"), Command: v.Get("cmd"), Start: start, Token: v.Get("token")}, true
}

// describe names the owner for a message: command, pid, host, start.
func (o lockOwner) describe() string {
	cmd := o.Command
	if cmd == "" {
		cmd = "flow"
	}
	start := "at an unknown time"
	if !o.Start.IsZero() {
		start = "at " + o.Start.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return fmt.Sprintf("`%s` (pid %d on %s, started %s)", cmd, o.PID, o.Host, start)
}

// processAlive reports whether pid is a process on this host, and whether
// that could be told at all (processAliveOS).
type processAlive func(pid int) (alive, known bool)

// newOwner describes this process as the lock's owner.
func newOwner(command string, token string, now time.Time) lockOwner {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	ns, _ := os.Readlink("/proc/self/ns/pid")
	return lockOwner{PID: os.Getpid(), Host: host, PIDNS: ns, Command: command, Start: now, Token: token}
}

// lock takes the device for this run, or says who holds it
// (DEVICE_UNAVAILABLE, exit 3). A stale lock is removed and taken.
func (d *Device) lock(ctx context.Context) error {
	mine := d.owner.encode()
	var lastErr string
	for attempt := 0; attempt < 3; attempt++ {
		res, err := d.t.Shell(ctx, d.serial, "ln", "-s", mine, lockPath)
		if err != nil {
			return err
		}
		if res.ExitCode == 0 {
			d.locked = true
			return nil
		}
		lastErr = clipOutput(res)
		cur, err := d.t.Shell(ctx, d.serial, "readlink", lockPath)
		if err != nil {
			return err
		}
		if cur.ExitCode != 0 {
			// Released between the two commands, or ln failed for
			// another reason: try again, then give up with ln's words.
			continue
		}
		target := strings.TrimSpace(string(cur.Stdout))
		other, ok := parseLockOwner(target)
		if ok && other.Token == d.owner.Token {
			d.locked = true
			return nil
		}
		stale, err := d.lockStale(ctx, other, ok)
		if err != nil {
			return err
		}
		if !stale {
			return d.busy(other, ok, target)
		}
		// The owner is gone: remove its lock (only if it is still that
		// one; a lock taken meanwhile by a live run stays) and try again.
		if again, err := d.t.Shell(ctx, d.serial, "readlink", lockPath); err != nil {
			return err
		} else if strings.TrimSpace(string(again.Stdout)) == target {
			if _, err := d.t.Shell(ctx, d.serial, "rm", "-f", lockPath); err != nil {
				return err
			}
		}
	}
	return d.unavailable("cannot lock the Android device %s for this run: `ln -s … %s` failed: %s", d.serial, lockPath, lastErr).
		WithHint("flow keeps one run per device with a lock under /data/local/tmp; check that `adb -s " + d.serial + " shell ls /data/local/tmp` works, and run again")
}

// lockStale decides whether the holder of the lock is gone (see the rules
// at the top of this file).
func (d *Device) lockStale(ctx context.Context, other lockOwner, parsed bool) (bool, error) {
	if parsed && other.Host == d.owner.Host && other.PIDNS == d.owner.PIDNS && d.alive != nil {
		if alive, known := d.alive(other.PID); known {
			return !alive, nil
		}
	}
	running, err := d.helperRunning(ctx)
	if err != nil || running {
		return false, err
	}
	if !parsed || other.Start.IsZero() {
		return true, nil
	}
	return d.now().Sub(other.Start) > staleAfter, nil
}

// helperRunning asks the device whether the helper's process exists
// (toybox pidof: the pids and exit 0, or exit 1 when there is none).
func (d *Device) helperRunning(ctx context.Context) (bool, error) {
	res, err := d.t.Shell(ctx, d.serial, "pidof", helperPackage)
	if err != nil {
		return false, err
	}
	return res.ExitCode == 0 && strings.TrimSpace(string(res.Stdout)) != "", nil
}

// busy is the refusal: who holds the device and how to free it.
func (d *Device) busy(other lockOwner, parsed bool, target string) *canonical.Error {
	clear := "`adb -s " + d.serial + " shell rm " + lockPath + "`"
	if !parsed {
		return d.unavailable("the Android device %s is in use: %s holds %q, which flow cannot read", d.serial, lockPath, clipString(target, 200)).
			WithHint("another tool or flow version locked the device; when nothing runs on it any more, remove the lock with " + clear + " and run again")
	}
	e := d.unavailable("the Android device %s is in use by another flow run: %s", d.serial, other.describe()).
		With("ownerPid", other.PID).With("ownerHost", other.Host).With("ownerCommand", other.Command)
	if !other.Start.IsZero() {
		e.With("ownerStart", other.Start.UTC().Format(time.RFC3339))
	}
	return e.WithHint("one flow run per device: wait for that run to end, or stop it, or use another device " +
		"(`flow devices`; --shard-split spreads a suite over several). If that run is gone (its machine crashed " +
		"or lost the device), flow takes the lock over once its process is gone (same host) or after " +
		fmt.Sprintf("%d minutes", int(staleAfter/time.Minute)) + " without a helper running; to free it now, run " + clear)
}

// unlock removes the lock if it is still this run's. It is cleanup: it
// never fails, and gets its own few seconds (cleanupMax).
func (d *Device) unlock() {
	if !d.locked || d.lost.Load() != nil {
		return
	}
	d.locked = false
	ctx, cancel := context.WithTimeout(context.Background(), d.cleanupMax)
	defer cancel()
	cur, err := d.raw.Shell(ctx, d.serial, "readlink", lockPath)
	if err != nil || strings.TrimSpace(string(cur.Stdout)) != d.owner.encode() {
		return
	}
	_, _ = d.raw.Shell(ctx, d.serial, "rm", "-f", lockPath)
}
