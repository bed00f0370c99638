package android

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/android/adb"
)

// A link to a phone can stay open and stop answering (a wedged USB link,
// a frozen emulator, a dead NAT in front of `adb connect`): the adb server
// still lists the device, and every request to it waits. A helper call
// may legitimately be silent for long (a settle, a launch, a long
// gesture), so silence alone proves nothing; while any device operation
// has been silent for probeAfter, the device is pinged (adb.Client.Ping:
// the device itself must answer an open within 10 s), again every
// probeEvery. A ping that gets no answer, or finds the device gone, ends
// the operation: the device is lost, and every later operation fails at
// once with the same error.
const (
	probeAfter = 2 * time.Second
	probeEvery = 3 * time.Second
	// cleanupTimeout bounds what closing a session sends to the device
	// (removing the forward, force-stopping the helper): cleanup runs
	// after a failure or a signal and must never hang on a dead link.
	cleanupTimeout = 5 * time.Second
)

// watch runs op on the device's link. op gets a context that is cancelled
// when a ping shows the link lost; its error is then the loss. Watches do
// not nest: an operation inside a watched one (the shell commands of a
// session start) is covered by the outer ping.
func (d *Device) watch(ctx context.Context, op func(context.Context) error) error {
	if lost := d.lost.Load(); lost != nil {
		return lost
	}
	if d.watching {
		return op(ctx)
	}
	d.watching = true
	defer func() { d.watching = false }()
	octx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	probed := make(chan struct{})
	go func() {
		defer close(probed)
		t := time.NewTimer(d.probeAfter)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-octx.Done():
				return
			case <-t.C:
			}
			err := d.raw.Ping(octx, d.serial)
			if err != nil && octx.Err() == nil {
				d.markLost(err)
				cancel()
				return
			}
			t.Reset(d.probeEvery)
		}
	}()
	err := op(octx)
	close(stop)
	cancel()
	<-probed
	if lost := d.lost.Load(); lost != nil && ctx.Err() == nil {
		return lost
	}
	if err != nil && ctx.Err() == nil && silentLink(err) {
		// The operation's own adb deadline found the link silent first.
		return d.markLost(err)
	}
	return err
}

// silentLink reports whether err is adb's "the device did not answer",
// not the helper's own timeout (TIMEOUT: a stuck helper on a live link,
// which a restart may mend).
func silentLink(err error) bool {
	return canonical.CodeOf(err) == canonical.CodeDeviceUnavailable && errors.Is(err, os.ErrDeadlineExceeded)
}

// markLost records the loss of the link (the first one wins) and returns
// it.
func (d *Device) markLost(cause error) *canonical.Error {
	ce := canonical.Coded(cause)
	var e *canonical.Error
	if silentLink(cause) {
		e = d.unavailable("the Android device %s stopped answering: its adb link is open but nothing comes back", d.serial).
			With("cause", ce.Message)
	} else {
		e = d.unavailable("the Android device %s is gone: %s", d.serial, ce.Message)
	}
	e = e.Wrap(cause).With("lost", true).WithHint(ce.Hint)
	if d.lost.CompareAndSwap(nil, e) {
		return e
	}
	return d.lost.Load()
}

// watched is the device's transport with every call watched; cleanup and
// pings use the raw one.
type watched struct{ d *Device }

func (w watched) Shell(ctx context.Context, serial string, argv ...string) (res shellResult, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { res, err = w.d.raw.Shell(ctx, serial, argv...); return })
	return res, err
}

func (w watched) Exec(ctx context.Context, serial string, argv ...string) (out []byte, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { out, err = w.d.raw.Exec(ctx, serial, argv...); return })
	return out, err
}

// StartShell watches the start only: the stream itself runs as long as
// its command, and its holder bounds any wait on it.
func (w watched) StartShell(ctx context.Context, serial string, argv ...string) (s shellStream, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { s, err = w.d.raw.StartShell(ctx, serial, argv...); return })
	return s, err
}

func (w watched) Forward(ctx context.Context, serial, local, remote string) (out string, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { out, err = w.d.raw.Forward(ctx, serial, local, remote); return })
	return out, err
}

func (w watched) KillForward(ctx context.Context, serial, local string) error {
	return w.d.watch(ctx, func(ctx context.Context) error { return w.d.raw.KillForward(ctx, serial, local) })
}

func (w watched) Install(ctx context.Context, serial string, apk io.Reader, size int64, args ...string) (res shellResult, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) {
		res, err = w.d.raw.Install(ctx, serial, apk, size, args...)
		return
	})
	return res, err
}

func (w watched) Pull(ctx context.Context, serial, remote string, wr io.Writer) error {
	return w.d.watch(ctx, func(ctx context.Context) error { return w.d.raw.Pull(ctx, serial, remote, wr) })
}

func (w watched) Devices(ctx context.Context) (out []adb.DeviceEntry, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { out, err = w.d.raw.Devices(ctx); return })
	return out, err
}

func (w watched) Dial(ctx context.Context, local string) (c net.Conn, err error) {
	err = w.d.watch(ctx, func(ctx context.Context) (err error) { c, err = w.d.raw.Dial(ctx, local); return })
	return c, err
}

func (w watched) Ping(ctx context.Context, serial string) error { return w.d.raw.Ping(ctx, serial) }
