package fsext

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// tempSuffix ends the names of WriteFile's temporary files, which also
// start with a dot: hidden, and told apart from the user's files so a
// later lock holder may remove the ones a dead writer left.
const tempSuffix = ".flowtmp"

// WriteOptions adjust WriteFile.
type WriteOptions struct {
	// Perm is the mode of a new file; zero means 0o644. A file that exists
	// keeps its mode.
	Perm fs.FileMode
	// BeforeRename, when set, runs once the temporary file is complete and
	// synced and before it replaces the target. Tests use it to stop a
	// writer at its most fragile moment.
	BeforeRename func(tmp string)
}

// WriteFile replaces the file name with data atomically: readers and a
// process started after a crash see the old content or the new, whole.
// The data goes to a temporary file with a unique name in the same folder
// (so the rename never crosses file systems), is synced and closed, and is
// renamed over name; on unix the folder is synced too, so the rename
// survives a power cut. A symlink is followed, so the file it points at is
// replaced and the link kept. A character device (/dev/null, a terminal)
// is written in place, as a user who names one asks; any other target
// that is not a regular file (a folder, a FIFO, a socket) is refused: a
// rename would replace the special file itself, and a FIFO with no
// reader would block the run.
//
// Concurrent writers of one file must hold a lock: the last rename wins.
// The folder must exist. Errors are INVALID_ARGS naming the file.
func WriteFile(name string, data []byte, o WriteOptions) error {
	f, err := Create(name, o)
	if err != nil {
		return err
	}
	_, _ = f.Write(data) // a failed write is Commit's error
	return f.Commit()
}

// AppendFile adds data to the end of name atomically, with WriteFile's
// guarantees: the existing content (none when name does not exist yet)
// and data are copied to a replacement that is renamed over name, so a
// writer that dies midway leaves the old file whole, never a torn last
// line. The copy costs the file's size, which suits logs and scripts that
// grow by a command at a time. See Append for concurrent appenders.
func AppendFile(name string, data []byte, o WriteOptions) error {
	return Append(name, o, func(bool) []byte { return data })
}

// appendLockWait bounds the wait for another appender of the same file.
// An append holds the lock for one copy and rename, milliseconds for the
// logs and scripts flow appends to; a holder stopped for longer (a
// debugger, SIGSTOP) must not keep every later command waiting for ever.
const appendLockWait = 30 * time.Second

// Append is AppendFile with the bytes chosen once the file is locked:
// add is told whether the file is empty (or missing), so a script starts
// with its header exactly once however many processes append at a time.
//
// Appenders in separate processes exclude each other through an OS lock
// (flock on unix, LockFileEx on Windows) on a lock file beside the target,
// [LockFileFor]'s name, held around the copy and the rename: without it
// two appenders copy the same old content and the later rename drops the
// other's bytes. The last appender out removes the lock file (where the
// OS allows: not on Windows). A character device is written in place,
// unlocked.
func Append(name string, o WriteOptions, add func(empty bool) []byte) error {
	target := name
	if li, err := os.Lstat(name); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if resolved, err := filepath.EvalSymlinks(name); err == nil {
			target = resolved
		}
	}
	if info, err := os.Stat(target); err != nil || info.Mode().IsRegular() {
		unlock, err := lockTarget(name, target)
		if err != nil {
			return err
		}
		defer unlock()
	}
	f, err := Create(name, o)
	if err != nil {
		return err
	}
	if f.direct {
		// A device has no content to keep (and reading a terminal would
		// wait for input).
		_, _ = f.Write(add(true))
		return f.Commit()
	}
	empty := true
	if old, err := os.Open(f.target); err == nil {
		n, err := io.Copy(f, old)
		old.Close()
		if err != nil {
			f.Abort()
			return readError(name, err)
		}
		empty = n == 0
	} else if !errors.Is(err, fs.ErrNotExist) {
		f.Abort()
		return readError(name, err)
	}
	_, _ = f.Write(add(empty))
	return f.Commit()
}

// lockTarget takes the append lock of target (name is how the user wrote
// it, for messages) and returns its release. The release removes the lock
// file while still holding the lock, so no lock file is left beside the
// user's file; a waiter that meanwhile locked the removed file sees that
// the name no longer leads to it and starts over on the name's new file,
// so two appenders never hold locks on two different files.
func lockTarget(name, target string) (func(), error) {
	lockName := LockFileFor(target)
	deadline := time.Now().Add(appendLockWait)
	for {
		if _, err := statRegular(lockName); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		f, err := os.OpenFile(lockName, os.O_RDWR|os.O_CREATE|openNonblock, 0o644)
		if err != nil {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: cannot open its lock file %s: %v", name, lockName, pathErr(err)).
				With("file", name).Wrap(err)
		}
		if err := wait(context.Background(), f, lockName, name, LockOptions{Wait: max(time.Until(deadline), 0)}); err != nil {
			f.Close()
			return nil, err
		}
		held, herr := f.Stat()
		now, nerr := os.Stat(lockName)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			return func() {
				// Best effort: Windows refuses to remove an open file, and
				// a lock file left there is reused by the next append.
				_ = os.Remove(lockName)
				_ = unlock(f)
				_ = f.Close()
			}, nil
		}
		_ = unlock(f)
		_ = f.Close()
	}
}

// LockFileFor is the lock file Append keeps beside target: the target's
// name, hidden, with the suffix .flowlock, or a digest of the name when
// that would make a long name too long for the file system.
func LockFileFor(target string) string {
	dir, base := filepath.Split(target)
	return filepath.Join(dir, "."+shortName(base)+lockSuffix)
}

// lockSuffix ends the names of Append's lock files.
const lockSuffix = ".flowlock"

// maxNameStem bounds the part of a file's name that flow's own files
// beside it (temporary files, lock files) repeat. File systems allow 255
// bytes a name (some less): a user's name of 250 bytes plus a suffix
// would not fit, and a report lost after an hour's run for it is not an
// option.
const maxNameStem = 64

// shortName is base when it is short, else a prefix of it (cut between
// characters) and a digest of the whole that keeps different long names
// apart.
func shortName(base string) string {
	if len(base) <= maxNameStem {
		return base
	}
	sum := sha256.Sum256([]byte(base))
	cut := maxNameStem - 17
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut--
	}
	return base[:cut] + "-" + hex.EncodeToString(sum[:8])
}

// File is a file being written to replace another: what is written goes
// to a temporary file beside the target, which Commit renames over it.
// Until then the target is untouched, so output that streams for a whole
// run (an event log) replaces the old file only once complete. A File is
// not safe for concurrent use.
type File struct {
	name, target, dir, tmp string
	f                      *os.File
	perm                   fs.FileMode
	err                    error
	beforeRename           func(tmp string)
	// direct marks a character device written in place: there is nothing
	// to rename over it.
	direct bool
}

// Create starts the replacement of name (see WriteFile for symlinks,
// modes and special files). The caller must Commit or Abort it.
func Create(name string, o WriteOptions) (*File, error) {
	w := &File{name: name, target: name, perm: o.Perm, beforeRename: o.BeforeRename}
	if li, err := os.Lstat(name); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if resolved, err := filepath.EvalSymlinks(name); err == nil {
			w.target = resolved
		}
	}
	if w.perm == 0 {
		w.perm = 0o644
	}
	switch info, err := os.Stat(w.target); {
	case err == nil && IsCharDevice(info.Mode()):
		f, err := os.OpenFile(w.target, os.O_WRONLY, 0)
		if err != nil {
			return nil, w.fail(err)
		}
		w.f, w.direct = f, true
		return w, nil
	case err == nil && !info.Mode().IsRegular():
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: it is %s, not a regular file", name, describeMode(info.Mode())).
			With("file", name)
	case err == nil:
		w.perm = info.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, w.fail(err)
	}
	dir, base := filepath.Split(w.target)
	if dir == "" {
		dir = "."
	}
	w.dir = dir
	f, err := os.CreateTemp(dir, "."+shortName(base)+".*"+tempSuffix)
	if err != nil {
		return nil, w.fail(err)
	}
	w.f, w.tmp = f, f.Name()
	return w, nil
}

func (w *File) fail(err error) error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: %v", w.name, pathErr(err)).Wrap(err)
}

// Write adds p to the replacement. After a failure every later Write and
// the Commit return that failure.
func (w *File) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	if err != nil {
		w.err = w.fail(err)
		return n, w.err
	}
	return n, nil
}

// Commit syncs and closes the replacement and renames it over the target
// (syncing the folder on unix). On any failure the target is left as it
// was and the temporary file is removed. Commit after Commit or Abort
// does nothing.
func (w *File) Commit() (err error) {
	if w.f == nil {
		return w.err
	}
	f := w.f
	w.f = nil
	if w.direct {
		if cerr := f.Close(); w.err == nil && cerr != nil {
			w.err = w.fail(cerr)
		}
		return w.err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(w.tmp)
			w.err = err
		}
	}()
	werr := w.err
	if werr == nil {
		werr = f.Chmod(w.perm)
	}
	if werr == nil {
		// Without the sync, a crash soon after the rename can leave the new
		// name pointing at a file whose blocks never reached the disk.
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		if _, coded := canonical.AsError(werr); coded {
			return werr
		}
		return w.fail(werr)
	}
	if w.beforeRename != nil {
		w.beforeRename(w.tmp)
	}
	if err := os.Rename(w.tmp, w.target); err != nil {
		return w.fail(err)
	}
	syncDir(w.dir)
	return nil
}

// Abort drops the replacement: the target stays as it was. Abort after
// Commit, or on a nil File, does nothing.
func (w *File) Abort() {
	if w == nil || w.f == nil {
		return
	}
	_ = w.f.Close()
	if !w.direct {
		_ = os.Remove(w.tmp)
	}
	w.f = nil
	if w.err == nil {
		w.err = canonical.Errorf(canonical.CodeInternal, "the replacement of %s was abandoned", w.name)
	}
}

// IsCharDevice reports whether m is a character device, such as /dev/null
// or a terminal: output to one is written in place.
func IsCharDevice(m fs.FileMode) bool {
	return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0
}

// ReadFile reads name when it is a regular file of at most limit bytes.
// The type and size are checked before the file is opened, so a FIFO or a
// device fails at once instead of blocking or streaming forever; the
// opened file is checked again and read through a limit, in case it was
// swapped or grew in between.
//
// A missing file fails with an error for which errors.Is(err,
// fs.ErrNotExist) holds. Every error is INVALID_ARGS naming the file, with
// details "file" and, for the size, "limit" and "size".
func ReadFile(name string, limit int64) ([]byte, error) {
	info, err := statRegular(name)
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, tooLarge(name, limit, info.Size())
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, readError(name, err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, readError(name, err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(name, info.Mode())
	}
	data, err := readAll(io.LimitReader(f, limit+1), info.Size())
	if err != nil {
		return nil, readError(name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, limit, -1)
	}
	return data, nil
}

// statRegular stats name, following symlinks, and refuses anything but a
// regular file.
func statRegular(name string) (fs.FileInfo, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, readError(name, err)
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(name, info.Mode())
	}
	return info, nil
}

func readError(name string, err error) error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "cannot read %s: %v", name, pathErr(err)).With("file", name).Wrap(err)
}

func notRegular(name string, m fs.FileMode) error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "%s is %s, not a regular file", name, describeMode(m)).With("file", name)
}

// tooLarge names the limit; size is -1 when the file grew past it while
// being read.
func tooLarge(name string, limit, size int64) error {
	e := canonical.Errorf(canonical.CodeInvalidArgs, "%s is larger than the %s limit", name, Size(limit)).
		With("file", name).With("limit", limit)
	if size >= 0 {
		e.Message = fmt.Sprintf("%s is %s, over the %s limit", name, Size(size), Size(limit))
		e.With("size", size)
	}
	return e
}

// Size renders a byte count for a message: whole MiB or KiB when exact.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// readAll is io.ReadAll into a buffer of the size the file had when
// opened, plus one byte to see the end: io.ReadAll starts at 512 bytes
// and grows, which was most of what reading a workspace's flows allocated.
func readAll(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew: let append pick the size
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}
