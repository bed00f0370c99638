package adb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// step is one line of a transcript: bytes the client must send (C) or
// bytes the server answers (S).
type step struct {
	client bool
	data   []byte
}

func readTranscript(t *testing.T, name string) []step {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []step
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		who, text, ok := strings.Cut(line, ": ")
		s, err := strconv.Unquote(text)
		if !ok || (who != "C" && who != "S") || err != nil {
			t.Fatalf("%s: bad line %q", name, line)
		}
		steps = append(steps, step{client: who == "C", data: []byte(s)})
	}
	return steps
}

// serveTranscript plays the server's side of a transcript on one
// connection: each C step must arrive byte for byte. It reports the first
// difference on the returned channel (nil when the client did exactly
// what the transcript says).
func serveTranscript(t *testing.T, steps []step) (addr string, done <-chan error) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ch := make(chan error, 1)
	go func() {
		ch <- func() error {
			c, err := l.Accept()
			if err != nil {
				return err
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			for i, s := range steps {
				if !s.client {
					if _, err := c.Write(s.data); err != nil {
						return err
					}
					continue
				}
				got := make([]byte, len(s.data))
				if _, err := io.ReadFull(c, got); err != nil {
					return errors.New("step " + strconv.Itoa(i) + ": client sent too little: " + strconv.Quote(string(got)) + ": " + err.Error())
				}
				if !bytes.Equal(got, s.data) {
					return errors.New("step " + strconv.Itoa(i) + ": client sent " + strconv.Quote(string(got)) + ", transcript says " + strconv.Quote(string(s.data)))
				}
			}
			return nil
		}()
	}()
	return l.Addr().String(), ch
}

func checkServed(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the transcript did not finish")
	}
}

func TestShellV2Transcript(t *testing.T) {
	addr, done := serveTranscript(t, readTranscript(t, "shell-v2-exit.txt"))
	res, err := New(addr).Shell(context.Background(), "emulator-5554", "sh", "-c", "echo out; echo err >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, done)
	if string(res.Stdout) != "out\n" || string(res.Stderr) != "err\n" || res.ExitCode != 3 {
		t.Fatalf("got stdout %q stderr %q exit %d", res.Stdout, res.Stderr, res.ExitCode)
	}
}

func TestDevicesTranscript(t *testing.T) {
	addr, done := serveTranscript(t, readTranscript(t, "devices-l.txt"))
	got, err := New(addr).Devices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, done)
	want := []DeviceEntry{
		{Serial: "emulator-5554", State: "device", Product: "sdk_gphone64_x86_64", Model: "sdk_gphone64_x86_64", Device: "emu64xa", TransportID: "1"},
		{Serial: "0A1B2C3D", State: "unauthorized", TransportID: "2"},
		{Serial: "127.0.0.1:5585", State: "offline", TransportID: "3"},
		{Serial: "R58M12345", State: "no permissions", TransportID: "4"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d devices, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("device %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if !got[0].Online() || got[1].Online() {
		t.Error("only a device in state device is online")
	}
}

func TestForwardTranscript(t *testing.T) {
	addr, done := serveTranscript(t, readTranscript(t, "forward-tcp0.txt"))
	local, err := New(addr).Forward(context.Background(), "emulator-5554", "tcp:0", "localabstract:flow-helper")
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, done)
	if local != "tcp:41234" {
		t.Fatalf("local = %q, want the port the server picked", local)
	}
}

func TestUnauthorizedTranscript(t *testing.T) {
	addr, done := serveTranscript(t, readTranscript(t, "transport-unauthorized.txt"))
	_, err := New(addr).Shell(context.Background(), "0A1B2C3D", "true")
	checkServed(t, done)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable {
		t.Fatalf("want DEVICE_UNAVAILABLE, got %v", err)
	}
	if !strings.Contains(ce.Message, "device unauthorized") || !strings.Contains(ce.Hint, "Allow USB debugging") || ce.Details["serial"] != "0A1B2C3D" {
		t.Fatalf("the error must quote the server, name the serial and say how to authorize: %+v", ce)
	}
}

func TestInstallTranscript(t *testing.T) {
	addr, done := serveTranscript(t, readTranscript(t, "install-streamed.txt"))
	res, err := New(addr).Install(context.Background(), "emulator-5554", strings.NewReader("APK!!"), 5, "-r")
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, done)
	if res.ExitCode == 0 || !strings.Contains(string(res.Stdout), "INSTALL_FAILED_UPDATE_INCOMPATIBLE") {
		t.Fatalf("a Failure verdict must be a non-zero result carrying the verdict: %+v", res)
	}
}
