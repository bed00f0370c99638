//go:build unix

package procgroup

import (
	osexec "os/exec"
	"syscall"
)

// Own makes cmd start in a process group of its own.
func Own(cmd *osexec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Signal sends SIGTERM (SIGKILL with kill) to cmd's whole process group
// (PGID == PID).
func Signal(cmd *osexec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
