package android

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/android/adb"
)

// scriptedPhone is a transport whose shell answers come from a table
// (outputs as Android prints them: AOSP PackageManagerShellCommand,
// ActivityManagerShellCommand, and the fixtures of
// internal/fakeandroid/phone/testdata) and whose helper is a minimal
// flow-helper-v1 server. It logs every shell command line.
type scriptedPhone struct {
	mu       sync.Mutex
	log      []string
	state    string // adb device state
	sdk      string
	version  string // installed helper's versionCode, "" = not installed
	apk      []byte // installed helper bytes
	install  []string
	ready    bool // am instrument prints the ready block
	dropAt   int  // the helper drops its connection on request dropAt (0 = never)
	dropAll  bool // the helper drops its connection on every request but hello
	requests int
	touches  []json.RawMessage
	sockets  map[string]net.Listener
	// lock is the target of /data/local/tmp/flow-helper.lock ("" = no
	// link); helperPid is what pidof prints ("" = not running).
	lock, helperPid string
	// manufacturer answers getprop ro.product.manufacturer ("" = unset);
	// refuseTouch makes every touch fail with refusal (a helper answer).
	manufacturer, refuseTouch string
	// installErr is what Install fails with (nil: it answers).
	installErr error
	// hang: the helper reads requests and never answers them; stalled:
	// the link is open and silent (pings get no answer, the shell waits
	// for ever); blockShell: only the shell waits for ever.
	hang, stalled, blockShell bool
	// startOut, when set, is all am instrument prints before it ends (a
	// helper that could not start); unplugAt > 0: the helper answers
	// request unplugAt (and every later one when unplugAll) with the
	// DEVICE_UNAVAILABLE of a disconnected UiAutomation and ends;
	// black: screenshots are all black.
	startOut         string
	unplugAt         int
	unplugAll, black bool
}

func newPhone() *scriptedPhone {
	return &scriptedPhone{state: "device", sdk: "34", ready: true, sockets: map[string]net.Listener{}}
}

func (p *scriptedPhone) record(argv []string) string {
	line := strings.Join(argv, " ")
	p.mu.Lock()
	p.log = append(p.log, line)
	p.mu.Unlock()
	return line
}

func (p *scriptedPhone) Devices(ctx context.Context) ([]adb.DeviceEntry, error) {
	return []adb.DeviceEntry{{Serial: "emulator-5554", State: p.state, Model: "sdk_gphone64_x86_64"}, {Serial: "R58M1", State: "device"}}, nil
}

// Ping answers as adb.Client.Ping does: at once on a live link; on a
// stalled one, after its deadline (here 100 ms), an error wrapping the
// deadline.
func (p *scriptedPhone) Ping(ctx context.Context, serial string) error {
	p.mu.Lock()
	stalled := p.stalled
	p.mu.Unlock()
	if !stalled {
		return nil
	}
	select {
	case <-ctx.Done():
		return canonical.Interrupted(ctx.Err())
	case <-time.After(100 * time.Millisecond):
		return canonical.NewError(canonical.CodeDeviceUnavailable, serial+" did not answer adb within 10s (sync:)").
			Wrap(os.ErrDeadlineExceeded).WithHint("reconnect the device")
	}
}

func (p *scriptedPhone) Shell(ctx context.Context, serial string, argv ...string) (shellResult, error) {
	line := p.record(argv)
	p.mu.Lock()
	block := p.stalled || p.blockShell
	p.mu.Unlock()
	if block {
		<-ctx.Done()
		return shellResult{}, canonical.Interrupted(ctx.Err())
	}
	ok := func(out string) (shellResult, error) { return shellResult{Stdout: []byte(out)}, nil }
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	// toybox ln -s: symlink(2) fails with EEXIST when the link exists
	// (toys/posix/ln.c perror_msg "cannot create symbolic link").
	case len(argv) == 4 && argv[0] == "ln" && argv[1] == "-s" && argv[3] == lockPath:
		if p.lock != "" {
			return shellResult{Stderr: []byte("ln: cannot create symbolic link from '" + argv[2] + "' to '" + lockPath + "': File exists\n"), ExitCode: 1}, nil
		}
		p.lock = argv[2]
		return ok("")
	// toybox readlink: the target, or exit 1 and nothing for no link.
	case line == "readlink "+lockPath:
		if p.lock == "" {
			return shellResult{ExitCode: 1}, nil
		}
		return ok(p.lock + "\n")
	case line == "rm -f "+lockPath:
		p.lock = ""
		return ok("")
	// toybox pidof: the pids, or exit 1 when none.
	case line == "pidof dev.flow.helper":
		if p.helperPid == "" {
			return shellResult{ExitCode: 1}, nil
		}
		return ok(p.helperPid + "\n")
	case line == "getprop ro.build.version.sdk":
		return ok(p.sdk + "\n")
	case line == "getprop ro.product.manufacturer":
		return ok(p.manufacturer + "\n")
	case line == "cmd package list packages --show-versioncode dev.flow.helper":
		if p.version == "" {
			return ok("")
		}
		return ok("package:dev.flow.helper versionCode:" + p.version + "\n")
	case line == "pm path dev.flow.helper":
		if p.version == "" {
			return shellResult{ExitCode: 1}, nil
		}
		return ok("package:/data/app/~~x==/dev.flow.helper-1/base.apk\n")
	case strings.HasPrefix(line, "pm uninstall"):
		p.version, p.apk = "", nil
		return ok("Success\n")
	case strings.HasPrefix(line, "pm clear"), strings.HasPrefix(line, "pm grant"), strings.HasPrefix(line, "pm revoke"),
		strings.HasPrefix(line, "appops"), strings.HasPrefix(line, "am force-stop"), strings.HasPrefix(line, "am kill"):
		if strings.HasPrefix(line, "pm clear") {
			return ok("Success\n")
		}
		return ok("")
	}
	return shellResult{Stderr: []byte("/system/bin/sh: " + argv[0] + ": not found\n"), ExitCode: 127}, nil
}

func (p *scriptedPhone) Exec(ctx context.Context, serial string, argv ...string) ([]byte, error) {
	p.record(argv)
	return nil, errors.New("exec not scripted")
}

func (p *scriptedPhone) Install(ctx context.Context, serial string, apk io.Reader, size int64, args ...string) (shellResult, error) {
	p.record(append([]string{"install"}, args...))
	b, _ := io.ReadAll(apk)
	if p.installErr != nil {
		return shellResult{}, p.installErr
	}
	if len(p.install) > 0 {
		verdict := p.install[0]
		p.install = p.install[1:]
		if verdict != "Success" {
			return shellResult{Stdout: []byte(verdict + "\n"), ExitCode: 1}, nil
		}
	}
	p.apk, p.version = b, "1"
	return shellResult{Stdout: []byte("Success\n")}, nil
}

func (p *scriptedPhone) Pull(ctx context.Context, serial, remote string, w io.Writer) error {
	p.record([]string{"pull", remote})
	_, err := w.Write(p.apk)
	return err
}

func (p *scriptedPhone) Forward(ctx context.Context, serial, local, remote string) (string, error) {
	p.record([]string{"forward", local, remote})
	p.mu.Lock()
	l := p.sockets[strings.TrimPrefix(remote, "localabstract:")]
	p.mu.Unlock()
	if l == nil {
		return "", canonical.NewError(canonical.CodeDeviceUnavailable, "no such socket")
	}
	return "tcp:" + strings.TrimPrefix(l.Addr().String(), "127.0.0.1:"), nil
}

func (p *scriptedPhone) KillForward(ctx context.Context, serial, local string) error {
	p.record([]string{"killforward"})
	return nil
}

func (p *scriptedPhone) Dial(ctx context.Context, local string) (net.Conn, error) {
	return net.Dial("tcp", "127.0.0.1:"+strings.TrimPrefix(local, "tcp:"))
}

// scriptedStream is a running am instrument.
type scriptedStream struct {
	r    *io.PipeReader
	w    *io.PipeWriter
	done chan struct{}
	once sync.Once
}

func (s *scriptedStream) Stdout() io.Reader { return s.r }
func (s *scriptedStream) Stderr() []byte    { return nil }
func (s *scriptedStream) Wait() (int, error) {
	<-s.done
	return 0, nil
}
func (s *scriptedStream) Close() error {
	s.once.Do(func() { s.w.Close(); close(s.done) })
	return nil
}

func (p *scriptedPhone) StartShell(ctx context.Context, serial string, argv ...string) (shellStream, error) {
	p.record(argv)
	r, w := io.Pipe()
	s := &scriptedStream{r: r, w: w, done: make(chan struct{})}
	if out := p.startOut; out != "" && len(argv) > 1 && argv[1] == "instrument" {
		go func() { w.Write([]byte(out)); s.Close() }()
		return s, nil
	}
	if len(argv) > 5 && argv[0] == "am" && argv[1] == "instrument" && p.ready {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		p.sockets[argv[5]] = l
		p.mu.Unlock()
		go p.serveHelper(l, s)
		go w.Write([]byte("INSTRUMENTATION_STATUS: flowHelper=ready\nINSTRUMENTATION_STATUS: protocol=flow-helper-v1\nINSTRUMENTATION_STATUS: versionCode=1\nINSTRUMENTATION_STATUS: sdk=34\nINSTRUMENTATION_STATUS_CODE: 1\n"))
	}
	return s, nil
}

// serveHelper answers flow-helper-v1 requests with the shapes of
// helper-apk/testdata/wire/session.jsonl.
func (p *scriptedPhone) serveHelper(l net.Listener, s *scriptedStream) {
	c, err := l.Accept()
	if err != nil {
		return
	}
	defer c.Close()
	defer l.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return
		}
		var req map[string]json.RawMessage
		json.Unmarshal(line, &req)
		var id int
		var op string
		json.Unmarshal(req["id"], &id)
		json.Unmarshal(req["op"], &op)
		p.mu.Lock()
		p.requests++
		drop := p.dropAt != 0 && p.requests == p.dropAt || p.dropAll && op != "hello"
		unplug := p.unplugAt != 0 && p.requests == p.unplugAt || p.unplugAll && op != "hello"
		black := p.black
		if op == "touch" {
			p.touches = append(p.touches, req["plan"])
		}
		hang := p.hang || p.stalled
		p.mu.Unlock()
		if hang {
			continue
		}
		if drop {
			s.Close()
			return
		}
		if unplug {
			// helper-apk UiConnection: the answer, then the helper finishes.
			fmt.Fprintf(c, `{"id":%d,"ok":false,"code":"DEVICE_UNAVAILABLE","message":"UiAutomation disconnected","hint":"flow starts a new helper session once per run"}`+"\n", id)
			s.Close()
			return
		}
		var res string
		switch op {
		case "hello":
			res = `"protocol":"flow-helper-v1","versionCode":1,"sdk":34,"display":{"w":1080,"h":2400,"rotation":0,"density":420}`
		case "viewport":
			res = `"x":0,"y":0,"w":1080,"h":2400`
		case "hierarchy", "settle":
			res = `"xml":"<hierarchy rotation=\"0\"><node index=\"0\" text=\"Log in\" resource-id=\"\" class=\"android.widget.Button\" package=\"com.example.shop\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"true\" enabled=\"true\" focusable=\"true\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" visible-to-user=\"true\" bounds=\"[0,0][1080,200]\" hintText=\"\"/></hierarchy>","nodes":1,"truncated":false,"eventSeq":"7","still":true,"opaque":false`
		case "touch":
			if p.refuseTouch != "" {
				fmt.Fprintf(c, "{\"id\":%d,%s}\n", id, p.refuseTouch)
				continue
			}
			res = `"injectedEvents":3,"elapsedMs":50,"lateMs":0`
		case "permissions":
			res = `"requested":["android.permission.CAMERA","android.permission.INTERNET"]`
		case "screenshot":
			fmt.Fprintf(c, `{"id":%d,"ok":true,"black":%v,"bytes":4}`+"\nPNG!", id, black)
			continue
		case "quit":
			fmt.Fprintf(c, `{"id":%d,"ok":true}`+"\n", id)
			s.Close()
			return
		default:
			res = ""
		}
		if res != "" {
			res = "," + res
		}
		fmt.Fprintf(c, `{"id":%d,"ok":true%s}`+"\n", id, res)
	}
}

func testConfig(t *testing.T) Config {
	apk := filepath.Join(t.TempDir(), "helper.apk")
	os.WriteFile(apk, []byte("a helper apk"), 0o644)
	return Config{Serial: "emulator-5554", HelperAPK: apk, HelperVersionCode: 1, ReadyTimeout: 2 * time.Second}
}

func TestOpenInstallsStartsAndCloses(t *testing.T) {
	p := newPhone()
	ctx := context.Background()
	d, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Tap(ctx, canonical.Point{X: 540, Y: 100}); err != nil {
		t.Fatal(err)
	}
	root, err := d.Hierarchy(ctx)
	if err != nil || len(root.Children) == 0 {
		t.Fatalf("hierarchy: %+v %v", root, err)
	}
	// clearKeychain is iOS's: Maestro's Android driver ignores it, and so do we.
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true, ClearKeychain: true}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(ctx); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.log, "\n")
	for _, want := range []string{
		"getprop ro.build.version.sdk",
		"cmd package list packages --show-versioncode dev.flow.helper",
		"install -r",
		"appops set dev.flow.helper android:mock_location allow",
		"am instrument -w -e socket flow-helper-",
		"forward tcp:0 localabstract:flow-helper-",
		"pm grant com.example.shop android.permission.CAMERA",
		"am force-stop com.example.shop",
		"killforward",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q among the commands:\n%s", want, got)
		}
	}
	if strings.Contains(got, "input ") {
		t.Fatalf("flow must never shell out for input:\n%s", got)
	}
	if len(p.touches) != 1 || !bytes.Contains(p.touches[0], []byte(`"durationMs":50`)) || !bytes.Contains(p.touches[0], []byte(`"kind":"swipe"`)) {
		t.Fatalf("a tap is one stationary 50 ms touch plan: %s", p.touches)
	}

	// A second open of the same phone with the same helper installs nothing.
	p.log = nil
	d2, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	d2.Close(ctx)
	if got := strings.Join(p.log, "\n"); strings.Contains(got, "install -r") || !strings.Contains(got, "pull ") {
		t.Fatalf("an installed helper of the same checksum is kept (version, then pm path + pull):\n%s", got)
	}
}

func TestPermissionCommandsAsMaestro(t *testing.T) {
	got := PermissionCommands("app", map[string]string{"all": "deny", "location": "allow", "weird name!": "unset"},
		[]string{"android.permission.CAMERA"})
	want := [][]string{
		{"pm", "revoke", "app", "android.permission.CAMERA"},
		{"pm", "grant", "app", "android.permission.ACCESS_FINE_LOCATION"},
		{"pm", "grant", "app", "android.permission.ACCESS_COARSE_LOCATION"},
		{"pm", "revoke", "app", "weirdname"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

func wantUnavailable(t *testing.T, err error, msg, hint string) {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Message, msg) || !strings.Contains(ce.Hint, hint) || ce.Details["serial"] != "emulator-5554" {
		t.Fatalf("want DEVICE_UNAVAILABLE %q naming the serial, hint %q; got %+v", msg, hint, err)
	}
}

func TestOpenFailuresAreBoundedAndNamed(t *testing.T) {
	ctx := context.Background()
	t.Run("unauthorized", func(t *testing.T) {
		p := newPhone()
		p.state = "unauthorized"
		_, err := open(ctx, testConfig(t), p)
		wantUnavailable(t, err, "unauthorized", "Allow USB debugging")
	})
	t.Run("unknown serial", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Serial = "nope"
		_, err := open(ctx, cfg, newPhone())
		if ce, _ := canonical.AsError(err); ce == nil || !strings.Contains(ce.Hint, "emulator-5554") {
			t.Fatalf("the error must list the attached devices: %v", err)
		}
	})
	t.Run("too old", func(t *testing.T) {
		p := newPhone()
		p.sdk = "23"
		_, err := open(ctx, testConfig(t), p)
		wantUnavailable(t, err, "API 23", "newer")
	})
	t.Run("no helper", func(t *testing.T) {
		cfg := testConfig(t)
		cfg.HelperAPK = ""
		_, err := open(ctx, cfg, newPhone())
		wantUnavailable(t, err, "no flow helper", "--android-helper")
	})
	t.Run("install refused", func(t *testing.T) {
		p := newPhone()
		p.install = []string{"Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]"}
		_, err := open(ctx, testConfig(t), p)
		wantUnavailable(t, err, "INSTALL_FAILED_INSUFFICIENT_STORAGE", "free space")
	})
	t.Run("incompatible update reinstalls", func(t *testing.T) {
		p := newPhone()
		p.install = []string{"Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: signatures do not match]", "Success"}
		d, err := open(ctx, testConfig(t), p)
		if err != nil {
			t.Fatal(err)
		}
		d.Close(ctx)
		if !strings.Contains(strings.Join(p.log, "\n"), "pm uninstall dev.flow.helper") {
			t.Fatalf("an incompatible helper is uninstalled first:\n%s", strings.Join(p.log, "\n"))
		}
	})
	t.Run("never ready", func(t *testing.T) {
		p := newPhone()
		p.ready = false
		cfg := testConfig(t)
		cfg.ReadyTimeout = 300 * time.Millisecond
		start := time.Now()
		_, err := open(ctx, cfg, p)
		wantUnavailable(t, err, "did not report ready", "unlock")
		if time.Since(start) > 10*time.Second {
			t.Fatalf("took %s", time.Since(start))
		}
	})
}

func TestSessionDropRestartsOnceThenFails(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	d, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	p.mu.Lock()
	p.dropAt = p.requests + 1 // the next request is dropped
	p.mu.Unlock()
	// A read survives one drop: the session restarts and the read runs again.
	if _, err := d.Viewport(ctx); err != nil {
		t.Fatalf("one drop must be survived: %v", err)
	}
	p.mu.Lock()
	p.dropAll = true // now every session drops every request
	p.mu.Unlock()
	_, err = d.Viewport(ctx)
	wantUnavailable(t, err, "dropped again", "adb logcat")
	if _, err2 := d.Hierarchy(ctx); err2 == nil {
		t.Fatal("a dead session stays dead")
	}
}

// setPermissions (the current Maestro's, docs.maestro.dev
// reference/commands-available/setpermissions) grants and revokes as
// launchApp's permissions do, and the runtime finds it as an
// exec.PermissionSetter.
func TestSetPermissionsOutsideLaunch(t *testing.T) {
	p := newPhone()
	ctx := context.Background()
	d, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	var ps exec.PermissionSetter = d
	p.log = nil
	if err := ps.SetPermissions(ctx, "com.example.shop", map[string]string{"camera": "allow", "notifications": "deny"}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.log, "\n")
	for _, want := range []string{"pm grant com.example.shop android.permission.CAMERA", "pm revoke com.example.shop android.permission.POST_NOTIFICATIONS"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q among the commands:\n%s", want, got)
		}
	}
	if strings.Contains(got, "am ") {
		t.Errorf("setPermissions must not start or stop the app:\n%s", got)
	}
}
