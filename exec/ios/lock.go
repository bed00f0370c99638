package ios

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/fsext"
)

// A second XCUITest session on one simulator or iPhone ends the first
// (testmanagerd runs one UI test per device), and a runner left over on a
// phone holds its port: each flow run that starts a runner first takes a
// host-wide lock per UDID, held until the runner is stopped.
//
// The lock is fsext's OS lock (flock, LockFileEx) on a folder per UDID:
// the OS drops it when its process dies, however it dies, so a lock whose
// owner is gone is simply taken over. Beside it, owner.json names the
// holder for the message the second run prints.

// DefaultLockDir is where the device locks live when the caller names no
// folder: a folder of this user's in the system's temporary folder, which
// every flow process of the user shares. Simulators belong to one user; a
// phone that several users drive needs FLOW_IOS_LOCK_DIR pointed at a
// folder they all can write (a shared /tmp folder made by one user would
// refuse the others).
func DefaultLockDir() string {
	return filepath.Join(os.TempDir(), "flow-ios-devices-"+strconv.Itoa(os.Getuid()))
}

// lockOwner is what owner.json holds.
type lockOwner struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

// DeviceLock is one run's hold on a device.
type DeviceLock struct {
	l *fsext.Lock
}

// Release gives the device up; it may be called more than once.
func (d *DeviceLock) Release() error {
	if d == nil {
		return nil
	}
	return d.l.Release()
}

// LockDevice takes the lock of udid in dir ("" is DefaultLockDir) for
// this process, or fails with DEVICE_UNAVAILABLE naming the run that holds
// it.
func LockDevice(ctx context.Context, dir, udid string) (*DeviceLock, error) {
	if dir == "" {
		dir = DefaultLockDir()
	}
	folder := filepath.Join(dir, lockName(udid))
	l, err := fsext.Acquire(ctx, folder, fsext.LockOptions{})
	if err != nil {
		if !errors.Is(err, fsext.ErrBusy) {
			if ce, ok := canonical.AsError(err); ok {
				return nil, ce.With("device", udid).WithHint("set FLOW_IOS_LOCK_DIR to a writable folder flow may keep its device locks in")
			}
			return nil, err
		}
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "iOS device %s is in use by another flow run: %s", udid, describeOwner(folder)).
			With("device", udid).With("lockDir", folder).
			WithHint("a second XCUITest session on one device ends the first; wait for that run to finish or stop it, or run on another device (--device ios:UDID)")
	}
	owner := lockOwner{PID: os.Getpid(), Command: clip([]byte(strings.Join(os.Args, " ")), 200), Since: time.Now().UTC().Truncate(time.Second)}
	data, _ := json.Marshal(owner)
	if err := fsext.WriteFile(filepath.Join(folder, "owner.json"), data, fsext.WriteOptions{}); err != nil {
		l.Release()
		return nil, err
	}
	return &DeviceLock{l: l}, nil
}

// describeOwner names the holder from owner.json; a holder caught between
// taking the lock and writing the file is still a holder.
func describeOwner(folder string) string {
	data, err := fsext.ReadFile(filepath.Join(folder, "owner.json"), 64<<10)
	var o lockOwner
	if err != nil || json.Unmarshal(data, &o) != nil || o.PID == 0 {
		return "a flow process that is starting (" + filepath.Join(folder, "owner.json") + " does not name it yet)"
	}
	return fmt.Sprintf("pid %d (%s), since %s", o.PID, o.Command, o.Since.Format(time.RFC3339))
}

// lockName keeps a UDID (hex and hyphens) as a folder name; anything else
// becomes _, so no name climbs out of the lock folder.
func lockName(udid string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, udid)
}

// openHeld opens a device while this run holds its lock: the lock is
// released when the open fails, else when the device stops, so no path
// leaves a device held by a run that has ended.
func openHeld(ctx context.Context, lockDir, udid string, open func() (*Device, error)) (*Device, error) {
	lock, err := LockDevice(ctx, lockDir, udid)
	if err != nil {
		return nil, err
	}
	d, err := open()
	if err != nil {
		lock.Release()
		return nil, err
	}
	stop := d.stop
	d.stop = func(ctx context.Context) error {
		defer lock.Release()
		return stop(ctx)
	}
	return d, nil
}
