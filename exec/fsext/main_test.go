package fsext

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"testing"
)

// holdLockEnv makes the test binary a lock holder for the cross-process
// tests: it takes the lock on the folder the variable names, says
// "locked" on stdout and holds the lock until stdin closes or it is
// killed.
const holdLockEnv = "FSEXT_TEST_HOLD_LOCK"

// appendEnv makes the test binary an appender for the cross-process
// tests: it appends appendLines lines naming its process id to the file
// the variable names, one AppendFile each.
const appendEnv = "FSEXT_TEST_APPEND"

const appendLines = 5

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdLockEnv); dir != "" {
		os.Exit(holdLock(dir))
	}
	if file := os.Getenv(appendEnv); file != "" {
		os.Exit(appendTo(file))
	}
	os.Exit(m.Run())
}

func holdLock(dir string) int {
	l, err := Acquire(context.Background(), dir, LockOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, bufio.NewReader(os.Stdin))
	if err := l.Release(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func appendTo(file string) int {
	for i := range appendLines {
		if err := AppendFile(file, fmt.Appendf(nil, "%d %d\n", os.Getpid(), i), WriteOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}
