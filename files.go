package flow

import (
	"os"
	"path/filepath"

	"github.com/flow-runner/flow/exec/fsext"
)

// DirFiles writes files under a folder, creating parents: the artifacts
// folder, the working folder for takeScreenshot, and reports. Each file is
// replaced atomically (fsext.WriteFile): a reader, or the next run after a
// crash, sees the old file or the new one, never half of one.
type DirFiles struct{ Dir string }

// WriteFile writes name under the folder (an absolute name as is).
func (d DirFiles) WriteFile(name string, data []byte) error {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.Dir, p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fsext.WriteFile(p, data, fsext.WriteOptions{})
}

// ReadFile reads name under the folder (an absolute name as is): the
// reference images of assertScreenshot (exec.FileReader).
func (d DirFiles) ReadFile(name string) ([]byte, error) {
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.Dir, p)
	}
	return os.ReadFile(p)
}
