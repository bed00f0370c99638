package adb

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Forward makes the server listen on local ("tcp:0" lets it pick a free
// port) and relay each connection to remote on the device ("tcp:N",
// "localabstract:NAME"). It returns the local end actually bound
// ("tcp:41234" for "tcp:0").
//
// On success the server answers OKAY twice (connected, then done) and,
// when it picked the port, the port as a length-prefixed string (adb.cpp
// handle_forward_request).
func (c *Client) Forward(ctx context.Context, serial, local, remote string) (string, error) {
	req := fmt.Sprintf("host-serial:%s:forward:%s;%s", serial, local, remote)
	cn, err := c.connect(ctx, serial)
	if err != nil {
		return "", err
	}
	defer cn.Close()
	if err := c.request(ctx, cn, serial, req); err != nil {
		return "", c.explain(ctx, serial, err)
	}
	if err := c.status(ctx, cn, serial, req); err != nil {
		return "", c.explain(ctx, serial, err)
	}
	if local != "tcp:0" {
		return local, nil
	}
	port, err := c.readString(ctx, cn, serial, req)
	if err != nil {
		return "", err
	}
	return "tcp:" + strings.TrimSpace(port), nil
}

// KillForward removes a forward made by Forward.
func (c *Client) KillForward(ctx context.Context, serial, local string) error {
	req := fmt.Sprintf("host-serial:%s:killforward:%s", serial, local)
	cn, err := c.connect(ctx, serial)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := c.request(ctx, cn, serial, req); err != nil {
		return c.explain(ctx, serial, err)
	}
	return c.explain(ctx, serial, c.status(ctx, cn, serial, req))
}

// explain replaces a refusal the server gave no reason for (host-serial:
// requests for a device it does not have fail with an empty FAIL, adb.cpp
// handle_host_request) by the device's own problem, from the device list.
func (c *Client) explain(ctx context.Context, serial string, err error) error {
	if !errors.Is(err, errNoReason) {
		return err
	}
	devs, lerr := c.Devices(ctx)
	if lerr != nil {
		return err
	}
	for _, d := range devs {
		if d.Serial == serial {
			if d.Online() {
				return err
			}
			return c.refused(serial, "host:transport:"+serial, "device "+d.State)
		}
	}
	return c.refused(serial, "host:transport:"+serial, fmt.Sprintf("device '%s' not found", serial))
}
