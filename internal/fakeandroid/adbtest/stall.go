package adbtest

import (
	"net"
	"sync"
	"testing"

	"github.com/flow-runner/flow/internal/fakeandroid/adbd"
)

// Relay sits between the adb server and a fake device and can stop
// answering while it keeps every connection open: the server still lists
// the device as "device", and whatever it sends from then on goes
// unanswered, as over a wedged USB link, a frozen emulator or a dead NAT
// in front of `adb connect`. Nothing is closed or refused, so only a
// deadline can tell the link is gone.
type Relay struct {
	target string
	l      net.Listener

	mu      sync.Mutex
	stalled bool
	conns   []net.Conn
	// closed ends every held copy when the test ends.
	closed chan struct{}
}

// StartStalling is Start with a Relay between the server and the device.
func StartStalling(t testing.TB, h adbd.Handler, o adbd.Options) (*Device, *Relay) {
	t.Helper()
	RequireADB(t)
	addr, fs := serve(t, h, o)
	r := NewRelay(t, addr)
	d := Connect(t, r.Addr())
	d.FS = fs
	return d, r
}

// NewRelay relays connections made to its address to target until the
// test ends.
func NewRelay(t testing.TB, target string) *Relay {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{target: target, l: l, closed: make(chan struct{})}
	go r.accept()
	t.Cleanup(r.close)
	return r
}

// Addr is where the adb server connects (the device's serial).
func (r *Relay) Addr() string { return r.l.Addr().String() }

// Stall stops carrying bytes either way from now on; the connections stay
// open until the test ends.
func (r *Relay) Stall() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stalled = true
}

func (r *Relay) isStalled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stalled
}

func (r *Relay) accept() {
	for {
		c, err := r.l.Accept()
		if err != nil {
			return
		}
		d, err := net.Dial("tcp", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, d)
		r.mu.Unlock()
		go r.copy(d, c)
		go r.copy(c, d)
	}
}

// copy carries src to dst until the relay stalls; then it keeps what it
// read and waits for the test's end without reading more, so the sender's
// buffers fill as they would behind a wedged link.
func (r *Relay) copy(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if r.isStalled() {
				<-r.closed
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

func (r *Relay) close() {
	r.l.Close()
	r.mu.Lock()
	conns := r.conns
	r.conns = nil
	r.mu.Unlock()
	close(r.closed)
	for _, c := range conns {
		c.Close()
	}
}

// WedgedServer listens where an adb server would and accepts every
// connection but never answers nor closes one: an adb server that hangs.
// It returns the port (for ANDROID_ADB_SERVER_PORT); it stops when the test
// ends.
func WedgedServer(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return l.Addr().(*net.TCPAddr).Port
}
