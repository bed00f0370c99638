package adb

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// maxExec bounds exec: output kept in memory (a screenshot PNG is a few
// MiB; a screen recording is pulled, not exec'd).
const maxExec = 64 << 20

// Exec runs argv through exec: and returns its stdout byte for byte (no
// terminal, no CR/LF translation: screencap's PNG arrives intact). exec:
// has no exit code and no stderr; use Shell when those matter.
func (c *Client) Exec(ctx context.Context, serial string, argv ...string) ([]byte, error) {
	cmd := commandLine(argv)
	cn, err := c.open(ctx, serial, "exec:"+cmd)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	out, err := readCapped(idleReader{cn, idleTimeout}, maxExec)
	if err != nil {
		return nil, c.dataError(ctx, serial, cmd, idleTimeout, fmt.Sprintf("reading the output of %s failed", service(cmd)), err)
	}
	return out, nil
}

// Install installs an APK read from apk (size bytes) the way adb install
// streams it on devices with the "cmd" feature (Android 7+): exec:cmd
// package 'install' ARGS -S SIZE, the bytes, then the package manager's
// verdict. Result.ExitCode is 0 when the verdict starts with "Success",
// as adb's own install decides; the verdict is in Stdout
// ("Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: …]").
func (c *Client) Install(ctx context.Context, serial string, apk io.Reader, size int64, args ...string) (Result, error) {
	argv := append([]string{"cmd", "package", "install"}, args...)
	argv = append(argv, "-S", strconv.FormatInt(size, 10))
	cmd := commandLine(argv)
	cn, err := c.open(ctx, serial, "exec:"+cmd)
	if err != nil {
		return Result{}, err
	}
	defer cn.Close()
	if n, err := io.CopyN(idleWriter{cn, idleTimeout}, apk, size); err != nil {
		return Result{}, c.dataError(ctx, serial, cmd, idleTimeout, fmt.Sprintf("sending the APK failed after %d of %d bytes", n, size), err)
	}
	_ = cn.SetWriteDeadline(time.Time{})
	out, err := readCapped(idleReader{cn, verdictTimeout}, maxReply)
	if err != nil {
		return Result{}, c.dataError(ctx, serial, cmd, verdictTimeout, "reading the install verdict failed", err)
	}
	res := Result{Stdout: out, ExitCode: 1}
	if strings.HasPrefix(string(out), "Success") {
		res.ExitCode = 0
	}
	return res, nil
}

// dataError is a transfer that failed after the service opened:
// INTERRUPTED, a device silent for wait, or the failure itself.
func (c *Client) dataError(ctx context.Context, serial, cmd string, wait time.Duration, what string, err error) error {
	switch {
	case ctx.Err() != nil:
		return interrupted(ctx, serial)
	case noAnswer(err):
		return c.base(serial, fmt.Sprintf("%s: %s sent nothing for %v", what, serial, wait)).Wrap(err).WithHint(stalledHint)
	}
	return c.fail(serial, fmt.Sprintf("%s: %v", what, err), err)
}
