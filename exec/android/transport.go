package android

import (
	"context"
	"io"
	"net"
)

// shellResult is one finished shell command (adb shell v2: stdout and
// stderr apart, and the exit code).
type shellResult struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// shellStream is a shell command still running (am instrument).
type shellStream interface {
	// Stdout is the command's output as it arrives; it ends when the
	// command does.
	Stdout() io.Reader
	// Stderr is what the command wrote to stderr so far (bounded).
	Stderr() []byte
	Wait() (exitCode int, err error)
	Close() error
}

// transport is what the device needs of adb: the exec/android/adb client's
// methods, seen through an interface so tests can replay a phone in
// process. Every error is already a coded DEVICE_UNAVAILABLE naming the
// serial (the adb client's contract).
type transport interface {
	Shell(ctx context.Context, serial string, argv ...string) (shellResult, error)
	Exec(ctx context.Context, serial string, argv ...string) ([]byte, error)
	StartShell(ctx context.Context, serial string, argv ...string) (shellStream, error)
	Forward(ctx context.Context, serial, local, remote string) error
	KillForward(ctx context.Context, serial, local string) error
	Install(ctx context.Context, serial string, apk io.Reader, size int64, args ...string) (shellResult, error)
	Pull(ctx context.Context, serial, remote string, w io.Writer) error
	// Dial connects to a local forward ("tcp:PORT").
	Dial(ctx context.Context, local string) (net.Conn, error)
}
