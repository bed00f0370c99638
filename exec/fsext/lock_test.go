package fsext

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestLockExcludesSecondHandle: a second handle in the same process does
// not get the lock while the first holds it, and gets it once released.
func TestLockExcludesSecondHandle(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	a, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Acquire(context.Background(), dir, LockOptions{Wait: 100 * time.Millisecond})
	if !errors.Is(err, ErrBusy) || canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("want a busy DEVICE_UNAVAILABLE error while the lock is held, got %v", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Fatalf("gave up after %s, before the 100ms bound", waited)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Fatalf("the error must name the locked folder: %v", err)
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(); err != nil {
		t.Fatalf("a second Release must be harmless: %v", err)
	}
	b, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatalf("the released lock must be free: %v", err)
	}
	b.Release()
}

// TestLockSerialisesReadModifyWrite: goroutines that each read a counter
// file, increment it and write it back under the lock lose no update.
// Without mutual exclusion, interleaved read-modify-writes lose some.
func TestLockSerialisesReadModifyWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	counter := filepath.Join(dir, "counter")
	if err := WriteFile(counter, []byte("0"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				errs <- func() error {
					l, err := Acquire(context.Background(), dir, LockOptions{Wait: 30 * time.Second})
					if err != nil {
						return err
					}
					defer l.Release()
					data, err := ReadFile(counter, 64)
					if err != nil {
						return err
					}
					n, err := strconv.Atoi(string(data))
					if err != nil {
						return err
					}
					time.Sleep(50 * time.Microsecond) // widen the window a lost update needs
					return WriteFile(counter, []byte(strconv.Itoa(n+1)), WriteOptions{})
				}()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(counter)
	if string(data) != strconv.Itoa(workers*rounds) {
		t.Fatalf("counter is %s after %d increments: updates were lost", data, workers*rounds)
	}
}

// TestLockWaitsAndNotices: a waiter says once that it waits, and takes
// the lock as soon as the holder lets go, well before its bound.
func TestLockWaitsAndNotices(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		a.Release()
	}()
	var notices atomic.Int32
	start := time.Now()
	b, err := Acquire(context.Background(), dir, LockOptions{Wait: 20 * time.Second, Notice: 50 * time.Millisecond,
		OnWait: func() { notices.Add(1) }})
	if err != nil {
		t.Fatalf("the lock was released mid-wait: %v", err)
	}
	defer b.Release()
	if n := notices.Load(); n != 1 {
		t.Fatalf("want exactly one notice while waiting, got %d", n)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("took %s to notice the release", waited)
	}
}

// TestLockNoNoticeWhenFree: a lock that is free at once is taken silently.
func TestLockNoNoticeWhenFree(t *testing.T) {
	t.Parallel()
	called := false
	l, err := Acquire(context.Background(), t.TempDir(), LockOptions{Wait: time.Second, OnWait: func() { called = true }})
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	if called {
		t.Fatal("OnWait ran though the lock was free")
	}
}

// TestLockCancel: cancelling the context (Ctrl-C) ends the wait at once,
// with the context's error in the chain.
func TestLockCancel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err = Acquire(ctx, dir, LockOptions{Wait: time.Minute})
	if !errors.Is(err, context.Canceled) || canonical.CodeOf(err) != canonical.CodeCommandFailed {
		t.Fatalf("want an interrupted wait, got %v", err)
	}
	if waited := time.Since(start); waited > 20*time.Second {
		t.Fatalf("cancel took %s to end the wait", waited)
	}
}

// TestLockAcrossProcesses: another process holding the lock keeps this
// one out, and its death frees the lock without any cleanup: the OS lock
// dies with its process.
func TestLockAcrossProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdLockEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		cmd.Process.Kill()
		t.Fatalf("the holder did not take the lock: %q %v", line, err)
	}
	if _, err := Acquire(context.Background(), dir, LockOptions{Wait: 200 * time.Millisecond}); !errors.Is(err, ErrBusy) {
		cmd.Process.Kill()
		t.Fatalf("want busy while another process holds the lock, got %v", err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	l, err := Acquire(context.Background(), dir, LockOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatalf("a killed holder must leave the lock free: %v", err)
	}
	l.Release()
}

// TestLockRemovesStaleTemps: temporary files a dead writer left are
// removed once the lock is held; the user's files are not touched.
func TestLockRemovesStaleTemps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stale := filepath.Join(dir, ".sim-state.json.123456"+tempSuffix)
	keep := []string{filepath.Join(dir, "notes"+tempSuffix), filepath.Join(dir, "sim-state.json")}
	for _, f := range append(keep, stale) {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stale temporary file is still there: %v", err)
	}
	for _, f := range keep {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was removed: %v", f, err)
		}
	}
}

// TestLockRefusesBadFolder: a state folder that is a file fails with a
// clear INVALID_ARGS error, not a panic or a hang.
func TestLockRefusesBadFolder(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, err := Acquire(context.Background(), file, LockOptions{})
	if canonical.CodeOf(err) != canonical.CodeInvalidArgs || !strings.Contains(err.Error(), "cannot create the folder "+file) {
		t.Fatalf("want INVALID_ARGS naming the folder, got %v", err)
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, LockFile), 0o755)
	_, err = Acquire(context.Background(), dir, LockOptions{})
	if canonical.CodeOf(err) != canonical.CodeInvalidArgs || !strings.Contains(err.Error(), "is a folder, not a regular file") {
		t.Fatalf("want a lock file that is a folder refused, got %v", err)
	}
}
