package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// orderedTransport hands the server one call at a time, in the order the
// client sent them: the SDK runs calls concurrently, and an agent that
// fires press, type, press without waiting expects them to reach the
// device in that order. Notifications — a cancellation above all — and
// the client's answers pass at once, so a running call can still be
// cancelled.
type orderedTransport struct{ inner mcp.Transport }

func (t orderedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	oc := &orderedConn{Connection: c, wake: make(chan struct{})}
	go oc.readAll(context.WithoutCancel(ctx))
	return oc, nil
}

type orderedConn struct {
	mcp.Connection
	mu       sync.Mutex
	wake     chan struct{} // closed and replaced on every change
	calls    []jsonrpc.Message
	others   []jsonrpc.Message
	inflight string // the forwarded call awaiting its response
	err      error  // how reading ended
}

func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

func (c *orderedConn) changed() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// readAll reads ahead so that notifications are never stuck behind a
// queued call.
func (c *orderedConn) readAll(ctx context.Context) {
	for {
		m, err := c.Connection.Read(ctx)
		c.mu.Lock()
		switch {
		case err != nil:
			c.err = err
		case isCall(m):
			c.calls = append(c.calls, m)
		default:
			c.others = append(c.others, m)
		}
		c.changed()
		c.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func isCall(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.IsCall()
}

// Read returns the next notification or answer, else the next call once
// the previous call has been answered; when the input has ended, the
// calls already read are still served before the end is reported.
func (c *orderedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if len(c.others) > 0 {
			m := c.others[0]
			c.others = c.others[1:]
			c.mu.Unlock()
			return m, nil
		}
		if c.inflight == "" && len(c.calls) > 0 {
			m := c.calls[0]
			c.calls = c.calls[1:]
			c.inflight = idKey(m.(*jsonrpc.Request).ID)
			c.mu.Unlock()
			return m, nil
		}
		if c.err != nil && len(c.calls) == 0 {
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
	err := c.Connection.Write(ctx, m)
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
