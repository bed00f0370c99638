//go:build unix

package webdriver

import (
	"errors"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"syscall"
)

// ownGroup starts the driver in a process group of its own, so that Close
// can end it with every browser process it started.
func ownGroup(cmd *osexec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the driver's whole process group (PGID == PID).
func signalGroup(cmd *osexec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

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
