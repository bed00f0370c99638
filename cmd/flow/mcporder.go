package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// orderedConn hands the server one call at a time, in the order the client
// sent them: the SDK runs calls concurrently, and an agent that fires
// press, type, press without waiting expects them to reach the device in
// that order. Notifications — a cancellation above all — and the client's
// answers pass at once, so a running call can still be cancelled. The
// answer to a line that was no message waits for its turn like a call, so
// answers keep the order of the lines.
type orderedConn struct {
	out      *lineWriter
	mu       sync.Mutex
	wake     chan struct{} // closed and replaced on every change
	calls    []inbound
	others   []jsonrpc.Message
	inflight string // the forwarded call awaiting its response
	err      error  // how reading ended
	closed   bool
}

func newOrderedConn(out *lineWriter) *orderedConn {
	return &orderedConn{out: out, wake: make(chan struct{})}
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

func (c *orderedConn) changed() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// readAll reads ahead so that notifications are never stuck behind a
// queued call.
func (c *orderedConn) readAll(next func() (inbound, error)) {
	for {
		in, err := next()
		c.mu.Lock()
		switch {
		case err != nil:
			c.err = err
		case in.reply != nil || isCall(in.msg):
			c.calls = append(c.calls, in)
		default:
			c.others = append(c.others, in.msg)
		}
		c.changed()
		stop := err != nil || c.closed
		c.mu.Unlock()
		if stop {
			return
		}
	}
}

func isCall(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsCall()
}

// Read returns the next notification or answer, else the next call once
// the previous call has been answered. When the input has ended, the calls
// already read are served and answered before the end is reported: a
// client that writes its calls and closes stdin still gets every answer.
func (c *orderedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, io.EOF
		}
		if len(c.others) > 0 {
			m := c.others[0]
			c.others = c.others[1:]
			c.mu.Unlock()
			return m, nil
		}
		if c.inflight == "" && len(c.calls) > 0 {
			in := c.calls[0]
			c.calls = c.calls[1:]
			if in.reply != nil {
				c.mu.Unlock()
				if err := c.out.writeLine(in.reply); err != nil {
					return nil, err
				}
				continue
			}
			c.inflight = idKey(in.msg.(*jsonrpc.Request).ID)
			c.mu.Unlock()
			return in.msg, nil
		}
		if c.err != nil && len(c.calls) == 0 && c.inflight == "" {
			err := c.err
			c.mu.Unlock()
			return nil, err
		}
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (c *orderedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := c.out.write(m)
	if r, ok := m.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if idKey(r.ID) == c.inflight {
			c.inflight = ""
			c.changed()
		}
		c.mu.Unlock()
	}
	return err
}

// Close ends the session: a waiting Read returns. A read of stdin cannot
// be interrupted; the reader stops after its next line, and the process
// is ending anyway.
func (c *orderedConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		c.changed()
	}
	return nil
}

func (c *orderedConn) SessionID() string { return "" }
