package adb

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// errNoReason marks a FAIL without a message.
var errNoReason = errors.New("the adb server gave no reason")

// DefaultPort is the adb server's port when ANDROID_ADB_SERVER_PORT is
// unset.
const DefaultPort = 5037

// maxReply bounds a length-prefixed reply and any text buffered from the
// device (a FAIL message, a device list): the prefix is four hex digits,
// so 64 KiB is the protocol's own ceiling.
const maxReply = 0xffff

// dialTimeout bounds connecting to the server, which is local: a server
// that does not accept within it is not running.
const dialTimeout = 3 * time.Second

// ServerAddr is the adb server's address as adb itself finds it:
// 127.0.0.1 and ANDROID_ADB_SERVER_PORT, else 5037.
func ServerAddr(getenv func(string) string) string {
	port := strconv.Itoa(DefaultPort)
	if getenv != nil {
		if p := strings.TrimSpace(getenv("ANDROID_ADB_SERVER_PORT")); p != "" {
			port = p
		}
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// Client talks to one adb server. It holds no connection: each request
// opens its own, as adb's own client does, so a Client is safe for
// concurrent use.
type Client struct {
	addr string
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// New returns a client of the server at addr (host:port).
func New(addr string) *Client {
	d := &net.Dialer{Timeout: dialTimeout}
	return &Client{addr: addr, dial: d.DialContext}
}

// Addr is the server's address.
func (c *Client) Addr() string { return c.addr }

// conn is one smart-socket connection; ctx cancellation closes it, which
// unblocks any read or write in progress.
type conn struct {
	net.Conn
	stop func() bool
}

func (c *Client) connect(ctx context.Context, serial string) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nc, err := c.dial(ctx, "tcp", c.addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.unreachable(serial, err)
	}
	cn := &conn{Conn: nc}
	cn.stop = context.AfterFunc(ctx, func() { nc.Close() })
	return cn, nil
}

func (cn *conn) Close() error {
	cn.stop()
	return cn.Conn.Close()
}

// request sends one smart-socket request and reads its status.
func (c *Client) request(ctx context.Context, cn *conn, serial, req string) error {
	if len(req) > maxReply {
		return c.fail(serial, "request too long", fmt.Errorf("%d bytes", len(req)))
	}
	if _, err := io.WriteString(cn, fmt.Sprintf("%04x%s", len(req), req)); err != nil {
		return c.ioError(ctx, serial, req, err)
	}
	return c.status(ctx, cn, serial, req)
}

// status reads OKAY, or FAIL and its message.
func (c *Client) status(ctx context.Context, cn *conn, serial, req string) error {
	var st [4]byte
	if _, err := io.ReadFull(cn, st[:]); err != nil {
		return c.ioError(ctx, serial, req, err)
	}
	switch string(st[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := c.readString(ctx, cn, serial, req)
		if err != nil {
			return err
		}
		if strings.TrimSpace(msg) == "" {
			return c.refused(serial, req, "(no reason given)").Wrap(errNoReason)
		}
		return c.refused(serial, req, msg)
	}
	return c.fail(serial, fmt.Sprintf("the adb server answered %q to %s", st[:], service(req)), nil)
}

// readString reads a "%04x"-prefixed string.
func (c *Client) readString(ctx context.Context, cn *conn, serial, req string) (string, error) {
	var n [4]byte
	if _, err := io.ReadFull(cn, n[:]); err != nil {
		return "", c.ioError(ctx, serial, req, err)
	}
	var size [2]byte
	if _, err := hex.Decode(size[:], n[:]); err != nil {
		return "", c.fail(serial, fmt.Sprintf("the adb server sent a bad length %q", n[:]), nil)
	}
	buf := make([]byte, int(size[0])<<8|int(size[1]))
	if _, err := io.ReadFull(cn, buf); err != nil {
		return "", c.ioError(ctx, serial, req, err)
	}
	return string(buf), nil
}

// query runs a host request whose reply is one length-prefixed string.
func (c *Client) query(ctx context.Context, serial, req string) (string, error) {
	cn, err := c.connect(ctx, serial)
	if err != nil {
		return "", err
	}
	defer cn.Close()
	if err := c.request(ctx, cn, serial, req); err != nil {
		return "", err
	}
	return c.readString(ctx, cn, serial, req)
}

// Version is the server's protocol version (host:version), 41 for adb 29.
func (c *Client) Version(ctx context.Context) (int, error) {
	s, err := c.query(ctx, "", "host:version")
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseInt(strings.TrimSpace(s), 16, 32)
	if perr != nil {
		return 0, c.fail("", fmt.Sprintf("the adb server sent version %q", s), perr)
	}
	return int(v), nil
}

// open connects to serial's transport and opens service on it, leaving
// the connection as the service's byte stream.
func (c *Client) open(ctx context.Context, serial, svc string) (*conn, error) {
	cn, err := c.connect(ctx, serial)
	if err != nil {
		return nil, err
	}
	if err := c.request(ctx, cn, serial, "host:transport:"+serial); err != nil {
		cn.Close()
		return nil, err
	}
	if err := c.request(ctx, cn, serial, svc); err != nil {
		cn.Close()
		return nil, err
	}
	return cn, nil
}

// service names a request in messages without its arguments, which may be
// long or private (a shell command line is named by its first word).
func service(req string) string {
	if i := strings.IndexAny(req, " "); i > 0 {
		return req[:i] + " …"
	}
	return req
}

func (c *Client) base(serial, msg string) *canonical.Error {
	e := canonical.NewError(canonical.CodeDeviceUnavailable, msg).With("adb", c.addr)
	if serial != "" {
		e = e.With("serial", serial)
	}
	return e
}

func (c *Client) fail(serial, msg string, cause error) *canonical.Error {
	e := c.base(serial, msg)
	if cause != nil {
		e = e.Wrap(cause)
	}
	return e.WithHint("check the device with `adb devices -l`; restart the server with `adb kill-server` if it misbehaves")
}

func (c *Client) unreachable(serial string, cause error) *canonical.Error {
	return c.base(serial, "the adb server at "+c.addr+" is not running").Wrap(cause).
		WithHint("start it with `adb start-server` (flow starts it itself when adb is on PATH), or point ANDROID_ADB_SERVER_PORT at the port your server uses")
}

// ioError is a connection that broke mid-request: the context's error
// when it was cancelled, else the device or server went away.
func (c *Client) ioError(ctx context.Context, serial, req string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return c.fail(serial, fmt.Sprintf("the adb server closed the connection during %s", service(req)), err)
	}
	return c.fail(serial, fmt.Sprintf("talking to the adb server failed during %s: %v", service(req), err), err)
}

// refused turns the server's FAIL text into an error whose hint says
// what to do. The texts are adb's (transport.cpp acquire_one_transport
// and adb.cpp handle_forward_request, adb 29).
func (c *Client) refused(serial, req, msg string) *canonical.Error {
	first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	name := serial
	if name == "" {
		name = "the device"
	}
	e := c.base(serial, fmt.Sprintf("adb refused %s: %s", service(req), first))
	switch {
	case strings.Contains(msg, "unauthorized"):
		return e.WithHint("unlock " + name + " and accept the \"Allow USB debugging?\" prompt (tick \"Always allow\"), then run again; if no prompt shows, revoke USB debugging authorizations in Developer options and reconnect")
	case strings.Contains(msg, "offline"):
		return e.WithHint(name + " is connected but not answering: reconnect its cable (or `adb reconnect offline`), or restart the emulator")
	case strings.Contains(msg, "not found"), strings.Contains(msg, "no devices"):
		return e.WithHint("`adb devices -l` lists the serials the server sees; for a device over the network run `adb connect HOST:PORT` first")
	case strings.Contains(msg, "more than one"):
		return e.WithHint("name the device: --device android:SERIAL (see `flow devices`)")
	case strings.Contains(msg, "cannot bind"):
		return e.WithHint("another program holds that local port; flow asks for tcp:0 so the server picks a free one")
	}
	return e.WithHint("check the device with `adb devices -l`")
}
