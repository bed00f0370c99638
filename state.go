package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/exec/sim"
)

// The state dir's files and the limits flow reads them with. A saved sim
// state carries the source of every installed app model, so its limit is
// several app models' worth.
const (
	SimStateFile     = "sim-state.json"
	RefsFile         = "refs.json"
	MaxSimStateBytes = 64 << 20
	MaxRefsBytes     = 16 << 20
	MaxAppModelBytes = 16 << 20
)

// defaultStateWait is how long a command waits for another one to finish
// with the state dir; FLOW_LOCK_TIMEOUT changes it.
const defaultStateWait = 30 * time.Second

// parkEnv is a test-only switch: when set, every write to the state dir
// (and every --record and --events append of a command holding it) stops
// after its temporary file is complete and before the rename, says so on
// stderr and waits (up to a minute, or until interrupted), so a test can
// kill the writer at its most fragile moment.
const parkEnv = "FLOW_TEST_PARK_BEFORE_RENAME"

// SimState is the state dir of one command, locked from before its first
// read to after its last write: device commands and flow test runs on one
// sim device queue on the lock instead of losing each other's updates.
// Its methods accept a nil receiver, which keeps no state (the in-process
// tests, sharded runs).
type SimState struct {
	dir  string
	lock *fsext.Lock
	park func(tmp string)
}

// LockSimState takes the state dir's lock, waiting for another flow command
// that holds it up to FLOW_LOCK_TIMEOUT (default 30 s) and saying once on
// stderr when the wait lasts more than a second. An empty StateDir keeps
// no state and returns nil.
func LockSimState(ctx context.Context, env Env) (*SimState, error) {
	if env.StateDir == "" {
		return nil, nil
	}
	wait, err := stateWait(env.Getenv)
	if err != nil {
		return nil, err
	}
	dir := env.StateDir
	lock, err := fsext.Acquire(ctx, dir, fsext.LockOptions{Wait: wait, Notice: time.Second, OnWait: func() {
		fmt.Fprintf(env.Stderr, "waiting for another flow command to finish with the device state in %s (up to %s)\n", dir, wait)
	}})
	if err != nil {
		ce, ok := canonical.AsError(err)
		switch {
		case !ok:
			return nil, err
		case errors.Is(err, fsext.ErrBusy):
			ce.Message = fmt.Sprintf("the sim device in %s is busy: another flow command held its lock for the whole %s wait", dir, wait)
			if wait == 0 {
				ce.Message = fmt.Sprintf("the sim device in %s is busy: another flow command holds its lock (FLOW_LOCK_TIMEOUT=0 does not wait)", dir)
			}
			ce.Hint = "let the other command finish (or stop it) and run this one again; FLOW_LOCK_TIMEOUT=2m waits longer, " +
				"and FLOW_STATE_DIR=another-folder gives commands that should run at once a device each"
		case ce.Code == canonical.CodeInvalidArgs:
			ce.Hint = "set FLOW_STATE_DIR to a writable folder"
		}
		return nil, err
	}
	h := &SimState{dir: dir, lock: lock}
	if env.Getenv != nil && env.Getenv(parkEnv) != "" {
		h.park = func(tmp string) {
			fmt.Fprintf(env.Stderr, "test hook: parked before renaming %s\n", tmp)
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
			}
		}
	}
	return h, nil
}

// stateWait reads FLOW_LOCK_TIMEOUT: a Go duration ("45s", "2m") or a
// number of seconds; 0 does not wait.
func stateWait(getenv func(string) string) (time.Duration, error) {
	v := ""
	if getenv != nil {
		v = strings.TrimSpace(getenv("FLOW_LOCK_TIMEOUT"))
	}
	if v == "" {
		return defaultStateWait, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		// A bare number is seconds; the bound keeps the conversion exact.
		if secs, perr := strconv.ParseFloat(v, 64); perr == nil && secs >= 0 && secs < 1e9 {
			d, err = time.Duration(secs*float64(time.Second)), nil
		}
	}
	if err != nil || d < 0 {
		return 0, canonical.Errorf(canonical.CodeInvalidArgs, "FLOW_LOCK_TIMEOUT=%q is not a duration", v).
			WithHint("give a duration like 45s or 2m, or a number of seconds; 0 does not wait")
	}
	return d, nil
}

// release gives the lock up; later calls do nothing.
func (h *SimState) Release() {
	if h != nil {
		_ = h.lock.Release()
	}
}

func (h *SimState) simFile() string {
	if h == nil {
		return ""
	}
	return filepath.Join(h.dir, SimStateFile)
}

func (h *SimState) refsFile() string {
	if h == nil {
		return ""
	}
	return filepath.Join(h.dir, RefsFile)
}

// resetHint says how to get past a saved state flow cannot use.
func (h *SimState) resetHint() string {
	return "run flow sim reset (or delete " + h.simFile() + ") to start a fresh sim device"
}

// readSim is the saved sim state, nil when there is none yet. A file that
// is not a regular file or is over the limit is refused before it is read.
func (h *SimState) readSim() ([]byte, error) {
	if h == nil {
		return nil, nil
	}
	data, err := fsext.ReadFile(h.simFile(), MaxSimStateBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if ce, ok := canonical.AsError(err); ok {
		ce.Hint = h.resetHint()
	}
	return data, err
}

// restoreSim rebuilds the saved device, naming the file when it cannot be
// used.
func (h *SimState) restoreSim(data []byte, opts sim.Options) (*sim.Device, error) {
	dev, err := sim.Restore(data, opts)
	if ce, ok := canonical.AsError(err); ok {
		ce.Message = h.simFile() + ": " + ce.Message
		ce.Hint = h.resetHint()
		ce.With("file", h.simFile())
	}
	if err != nil {
		return nil, err
	}
	return dev, nil
}

// saveSim writes sim's state atomically after a command or a run. A state
// over the read limit is refused here, where the user still has the
// device, rather than when the next command cannot read it.
func (h *SimState) SaveSim(dev exec.Device) error {
	s, ok := dev.(*sim.Device)
	if !ok || h == nil {
		return nil
	}
	data, err := s.State()
	if err != nil {
		return err
	}
	if len(data) > MaxSimStateBytes {
		return canonical.Errorf(canonical.CodeInvalidArgs, "the sim state is %s, over the %s flow reads back",
			fsext.Size(int64(len(data))), fsext.Size(MaxSimStateBytes)).
			WithHint("install smaller app models (the state carries each model's source)")
	}
	return h.write(h.simFile(), data, "sim state")
}

// writeOptions are for the files a command holding the state appends to
// (--record, --events), so the test hook parks those writes too.
func (h *SimState) WriteOptions() fsext.WriteOptions {
	if h == nil {
		return fsext.WriteOptions{}
	}
	return fsext.WriteOptions{BeforeRename: h.park}
}

func (h *SimState) write(file string, data []byte, what string) error {
	err := fsext.WriteFile(file, data, fsext.WriteOptions{BeforeRename: h.park})
	if ce, ok := canonical.AsError(err); ok {
		ce.Message = "cannot save the " + what + ": " + ce.Message
		ce.Hint = "set FLOW_STATE_DIR to a writable folder, or run flow sim reset"
	}
	return err
}

// readRefs is the ref table of the last snapshot, nil when there is none.
func (h *SimState) readRefs() (map[string]string, error) {
	if h == nil {
		return nil, nil
	}
	data, err := fsext.ReadFile(h.refsFile(), MaxRefsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if ce, ok := canonical.AsError(err); ok {
		ce.Hint = "run flow sim reset (or delete " + h.refsFile() + "), then flow snapshot"
		return nil, err
	}
	var refs map[string]string
	if err := json.Unmarshal(data, &refs); err != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "%s is damaged: %v", h.refsFile(), err).
			WithHint("run flow snapshot again to number the elements on screen")
	}
	return refs, nil
}

// writeRefs saves the ref table of a snapshot.
func (h *SimState) writeRefs(refs map[string]string) error {
	if h == nil {
		return nil
	}
	data, _ := json.MarshalIndent(refs, "", "  ")
	return h.write(h.refsFile(), data, "snapshot refs")
}

// reset forgets the saved device and the refs of its last snapshot.
func (h *SimState) Reset() error {
	for _, f := range []string{h.simFile(), h.refsFile()} {
		if err := removeIfExists(f); err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot remove %s: %v", f, err).
				WithHint("delete it by hand")
		}
	}
	return nil
}

func removeIfExists(file string) error {
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
