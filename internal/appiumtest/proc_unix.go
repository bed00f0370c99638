//go:build unix

package appiumtest

import (
	"os/exec"
	"syscall"
)

// procAttr puts the server in a process group of its own, so that Stop
// ends the node processes it starts too.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
