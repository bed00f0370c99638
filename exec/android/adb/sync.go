package adb

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/electricbubble/gadb"
)

// Push writes r to remote on the device with mode, through the sync
// service (gadb). Pull reads remote into w.
//
// gadb has no context and no deadline on its smart-socket reads. A
// cancelled ctx, or no byte moved for 2 minutes, returns at once and
// leaves the call to end on its own in the background; r and w must stay
// usable until then.
func (c *Client) Push(ctx context.Context, serial string, r io.Reader, remote string, mode os.FileMode) error {
	p := &progress{}
	return c.withGadb(ctx, serial, "push to "+remote, p, func(d gadb.Device) error {
		return d.Push(progressReader{r, p}, remote, time.Now(), mode)
	})
}

// Pull copies remote on the device into w.
func (c *Client) Pull(ctx context.Context, serial, remote string, w io.Writer) error {
	p := &progress{}
	return c.withGadb(ctx, serial, "pull of "+remote, p, func(d gadb.Device) error {
		return d.Pull(remote, progressWriter{w, p})
	})
}

// progress counts the bytes a transfer moved, so a wait on gadb can tell
// a slow transfer from a stalled one.
type progress struct{ n atomic.Int64 }

type progressReader struct {
	r io.Reader
	p *progress
}

func (r progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.p.n.Add(int64(n))
	return n, err
}

type progressWriter struct {
	w io.Writer
	p *progress
}

func (w progressWriter) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	w.p.n.Add(int64(n))
	return n, err
}

func (c *Client) withGadb(ctx context.Context, serial, what string, p *progress, fn func(gadb.Device) error) error {
	host, portText, err := net.SplitHostPort(c.addr)
	if err != nil {
		return c.fail(serial, fmt.Sprintf("the adb server address %q is not host:port", c.addr), err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return c.fail(serial, fmt.Sprintf("the adb server address %q has no port number", c.addr), err)
	}
	// Our own listing first: it names an offline or unauthorized device,
	// where gadb's drops it.
	entries, err := c.Devices(ctx)
	if err != nil {
		return err
	}
	found := false
	for _, e := range entries {
		if e.Serial == serial {
			if !e.Online() {
				return c.refused(serial, "host:transport:"+serial, "device "+e.State)
			}
			found = true
		}
	}
	if !found {
		return c.refused(serial, "host:transport:"+serial, fmt.Sprintf("device '%s' not found", serial))
	}
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			cl, err := gadb.NewClientWith(host, port)
			if err != nil {
				return err
			}
			devs, err := cl.DeviceList()
			if err != nil {
				return err
			}
			for _, d := range devs {
				if d.Serial() == serial {
					return fn(d)
				}
			}
			return fmt.Errorf("device '%s' not found", serial)
		}()
	}()
	// The transfer may take long, but not a silence of idleTimeout.
	tick := time.NewTicker(idleTimeout / 8)
	defer tick.Stop()
	last, lastAt := p.n.Load(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return interrupted(ctx, serial)
		case err := <-done:
			if err != nil {
				return c.fail(serial, fmt.Sprintf("the %s failed: %v", what, err), err)
			}
			return nil
		case now := <-tick.C:
			if n := p.n.Load(); n != last {
				last, lastAt = n, now
			} else if now.Sub(lastAt) >= idleTimeout {
				return c.base(serial, fmt.Sprintf("the %s moved no byte for %v", what, idleTimeout)).
					Wrap(os.ErrDeadlineExceeded).WithHint(stalledHint)
			}
		}
	}
}
