package adb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"
)

// startTimeout bounds `adb start-server`, which waits for the server's
// device scan (a few seconds with many USB devices).
const startTimeout = 20 * time.Second

// EnsureServer starts the adb server when nothing listens at the
// client's address and adb is on PATH (lookPath finds it), as Maestro
// does before it lists devices. The server is started on the client's
// port, so a user's ANDROID_ADB_SERVER_PORT is kept. A server that
// listens but does not answer is an error with the hint to restart it:
// `adb start-server` would only wait on it too.
func (c *Client) EnsureServer(ctx context.Context, lookPath func(string) (string, error)) error {
	_, verr := c.Version(ctx)
	if verr == nil {
		return nil
	} else if ctx.Err() != nil {
		return interrupted(ctx, "")
	} else if de := (*dialError)(nil); !errors.As(verr, &de) {
		return verr
	}
	if !c.IsLocal() {
		return c.unreachable("", verr).
			WithHint("start the adb server on that machine (adb -a nodaemon server listens on every interface), or check --host/--port and ADB_SERVER_SOCKET; flow starts servers on this machine only, as adb does")
	}
	_, port, err := net.SplitHostPort(c.addr)
	if err != nil {
		return c.fail("", fmt.Sprintf("the adb server address %q is not host:port", c.addr), err)
	}
	bin, lerr := lookPath("adb")
	if lerr != nil {
		return c.base("", "no adb server is running at "+c.addr+" and adb is not on PATH").Wrap(lerr).
			WithHint("install Android's platform tools (Debian: apt-get install adb) or start your adb server and set ANDROID_ADB_SERVER_PORT to its port")
	}
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	cmd := exec.CommandContext(sctx, bin, "-P", port, "start-server")
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return interrupted(ctx, "")
	}
	if err != nil {
		return c.base("", fmt.Sprintf("`adb -P %s start-server` failed: %s", port, firstLine(string(out), err))).Wrap(err).
			WithHint("run it yourself to see why; another program may hold port " + port)
	}
	if _, err := c.Version(ctx); err != nil {
		return err
	}
	return nil
}

func firstLine(out string, err error) string {
	out = strings.TrimSpace(out)
	if out == "" {
		return err.Error()
	}
	l, _, _ := strings.Cut(out, "\n")
	return l
}
