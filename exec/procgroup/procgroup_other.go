//go:build !unix

package procgroup

import osexec "os/exec"

// Own does nothing where process groups do not exist.
func Own(*osexec.Cmd) {}

// Signal ends the program itself.
func Signal(cmd *osexec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
