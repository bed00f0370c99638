package android

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Session bounds (helper-apk/PROTOCOL.md "Start and stop"): Maestro's
// 15 s driver start-up bound, and 5 s for the helper to finish after quit.
const (
	readyTimeout = 15 * time.Second
	quitTimeout  = 5 * time.Second
)

// readyLine is the status line the helper's sendStatus prints first
// (am instrument prints a bundle's keys sorted; flowHelper sorts first).
const readyLine = "INSTRUMENTATION_STATUS: flowHelper=ready"

// session is one running helper: the `am instrument` stream that keeps it
// alive (see doc.go: its UiAutomation cannot outlive am), the forward
// to its socket, and the connection.
type session struct {
	stream shellStream
	socket string
	local  string
	h      *helper
	hello  helloReply
	// ended is closed when the instrument stream's output ends.
	ended chan struct{}
	out   *boundedBuffer
}

// boundedBuffer keeps the first 64 KiB of the instrument output for error
// messages; the rest is read and dropped so the stream never stalls.
type boundedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *boundedBuffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) < 64<<10 {
		b.buf = append(b.buf, line...)
		b.buf = append(b.buf, '\n')
	}
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// statusPrefix starts every line of a status block am instrument prints
// for Instrumentation.sendStatus (AOSP am Instrument, its keys sorted);
// statusCodePrefix ends the block.
const (
	statusPrefix     = "INSTRUMENTATION_STATUS: "
	statusCodePrefix = "INSTRUMENTATION_STATUS_CODE: "
)

// helperFailure is the helper's own failed status block (PROTOCOL.md
// "Start and stop"): the cause and the platform's message.
type helperFailure struct {
	cause, message string
}

// startFailure reports whether an instrument output line means the start
// failed (PROTOCOL.md; Maestro treats FAILED/UNABLE the same way).
func startFailure(line string) bool {
	for _, marker := range []string{"INSTRUMENTATION_RESULT:", "INSTRUMENTATION_FAILED:", "FAILED", "Error:", "UNABLE"} {
		if strings.Contains(line, marker) {
			return true
		}
	}
	return false
}

// startSession installs the helper if needed and starts a session:
// appops for mock locations, the instrumentation on a streaming shell,
// its ready line (≤ 15 s), a forward of a free local port to its socket,
// and hello. Whatever fails is DEVICE_UNAVAILABLE naming the serial; what
// was started is undone.
func (d *Device) startSession(ctx context.Context) (*session, error) {
	if err := d.ensureHelper(ctx); err != nil {
		return nil, err
	}
	if err := d.grantStorage(ctx); err != nil {
		return nil, err
	}
	// Maestro's step for setLocation's test provider; a device without
	// appops (or one that refuses) only loses mock locations.
	if _, err := d.t.Shell(ctx, d.serial, "appops", "set", helperPackage, "android:mock_location", "allow"); err != nil {
		return nil, err
	}
	var id [4]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "no randomness for the helper socket name: %v", err).Wrap(err)
	}
	s := &session{socket: "flow-helper-" + hex.EncodeToString(id[:]), ended: make(chan struct{}), out: &boundedBuffer{}}
	stream, err := d.t.StartShell(ctx, d.serial, "am", "instrument", "-w", "-e", "socket", s.socket, helperRunner)
	if err != nil {
		return nil, err
	}
	s.stream = stream
	if err := d.awaitReady(ctx, s); err != nil {
		d.stopSession(s)
		return nil, err
	}
	if err := d.connect(ctx, s); err != nil {
		d.stopSession(s)
		return nil, err
	}
	return s, nil
}

// awaitReady reads the instrument output until the ready line, a failure,
// the end of the stream or the timeout. The reader keeps draining the
// stream after ready, and closes s.ended when the stream ends.
func (d *Device) awaitReady(ctx context.Context, s *session) error {
	ready := make(chan bool, 1)
	var failure *helperFailure
	go func() {
		defer close(s.ended)
		sc := bufio.NewScanner(s.stream.Stdout())
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		decided := false
		block := map[string]string{}
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			s.out.add(line)
			if decided {
				continue
			}
			if kv, ok := strings.CutPrefix(line, statusPrefix); ok {
				k, v, _ := strings.Cut(kv, "=")
				block[k] = v
			}
			switch {
			case line == readyLine:
				decided = true
				ready <- true
			case strings.HasPrefix(line, statusCodePrefix):
				// am sorts a block's keys, so the helper's failure is
				// known only once its block ends.
				if block["flowHelper"] == "failed" && block["cause"] != "" {
					failure = &helperFailure{cause: block["cause"], message: block["message"]}
					decided = true
					ready <- false
				}
				block = map[string]string{}
			case strings.HasPrefix(line, statusPrefix):
				// A status line quotes the platform's words, which may say
				// FAILED or Error: without the start having failed.
			case startFailure(line):
				decided = true
				ready <- false
			}
		}
		if !decided {
			ready <- false
		}
	}()
	timer := time.NewTimer(d.readyTimeout)
	defer timer.Stop()
	select {
	case ok := <-ready:
		if ok {
			return nil
		}
		if failure != nil {
			return d.uiAutomationFailed(*failure)
		}
		// Let the rest of a failure block arrive before quoting it.
		select {
		case <-s.ended:
		case <-time.After(200 * time.Millisecond):
		}
		return d.unavailable("the flow helper did not start on %s: %s", d.serial, clipString(strings.TrimSpace(s.out.String()+string(s.stream.Stderr())), 400)).
			WithHint("see the instrumentation output above; reinstall the helper with `adb uninstall " + helperPackage + "` and run again, or check `adb logcat` for " + helperPackage)
	case <-timer.C:
		return d.unavailable("the flow helper did not report ready on %s within %v", d.serial, d.readyTimeout).
			WithHint("the device may be busy or locked; unlock it, check `adb logcat` for " + helperPackage + " and run again")
	case <-ctx.Done():
		return canonical.Interrupted(ctx.Err()).With("serial", d.serial)
	}
}

// otherAutomations are the drivers that hold UiAutomation when left
// running, and how to stop each (shared/docs/device-review.md C1).
const otherAutomations = "stop the other automation and run again: a Maestro driver (`adb shell am force-stop dev.mobile.maestro.test` and `dev.mobile.maestro`), " +
	"Appium's UiAutomator2 server (`adb shell am force-stop io.appium.uiautomator2.server.test`), " +
	"a `uiautomator dump` still running (let it end), or Android Studio's Layout Inspector (close it)"

// uiAutomationFailed is the error for the helper's failed status block:
// the device is there but cannot be automated now.
func (d *Device) uiAutomationFailed(f helperFailure) *canonical.Error {
	switch f.cause {
	case "uiautomation-busy":
		return d.unavailable("another automation holds UiAutomation on %s, so the flow helper cannot start: %s", d.serial, f.message).
			With("cause", f.cause).WithHint(otherAutomations)
	case "uiautomation-timeout":
		return d.unavailable("UiAutomation did not connect on %s, so the flow helper cannot start: %s", d.serial, f.message).
			With("cause", f.cause).
			WithHint("the device may be busy or another automation may hold UiAutomation; " + otherAutomations + "; if none runs, reboot the device")
	}
	return d.unavailable("the flow helper could not start on %s (%s): %s", d.serial, f.cause, f.message).
		With("cause", f.cause).WithHint("check `adb logcat -s flow-helper` on the device and run again")
}

// connect forwards a free local port to the helper's socket, dials it and
// says hello.
func (d *Device) connect(ctx context.Context, s *session) error {
	local, err := d.t.Forward(ctx, d.serial, "tcp:0", "localabstract:"+s.socket)
	if err != nil {
		return err
	}
	s.local = local
	conn, err := d.t.Dial(ctx, local)
	if err != nil {
		return d.unavailable("cannot connect to the flow helper on %s: %v", d.serial, err).Wrap(err).
			WithHint("the adb forward to the helper refused the connection; check `adb forward --list` and run again")
	}
	s.h = newHelper(conn, d.serial)
	hello, err := s.h.hello(ctx)
	if err != nil {
		return err
	}
	s.hello = hello
	return nil
}

// stopSession ends a session: quit, ≤ 5 s for the helper to finish (the
// instrument stream ends), the forward removed, and a force-stop when the
// stream is still open. It never fails: it is cleanup, and it runs after
// failures and signals, so what it sends to the device gets a few seconds
// of its own (cleanupTimeout), whatever context the caller had; a device
// whose link is lost is sent nothing more.
func (d *Device) stopSession(s *session) {
	if s == nil {
		return
	}
	lost := d.lost.Load() != nil
	quit := false
	if s.h != nil {
		if s.h.broken == nil && !lost {
			quit = s.h.quit(context.Background(), quitTimeout) == nil
		}
		s.h.close()
	}
	ended := false
	select {
	case <-s.ended:
		ended = true
	default:
		// Only a helper that took the quit is worth waiting for; one that
		// never connected or broke is force-stopped at once.
		if s.stream != nil && quit {
			select {
			case <-s.ended:
				ended = true
			case <-time.After(d.quitWait):
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), d.cleanupMax)
	defer cancel()
	if s.local != "" {
		// The forward lives in the server, which answers even when the
		// device does not.
		_ = d.raw.KillForward(ctx, d.serial, s.local)
	}
	if s.stream != nil {
		if !ended && !lost {
			_, _ = d.raw.Shell(ctx, d.serial, "am", "force-stop", helperPackage)
		}
		_ = s.stream.Close()
	}
}

// onHelper runs fn against the session, starting it on first use. When
// the session drops (the connection broke, not a helper error line), it is
// stopped and started again once per device; fn runs again on the new
// session if it was a read (retry true) or its request never reached the
// helper. A second drop is DEVICE_UNAVAILABLE.
func (d *Device) onHelper(ctx context.Context, retry bool, fn func(ctx context.Context, h *helper) error) error {
	if d.closed {
		return d.unavailable("the Android device %s is closed", d.serial).WithHint("open the device again")
	}
	err := d.watch(ctx, func(ctx context.Context) error { return d.onSession(ctx, retry, fn) })
	if d.lost.Load() != nil && d.sess != nil {
		d.stopSession(d.sess)
		d.sess = nil
	}
	return d.withInjectionHint(err)
}

// onSession is onHelper on a watched link.
func (d *Device) onSession(ctx context.Context, retry bool, fn func(ctx context.Context, h *helper) error) error {
	if d.sess == nil {
		if d.dead != nil {
			return d.dead
		}
		s, err := d.startSession(ctx)
		if err != nil {
			return err
		}
		d.sess = s
	}
	h := d.sess.h
	err := fn(ctx, h)
	if err == nil || h.broken == nil || ctx.Err() != nil {
		return err
	}
	sent := h.written
	d.stopSession(d.sess)
	d.sess = nil
	if d.restarts >= 1 {
		d.dead = d.unavailable("the helper session on %s dropped again after a restart: %v", d.serial, err).Wrap(err).
			WithHint("the device or the helper keeps failing; check the connection (`adb devices`) and `adb logcat` for " + helperPackage)
		return d.dead
	}
	d.restarts++
	s, serr := d.startSession(ctx)
	if serr != nil {
		d.dead = serr
		return serr
	}
	d.sess = s
	if !retry && sent {
		return err
	}
	err = fn(ctx, s.h)
	if err != nil && s.h.broken != nil && ctx.Err() == nil {
		d.stopSession(s)
		d.sess = nil
		d.dead = d.unavailable("the helper session on %s dropped again after a restart: %v", d.serial, err).Wrap(err).
			WithHint("the device or the helper keeps failing; check the connection (`adb devices`) and `adb logcat` for " + helperPackage)
		return d.dead
	}
	return err
}
