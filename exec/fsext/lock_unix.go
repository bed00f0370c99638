//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || solaris

package fsext

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openNonblock keeps open(2) from blocking on a FIFO that has no writer;
// it changes nothing for a regular file.
const openNonblock = unix.O_NONBLOCK

// tryLock takes flock's exclusive lock without blocking. flock locks
// belong to the open file description, so two handles in one process
// exclude each other too (fcntl locks would not), and the kernel drops
// the lock when the last descriptor closes, also when the process is
// killed.
func tryLock(f *os.File) (bool, error) {
	return control(f, func(fd int) (bool, error) {
		for {
			err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
			switch {
			case err == nil:
				return true, nil
			case errors.Is(err, unix.EINTR):
				continue
			case errors.Is(err, unix.EWOULDBLOCK):
				return false, nil
			}
			return false, err
		}
	})
}

func unlock(f *os.File) error {
	_, err := control(f, func(fd int) (bool, error) { return true, unix.Flock(fd, unix.LOCK_UN) })
	return err
}

func control(f *os.File, op func(fd int) (bool, error)) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ok bool
	var opErr error
	if err := rc.Control(func(fd uintptr) { ok, opErr = op(int(fd)) }); err != nil {
		return false, err
	}
	return ok, opErr
}

// syncDir makes a rename in dir durable. It is best effort: some file
// systems refuse to sync a folder, and the rename has happened anyway.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
