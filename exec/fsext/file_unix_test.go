//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd || solaris

package fsext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReadFileRefusesSpecialFiles: a FIFO with no writer and /dev/zero
// behind a symlink are refused at once. Reading either would block
// forever or never end.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{fifo: "is a named pipe (FIFO), not a regular file", zero: "is a device, not a regular file"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(file, 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), file+" "+want) {
				t.Errorf("%s: want %q, got %v", file, want, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile blocked", file)
		}
	}
	// The lock file too: a FIFO there must not hang Acquire.
	lockDir := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(lockDir, LockFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(t.Context(), lockDir, LockOptions{}); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("want a FIFO lock file refused, got %v", err)
	}
}

// TestDevicesAreWrittenInPlace: /dev/null (here behind a symlink, so the
// device is found through it) is written in place by WriteFile,
// AppendFile and Create, and stays the device: a rename over it would
// have replaced the device node with a regular file.
func TestDevicesAreWrittenInPlace(t *testing.T) {
	t.Parallel()
	null := filepath.Join(t.TempDir(), "null")
	if err := os.Symlink(os.DevNull, null); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(null, []byte("report"), WriteOptions{}); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	if err := AppendFile(null, []byte("event\n"), WriteOptions{}); err != nil {
		t.Fatalf("AppendFile: %v", err)
	}
	f, err := Create(null, WriteOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if _, err := f.Write([]byte("streamed")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
	for _, name := range []string{null, os.DevNull} {
		info, err := os.Stat(name)
		if err != nil || !IsCharDevice(info.Mode()) {
			t.Fatalf("%s is no longer a character device: %v %v", name, info.Mode(), err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(null)); len(ents) != 1 {
		t.Errorf("left files beside the link: %v", ents)
	}
}
