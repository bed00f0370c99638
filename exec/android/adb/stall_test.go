package adb

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
	"github.com/flow-runner/flow/internal/fakeandroid/adbtest"
)

// within runs call and fails the test when it has not returned after
// limit (the call is left running: on the code this guards against, it
// never returns). It may run on any goroutine.
func within(t *testing.T, limit time.Duration, name string, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Errorf("%s did not return within %s", name, limit)
		return errors.New("no return")
	}
}

func wantCoded(t *testing.T, name string, err error, code canonical.Code, hint string) {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != code || !strings.Contains(ce.Hint, hint) {
		t.Errorf("%s: want %s with a hint saying %q, got %#v", name, code, hint, err)
	}
}

// A server that accepts and never answers ends every request within
// seconds with DEVICE_UNAVAILABLE and the hint to restart it; EnsureServer
// does not run `adb start-server` against it (that would wait on it too).
func TestWedgedServerNeverHangs(t *testing.T) {
	port := adbtest.WedgedServer(t)
	c := New(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	ctx := context.Background()
	calls := map[string]func() error{
		"version": func() error { _, err := c.Version(ctx); return err },
		"devices": func() error { _, err := c.Devices(ctx); return err },
		"shell":   func() error { _, err := c.Shell(ctx, "emulator-5554", "true"); return err },
		"forward": func() error { _, err := c.Forward(ctx, "emulator-5554", "tcp:0", "localabstract:x"); return err },
		"ping":    func() error { return c.Ping(ctx, "emulator-5554") },
		"ensure": func() error {
			return c.EnsureServer(ctx, func(string) (string, error) {
				t.Error("EnsureServer ran adb start-server against a server that listens")
				return "", os.ErrNotExist
			})
		},
	}
	errs := make(chan error, len(calls))
	for name, call := range calls {
		go func() {
			err := within(t, 20*time.Second, name, call)
			wantCoded(t, name, err, canonical.CodeDeviceUnavailable, "adb kill-server")
			errs <- err
		}()
	}
	for range calls {
		<-errs
	}
}

// stallHandler is a device whose shell prints its command line and whose
// exec: reads an install's bytes and gives a verdict.
type stallHandler struct{}

func (stallHandler) Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	io.WriteString(stdout, cmd+"\n")
	if cmd == "wait" {
		<-ctx.Done() // runs until the host closes the stream
	}
	return 0
}

func (stallHandler) Exec(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) int {
	io.Copy(io.Discard, io.LimitReader(stdin, 5))
	io.WriteString(stdout, "Success\n")
	return 0
}

func (stallHandler) Open(ctx context.Context, service string) (io.ReadWriteCloser, error) {
	return nil, errors.New("no sockets")
}

// A device whose link stays open and stops answering, through the real
// adb server: the server still lists it as online, but every request to
// the device itself ends within seconds with DEVICE_UNAVAILABLE saying
// it did not answer, and Ping tells a live link from a stalled one.
// Cancelling the context ends a request as INTERRUPTED, never as the bare
// context error.
func TestStalledDeviceThroughRealServer(t *testing.T) {
	d, relay := adbtest.StartStalling(t, stallHandler{}, adbd.Options{})
	c := New(d.ServerAddr())
	ctx := context.Background()
	if res, err := c.Shell(ctx, d.Serial, "echo", "hi"); err != nil || string(res.Stdout) != "echo hi\n" {
		t.Fatalf("before the stall: %q %v", res.Stdout, err)
	}
	if err := c.Ping(ctx, d.Serial); err != nil {
		t.Fatalf("a live device answers a ping: %v", err)
	}
	relay.Stall()
	calls := map[string]func() error{
		"shell":   func() error { _, err := c.Shell(ctx, d.Serial, "echo", "hi"); return err },
		"exec":    func() error { _, err := c.Exec(ctx, d.Serial, "echo"); return err },
		"stream":  func() error { _, err := c.StartShell(ctx, d.Serial, "am", "instrument"); return err },
		"install": func() error { _, err := c.Install(ctx, d.Serial, strings.NewReader("APK!!"), 5, "-r"); return err },
		"ping":    func() error { return c.Ping(ctx, d.Serial) },
	}
	errs := make(chan error, len(calls))
	for name, call := range calls {
		go func() {
			err := within(t, 30*time.Second, name, call)
			wantCoded(t, name, err, canonical.CodeDeviceUnavailable, "adb reconnect")
			if !errors.Is(err, os.ErrDeadlineExceeded) || !strings.Contains(err.Error(), "did not answer") {
				t.Errorf("%s: the error must say the device did not answer: %v", name, err)
			}
			errs <- err
		}()
	}
	for range calls {
		<-errs
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 1 || !devs[0].Online() {
		t.Fatalf("the server itself still answers, and lists the stalled device as online: %+v %v", devs, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(200*time.Millisecond, cancel)
	err = within(t, 10*time.Second, "cancelled shell", func() error { _, err := c.Shell(cctx, d.Serial, "true"); return err })
	if canonical.CodeOf(err) != canonical.CodeInterrupted || !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request is INTERRUPTED, keeping the context's error: %#v", err)
	}
}

// A stream outlives the context that started it: the helper's `am
// instrument` must keep running after the request that started the
// session; only Close ends it.
func TestStreamOutlivesItsStart(t *testing.T) {
	d, _ := adbtest.StartStalling(t, stallHandler{}, adbd.Options{})
	c := New(d.ServerAddr())
	ctx, cancel := context.WithCancel(context.Background())
	s, err := c.StartShell(ctx, d.Serial, "wait")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-s.Done():
		t.Fatal("the stream ended with the context that started it")
	case <-time.After(500 * time.Millisecond):
	}
	s.Close()
	if _, err := s.Wait(); err == nil {
		t.Fatal("a stream closed before its command exited has no exit code")
	}
}
