package fsext

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestWriteFileReplaces: the target holds the new bytes, keeps its mode,
// and no temporary file is left.
func TestWriteFileReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "state.json")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(name)
	if string(data) != "new" {
		t.Fatalf("content %q", data)
	}
	if info, _ := os.Stat(name); runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v: an existing file keeps its mode", info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestWriteFileBeforeRename: at the hook the temporary file is complete
// and the target still has its old content, so a writer killed there
// leaves a whole old file.
func TestWriteFileBeforeRename(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "state.json")
	os.WriteFile(name, []byte("old"), 0o644)
	var seen string
	err := WriteFile(name, []byte("new"), WriteOptions{BeforeRename: func(tmp string) {
		seen = tmp
		if d, _ := os.ReadFile(tmp); string(d) != "new" {
			t.Errorf("temporary file holds %q", d)
		}
		if d, _ := os.ReadFile(name); string(d) != "old" {
			t.Errorf("target changed before the rename: %q", d)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(seen) != dir || !isTempName(filepath.Base(seen)) {
		t.Fatalf("temporary file %q must sit beside the target with a recognisable name", seen)
	}
}

// TestWriteFileUniqueTemps: two writes parked before their renames use
// two temporary files (a fixed name would make one rename fail).
func TestWriteFileUniqueTemps(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "f")
	var first string
	err := WriteFile(name, []byte("a"), WriteOptions{BeforeRename: func(tmp string) {
		first = tmp
		if err := WriteFile(name, []byte("b"), WriteOptions{BeforeRename: func(tmp string) {
			if tmp == first {
				t.Errorf("both writers use %s", tmp)
			}
		}}); err != nil {
			t.Error(err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(name); string(data) != "a" {
		t.Fatalf("the last rename wins: %q", data)
	}
}

// TestWriteFileRefusesSpecialTarget: a rename would replace a folder or a
// device node itself; WriteFile refuses instead.
func TestWriteFileRefusesSpecialTarget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	err := WriteFile(sub, []byte("x"), WriteOptions{})
	if canonical.CodeOf(err) != canonical.CodeInvalidArgs || !strings.Contains(err.Error(), "it is a folder, not a regular file") {
		t.Fatalf("want the folder refused, got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestWriteFileFollowsSymlink: the file a link points at is replaced and
// the link stays a link.
func TestWriteFileFollowsSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real"), filepath.Join(dir, "link")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := WriteFile(link, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if d, _ := os.ReadFile(real); string(d) != "new" {
		t.Fatalf("target holds %q", d)
	}
	if li, _ := os.Lstat(link); li.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
}

// TestReadFile: regular files within the limit are read; missing files
// say so through fs.ErrNotExist; folders and oversized files are refused
// before reading, naming the file and the limit.
func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("12345"), 0o644)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, bytes.Repeat([]byte("x"), 2048), 0o644)
	cases := []struct {
		name  string
		file  string
		limit int64
		want  string // "" reads
	}{
		{"within_limit", small, 5, ""},
		{"over_limit", small, 4, small + " is 5 bytes, over the 4 bytes limit"},
		{"over_limit_kib", big, 1024, big + " is 2 KiB, over the 1 KiB limit"},
		{"folder", dir, 1 << 20, dir + " is a folder, not a regular file"},
		{"missing", filepath.Join(dir, "nope"), 10, "cannot read " + filepath.Join(dir, "nope")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			data, err := ReadFile(tc.file, tc.limit)
			if tc.want == "" {
				if err != nil || string(data) != "12345" {
					t.Fatalf("%q %v", data, err)
				}
				return
			}
			if err == nil || canonical.CodeOf(err) != canonical.CodeInvalidArgs || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want INVALID_ARGS %q, got %v", tc.want, err)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "nope"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file must match fs.ErrNotExist: %v", err)
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{1: "1 byte", 7: "7 bytes", 1024: "1 KiB", 1536: "1536 bytes", 64 << 20: "64 MiB", 3 << 10: "3 KiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
