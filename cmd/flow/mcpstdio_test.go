package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawMCP runs `flow mcp` in process on pipes and speaks raw JSON-RPC lines
// to it, so that a test can send what no SDK client would.
type rawMCP struct {
	t       *testing.T
	in      *io.PipeWriter
	answers chan map[string]any
	exit    chan int
	stderr  *syncBuffer
}

func startRawMCP(t *testing.T) *rawMCP {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &rawMCP{t: t, in: inW, answers: make(chan map[string]any, 64), exit: make(chan int, 1), stderr: &syncBuffer{}}
	env := Env{Stdin: inR, Stdout: outW, Stderr: h.stderr, Getenv: getenv139, StateDir: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(func() {
		inW.Close()
		cancel()
	})
	go func() {
		code := run(ctx, env, []string{"flow", "mcp"})
		outW.Close()
		// Writes to a server that ended fail instead of blocking.
		inR.Close()
		h.exit <- code
	}()
	go func() {
		dec := json.NewDecoder(outR)
		for {
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				close(h.answers)
				return
			}
			h.answers <- m
		}
	}()
	return h
}

func (h *rawMCP) send(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, line+"\n"); err != nil {
		h.t.Fatalf("writing %.80q: %v\n%s", line, err, h.stderr)
	}
}

// next is the next message from the server; a server that stops answering
// or ends fails the test.
func (h *rawMCP) next() map[string]any {
	h.t.Helper()
	select {
	case m, ok := <-h.answers:
		if !ok {
			select {
			case code := <-h.exit:
				h.t.Fatalf("the server ended with exit %d\n%s", code, h.stderr)
			case <-time.After(10 * time.Second):
			}
			h.t.Fatalf("the server closed its output\n%s", h.stderr)
		}
		return m
	case <-time.After(60 * time.Second):
		h.t.Fatalf("no answer within a minute\n%s", h.stderr)
	}
	return nil
}

func callLine(id any, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// TestMCPStdioSurvivesBadInput: a line that is not JSON, a 10,000-deep
// array, a request whose value nests 10,000 deep, a 17 MiB request, a
// batch and a JSON value that is no request each get a JSON-RPC error
// (-32700 parse error or -32600 invalid request, with the request's id when
// it can be read, else null), and the server goes on: the call received
// before them, still running when they arrive, and the call after them are
// answered, and closing stdin ends the server with exit 0.
func TestMCPStdioSurvivesBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 17 MiB line")
	}
	h := startRawMCP(t)
	h.initialize()
	// A run of a few seconds, still going when the bad lines arrive.
	long := filepath.Join(t.TempDir(), "long.yaml")
	os.WriteFile(long, []byte("appId: com.example.shop\n---\n- launchApp\n- repeat:\n    times: 1500\n    commands:\n      - tapOn: Log in\n      - back\n"), 0o644)
	h.send(callLine(2, "run_flows", map[string]any{"paths": []string{long}}))
	bad := badMCPLines()
	for _, b := range bad {
		h.send(b.line)
	}
	h.send(callLine(8, "plan_gesture", map[string]any{"input": map[string]any{"kind": "rotate", "degrees": 35}}))

	if m := h.next(); m["id"] != float64(2) || m["result"] == nil {
		t.Fatalf("the call received before the bad lines: %.300s", mustJSON(t, m))
	} else if res := m["result"].(map[string]any); res["isError"] == true || !strings.Contains(mustJSON(t, res), `\"success\":true`) {
		t.Errorf("run_flows: %.600s", mustJSON(t, res))
	}
	for _, b := range bad {
		b.check(t, h.next())
	}
	m := h.next()
	if m["id"] != float64(8) || !strings.Contains(mustJSON(t, m["result"]), `\"intent\":\"rotate\"`) {
		t.Fatalf("the call after the bad lines: %.300s", mustJSON(t, m))
	}
	h.in.Close()
	select {
	case code := <-h.exit:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, h.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("flow mcp did not end when stdin closed")
	}
	if bytes.Contains([]byte(h.stderr.String()), []byte("INTERNAL")) {
		t.Errorf("stderr: %s", h.stderr)
	}
}

// badMCPLine is a line no server should read as a message, and what the
// answer to it must be.
type badMCPLine struct {
	name, line string
	id         any // the id the answer carries: the line's own when it can be read, else null
	codes      []float64
}

func badMCPLines() []badMCPLine {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	return []badMCPLine{
		{"not JSON", `this is not json {`, nil, []float64{-32700}},
		{"10,000-deep array", deep, nil, []float64{-32700, -32600}},
		{"10,000-deep argument", strings.Replace(callLine(3, "plan_gesture", map[string]any{"input": "DEEP"}), `"DEEP"`, deep, 1), float64(3), []float64{-32700, -32600}},
		{"17 MiB request", callLine(4, "plan_gesture", map[string]any{"input": map[string]any{"kind": "pinch", "scale": 0.5}, "pad": strings.Repeat("x", 17<<20)}), float64(4), []float64{-32600}},
		{"batch", "[" + callLine(5, "plan_gesture", nil) + "]", nil, []float64{-32600}},
		{"not a request", `{"jsonrpc":"2.0","id":"six","params":{}}`, "six", []float64{-32600}},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, float64(7), []float64{-32600}},
	}
}

func (b badMCPLine) check(t *testing.T, m map[string]any) {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	id, hasID := m["id"]
	if e == nil || !hasID || id != b.id || m["jsonrpc"] != "2.0" || e["message"] == "" {
		t.Errorf("%s: answered %.300s", b.name, mustJSON(t, m))
		return
	}
	found := false
	for _, c := range b.codes {
		found = found || e["code"] == c
	}
	if !found {
		t.Errorf("%s: error code %v, want one of %v", b.name, e["code"], b.codes)
	}
}

func (h *rawMCP) initialize() {
	h.t.Helper()
	h.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := h.next(); m["id"] != float64(1) || m["result"] == nil {
		h.t.Fatalf("initialize: %v", m)
	}
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPStdioAnswersEachBadLine: each bad line alone, in a session of its
// own, is answered with its error, and the next call is served.
func TestMCPStdioAnswersEachBadLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 17 MiB line")
	}
	for _, b := range badMCPLines() {
		t.Run(b.name, func(t *testing.T) {
			h := startRawMCP(t)
			h.initialize()
			h.send(b.line)
			h.send(callLine(9, "plan_gesture", map[string]any{"input": map[string]any{"kind": "pinch", "scale": 0.5}}))
			b.check(t, h.next())
			if m := h.next(); m["id"] != float64(9) || m["result"] == nil {
				t.Errorf("the call after it: %.300s", mustJSON(t, m))
			}
		})
	}
}

// TestMCPStdioAnswersEveryCallBeforeTheEnd: a client that writes its calls
// and closes stdin at once gets every answer, the last one included, before
// the server ends with exit 0.
func TestMCPStdioAnswersEveryCallBeforeTheEnd(t *testing.T) {
	h := startRawMCP(t)
	h.initialize()
	for id := 2; id <= 3; id++ {
		h.send(callLine(id, "plan_gesture", map[string]any{"input": map[string]any{"kind": "rotate", "degrees": 10 * id}}))
	}
	// The last call takes a moment: it is still running when the input ends.
	flow := filepath.Join(t.TempDir(), "short.yaml")
	os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp\n- repeat:\n    times: 300\n    commands:\n      - tapOn: Log in\n      - back\n"), 0o644)
	h.send(callLine(4, "run_flows", map[string]any{"paths": []string{flow}}))
	h.in.Close()
	for id := 2; id <= 4; id++ {
		if m := h.next(); m["id"] != float64(id) || m["result"] == nil {
			t.Fatalf("answer %d: %.300s", id, mustJSON(t, m))
		}
	}
	select {
	case code := <-h.exit:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, h.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("flow mcp did not end when stdin closed")
	}
}
