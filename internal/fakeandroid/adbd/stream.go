package adbd

import (
	"context"
	"errors"
	"io"
	"sync"
)

var errClosed = errors.New("stream closed")

// stream is one open service. Host→device bytes go through in (a pipe the
// service reads); device→host bytes are written with Write, one WRTE at a
// time, each waiting for the host's OKAY.
type stream struct {
	t             *transport
	local, remote uint32
	ctx           context.Context
	cancel        context.CancelFunc

	in     *io.PipeReader
	inW    *io.PipeWriter
	inbox  chan []byte
	ack    chan struct{}
	closed chan struct{}
	once   sync.Once
	sentCL sync.Once
}

func newStream(ctx context.Context, t *transport, local, remote uint32) *stream {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	s := &stream{t: t, local: local, remote: remote, ctx: ctx, cancel: cancel, in: pr, inW: pw,
		inbox: make(chan []byte, 4), ack: make(chan struct{}, 1), closed: make(chan struct{})}
	go s.deliver()
	return s
}

// receive queues host data; the host sends the next WRTE only after our
// OKAY, which deliver sends once the service has taken the bytes.
func (s *stream) receive(data []byte) {
	select {
	case s.inbox <- data:
	case <-s.closed:
	}
}

func (s *stream) deliver() {
	for {
		select {
		case data := <-s.inbox:
			if _, err := s.inW.Write(data); err != nil {
				// The service stopped reading; the bytes are dropped, but
				// the host still gets its OKAY so it is not stuck.
				_ = err
			}
			s.t.send(packet{cmd: cmdOKAY, arg0: s.local, arg1: s.remote})
		case <-s.closed:
			return
		}
	}
}

func (s *stream) acked(remote uint32) {
	select {
	case s.ack <- struct{}{}:
	default:
	}
}

// Write sends p to the host in WRTE packets no larger than maxdata, each
// after the host acknowledged the one before.
func (s *stream) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), int(s.t.maxData))]
		select {
		case <-s.closed:
			return n, errClosed
		default:
		}
		if err := s.t.send(packet{cmd: cmdWRTE, arg0: s.local, arg1: s.remote, data: append([]byte(nil), chunk...)}); err != nil {
			return n, err
		}
		select {
		case <-s.ack:
		case <-s.closed:
			return n, errClosed
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}

// closeIn ends the service's input.
func (s *stream) closeIn() { s.inW.Close() }

// closeFromHost: the host closed the stream (or the transport broke).
func (s *stream) closeFromHost() {
	s.shut()
	s.sendClose()
}

// finish: the service is done; tell the host.
func (s *stream) finish() {
	s.sendClose()
	s.shut()
}

func (s *stream) shut() {
	s.once.Do(func() {
		close(s.closed)
		s.cancel()
		s.inW.CloseWithError(io.EOF)
		s.t.remove(s.local)
	})
}

func (s *stream) sendClose() {
	s.sentCL.Do(func() {
		s.t.send(packet{cmd: cmdCLSE, arg0: s.local, arg1: s.remote})
	})
}
