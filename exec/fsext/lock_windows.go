//go:build windows

package fsext

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// openNonblock is a unix flag; Windows has no equivalent to pass.
const openNonblock = 0

// allBytes locks the whole file, however long it grows.
const allBytes = ^uint32(0)

// tryLock takes LockFileEx's exclusive lock without blocking. The lock
// belongs to the handle, so two handles in one process exclude each other,
// and Windows releases it when the handle closes or the process ends.
func tryLock(f *os.File) (bool, error) {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, allBytes, allBytes, new(windows.Overlapped))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, err
}

func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, allBytes, allBytes, new(windows.Overlapped))
}

// syncDir does nothing: os cannot open a folder on Windows to sync it,
// and the rename is a metadata change the file system journals.
func syncDir(string) {}
