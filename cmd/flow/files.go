package main

import (
	"os"
	"path/filepath"
)

// dirFiles writes files under a folder, creating parents: the artifacts
// folder, and the working folder for takeScreenshot.
type dirFiles struct{ dir string }

func (d dirFiles) WriteFile(name string, data []byte) error {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.dir, p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// isTerminal reports whether f is a character device, which is how the
// CLI decides to redraw the running step in place.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
