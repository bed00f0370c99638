package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// Shell v2 packet ids (adb's shell_protocol.h): each packet is the id, a
// little-endian uint32 length and that many bytes.
const (
	idStdin      = 0
	idStdout     = 1
	idStderr     = 2
	idExit       = 3
	idCloseStdin = 4
	idWindowSize = 5
)

// Caps on what a command may leave in memory. Stdout of a one-shot
// command is whole files at most (a UI dump, a package list); stderr only
// explains a failure, so its head is enough.
const (
	maxStdout = 64 << 20
	maxStderr = 64 << 10
	// maxPacket bounds one shell v2 packet: adbd sends at most its
	// maxdata (1 MiB for adb 29) per packet; anything larger is a broken
	// stream, not data to buffer.
	maxPacket = 4 << 20
)

// Result is a finished shell command.
type Result struct {
	Stdout   []byte
	Stderr   []byte
	ExitCode int
}

// Shell runs argv on the device through shell v2 (each argument quoted
// with Quote) and returns its output and exit code. A non-zero exit is a
// Result, not an error: callers decide what a command's failure means.
func (c *Client) Shell(ctx context.Context, serial string, argv ...string) (Result, error) {
	s, err := c.startShell(ctx, serial, idleTimeout, false, argv)
	if err != nil {
		return Result{}, err
	}
	defer s.Close()
	out, rerr := readCapped(s.Stdout(), maxStdout)
	if rerr != nil {
		return Result{}, c.fail(serial, fmt.Sprintf("reading the output of %s failed", service(commandLine(argv))), rerr)
	}
	code, err := s.Wait()
	if err != nil {
		return Result{}, err
	}
	return Result{Stdout: out, Stderr: s.Stderr(), ExitCode: code}, nil
}

func readCapped(r io.Reader, limit int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := io.Copy(&b, io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("more than %d bytes", limit)
	}
	return b.Bytes(), nil
}

// Stream is a shell v2 command still running (am instrument): its stdout
// is read as it arrives, its stderr kept (the first 64 KiB).
type Stream struct {
	c      *Client
	serial string
	cmd    string
	cn     *conn
	out    *io.PipeReader
	done   chan struct{}
	// idle bounds the silence between two packets; 0 lets the command be
	// silent as long as it runs.
	idle time.Duration

	mu     sync.Mutex
	stderr []byte
	code   int
	exited bool
	err    error
}

// StartShell starts argv on the device and returns at once. Its stdout
// must be read (or the stream closed): the device's output waits for the
// reader, as a pipe does.
//
// ctx bounds the start only: the stream lives until the command ends or
// Close, as the session it keeps alive does (the helper's `am instrument`
// outlives the request that started it). The command may stay silent as
// long as it runs (am instrument prints nothing for a whole session): no
// deadline bounds the stream's reads, only the open. Whoever waits on a
// stream bounds that wait and closes it.
func (c *Client) StartShell(ctx context.Context, serial string, argv ...string) (*Stream, error) {
	return c.startShell(ctx, serial, 0, true, argv)
}

// startShell starts argv; idle bounds the silence between packets (0:
// none), and detach frees the stream from ctx once it started.
func (c *Client) startShell(ctx context.Context, serial string, idle time.Duration, detach bool, argv []string) (*Stream, error) {
	cmd := commandLine(argv)
	cn, err := c.open(ctx, serial, "shell,v2,raw:"+cmd)
	if err != nil {
		return nil, err
	}
	// The command gets no input: say so at once, as adb does when its
	// own stdin ends, so a command that reads stdin does not wait forever.
	_ = cn.SetWriteDeadline(time.Now().Add(deviceTimeout))
	if _, err := cn.Write([]byte{idCloseStdin, 0, 0, 0, 0}); err != nil {
		cn.Close()
		return nil, c.ioError(ctx, serial, cmd, err)
	}
	_ = cn.SetWriteDeadline(time.Time{})
	_ = cn.SetReadDeadline(time.Time{})
	pr, pw := io.Pipe()
	s := &Stream{c: c, serial: serial, cmd: cmd, cn: cn, out: pr, done: make(chan struct{}), idle: idle}
	if detach {
		cn.stop()
		ctx = context.Background()
	}
	go s.pump(ctx, pw)
	return s, nil
}

// pump demultiplexes the packets until the exit packet or the end of the
// connection.
func (s *Stream) pump(ctx context.Context, out *io.PipeWriter) {
	defer close(s.done)
	var r io.Reader = s.cn
	if s.idle > 0 {
		r = idleReader{s.cn, s.idle}
	}
	err := readPackets(r, func(id byte, data []byte) (bool, error) {
		switch id {
		case idStdout:
			if _, err := out.Write(data); err != nil {
				return false, nil // the reader closed: keep draining for the exit code
			}
		case idStderr:
			s.mu.Lock()
			if room := maxStderr - len(s.stderr); room > 0 {
				s.stderr = append(s.stderr, data[:min(room, len(data))]...)
			}
			s.mu.Unlock()
		case idExit:
			s.mu.Lock()
			s.exited = true
			if len(data) > 0 {
				s.code = int(data[0])
			}
			s.mu.Unlock()
			return true, nil
		}
		return false, nil
	})
	s.mu.Lock()
	switch {
	case s.exited:
	case ctx.Err() != nil:
		s.err = interrupted(ctx, s.serial)
	case err != nil && noAnswer(err):
		s.err = s.c.base(s.serial, fmt.Sprintf("%s sent nothing for %v while it ran %s", s.serial, s.idle, service(s.cmd))).
			Wrap(err).WithHint(stalledHint)
	case err != nil:
		s.err = s.c.fail(s.serial, fmt.Sprintf("the shell stream of %s broke: %v", service(s.cmd), err), err)
	default:
		s.err = s.c.fail(s.serial, fmt.Sprintf("the shell stream of %s ended without an exit code (the device went away?)", service(s.cmd)), nil)
	}
	s.mu.Unlock()
	out.Close()
}

// readPackets reads shell v2 packets and hands each to fn until fn says
// stop or the stream ends (nil at a clean end between packets).
func readPackets(r io.Reader, fn func(id byte, data []byte) (bool, error)) error {
	var hdr [5]byte
	buf := make([]byte, 0, 64<<10)
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		n := binary.LittleEndian.Uint32(hdr[1:])
		if n > maxPacket {
			return fmt.Errorf("a shell packet of %d bytes (id %d) exceeds the %d-byte limit", n, hdr[0], maxPacket)
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("a shell packet (id %d) was cut short: %w", hdr[0], err)
		}
		stop, err := fn(hdr[0], buf)
		if err != nil || stop {
			return err
		}
	}
}

// Stdout is the command's output as it arrives; it ends when the command
// exits or the stream breaks.
func (s *Stream) Stdout() io.Reader { return s.out }

// Stderr is what the command wrote to stderr so far (its first 64 KiB).
func (s *Stream) Stderr() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.stderr...)
}

// Done is closed when the command has exited or the stream has ended.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Wait waits for the command to end and returns its exit code; err is set
// when the stream ended without one (the device went away, ctx ended).
func (s *Stream) Wait() (int, error) {
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code, s.err
}

// Close ends the stream; on the device, adbd then ends the command's
// session (the command itself may outlive it, as any process whose
// terminal went away may).
func (s *Stream) Close() error {
	err := s.cn.Close()
	s.out.Close()
	<-s.done
	return err
}

// idleReader gives every read of a connection its own deadline: the
// stream may last long, but not a silence longer than idle.
type idleReader struct {
	c    net.Conn
	idle time.Duration
}

func (r idleReader) Read(p []byte) (int, error) {
	_ = r.c.SetReadDeadline(time.Now().Add(r.idle))
	return r.c.Read(p)
}

// idleWriter is idleReader's counterpart for what is sent: a device that
// stops reading an install's bytes for idle ends it.
type idleWriter struct {
	c    net.Conn
	idle time.Duration
}

func (w idleWriter) Write(p []byte) (int, error) {
	_ = w.c.SetWriteDeadline(time.Now().Add(w.idle))
	return w.c.Write(p)
}
