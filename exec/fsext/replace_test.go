package fsext

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestAppendFile: appends keep what was there, create a missing file, and
// a writer stopped before its rename leaves the old content whole.
func TestAppendFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "session.ad")
	for _, line := range []string{"open a\n", "press b\n"} {
		if err := AppendFile(name, []byte(line), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	err := AppendFile(name, []byte("type c\n"), WriteOptions{BeforeRename: func(tmp string) {
		if d, _ := os.ReadFile(name); string(d) != "open a\npress b\n" {
			t.Errorf("the target changed before the rename: %q", d)
		}
		if d, _ := os.ReadFile(tmp); string(d) != "open a\npress b\ntype c\n" {
			t.Errorf("the replacement holds %q", d)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := os.ReadFile(name); string(d) != "open a\npress b\ntype c\n" {
		t.Fatalf("content %q", d)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 && (runtime.GOOS != "windows" || len(entries) != 2) {
		// Windows keeps the lock file: it cannot remove a file still open.
		t.Fatalf("left behind: %v", entries)
	}
	if err := AppendFile(dir, []byte("x"), WriteOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("appending to a folder: %v", err)
	}
}

// TestCreateCommitAbort: a streamed replacement is invisible until Commit;
// Abort leaves the old file and no temporary file.
func TestCreateCommitAbort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "events.jsonl")
	os.WriteFile(name, []byte("old\n"), 0o644)
	f, err := Create(name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new 1\n"))
	f.Write([]byte("new 2\n"))
	if d, _ := os.ReadFile(name); string(d) != "old\n" {
		t.Fatalf("visible before the commit: %q", d)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if d, _ := os.ReadFile(name); string(d) != "new 1\nnew 2\n" {
		t.Fatalf("content %q", d)
	}
	if err := f.Commit(); err != nil {
		t.Fatalf("a second commit: %v", err)
	}
	g, err := Create(name, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("dropped"))
	g.Abort()
	if d, _ := os.ReadFile(name); string(d) != "new 1\nnew 2\n" {
		t.Fatalf("abort changed the file: %q", d)
	}
	if g.Commit() == nil {
		t.Error("a commit after abort must fail")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestAppendAcrossProcesses: twenty processes appending to one file at
// once lose nothing: every line of every process is there once, whole.
// Each append copies the old content to a replacement and renames it
// over the file; unlocked, two appenders copy the same content and the
// later rename drops the other's line.
func TestAppendAcrossProcesses(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "events.jsonl")
	const procs = 20
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^$")
		cmds[i].Env = append(os.Environ(), appendEnv+"="+name)
		cmds[i].Stderr = os.Stderr
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("appender: %v", err)
		}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if seen[l] || len(strings.Fields(l)) != 2 {
			t.Fatalf("line %q is repeated or torn:\n%s", l, data)
		}
		seen[l] = true
	}
	if len(seen) != procs*appendLines {
		t.Fatalf("want %d lines, got %d: appends were lost", procs*appendLines, len(seen))
	}
}

// TestAppendHeaderOnce: Append tells the first appender of an empty file
// that it is empty, and only it.
func TestAppendHeaderOnce(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "rec.ad")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := Append(name, WriteOptions{}, func(empty bool) []byte {
				if empty {
					return []byte("context\nback\n")
				}
				return []byte("back\n")
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if d, _ := os.ReadFile(name); string(d) != "context\n"+strings.Repeat("back\n", 8) {
		t.Fatalf("want one header and eight lines, got:\n%s", d)
	}
}

// TestLongNames: a name of 250 bytes, valid where names may have 255,
// can be written, replaced and appended to: flow's temporary and lock
// files beside it have short names of their own, so a suffix never takes
// them over the limit.
func TestLongNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, base := range []string{strings.Repeat("r", 245) + ".json", strings.Repeat("é", 122) + ".ad"} {
		name := filepath.Join(dir, base)
		if err := WriteFile(name, []byte("one\n"), WriteOptions{BeforeRename: func(tmp string) {
			if n := len(filepath.Base(tmp)); n > 100 {
				t.Errorf("the temporary name has %d bytes", n)
			}
		}}); err != nil {
			t.Fatalf("WriteFile of a %d-byte name: %v", len(base), err)
		}
		if err := AppendFile(name, []byte("two\n"), WriteOptions{}); err != nil {
			t.Fatalf("AppendFile to a %d-byte name: %v", len(base), err)
		}
		if d, _ := os.ReadFile(name); string(d) != "one\ntwo\n" {
			t.Fatalf("content %q", d)
		}
		if !utf8.ValidString(filepath.Base(LockFileFor(name))) {
			t.Fatalf("the lock file's name is cut inside a character: %q", LockFileFor(name))
		}
	}
	// Two long names that share their start keep lock files apart.
	a, b := LockFileFor(filepath.Join(dir, strings.Repeat("x", 200)+"a")), LockFileFor(filepath.Join(dir, strings.Repeat("x", 200)+"b"))
	if a == b {
		t.Fatalf("two files share the lock file %s", a)
	}
}
