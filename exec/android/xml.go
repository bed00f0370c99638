package android

import (
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/uiautomator"
)

// helperDumpHint: a dump flow cannot read means the installed helper is
// not the one this flow build speaks to.
const helperDumpHint = "the helper sent a hierarchy flow cannot read; reinstall it (`adb uninstall dev.flow.helper`) and run again"

// ParseHierarchy reads the helper's `xml` (Maestro's ViewHierarchy.kt
// format) into an exec.Node tree; uiautomator.Decode has the mapping.
func ParseHierarchy(data []byte) (*exec.Node, error) {
	return uiautomator.Parse(data, uiautomator.Options{Hint: helperDumpHint})
}
