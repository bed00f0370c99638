package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/flow-runner/flow/canonical"
)

// mcpTokenEnv names the variable that gives `flow mcp --listen` its bearer
// token when --token does not.
const mcpTokenEnv = "FLOW_MCP_TOKEN"

// minTokenLen keeps a chosen token out of reach of guessing over the
// network; a made one has 43 characters (256 random bits).
const minTokenLen = 16

// checkToken refuses a token too short to resist guessing, or one that
// cannot travel in a header as RFC 6750's b64token. The token itself is
// never in the message: it is a secret.
func checkToken(token string) error {
	ok := len(token) >= minTokenLen
	for i := 0; i < len(token) && ok; i++ {
		c := token[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/=", c) >= 0
	}
	if !ok {
		return canonical.Errorf(canonical.CodeInvalidArgs, "the token given (%d characters) is not a bearer token of at least %d characters", len(token), minTokenLen).
			WithHint("use at least 16 letters, digits and -._~+/ characters, or give none and let flow make one")
	}
	return nil
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", canonical.Errorf(canonical.CodeInternal, "making a token: %v", err).Wrap(err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// isLoopback reports whether a listener is reachable from this machine
// only. An unspecified address (":7421", "0.0.0.0:7421") is every
// interface.
func isLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// requireToken answers 401 to a request without "Authorization: Bearer
// token", before anything of it reaches the MCP server. The tokens are
// compared as hashes, in constant time, so that neither the time taken nor
// the length tells a guesser anything.
func requireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		sum := sha256.Sum256([]byte(got))
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="flow mcp"`)
			http.Error(w, "flow mcp needs the header Authorization: Bearer TOKEN, with the token it printed when it started or the one it was given",
				http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// callHeader carries, inside the server, the key of the HTTP request a
// call came in; the SDK hands tool handlers the request's header only.
const callHeader = "Flow-Call-Request"

// httpCalls ties each call to the HTTP request that carried it. The SDK
// keeps a call running after its client has gone (its context ends only
// with the session or a cancellation notification), and a run_flows would
// hold the device from the next client until the run ended. Without an
// event store a response cannot be resumed, so a call whose request has
// ended can never be answered: it is cancelled.
type httpCalls struct {
	mu   sync.Mutex
	live map[string]context.Context
}

func (h *httpCalls) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := rand.Text()
		// Set, not added: a client's own value never counts.
		r.Header.Set(callHeader, key)
		h.mu.Lock()
		h.live[key] = r.Context()
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			delete(h.live, key)
			h.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// bind returns ctx, ended also when the HTTP request that carried req
// ends. Over stdio (h nil, or no header) it is ctx.
func (h *httpCalls) bind(ctx context.Context, req *mcp.CallToolRequest) (context.Context, context.CancelFunc) {
	if h == nil || req == nil || req.Extra == nil || req.Extra.Header == nil {
		return ctx, func() {}
	}
	key := req.Extra.Header.Get(callHeader)
	if key == "" {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	h.mu.Lock()
	httpCtx, ok := h.live[key]
	h.mu.Unlock()
	if !ok {
		// The request ended before the call started.
		cancel()
		return ctx, cancel
	}
	stop := context.AfterFunc(httpCtx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}
