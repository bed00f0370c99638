package webdriver

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// A profile whose owner is gone is swept; one whose owner lives, or
// without an owner, is kept.
func TestSweepStaleProfiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("profiles are never swept on Windows")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := osexec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1): ", err)
	}
	mk := func(name string, owner int) string {
		dir := filepath.Join(tmp, profilePrefix+name)
		if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
		if owner > 0 {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(owner)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	stale := mk("stale", dead.Process.Pid)
	live := mk("live", os.Getpid())
	unowned := mk("unowned", 0)
	sweepStale()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale profile is still there (%v)", err)
	}
	for _, dir := range []string{live, unowned} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s was swept: %v", dir, err)
		}
	}
}
