package adbd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
)

// Handler answers a device's services.
type Handler interface {
	// Shell runs one shell stream's command line, exactly as the host sent
	// it (still quoted), and returns its exit code. stdin ends when the
	// host closes its input.
	Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (exitCode int)
	// Exec runs an exec: stream: binary-safe stdout, no stderr, and an
	// exit code the host never sees.
	Exec(ctx context.Context, cmd string, stdin io.Reader, stdout io.Writer) (exitCode int)
	// Open connects a forwarded socket ("tcp:9008",
	// "localabstract:flow-helper"); an error refuses it, which the host
	// sees as the connection closing at once.
	Open(ctx context.Context, service string) (io.ReadWriteCloser, error)
}

// Options describe the device.
type Options struct {
	// Props fill the banner: ro.product.name, ro.product.model and
	// ro.product.device (adb devices -l shows them); missing ones are
	// "fake".
	Props map[string]string
	// Features announced; nil is shell_v2, cmd and stat_v2, what adb 29
	// needs for exit codes, streamed installs and push's directory check.
	Features []string
	// MaxData is the largest payload announced; 0 is DefaultMaxData.
	MaxData uint32
	// FS serves sync:; nil gives the device an empty one.
	FS *MemFS
	// Logf, when set, receives one line per packet (for debugging tests).
	Logf func(format string, args ...any)
}

func (o Options) banner() string {
	prop := func(k string) string {
		if v := o.Props[k]; v != "" {
			return v
		}
		return "fake"
	}
	feats := o.Features
	if feats == nil {
		feats = []string{"shell_v2", "cmd", "stat_v2"}
	}
	// No trailing NUL: adb 29 reads it as part of the last feature.
	return fmt.Sprintf("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;features=%s",
		prop("ro.product.name"), prop("ro.product.model"), prop("ro.product.device"), strings.Join(feats, ","))
}

// Serve accepts host connections on l until ctx ends or l is closed; each
// connection is one transport, served until it breaks.
func Serve(ctx context.Context, l net.Listener, h Handler, o Options) error {
	if o.FS == nil {
		o.FS = NewMemFS()
	}
	if o.MaxData == 0 {
		o.MaxData = DefaultMaxData
	}
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := &transport{conn: c, h: h, o: o, streams: map[uint32]*stream{}}
			t.serve(ctx)
		}()
	}
}

// transport is one host connection.
type transport struct {
	conn net.Conn
	h    Handler
	o    Options

	wmu     sync.Mutex // serializes packets written
	maxData uint32

	mu      sync.Mutex
	streams map[uint32]*stream
	nextID  uint32
}

func (t *transport) logf(format string, args ...any) {
	if t.o.Logf != nil {
		t.o.Logf(format, args...)
	}
}

func (t *transport) send(p packet) error {
	t.logf("device> %s", p)
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.conn.Write(p.encode())
	return err
}

func (t *transport) serve(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { t.conn.Close() })
	defer stop()
	defer t.conn.Close()
	defer t.closeAll()
	connected := false
	for {
		p, err := readPacket(t.conn, maxIncoming)
		if err != nil {
			t.logf("transport ends: %v", err)
			return
		}
		t.logf("host> %s", p)
		switch p.cmd {
		case cmdCNXN:
			// The host's maxdata is arg1; ours is the smaller of both
			// (a WRTE above the host's makes it drop the device).
			t.maxData = min(t.o.MaxData, p.arg1)
			if t.maxData < 256 {
				t.maxData = 256
			}
			if err := t.send(packet{cmd: cmdCNXN, arg0: Version, arg1: t.maxData, data: []byte(t.o.banner())}); err != nil {
				return
			}
			connected = true
		case cmdAUTH, cmdSTLS:
			// This device never asks for either; a host that offers them
			// first gets the banner, which is what adbd does without auth.
			continue
		case cmdOPEN:
			if !connected {
				return
			}
			t.open(ctx, p)
		case cmdOKAY:
			if s := t.stream(p.arg1); s != nil {
				s.acked(p.arg0)
			}
		case cmdWRTE:
			s := t.stream(p.arg1)
			if s == nil {
				// A stream we closed: tell the host, as adbd does.
				t.send(packet{cmd: cmdCLSE, arg0: 0, arg1: p.arg0})
				continue
			}
			s.receive(p.data)
		case cmdCLSE:
			if s := t.stream(p.arg1); s != nil {
				s.closeFromHost()
			}
		default:
			t.logf("ignoring unknown command %s", p)
		}
	}
}

func (t *transport) stream(id uint32) *stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.streams[id]
}

func (t *transport) closeAll() {
	t.mu.Lock()
	all := make([]*stream, 0, len(t.streams))
	for _, s := range t.streams {
		all = append(all, s)
	}
	t.mu.Unlock()
	sort.Slice(all, func(i, j int) bool { return all[i].local < all[j].local })
	for _, s := range all {
		s.closeFromHost()
	}
}

func (t *transport) remove(id uint32) {
	t.mu.Lock()
	delete(t.streams, id)
	t.mu.Unlock()
}

// open starts the service named in an OPEN, or refuses it with CLSE(0,
// remote) as adbd does for a service it does not offer.
func (t *transport) open(ctx context.Context, p packet) {
	name := strings.TrimRight(string(p.data), "\x00")
	run := t.service(name)
	if run == nil {
		t.logf("refusing service %q", name)
		t.send(packet{cmd: cmdCLSE, arg0: 0, arg1: p.arg0})
		return
	}
	t.mu.Lock()
	t.nextID++
	s := newStream(ctx, t, t.nextID, p.arg0)
	t.streams[s.local] = s
	t.mu.Unlock()
	if err := t.send(packet{cmd: cmdOKAY, arg0: s.local, arg1: s.remote}); err != nil {
		return
	}
	go func() {
		run(s)
		s.finish()
	}()
}

// service maps a service name to what serves it, or nil.
func (t *transport) service(name string) func(*stream) {
	switch {
	case strings.HasPrefix(name, "shell"):
		opts, cmd, ok := strings.Cut(name, ":")
		if !ok {
			return nil
		}
		v2 := false
		for _, o := range strings.Split(opts, ",")[1:] {
			if o == "v2" {
				v2 = true
			}
		}
		if opts != "shell" && !strings.HasPrefix(opts, "shell,") {
			return nil
		}
		if v2 {
			return func(s *stream) { t.shellV2(s, cmd) }
		}
		return func(s *stream) { t.shellV1(s, cmd) }
	case strings.HasPrefix(name, "exec:"):
		cmd := strings.TrimPrefix(name, "exec:")
		return func(s *stream) { t.h.Exec(s.ctx, cmd, s.in, s) }
	case name == "sync:":
		return func(s *stream) { serveSync(s, t.o.FS) }
	case strings.HasPrefix(name, "tcp:"), strings.HasPrefix(name, "localabstract:"):
		return func(s *stream) { t.relay(s, name) }
	}
	return nil
}

func (t *transport) shellV1(s *stream, cmd string) {
	t.h.Shell(s.ctx, cmd, s.in, s, s)
}

func (t *transport) relay(s *stream, name string) {
	c, err := t.h.Open(s.ctx, name)
	if err != nil {
		t.logf("%s refused: %v", name, err)
		return
	}
	defer c.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(c, s.in)
		// The host closed its end: closing the socket tells the far side.
		c.Close()
		close(done)
	}()
	io.Copy(s, c)
	s.closeIn()
	<-done
}
