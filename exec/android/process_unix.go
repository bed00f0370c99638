//go:build unix

package android

import (
	"errors"
	"syscall"
)

// processAliveOS asks the kernel about pid with signal 0, which checks
// without delivering anything: ESRCH is no such process; EPERM is a
// process of another user, alive.
func processAliveOS(pid int) (alive, known bool) {
	if pid <= 0 {
		return false, false
	}
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return true, true
	case errors.Is(err, syscall.ESRCH):
		return false, true
	}
	return false, false
}
