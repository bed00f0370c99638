//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || solaris

package main

import "golang.org/x/sys/unix"

func makeFIFO(path string) error { return unix.Mkfifo(path, 0o644) }
