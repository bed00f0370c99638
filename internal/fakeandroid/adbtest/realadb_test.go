package adbtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec/android/adb"
	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
)

// phone is a small handler: a shell that knows "echo WORD", "exit N"
// and "getprop ro.product.model" (joined by ";"), an exec: that sends all
// 256 byte values, and an echo server behind localabstract:flow-helper.
type phone struct{ model string }

func (p phone) Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := 0
	for _, part := range strings.Split(cmd, ";") {
		f := strings.Fields(part)
		switch {
		case len(f) == 2 && f[0] == "echo":
			io.WriteString(stdout, f[1]+"\n")
		case len(f) == 2 && f[0] == "warn":
			io.WriteString(stderr, f[1]+"\n")
		case len(f) == 2 && f[0] == "exit":
			code = int(f[1][0] - '0')
		case len(f) == 2 && f[0] == "getprop" && f[1] == "ro.product.model":
			io.WriteString(stdout, p.model+"\n")
		case len(f) == 0:
		default:
			io.WriteString(stderr, "sh: "+f[0]+": not found\n")
			return 127
		}
	}
	return code
}

func (phone) Exec(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) int {
	if strings.HasPrefix(cmd, "cmd package install") {
		// The package manager reads the -S bytes, then gives its verdict
		// (wording: AOSP PackageManagerShellCommand).
		io.CopyN(io.Discard, stdin, 10)
		io.WriteString(stdout, "Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl1.tmp/base.apk]\n")
		return 1
	}
	b := make([]byte, 256*1024)
	for i := range b {
		b[i] = byte(i)
	}
	stdout.Write(b)
	return 0
}

func (phone) Open(ctx context.Context, service string) (io.ReadWriteCloser, error) {
	if service != "localabstract:flow-helper" {
		return nil, errors.New("connection refused")
	}
	a, b := net.Pipe()
	go func() {
		defer b.Close()
		io.Copy(b, b)
	}()
	return a, nil
}

// small maxdata makes every transfer below cross many WRTEs.
var opts = adbd.Options{MaxData: 4096, Props: map[string]string{"ro.product.model": "Pixel_Fake"}}

// TestRealADBAcceptsTheFake drives the fake through Debian's adb client
// and server: everything a user types at a phone.
func TestRealADBAcceptsTheFake(t *testing.T) {
	d := Start(t, phone{model: "Pixel_Fake"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run := func(args ...string) (string, string, int) {
		cmd := d.ADBCommand(ctx, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("adb %v: %v", args, err)
		}
		return out.String(), errb.String(), code
	}
	if out, errs, code := run("shell", "echo hi; warn oops; exit 3"); out != "hi\n" || errs != "oops\n" || code != 3 {
		t.Errorf("shell v2: stdout %q stderr %q exit %d; want hi, oops, 3", out, errs, code)
	}
	if out, _, _ := run("shell", "getprop ro.product.model"); out != "Pixel_Fake\n" {
		t.Errorf("getprop: %q", out)
	}
	out, _, _ := run("exec-out", "bytes")
	if len(out) != 256*1024 || out[255] != 255 || out[256] != 0 || out[13] != 13 {
		t.Errorf("exec-out changed the bytes: %d bytes", len(out))
	}
	list := exec.Command(d.ADB, "-P", d.Getenv("ANDROID_ADB_SERVER_PORT"), "devices", "-l")
	list.Env = d.Env
	if b, _ := list.Output(); !strings.Contains(string(b), d.Serial) || !strings.Contains(string(b), "model:Pixel_Fake") {
		t.Errorf("adb devices -l must list the fake with its model:\n%s", b)
	}

	dir := t.TempDir()
	big := make([]byte, 1<<20)
	rand.Read(big)
	src, back := filepath.Join(dir, "big.bin"), filepath.Join(dir, "back.bin")
	os.WriteFile(src, big, 0o644)
	if _, errs, code := run("push", src, "/data/local/tmp/big.bin"); code != 0 {
		t.Fatalf("push: %s", errs)
	}
	if got, err := d.FS.ReadFile("/data/local/tmp/big.bin"); err != nil || !bytes.Equal(got, big) {
		t.Fatalf("the pushed file differs on the device (%d bytes, %v)", len(got), err)
	}
	if _, errs, code := run("pull", "/data/local/tmp/big.bin", back); code != 0 {
		t.Fatalf("pull: %s", errs)
	}
	if got, _ := os.ReadFile(back); !bytes.Equal(got, big) {
		t.Fatal("push then pull did not round-trip 1 MiB")
	}
}

// TestClientThroughRealServer drives the fake through our own client
// (exec/android/adb) and the real server: what flow does.
func TestClientThroughRealServer(t *testing.T) {
	d := Start(t, phone{model: "Pixel_Fake"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := adb.New(d.ServerAddr())

	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 1 || devs[0].Serial != d.Serial || !devs[0].Online() || devs[0].Model != "Pixel_Fake" {
		t.Fatalf("devices: %+v %v", devs, err)
	}
	res, err := c.Shell(ctx, d.Serial, "sh", "-c", "echo hi; warn oops; exit 4")
	if err != nil {
		t.Fatal(err)
	}
	// The fake's shell is simple: it sees the quoted line as adbd would.
	if res.ExitCode != 127 || !strings.Contains(string(res.Stderr), "not found") {
		t.Fatalf("a quoted sh -c reaches the device quoted: %+v", res)
	}
	res, err = c.Shell(ctx, d.Serial, "echo", "hi")
	if err != nil || string(res.Stdout) != "hi\n" || res.ExitCode != 0 {
		t.Fatalf("shell: %+v %v", res, err)
	}
	out, err := c.Exec(ctx, d.Serial, "bytes")
	if err != nil || len(out) != 256*1024 || out[255] != 255 {
		t.Fatalf("exec: %d bytes, %v", len(out), err)
	}
	payload := bytes.Repeat([]byte("flow"), 50000)
	if err := c.Push(ctx, d.Serial, bytes.NewReader(payload), "/sdcard/DCIM/Camera/x.bin", 0o644); err != nil {
		t.Fatal(err)
	}
	var pulled bytes.Buffer
	if err := c.Pull(ctx, d.Serial, "/sdcard/DCIM/Camera/x.bin", &pulled); err != nil || !bytes.Equal(pulled.Bytes(), payload) {
		t.Fatalf("push/pull: %d bytes back, %v", pulled.Len(), err)
	}
	local, err := c.Forward(ctx, d.Serial, "tcp:0", "localabstract:flow-helper")
	if err != nil || !strings.HasPrefix(local, "tcp:") || local == "tcp:0" {
		t.Fatalf("forward: %q %v", local, err)
	}
	conn, err := net.Dial("tcp", "127.0.0.1:"+strings.TrimPrefix(local, "tcp:"))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	conn.Write([]byte(`{"id":1,"op":"hello"}` + "\n"))
	line := make([]byte, 22)
	if _, err := io.ReadFull(conn, line); err != nil || string(line) != `{"id":1,"op":"hello"}`+"\n" {
		t.Fatalf("the forward must reach the device socket and back: %q %v", line, err)
	}
	conn.Close()
	if err := c.KillForward(ctx, d.Serial, local); err != nil {
		t.Fatal(err)
	}
	if err := c.KillForward(ctx, d.Serial, local); err == nil {
		t.Fatal("killing a forward twice must fail")
	}
	res, err = c.Install(ctx, d.Serial, strings.NewReader("not an apk"), 10)
	if err != nil || res.ExitCode == 0 || !strings.Contains(string(res.Stdout), "INSTALL_PARSE_FAILED_NOT_APK") {
		t.Fatalf("an install the device does not confirm with Success is a failed result: %+v %v", res, err)
	}
}
