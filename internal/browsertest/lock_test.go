package browsertest

import (
	"runtime"
	"testing"
	"time"
)

// The lock excludes: a second holder waits until the first releases.
func TestLockExcludes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no file lock on Windows")
	}
	t.Setenv("TMPDIR", t.TempDir())
	unlock, err := Lock()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan time.Time)
	go func() {
		second, err := Lock()
		if err != nil {
			t.Error(err)
			close(got)
			return
		}
		got <- time.Now()
		second()
	}()
	time.Sleep(100 * time.Millisecond)
	released := time.Now()
	unlock()
	select {
	case at, ok := <-got:
		if ok && at.Before(released) {
			t.Errorf("the second holder got the lock %s before the first released it", released.Sub(at))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second holder never got the lock")
	}
}
