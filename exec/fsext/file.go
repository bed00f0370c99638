package fsext

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

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
// replaced and the link kept. An existing target that is not a regular
// file (a folder, a device, a FIFO) is refused: a rename would replace
// the special file itself.
//
// Concurrent writers of one file must hold a lock: the last rename wins.
// The folder must exist. Errors are INVALID_ARGS naming the file.
func WriteFile(name string, data []byte, o WriteOptions) (err error) {
	fail := func(err error) error {
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: %v", name, pathErr(err)).Wrap(err)
	}
	target := name
	if li, err := os.Lstat(name); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if resolved, err := filepath.EvalSymlinks(name); err == nil {
			target = resolved
		}
	}
	perm := o.Perm
	if perm == 0 {
		perm = 0o644
	}
	switch info, err := os.Stat(target); {
	case err == nil && !info.Mode().IsRegular():
		return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write %s: it is %s, not a regular file", name, describeMode(info.Mode())).
			With("file", name)
	case err == nil:
		perm = info.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return fail(err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*"+tempSuffix)
	if err != nil {
		return fail(err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
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
		return fail(werr)
	}
	if o.BeforeRename != nil {
		o.BeforeRename(tmp)
	}
	if err := os.Rename(tmp, target); err != nil {
		return fail(err)
	}
	syncDir(dir)
	return nil
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
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
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
