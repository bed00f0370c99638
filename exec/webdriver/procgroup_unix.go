//go:build unix

package webdriver

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// alive reports whether a process exists (signal 0 reaches it, or it
// belongs to another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// killStaleDriver ends the process group of a chromedriver a crashed run
// left behind, after /proc confirms the PID is still a chromedriver (a
// reused PID is left alone). Without /proc (macOS) it does nothing.
func killStaleDriver(pid int) {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || !strings.Contains(string(cmdline), "chromedriver") {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
