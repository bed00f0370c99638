package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestServerAddr: the server is found as adb's own client finds it (AOSP
// adb/client/commandline.cpp, adb_commandline): ADB_SERVER_SOCKET first,
// tcp:PORT or tcp:HOST:PORT; else ANDROID_ADB_SERVER_ADDRESS and
// ANDROID_ADB_SERVER_PORT; a socket this client cannot reach is refused.
func TestServerAddr(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string // "" wants INVALID_ARGS
	}{
		{map[string]string{}, "127.0.0.1:5037"},
		{map[string]string{"ANDROID_ADB_SERVER_PORT": "15037"}, "127.0.0.1:15037"},
		{map[string]string{"ANDROID_ADB_SERVER_ADDRESS": "10.0.2.2", "ANDROID_ADB_SERVER_PORT": "15037"}, "10.0.2.2:15037"},
		{map[string]string{"ADB_SERVER_SOCKET": "tcp:172.20.0.1:5037", "ANDROID_ADB_SERVER_PORT": "15037"}, "172.20.0.1:5037"},
		{map[string]string{"ADB_SERVER_SOCKET": "tcp:15038"}, "127.0.0.1:15038"},
		{map[string]string{"ADB_SERVER_SOCKET": "tcp:[::1]:15038"}, "[::1]:15038"},
		{map[string]string{"ADB_SERVER_SOCKET": "localabstract:adb"}, ""},
		{map[string]string{"ADB_SERVER_SOCKET": "tcp:host:port"}, ""},
		{map[string]string{"ANDROID_ADB_SERVER_PORT": "70000"}, ""},
	}
	for _, c := range cases {
		got, err := ServerAddr(func(k string) string { return c.env[k] })
		if c.want == "" {
			if canonical.CodeOf(err) != canonical.CodeInvalidArgs {
				t.Errorf("%v: got %q, %v; want INVALID_ARGS", c.env, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: got %q, %v; want %s", c.env, got, err, c.want)
		}
	}
}

// TestEnsureServerRemote: nothing listens at a remote address; flow must
// not start a local server in its place (adb: "cannot start server on
// remote host", AOSP adb/client/adb_client.cpp), whatever adb is on PATH.
func TestEnsureServerRemote(t *testing.T) {
	c := New("192.0.2.1:5037") // TEST-NET-1 (RFC 5737): nothing answers
	c.dial = func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}
	started := false
	err := c.EnsureServer(context.Background(), func(string) (string, error) { started = true; return "/bin/false", nil })
	if started || canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || !strings.Contains(err.Error(), "192.0.2.1:5037") {
		t.Fatalf("started=%v err=%v; want DEVICE_UNAVAILABLE naming the address, adb never looked up", started, err)
	}
	if !New("localhost:1").IsLocal() || !New("[::1]:1").IsLocal() || New("10.0.0.1:5037").IsLocal() {
		t.Fatal("IsLocal: loopback names and addresses only")
	}
}

// TestQuoteSurvivesTheShell runs each quoted word through a real POSIX sh
// (the device's mksh quotes the same way) and checks it arrives whole.
func TestQuoteSurvivesTheShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to check quoting against")
	}
	words := []string{"", "plain", "two words", "it's", `"dq"`, "$HOME", "`id`", "a;b&&c|d", "*?[x]", "back\\slash", "new\nline", "ünïcödé 🙂", "--flag=v,1", "'", "''"}
	line := commandLine(append([]string{"printf", `%s\0`}, words...))
	out, err := exec.Command(sh, "-c", line).Output()
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(words) {
		t.Fatalf("%d words came back from %s, want %d: %q", len(got), line, len(words), got)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: sent %q, the shell saw %q (line %s)", i, words[i], got[i], line)
		}
	}
	if Quote("pm") != "pm" || Quote("dev.flow.helper/.FlowInstrumentation") != "dev.flow.helper/.FlowInstrumentation" {
		t.Error("safe words are sent as they are, as adb users type them")
	}
}

func TestUnreachableServer(t *testing.T) {
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err := New(addr).Devices(context.Background())
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "not running") || !strings.Contains(ce.Hint, "start-server") {
		t.Fatalf("want DEVICE_UNAVAILABLE saying the server is not running, got %v", err)
	}
}

// silentServer accepts connections, answers OKAY to everything and then
// says nothing more.
func silentServer(t *testing.T, reply []byte) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write(reply)
				buf := make([]byte, 4096)
				for {
					if _, err := c.Read(buf); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

func TestCancelStopsAHangingCommand(t *testing.T) {
	addr := silentServer(t, []byte("OKAYOKAY"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := New(addr).Shell(ctx, "emulator-5554", "sleep", "1000")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancel took %s", d)
	}
}

func TestStreamWithoutExitCodeIsAnError(t *testing.T) {
	var reply bytes.Buffer
	reply.WriteString("OKAYOKAY")
	reply.Write([]byte{idStdout, 3, 0, 0, 0})
	reply.WriteString("abc")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err == nil {
			c.Write(reply.Bytes())
			// Read what the client sent (its requests and close-stdin) so
			// closing is a clean end, not a reset.
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			io.Copy(io.Discard, c)
			c.Close() // the device went away before the exit packet
		}
	}()
	_, err = New(l.Addr().String()).Shell(context.Background(), "emulator-5554", "am", "instrument")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, "without an exit code") || ce.Details["serial"] != "emulator-5554" {
		t.Fatalf("want DEVICE_UNAVAILABLE naming the serial, got %v", err)
	}
}

func TestOversizedPacketIsRefused(t *testing.T) {
	var reply bytes.Buffer
	reply.WriteString("OKAYOKAY")
	hdr := []byte{idStdout, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(hdr[1:], 0xfffffff0)
	reply.Write(hdr)
	addr := silentServer(t, reply.Bytes())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := New(addr).Shell(ctx, "emulator-5554", "true")
	if ce, ok := canonical.AsError(err); !ok || !strings.Contains(ce.Message, "exceeds") {
		t.Fatalf("a 4 GiB packet must be refused, not allocated: %v", err)
	}
}

func TestStreamDeliversOutputAsItArrives(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	release := make(chan struct{})
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte("OKAYOKAY"))
		c.Write(append([]byte{idStdout, 32, 0, 0, 0}, "INSTRUMENTATION_STATUS: ready=1\n"...))
		<-release
		c.Write([]byte{idExit, 1, 0, 0, 0, 0})
	}()
	s, err := New(l.Addr().String()).StartShell(context.Background(), "emulator-5554", "am", "instrument", "-w", "-r", "x/.Y")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32)
	if _, err := s.Stdout().Read(buf); err != nil || !strings.HasPrefix(string(buf), "INSTRUMENTATION_STATUS") {
		t.Fatalf("the first line must be readable while the command runs: %q %v", buf, err)
	}
	select {
	case <-s.Done():
		t.Fatal("the stream ended before the command exited")
	default:
	}
	close(release)
	if code, err := s.Wait(); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
}

func FuzzShellV2Packets(f *testing.F) {
	f.Add([]byte{idStdout, 2, 0, 0, 0, 'h', 'i', idExit, 1, 0, 0, 0, 7})
	f.Add([]byte{idStderr, 0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte{idExit, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var total int
		err := readPackets(bytes.NewReader(data), func(id byte, p []byte) (bool, error) {
			total += 5 + len(p)
			return id == idExit, nil
		})
		if total > len(data) {
			t.Fatalf("read %d bytes of packets from %d bytes", total, len(data))
		}
		if err == nil && total == 0 && len(data) >= 5 {
			t.Fatalf("a complete header was not reported as a packet or an error")
		}
	})
}
