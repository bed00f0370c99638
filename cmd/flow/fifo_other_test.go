//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || solaris)

package main

import "errors"

// makeFIFO is unix-only; the tests that need one skip elsewhere.
func makeFIFO(string) error { return errors.ErrUnsupported }
