//go:build !unix

package appiumtest

import (
	"os/exec"
	"syscall"
)

func procAttr() *syscall.SysProcAttr { return nil }

func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
