package main

import (
	"io/fs"
	"os"
	"path/filepath"
)

// osSource is the real file system for the loader. The loader speaks slash
// paths; this converts them for the host.
type osSource struct{}

func (osSource) ReadFile(name string) ([]byte, error) { return os.ReadFile(filepath.FromSlash(name)) }

func (osSource) Stat(name string) (fs.FileInfo, error) { return os.Stat(filepath.FromSlash(name)) }

func (osSource) ReadDir(name string) ([]fs.DirEntry, error) {
	return os.ReadDir(filepath.FromSlash(name))
}
