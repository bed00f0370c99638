// Package adbtest connects a fake device (internal/fakeandroid/adbd) to
// a real adb server of the test's own: its own port and its own HOME
// (adb keeps its key in $HOME/.android), never the user's server. Tests
// that use it skip when adb is not installed, and fail instead under
// FLOW_REQUIRE_ADB=1, which .ci/run sets.
package adbtest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
)

// Device is a fake device the test's adb server has connected.
type Device struct {
	// Serial is the device's serial as adb lists it (127.0.0.1:PORT).
	Serial string
	// ServerPort is the adb server's port (ANDROID_ADB_SERVER_PORT).
	ServerPort int
	// ADB is the adb binary.
	ADB string
	// Env is the environment adb runs with: HOME and
	// ANDROID_ADB_SERVER_PORT set for this server.
	Env []string
	// FS is the device's file system.
	FS *adbd.MemFS
}

// ServerAddr is the adb server's address for exec/android/adb.
func (d *Device) ServerAddr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(d.ServerPort))
}

// Getenv answers ANDROID_ADB_SERVER_PORT and HOME as Env sets them.
func (d *Device) Getenv(key string) string {
	for _, kv := range d.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// ADBCommand is `adb -P PORT -s SERIAL args...` with the test's env.
func (d *Device) ADBCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, d.ADB, append([]string{"-P", strconv.Itoa(d.ServerPort), "-s", d.Serial}, args...)...)
	cmd.Env = d.Env
	return cmd
}

// RequireADB returns the adb binary's path, or skips the test (fails it
// under FLOW_REQUIRE_ADB=1).
func RequireADB(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("adb")
	if err != nil {
		if os.Getenv("FLOW_REQUIRE_ADB") == "1" {
			t.Fatal("adb is not on PATH and FLOW_REQUIRE_ADB=1: install it (Debian: apt-get install adb)")
		}
		t.Skip("adb is not on PATH: tests through the real adb server need it (Debian: apt-get install adb); FLOW_REQUIRE_ADB=1 makes this a failure")
	}
	return bin
}

// Start serves h as a device on 127.0.0.1, starts an adb server on a free
// port with a temporary HOME, connects the device and waits until adb
// lists it as "device". Everything is stopped at the test's cleanup.
func Start(t testing.TB, h adbd.Handler, o adbd.Options) *Device {
	t.Helper()
	RequireADB(t)
	addr, fs := serve(t, h, o)
	d := Connect(t, addr)
	d.FS = fs
	return d
}

// serve runs a fake device on a free local port until the test ends.
func serve(t testing.TB, h adbd.Handler, o adbd.Options) (string, *adbd.MemFS) {
	t.Helper()
	if o.FS == nil {
		o.FS = adbd.NewMemFS()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		adbd.Serve(ctx, l, h, o)
	}()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return l.Addr().String(), o.FS
}

// Connect starts an adb server of the test's own and connects it to a
// device already listening at addr (a fake started another way, such as
// `go run ./internal/fakeandroid`), waiting until adb lists it as
// "device". The server is stopped at the test's cleanup, before the
// cleanups registered earlier (the device's) run.
func Connect(t testing.TB, addr string) *Device {
	t.Helper()
	bin := RequireADB(t)
	port := freePort(t)
	d := &Device{
		Serial:     addr,
		ServerPort: port,
		ADB:        bin,
		Env:        append(os.Environ(), "HOME="+t.TempDir(), "ANDROID_ADB_SERVER_PORT="+strconv.Itoa(port)),
	}
	t.Cleanup(func() { d.adb("kill-server") })
	if out, err := d.adb("start-server"); err != nil {
		t.Fatalf("adb start-server on port %d: %v\n%s", port, err, out)
	}
	d.attach(t, addr)
	return d
}

// Add serves h as one more device on the same adb server as d (for
// tests of runs over several devices) and waits until it is "device".
func (d *Device) Add(t testing.TB, h adbd.Handler, o adbd.Options) *Device {
	t.Helper()
	addr, fs := serve(t, h, o)
	other := *d
	other.Serial, other.FS = addr, fs
	d.attach(t, addr)
	return &other
}

// adb runs `adb -P PORT args...` against the test's server.
func (d *Device) adb(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.ADB, append([]string{"-P", strconv.Itoa(d.ServerPort)}, args...)...)
	cmd.Env = d.Env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// attach connects the server to the device at addr and waits until it is
// "device" (adb connect returns before the handshake ends); the device is
// disconnected at the test's cleanup.
func (d *Device) attach(t testing.TB, addr string) {
	t.Helper()
	if out, err := d.adb("connect", addr); err != nil || !strings.Contains(out, "connected to") {
		t.Fatalf("adb connect %s: %v\n%s", addr, err, out)
	}
	t.Cleanup(func() { d.adb("disconnect", addr) })
	deadline := time.Now().Add(15 * time.Second)
	for {
		out, _ := d.adb("-s", addr, "get-state")
		if strings.TrimSpace(out) == "device" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the device %s never became \"device\" (last: %q)", addr, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
