package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport is flow mcp's transport on stdin/stdout: newline-delimited
// JSON-RPC, as the SDK's IOTransport reads it, except that the SDK ends the
// session at the first line it cannot decode (dropping the answers to the
// calls it had already read), while here such a line is answered with a
// JSON-RPC error in its turn and the session goes on. Calls are served one
// at a time in the order they came (orderedConn).
type stdioTransport struct {
	in  io.Reader
	out io.Writer
}

func (t stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	lines := newLineReader(t.in, maxLine)
	c := newOrderedConn(&lineWriter{w: t.out})
	go c.readAll(func() (inbound, error) { return readInbound(lines) })
	return c, nil
}

// inbound is what one input line asks for: a message for the server, or
// the JSON-RPC error answering a line that is none.
type inbound struct {
	msg   jsonrpc.Message
	reply []byte // a whole response line, without the newline
}

// readInbound reads lines until one that is not blank.
func readInbound(lines *lineReader) (inbound, error) {
	for {
		text, size, err := lines.next()
		if err != nil {
			return inbound{}, err
		}
		if size > maxLine {
			return inbound{reply: errorReply(recoverID(text), jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("the message is %d bytes, over the 16 MiB a message may have", size))}, nil
		}
		if text = bytes.TrimSpace(text); len(text) > 0 {
			return decodeInbound(text), nil
		}
	}
}

// decodeInbound decodes one line as the SDK would, answering what it would
// refuse. The messages describe the fault, never quote the line.
func decodeInbound(text []byte) inbound {
	var raw json.RawMessage
	if err := json.Unmarshal(text, &raw); err != nil {
		return inbound{reply: errorReply(recoverID(text), jsonrpc.CodeParseError, "parse error: "+err.Error())}
	}
	switch text[0] {
	case '[':
		// The MCP specification dropped JSON-RPC batches in 2025-06-18,
		// and no SDK client sends them.
		return inbound{reply: errorReply(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line")}
	case '{':
	default:
		return inbound{reply: errorReply(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")}
	}
	msg, err := jsonrpc.DecodeMessage(text)
	if err != nil {
		return inbound{reply: errorReply(recoverID(text), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())}
	}
	// The SDK reads an object with an id and no method as a response, and
	// drops a response to nothing it asked without a word.
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result == nil && r.Error == nil {
		return inbound{reply: errorReply(recoverID(text), jsonrpc.CodeInvalidRequest,
			`invalid request: a message needs a "method" (a request) or a "result" or "error" (a response)`)}
	}
	return inbound{msg: msg}
}

// errorReply is a JSON-RPC error response; a nil id is written as null,
// as JSON-RPC asks when the request's id cannot be known.
func errorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: message}})
	return b
}

// recoverID reads the "id" of a message that cannot be decoded whole (too
// long, too deep, broken after its id), so that the client's call gets its
// error instead of waiting for ever. Only a string or number id met among
// the top-level keys before anything broken counts; keys nesting deeper
// than a few levels before it give up.
func recoverID(text []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key == "id" {
			v, err := dec.Token()
			if err != nil {
				return nil
			}
			switch v := v.(type) {
			case string, json.Number:
				b, _ := json.Marshal(v)
				return b
			}
			return nil
		}
		if !skipValue(dec) {
			return nil
		}
	}
	return nil
}

// skipValue reads past one value of at most a few levels.
func skipValue(dec *json.Decoder) bool {
	const maxDepth = 64
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth > maxDepth {
				return false
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}

// lineWriter writes whole lines, one writer at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) writeLine(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(append(b, '\n'))
	return err
}

func (l *lineWriter) write(m jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return l.writeLine(b)
}
