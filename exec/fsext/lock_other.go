//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || solaris || windows)

package fsext

import (
	"errors"
	"os"
)

const openNonblock = 0

// tryLock fails where flow knows no OS lock: running unlocked would
// silently lose updates, which is worse than refusing.
func tryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }

func unlock(*os.File) error { return nil }

func syncDir(string) {}
