package adbd

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// MemFS is the device's file system as sync: sees it: files by absolute
// path, and directories (the usual ones exist from the start; writing a
// file makes its parents). Safe for concurrent use.
type MemFS struct {
	mu    sync.Mutex
	files map[string]memFile
	dirs  map[string]bool
}

type memFile struct {
	data  []byte
	mode  uint32
	mtime time.Time
}

// NewMemFS returns a file system with the directories flow and adb use:
// /data/local/tmp (adb install's and flow's staging), /sdcard and its
// media folders.
func NewMemFS() *MemFS {
	m := &MemFS{files: map[string]memFile{}, dirs: map[string]bool{"/": true}}
	for _, d := range []string{"/data/local/tmp", "/sdcard/DCIM/Camera", "/sdcard/Pictures", "/sdcard/Movies", "/sdcard/Download"} {
		m.mkdirAll(d)
	}
	return m
}

func (m *MemFS) mkdirAll(dir string) {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		m.dirs[d] = true
		if d == "/" {
			return
		}
	}
}

func clean(name string) string {
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	return path.Clean(name)
}

// ReadFile returns a copy of a file's bytes.
func (m *MemFS) ReadFile(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.files[clean(name)]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), f.data...), nil
}

// WriteFile stores a file (mode 0644), making its parent directories.
func (m *MemFS) WriteFile(name string, data []byte) error {
	return m.write(name, data, 0o100644, time.Now())
}

func (m *MemFS) write(name string, data []byte, mode uint32, mtime time.Time) error {
	name = clean(name)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dirs[name] {
		return &fs.PathError{Op: "write", Path: name, Err: fs.ErrExist}
	}
	m.mkdirAll(path.Dir(name))
	if mode&0o170000 == 0 {
		mode |= 0o100000
	}
	m.files[name] = memFile{data: append([]byte(nil), data...), mode: mode, mtime: mtime}
	return nil
}

// Remove deletes a file.
func (m *MemFS) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	name = clean(name)
	if _, ok := m.files[name]; !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	delete(m.files, name)
	return nil
}

// entry is what stat reports.
type entry struct {
	mode  uint32
	size  uint64
	mtime time.Time
}

func (m *MemFS) stat(name string) (entry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	name = clean(name)
	if f, ok := m.files[name]; ok {
		return entry{mode: f.mode, size: uint64(len(f.data)), mtime: f.mtime}, true
	}
	if m.dirs[name] {
		return entry{mode: 0o040771}, true
	}
	return entry{}, false
}

// list returns the names directly in dir with their entries, sorted.
func (m *MemFS) list(dir string) ([]string, []entry, bool) {
	m.mu.Lock()
	dir = clean(dir)
	if !m.dirs[dir] {
		m.mu.Unlock()
		return nil, nil, false
	}
	var names []string
	for f := range m.files {
		if path.Dir(f) == dir {
			names = append(names, path.Base(f))
		}
	}
	for d := range m.dirs {
		if d != dir && path.Dir(d) == dir {
			names = append(names, path.Base(d))
		}
	}
	m.mu.Unlock()
	sort.Strings(names)
	ents := make([]entry, len(names))
	for i, n := range names {
		ents[i], _ = m.stat(path.Join(dir, n))
	}
	return names, ents, true
}
