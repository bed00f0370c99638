package adb

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestRealServer runs the client against Debian's adb server, started by
// EnsureServer on a port of its own with a HOME of its own (adb keeps its
// key in $HOME/.android), never the user's server.
func TestRealServer(t *testing.T) {
	bin := adbtest.RequireADB(t)
	t.Setenv("HOME", t.TempDir())
	port := strconv.Itoa(freePort(t))
	t.Cleanup(func() { exec.Command(bin, "-P", port, "kill-server").Run() })
	c := New(net.JoinHostPort("127.0.0.1", port))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	if _, err := c.Version(ctx); err == nil {
		t.Fatalf("a server already answers on the fresh port %s", port)
	}
	if err := c.EnsureServer(ctx, exec.LookPath); err != nil {
		t.Fatal(err)
	}
	v, err := c.Version(ctx)
	if err != nil || v < 31 {
		t.Fatalf("version %d, %v (adb 29 reports 41)", v, err)
	}
	if err := c.EnsureServer(ctx, func(string) (string, error) {
		t.Fatal("a running server must not be started again")
		return "", nil
	}); err != nil {
		t.Fatal(err)
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 0 {
		t.Fatalf("a fresh server with its own HOME lists no device: %+v %v", devs, err)
	}
	for name, call := range map[string]func() error{
		"shell":   func() error { _, err := c.Shell(ctx, "flow-no-such-device", "true"); return err },
		"exec":    func() error { _, err := c.Exec(ctx, "flow-no-such-device", "true"); return err },
		"forward": func() error { _, err := c.Forward(ctx, "flow-no-such-device", "tcp:0", "localabstract:x"); return err },
		"pull":    func() error { return c.Pull(ctx, "flow-no-such-device", "/x", nil) },
	} {
		ce, ok := canonical.AsError(call())
		if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Details["serial"] != "flow-no-such-device" ||
			!strings.Contains(ce.Message, "not found") || !strings.Contains(ce.Hint, "adb devices") {
			t.Errorf("%s on a missing device: want DEVICE_UNAVAILABLE quoting the server's \"not found\", naming the serial, with a hint; got %+v", name, ce)
		}
	}
}

func TestEnsureServerWithoutADB(t *testing.T) {
	c := New(net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t))))
	err := c.EnsureServer(context.Background(), func(string) (string, error) { return "", exec.ErrNotFound })
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "adb is not on PATH") || !strings.Contains(ce.Hint, "ANDROID_ADB_SERVER_PORT") {
		t.Fatalf("want DEVICE_UNAVAILABLE saying adb is missing, got %v", err)
	}
}
