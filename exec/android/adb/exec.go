package adb

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	out, err := readCapped(cn, maxExec)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.fail(serial, fmt.Sprintf("reading the output of %s failed: %v", service(cmd), err), err)
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
	if n, err := io.CopyN(cn, apk, size); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, c.fail(serial, fmt.Sprintf("sending the APK failed after %d of %d bytes: %v", n, size, err), err)
	}
	out, err := readCapped(cn, maxReply)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, c.fail(serial, "reading the install verdict failed", err)
	}
	res := Result{Stdout: out, ExitCode: 1}
	if strings.HasPrefix(string(out), "Success") {
		res.ExitCode = 0
	}
	return res, nil
}
