//go:build !unix

package webdriver

import osexec "os/exec"

// ownGroup does nothing where process groups do not exist; Close then ends
// the driver process alone and relies on it to close its browser.
func ownGroup(*osexec.Cmd) {}

// signalGroup ends the driver process.
func signalGroup(cmd *osexec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// alive is always true here: without a cheap liveness check, profiles of
// other runs are never swept.
func alive(int) bool { return true }

// killStaleDriver does nothing here.
func killStaleDriver(int) {}
