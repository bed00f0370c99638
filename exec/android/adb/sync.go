package adb

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/electricbubble/gadb"
)

// Push writes r to remote on the device with mode, through the sync
// service (gadb). Pull reads remote into w.
//
// gadb has no context: its calls end by themselves (each read has a 60 s
// deadline). A cancelled ctx returns at once and leaves the call to end
// on its own in the background; r and w must stay usable until then.
func (c *Client) Push(ctx context.Context, serial string, r io.Reader, remote string, mode os.FileMode) error {
	return c.withGadb(ctx, serial, "push to "+remote, func(d gadb.Device) error {
		return d.Push(r, remote, time.Now(), mode)
	})
}

// Pull copies remote on the device into w.
func (c *Client) Pull(ctx context.Context, serial, remote string, w io.Writer) error {
	return c.withGadb(ctx, serial, "pull of "+remote, func(d gadb.Device) error {
		return d.Pull(remote, w)
	})
}

func (c *Client) withGadb(ctx context.Context, serial, what string, fn func(gadb.Device) error) error {
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
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		if err != nil {
			return c.fail(serial, fmt.Sprintf("the %s failed: %v", what, err), err)
		}
		return nil
	}
}
