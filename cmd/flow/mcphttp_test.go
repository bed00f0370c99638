package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpMCP is `flow mcp --listen` run in process.
type httpMCP struct {
	url    string // reachable from here: the port on 127.0.0.1 when every interface is served
	stderr *syncBuffer
}

// startHTTPMCP runs flow mcp with args and env vars and waits for the
// address it prints; a run that ends instead returns its exit code.
func startHTTPMCP(t *testing.T, env map[string]string, args ...string) (*httpMCP, int) {
	t.Helper()
	h := &httpMCP{stderr: &syncBuffer{}}
	e := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: h.stderr, Getenv: with139(func(k string) string { return env[k] }),
		StateDir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- run(ctx, e, append([]string{"flow", "mcp"}, args...)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-exit:
		case <-time.After(30 * time.Second):
			t.Error("flow mcp --listen did not stop")
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		select {
		case code := <-exit:
			exit <- code
			return h, code
		default:
		}
		if line, ok := strings.CutPrefix(strings.SplitN(h.stderr.String(), "\n", 2)[0], "flow mcp: serving "); ok && strings.Contains(h.stderr.String(), "\n") {
			u, err := url.Parse(strings.TrimSpace(line))
			if err != nil {
				t.Fatalf("%v: %s", err, h.stderr)
			}
			_, port, _ := net.SplitHostPort(u.Host)
			u.Host = net.JoinHostPort("127.0.0.1", port)
			h.url = u.String()
			return h, -1
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address: %s", h.stderr)
		}
	}
}

// post sends one JSON-RPC message as an MCP client would, with the given
// Authorization header (none when empty).
func (h *httpMCP) post(t *testing.T, auth, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// bearer sends a fixed Authorization header with every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connectSDK connects the Go SDK's client, sending token when not empty.
func (h *httpMCP) connectSDK(t *testing.T, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: h.url}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token, http.DefaultTransport}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func planOverHTTP(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_gesture",
		Arguments: map[string]any{"input": map[string]any{"kind": "rotate", "degrees": 35}, "platform": "ios"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"intent":"rotate"`) {
		t.Fatalf("plan_gesture over HTTP: %v %+v", err, res)
	}
}

// checkRefused: without the token, or with another, a request is answered
// 401 with a Bearer challenge and opens no session; the SDK's client
// cannot connect.
func checkRefused(t *testing.T, h *httpMCP, token string) {
	t.Helper()
	for _, auth := range []string{"", "Bearer " + token + "x", "Bearer " + token[:len(token)-1], "Basic " + token, token,
		"Bearer", "Bearer  " + token + " extra"} {
		resp := h.post(t, auth, initializeBody)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") ||
			resp.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("Authorization %q: %s %v %s", auth, resp.Status, resp.Header, body)
		}
		if bytes.Contains(body, []byte(token)) {
			t.Errorf("the refusal shows the token: %s", body)
		}
	}
	if _, err := h.connectSDK(t, ""); err == nil {
		t.Error("the SDK's client connected without the token")
	}
}

var printedToken = regexp.MustCompile(`Authorization: Bearer ([A-Za-z0-9_-]+)`)

// TestMCPOverHTTPOffLoopbackNeedsAToken: --listen on every interface (":0"
// and "0.0.0.0:0") makes a token with crypto/rand and prints it with how to
// send it; requests without it or with another get 401 and never reach the
// server; the SDK's client sending it is served. Each run makes its own.
func TestMCPOverHTTPOffLoopbackNeedsAToken(t *testing.T) {
	seen := map[string]bool{}
	for _, addr := range []string{":0", "0.0.0.0:0"} {
		h, code := startHTTPMCP(t, nil, "--listen", addr)
		if code >= 0 {
			t.Fatalf("--listen %s: exit %d: %s", addr, code, h.stderr)
		}
		m := printedToken.FindStringSubmatch(h.stderr.String())
		if m == nil || len(m[1]) < 32 {
			t.Fatalf("--listen %s: no token printed: %s", addr, h.stderr)
		}
		token := m[1]
		if seen[token] {
			t.Errorf("the same token twice: %s", token)
		}
		seen[token] = true
		checkRefused(t, h, token)
		resp := h.post(t, "Bearer "+token, initializeBody)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" {
			t.Errorf("--listen %s: initialize with the token: %s", addr, resp.Status)
		}
		cs, err := h.connectSDK(t, token)
		if err != nil {
			t.Fatalf("--listen %s: the SDK's client with the token: %v", addr, err)
		}
		planOverHTTP(t, cs)
	}
}

// TestMCPOverHTTPTakesAGivenToken: --token, or FLOW_MCP_TOKEN, is the token
// required (and not printed); on loopback no token is needed unless one is
// given; a token too short to resist guessing, or one that cannot be sent in
// a header, is refused before anything listens, without being shown.
func TestMCPOverHTTPTakesAGivenToken(t *testing.T) {
	const given = "correct-horse-battery-staple-42"
	for name, c := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"--token":        {nil, []string{"--listen", ":0", "--token", given}},
		"FLOW_MCP_TOKEN": {map[string]string{"FLOW_MCP_TOKEN": given}, []string{"--listen", "0.0.0.0:0"}},
		"loopback":       {nil, []string{"--listen", "127.0.0.1:0", "--token", given}},
	} {
		t.Run(name, func(t *testing.T) {
			h, code := startHTTPMCP(t, c.env, c.args...)
			if code >= 0 {
				t.Fatalf("exit %d: %s", code, h.stderr)
			}
			if strings.Contains(h.stderr.String(), given) || !strings.Contains(h.stderr.String(), "Authorization: Bearer") {
				t.Errorf("stderr: %s", h.stderr)
			}
			checkRefused(t, h, given)
			cs, err := h.connectSDK(t, given)
			if err != nil {
				t.Fatal(err)
			}
			planOverHTTP(t, cs)
		})
	}
	t.Run("loopback without a token", func(t *testing.T) {
		h, code := startHTTPMCP(t, nil, "--listen", "127.0.0.1:0")
		if code >= 0 {
			t.Fatalf("exit %d: %s", code, h.stderr)
		}
		if strings.Contains(h.stderr.String(), "Bearer") {
			t.Errorf("a token on loopback: %s", h.stderr)
		}
		cs, err := h.connectSDK(t, "")
		if err != nil {
			t.Fatal(err)
		}
		planOverHTTP(t, cs)
	})
	t.Run("stdio", func(t *testing.T) {
		r := runFlow(t, "", "mcp", "--token", given)
		if r.code != 2 || strings.Contains(r.stderr, given) || !strings.Contains(r.stderr, "--listen") {
			t.Errorf("--token without --listen: %s", r)
		}
	})
	for name, bad := range map[string]string{"short": "hunter2hunter2", "space": "correct horse battery staple", "newline": "correct-horse-battery\nstaple"} {
		t.Run(name, func(t *testing.T) {
			h, code := startHTTPMCP(t, nil, "--listen", ":0", "--token", bad)
			if code != 2 || strings.Contains(h.stderr.String(), bad) || !strings.Contains(h.stderr.String(), "INVALID_ARGS") {
				t.Errorf("exit %d: %s", code, h.stderr)
			}
		})
	}
}

// TestMCPOverHTTPDisconnectCancelsTheRun: a client that drops its
// connection in the middle of a long run_flows (no cancellation sent, as
// when its process dies or its network goes) cancels the run: a second
// client's device call is served promptly instead of waiting for the run.
func TestMCPOverHTTPDisconnectCancelsTheRun(t *testing.T) {
	h, code := startHTTPMCP(t, nil, "--listen", "127.0.0.1:0")
	if code >= 0 {
		t.Fatalf("exit %d: %s", code, h.stderr)
	}
	resp := h.post(t, "", initializeBody)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: %s", resp.Status)
	}
	send := func(ctx context.Context, body string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	send(context.Background(), `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	long := filepath.Join(t.TempDir(), "long.yaml")
	os.WriteFile(long, []byte("appId: com.example.shop\n---\n- launchApp\n- repeat:\n    times: 1000000\n    commands:\n      - tapOn: Log in\n      - back\n"), 0o644)
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "run_flows", "arguments": map[string]any{"paths": []string{long}}, "_meta": map[string]any{"progressToken": "long"}}})
	ctx, hangUp := context.WithCancel(context.Background())
	defer hangUp()
	run := send(ctx, string(call))
	events := bufio.NewReader(run.Body)
	for deadline := time.Now().Add(30 * time.Second); ; {
		line, err := events.ReadString('\n')
		if err != nil || time.Now().After(deadline) {
			t.Fatalf("no progress from the run: %v %s", err, h.stderr)
		}
		if strings.Contains(line, "notifications/progress") {
			break
		}
	}
	hangUp()
	run.Body.Close()

	begin := time.Now()
	cs, err := h.connectSDK(t, "")
	if err != nil {
		t.Fatal(err)
	}
	callCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "snapshot"})
	if err != nil || res.IsError {
		t.Fatalf("a second client's snapshot after %v: %v %+v", time.Since(begin), err, res)
	}
}
