package main

import (
	"os"
	"path/filepath"

	"github.com/flow-runner/flow/exec/fsext"
)

// dirFiles writes files under a folder, creating parents: the artifacts
// folder, the working folder for takeScreenshot, and reports. Each file is
// replaced atomically (fsext.WriteFile): a reader, or the next run after a
// crash, sees the old file or the new one, never half of one.
type dirFiles struct{ dir string }

func (d dirFiles) WriteFile(name string, data []byte) error {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.dir, p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fsext.WriteFile(p, data, fsext.WriteOptions{})
}

// isTerminal reports whether f is a character device, which is how the
// CLI decides to redraw the running step in place.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
