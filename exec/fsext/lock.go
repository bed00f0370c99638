package fsext

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// LockFile is the name of the lock file Acquire keeps in a folder. It is
// never removed: deleting it while another process waits on it would let
// two processes hold "the" lock on two different files.
const LockFile = "flow.lock"

// ErrBusy is in the chain of the error Acquire returns when another holder
// kept the lock for the whole wait.
var ErrBusy = errors.New("folder is locked by another holder")

// LockOptions bound the wait for a lock.
type LockOptions struct {
	// Wait is how long to wait for another holder to release the lock; 0
	// tries once.
	Wait time.Duration
	// Notice and OnWait tell a waiting user why nothing happens: OnWait is
	// called once when the lock is still held after Notice.
	Notice time.Duration
	OnWait func()
}

// Lock is an exclusive lock on a folder, held until Release. Two Locks on
// one folder exclude each other whether they live in two processes or in
// one.
type Lock struct {
	dir string
	f   *os.File
}

// Acquire creates dir when it is missing and takes its lock, waiting as o
// says. While the lock is held no other Acquire on dir succeeds, so a
// read-modify-write of the folder's files under it is never interleaved
// with another. Temporary files that WriteFile left in dir when a holder
// died mid-write are removed once the lock is held: only a holder writes
// there, so none of them can be in use.
//
// A wait that outlasts o.Wait fails with DEVICE_UNAVAILABLE wrapping
// ErrBusy; a cancelled ctx fails with COMMAND_FAILED wrapping ctx.Err().
// A folder or lock file that cannot be created or opened fails with
// INVALID_ARGS.
func Acquire(ctx context.Context, dir string, o LockOptions) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot create the folder %s: %v", dir, pathErr(err)).Wrap(err)
	}
	name := filepath.Join(dir, LockFile)
	if _, err := statRegular(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|openNonblock, 0o644)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot open the lock file %s: %v", name, pathErr(err)).Wrap(err)
	}
	if err := wait(ctx, f, name, dir, o); err != nil {
		f.Close()
		return nil, err
	}
	l := &Lock{dir: dir, f: f}
	l.removeStaleTemps()
	return l, nil
}

// wait takes the lock of the open lock file f (named name, guarding
// what), polling as o says.
func wait(ctx context.Context, f *os.File, name, what string, o LockOptions) error {
	start := time.Now()
	noticed := o.OnWait == nil
	delay := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "cannot lock %s: %v", name, err).Wrap(err)
		}
		if ok {
			return nil
		}
		waited := time.Since(start)
		if waited >= o.Wait {
			return canonical.Errorf(canonical.CodeDeviceUnavailable, "%s is locked by another flow command (waited %s)", what, o.Wait).
				With("lockFile", name).Wrap(ErrBusy)
		}
		if !noticed && waited >= o.Notice {
			noticed = true
			o.OnWait()
		}
		// Polling rather than a blocking lock call: only a poll can be
		// abandoned at a deadline or on Ctrl-C. The backoff keeps a queue
		// of waiters cheap and a free lock taken within milliseconds.
		t := time.NewTimer(min(delay, o.Wait-waited))
		select {
		case <-ctx.Done():
			t.Stop()
			return canonical.Errorf(canonical.CodeCommandFailed, "interrupted while waiting for the lock on %s", what).Wrap(ctx.Err())
		case <-t.C:
		}
		delay = min(delay*2, 25*time.Millisecond)
	}
}

// Dir is the folder the lock guards.
func (l *Lock) Dir() string { return l.dir }

// Release gives the lock up. It may be called more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// removeStaleTemps deletes the temporary files of writers that died
// between creating and renaming them.
func (l *Lock) removeStaleTemps() {
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if isTempName(e.Name()) && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(l.dir, e.Name()))
		}
	}
}

// pathErr drops the path an *os.PathError repeats, since flow's messages
// name the file themselves.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, tempSuffix)
}

// describeMode names a file type for a message.
func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return fmt.Sprintf("of type %s", m.Type())
}
