package adb

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
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

// Every read from the server has a deadline, so that a server or a device
// that keeps the connection open and stops answering (a hung server, a
// wedged USB link, a frozen emulator, a dead NAT in front of `adb
// connect`) ends a request with an error instead of a wait for ever. They
// bound the silence before each reply, never a whole transfer: a long
// install or a long command goes on as long as bytes keep coming.
const (
	// serverTimeout: the server answers its own requests (host:…) from
	// memory, at once; ddmlib, Android Studio's client, gives any adb
	// read 5 s by default.
	serverTimeout = 5 * time.Second
	// deviceTimeout: opening a service on a device waits for the device
	// itself to answer over USB or the network, which takes milliseconds
	// even on a busy phone; twice ddmlib's bound.
	deviceTimeout = 10 * time.Second
	// idleTimeout: the output of a one-shot command, the bytes of an
	// install, a pull or a push. Commands such as `am start -W` or `pm
	// clear` print nothing while they work, for seconds, so the bound is
	// generous; a stalled link is found sooner by exec/android, which
	// pings the device while a command is silent.
	idleTimeout = 2 * time.Minute
	// verdictTimeout: the package manager's install verdict comes after
	// it has verified and optimised the APK, which can take minutes on a
	// slow emulator.
	verdictTimeout = 5 * time.Minute
)

// ServerAddr is the adb server's address as adb itself finds it (AOSP
// adb/client/commandline.cpp, adb_commandline): ADB_SERVER_SOCKET
// (tcp:PORT or tcp:HOST:PORT) comes first, else ANDROID_ADB_SERVER_ADDRESS
// and ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037. A socket adb could
// use but this TCP client cannot (localabstract:, a Unix socket) or a port
// that is no port is INVALID_ARGS naming the variable: silently falling
// back to the default server would run on another machine's devices.
func ServerAddr(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if spec := strings.TrimSpace(getenv("ADB_SERVER_SOCKET")); spec != "" {
		rest, ok := strings.CutPrefix(spec, "tcp:")
		if !ok {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "ADB_SERVER_SOCKET=%q is not a TCP socket; flow reaches adb servers over TCP only", spec).
				WithHint("write ADB_SERVER_SOCKET=tcp:HOST:PORT (or tcp:PORT for this machine), or unset it")
		}
		host, port := "127.0.0.1", rest
		if i := strings.LastIndex(rest, ":"); i >= 0 {
			host, port = strings.Trim(rest[:i], "[]"), rest[i+1:]
		}
		if !validPort(port) {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "ADB_SERVER_SOCKET=%q has no valid port", spec).
				WithHint("write ADB_SERVER_SOCKET=tcp:HOST:PORT with a port from 1 to 65535")
		}
		return net.JoinHostPort(host, port), nil
	}
	host, port := "127.0.0.1", strconv.Itoa(DefaultPort)
	if h := strings.TrimSpace(getenv("ANDROID_ADB_SERVER_ADDRESS")); h != "" {
		host = h
	}
	if p := strings.TrimSpace(getenv("ANDROID_ADB_SERVER_PORT")); p != "" {
		if !validPort(p) {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "ANDROID_ADB_SERVER_PORT=%q is not a port", p).
				WithHint("set it to a number from 1 to 65535, or unset it for 5037")
		}
		port = p
	}
	return net.JoinHostPort(host, port), nil
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// IsLocal reports whether the server is on this machine, the only place
// flow may start one: adb itself refuses to start a server for a remote
// socket ("cannot start server on remote host", AOSP
// adb/client/adb_client.cpp, adb_connect).
func (c *Client) IsLocal() bool {
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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

// dialError marks a server nothing listens for (connection refused),
// which EnsureServer may start, apart from one that listens and does not
// answer, which starting again would not mend.
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

func (c *Client) connect(ctx context.Context, serial string) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(ctx, serial)
	}
	nc, err := c.dial(ctx, "tcp", c.addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, interrupted(ctx, serial)
		}
		return nil, c.unreachable(serial, &dialError{err})
	}
	cn := &conn{Conn: nc}
	cn.stop = context.AfterFunc(ctx, func() { nc.Close() })
	return cn, nil
}

func (cn *conn) Close() error {
	cn.stop()
	return cn.Conn.Close()
}

// within makes the next reads fail when nothing arrives within d.
func (cn *conn) within(d time.Duration) {
	_ = cn.SetReadDeadline(time.Now().Add(d))
}

// replyTimeout is how long the status of req may take: the server
// answers host requests itself; any other request opens a service on the
// device, which answers it.
func replyTimeout(req string) time.Duration {
	if strings.HasPrefix(req, "host") {
		return serverTimeout
	}
	return deviceTimeout
}

// request sends one smart-socket request and reads its status.
func (c *Client) request(ctx context.Context, cn *conn, serial, req string) error {
	if len(req) > maxReply {
		return c.fail(serial, "request too long", fmt.Errorf("%d bytes", len(req)))
	}
	_ = cn.SetWriteDeadline(time.Now().Add(serverTimeout))
	if _, err := io.WriteString(cn, fmt.Sprintf("%04x%s", len(req), req)); err != nil {
		return c.ioError(ctx, serial, req, err)
	}
	_ = cn.SetWriteDeadline(time.Time{})
	return c.status(ctx, cn, serial, req)
}

// status reads OKAY, or FAIL and its message, within the request's reply
// timeout.
func (c *Client) status(ctx context.Context, cn *conn, serial, req string) error {
	var st [4]byte
	cn.within(replyTimeout(req))
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

// readString reads a "%04x"-prefixed string, which the server sends at
// once after its status.
func (c *Client) readString(ctx context.Context, cn *conn, serial, req string) (string, error) {
	var n [4]byte
	cn.within(serverTimeout)
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

// Hints for a connection that stays open and stops answering.
const (
	restartHint = "the adb server is not answering: restart it with `adb kill-server` (if it does not stop, end the adb process), then run again; flow starts it again when adb is on PATH (or run `adb start-server`)"
	stalledHint = "the link to the device is open but nothing comes back (a wedged USB link, a frozen emulator, a dropped network connection): reconnect the device (replug its cable, `adb reconnect`, or restart the emulator) and run again; if no device answers, restart the adb server with `adb kill-server`"
)

// interrupted is the error of a request the context stopped: INTERRUPTED,
// the context's error kept in the chain.
func interrupted(ctx context.Context, serial string) *canonical.Error {
	e := canonical.Interrupted(ctx.Err())
	if serial != "" {
		e = e.With("serial", serial)
	}
	return e
}

// noAnswer reports whether err is a read or write deadline passing.
func noAnswer(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// silent is the error of a read or write that passed its deadline during
// req: the server hangs when the request was its own, else the device
// does not answer.
func (c *Client) silent(serial, req string, wait time.Duration, err error) *canonical.Error {
	if strings.HasPrefix(req, "host") || serial == "" {
		return c.base(serial, fmt.Sprintf("the adb server at %s did not answer %s within %v", c.addr, service(req), wait)).
			Wrap(err).WithHint(restartHint)
	}
	return c.base(serial, fmt.Sprintf("%s did not answer adb within %v (%s)", serial, wait, service(req))).
		Wrap(err).WithHint(stalledHint)
}

// ioError is a connection that broke mid-request: INTERRUPTED when the
// context was cancelled, a silent server or device when a deadline
// passed, else the device or server went away.
func (c *Client) ioError(ctx context.Context, serial, req string, err error) error {
	if ctx.Err() != nil {
		return interrupted(ctx, serial)
	}
	if noAnswer(err) {
		return c.silent(serial, req, replyTimeout(req), err)
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

// Ping asks the device itself for an answer: it opens the sync service
// (no process starts for it on the device) and closes it at once. The
// server answers host:transport from memory, even for a device whose link
// has stalled; only the device's answer to the open, OKAY or a refusal,
// proves that the link still carries packets both ways. The error is
// DEVICE_UNAVAILABLE: the device is gone, or it did not answer within
// 10 s.
func (c *Client) Ping(ctx context.Context, serial string) error {
	cn, err := c.connect(ctx, serial)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := c.request(ctx, cn, serial, "host:transport:"+serial); err != nil {
		return err
	}
	const req = "sync:"
	_ = cn.SetWriteDeadline(time.Now().Add(serverTimeout))
	if _, err := io.WriteString(cn, fmt.Sprintf("%04x%s", len(req), req)); err != nil {
		return c.ioError(ctx, serial, req, err)
	}
	var st [4]byte
	cn.within(deviceTimeout)
	if _, err := io.ReadFull(cn, st[:]); err != nil {
		return c.ioError(ctx, serial, req, err)
	}
	return nil
}
