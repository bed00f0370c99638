package android

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// returnsWithin runs call and fails the test when it has not returned
// after limit (on the code this guards against it never returns).
func returnsWithin(t *testing.T, limit time.Duration, name string, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("%s did not return within %s", name, limit)
		return nil
	}
}

// A link that stays open and stops answering while the helper works on a
// read: pings find it silent, the read ends in seconds as a lost device
// (DEVICE_UNAVAILABLE saying it stopped answering), the session is not
// restarted on it, every later operation fails at once with the same
// error, nothing more is sent to the device, and Close returns at once.
// On b5e1447 the read waited its 30 s, then the cleanup's force-stop
// waited for ever.
func TestStalledLinkIsALostDevice(t *testing.T) {
	ctx := context.Background()
	p := newPhone()
	d, err := open(ctx, testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.stalled = true
	sent := len(p.log)
	p.mu.Unlock()
	start := time.Now()
	err = returnsWithin(t, 15*time.Second, "a read on a stalled link", func() error { _, err := d.Hierarchy(ctx); return err })
	t.Logf("the loss was found after %s", time.Since(start).Round(time.Millisecond))
	wantUnavailable(t, err, "stopped answering", "reconnect")
	if ce, _ := canonical.AsError(err); ce.Details["lost"] != true {
		t.Errorf("the error must mark the device lost: %+v", ce)
	}
	for name, call := range map[string]func() error{
		"tap":      func() error { return d.Tap(ctx, canonical.Point{X: 1, Y: 1}) },
		"stop app": func() error { return d.StopApp(ctx, "com.example.shop", false) },
		"launch":   func() error { return d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop"}) },
	} {
		start := time.Now()
		err := returnsWithin(t, 5*time.Second, name, call)
		wantUnavailable(t, err, "stopped answering", "reconnect")
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s on a lost device took %s; it must fail at once", name, took)
		}
	}
	returnsWithin(t, 5*time.Second, "close", func() error { return d.Close(ctx) })
	p.mu.Lock()
	var after []string
	for _, l := range p.log[sent:] {
		// The forward lives in the adb server, which still answers:
		// removing it is the server's business, not the device's.
		if l != "killforward" {
			after = append(after, l)
		}
	}
	p.mu.Unlock()
	if len(after) > 0 {
		t.Errorf("nothing is sent to a lost device, got:\n%s", strings.Join(after, "\n"))
	}
}

// Cleanup gets a few seconds and no more: after a call was interrupted
// (Ctrl-C while the helper and the shell do not answer), Close with a
// context that can never be cancelled still returns, its force-stop cut
// off after its own bound. On b5e1447 it waited for ever.
func TestCleanupIsBounded(t *testing.T) {
	p := newPhone()
	d, err := open(context.Background(), testConfig(t), p)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.hang, p.blockShell = true, true
	p.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	err = returnsWithin(t, 10*time.Second, "an interrupted read", func() error { _, err := d.Hierarchy(ctx); return err })
	if canonical.CodeOf(err) != canonical.CodeInterrupted || !errors.Is(err, context.Canceled) {
		t.Fatalf("want INTERRUPTED, got %v", err)
	}
	start := time.Now()
	returnsWithin(t, 20*time.Second, "close", func() error { return d.Close(context.WithoutCancel(ctx)) })
	t.Logf("close took %s", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(strings.Join(p.log, "\n"), "am force-stop dev.flow.helper") {
		t.Errorf("a device not known lost still gets the force-stop:\n%s", strings.Join(p.log, "\n"))
	}
}
