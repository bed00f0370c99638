package android

import (
	"context"
	"io"
	"net"

	"github.com/flow-runner/flow/exec/android/adb"
)

// shellResult is one finished shell command (adb shell v2: stdout and
// stderr apart, and the exit code).
type shellResult = adb.Result

// shellStream is a shell command still running (am instrument,
// screenrecord).
type shellStream interface {
	// Stdout is the command's output as it arrives; it ends when the
	// command does.
	Stdout() io.Reader
	// Stderr is what the command wrote to stderr so far (bounded).
	Stderr() []byte
	Wait() (exitCode int, err error)
	Close() error
}

// transport is what the device needs of adb: the exec/android/adb
// client's methods, seen through an interface so unit tests can script a
// phone in process. Every error is already a coded DEVICE_UNAVAILABLE
// naming the serial (the adb client's contract).
type transport interface {
	Shell(ctx context.Context, serial string, argv ...string) (shellResult, error)
	Exec(ctx context.Context, serial string, argv ...string) ([]byte, error)
	StartShell(ctx context.Context, serial string, argv ...string) (shellStream, error)
	Forward(ctx context.Context, serial, local, remote string) (string, error)
	KillForward(ctx context.Context, serial, local string) error
	Install(ctx context.Context, serial string, apk io.Reader, size int64, args ...string) (shellResult, error)
	Pull(ctx context.Context, serial, remote string, w io.Writer) error
	Devices(ctx context.Context) ([]adb.DeviceEntry, error)
	// Dial connects to a local forward ("tcp:PORT").
	Dial(ctx context.Context, local string) (net.Conn, error)
	// Ping has the device itself answer (adb.Client.Ping): nil while its
	// link carries packets both ways.
	Ping(ctx context.Context, serial string) error
}

// adbTransport is transport over the real client.
type adbTransport struct{ *adb.Client }

func (t adbTransport) StartShell(ctx context.Context, serial string, argv ...string) (shellStream, error) {
	s, err := t.Client.StartShell(ctx, serial, argv...)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (t adbTransport) Dial(ctx context.Context, local string) (net.Conn, error) {
	_, port, _ := cutPrefix(local, "tcp:")
	var d net.Dialer
	return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", port))
}

func cutPrefix(s, p string) (string, string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return p, s[len(p):], true
	}
	return "", s, false
}
