package flow

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/maestro"
)

// OSSource is the real file system for the loader. The loader speaks slash
// paths; this converts them for the host. ReadFile refuses, before reading,
// anything but a regular file of at most maestro.MaxFileSize bytes, and
// reads through that limit in case the file grows (fsext.ReadFile): the
// loader reads flows, scripts and workspace configs through it, and the CLI
// reads .ad scripts and capabilities files the same way.
type OSSource struct{}

func (OSSource) ReadFile(name string) ([]byte, error) {
	return fsext.ReadFile(filepath.FromSlash(name), maestro.MaxFileSize)
}

func (OSSource) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }

func (OSSource) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(filepath.FromSlash(name))
}
