package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// referenceLines splits as bufio.ScanLines does, without a bound.
func referenceLines(in []byte) [][]byte {
	var out [][]byte
	for len(in) > 0 {
		line := in
		if i := bytes.IndexByte(in, '\n'); i >= 0 {
			line, in = in[:i], in[i+1:]
		} else {
			in = nil
		}
		out = append(out, bytes.TrimSuffix(line, []byte("\r")))
	}
	return out
}

// checkLineReader: every line comes back whole with its size, or, over the
// bound, as its first max bytes with its true size, whatever the buffer
// and however the input arrives.
func checkLineReader(t *testing.T, in []byte, max, buffer int, oneByte bool) {
	t.Helper()
	var r io.Reader = bytes.NewReader(in)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	lr := newLineReaderSize(r, max, buffer)
	for i, want := range referenceLines(in) {
		text, size, err := lr.next()
		if err != nil {
			t.Fatalf("%q: line %d: %v", in, i+1, err)
		}
		if size != len(want) || !bytes.Equal(text, want[:min(len(want), max)]) {
			t.Fatalf("%q (max %d, buffer %d): line %d is %q (%d bytes), want %q (%d bytes)", in, max, buffer, i+1, text, size, want, len(want))
		}
	}
	if _, _, err := lr.next(); !errors.Is(err, io.EOF) {
		t.Fatalf("%q: after the last line: %v", in, err)
	}
}

func TestLineReaderSplitsAsScanLines(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "\n", "\r\n", "\r", "a", "a\r", "a\n", "a\r\nb", "a\rb\n", "\n\n\r\n",
		"0123456789abcdef\r\n", "0123456789abcdef0\r\nx", "0123456789abcdefghijklmnopqrstuvwxyz0123456789\r\n\r\n",
		"0123456789abcdefghijklmnopqrstuvwxyz0123456789\r", "0123456789abcde\r\n", "0123456789abcdef\rX\r\n"} {
		for _, oneByte := range []bool{false, true} {
			checkLineReader(t, []byte(in), 16, 16, oneByte)
			checkLineReader(t, []byte(in), 17, 16, oneByte)
			checkLineReader(t, []byte(in), 40, 16, oneByte)
		}
	}
}

func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"a\r\nb", "0123456789abcdef0\r\nx", "\r\r\n\n\r"} {
		f.Add([]byte(s), uint8(16), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint8, oneByte bool) {
		checkLineReader(t, in, int(max), 16, oneByte)
	})
}

func FuzzMCPLine(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"id":"x","jsonrpc":"1.0"}`, `[{}]`, `{"a":[[[1]]],"id":2,`, `nul`, `{"id":1.5e3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		in := decodeInbound(line)
		if (in.msg == nil) == (in.reply == nil) {
			t.Fatalf("%q: neither or both a message and a reply", line)
		}
		if in.reply != nil {
			checkErrorReply(t, line, in.reply)
		}
	})
}

// checkErrorReply: a JSON-RPC 2.0 error response with a code of the
// specification's and an id that is null, a string or a number.
func checkErrorReply(t *testing.T, line, reply []byte) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := jsonUnmarshalStrict(reply, &r); err != nil || r.JSONRPC != "2.0" || r.ID == nil || r.Error == nil ||
		(r.Error.Code != -32700 && r.Error.Code != -32600) || r.Error.Message == "" {
		t.Fatalf("%q: reply %s (%v)", line, reply, err)
	}
	var id any
	json.Unmarshal(r.ID, &id)
	switch id.(type) {
	case nil, string, float64:
	default:
		t.Fatalf("%q: id %s", line, r.ID)
	}
}

func jsonUnmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
