package webdriver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
)

// fakeW3C is a scripted WebDriver endpoint: each request is answered by the
// first rule whose "METHOD /path" suffix matches, and every request is
// recorded.
type fakeW3C struct {
	t      *testing.T
	mu     sync.Mutex
	seen   []string
	bodies map[string][]string
	rules  []rule
	srv    *httptest.Server
}

type rule struct {
	match string
	// drop closes the connection without answering the first drop
	// requests that match.
	drop int
	// fail answers the first fail requests that match with a W3C
	// "javascript error".
	fail int
	// failFrom answers matching requests from the failFrom-th on (1-based)
	// with a W3C "unknown error"; hits counts the matches so far.
	failFrom, hits int
	status         int
	body           string
	delay          time.Duration
}

// matches reads the rule as "METHOD /path-suffix" or "/path-suffix".
func (r rule) matches(method, path string) bool {
	if m, p, ok := strings.Cut(r.match, " "); ok {
		return method == m && strings.HasSuffix(path, p)
	}
	return strings.HasSuffix(path, r.match)
}

func newFake(t *testing.T, rules ...rule) *fakeW3C {
	t.Helper()
	f := &fakeW3C{t: t, rules: rules, bodies: map[string][]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeW3C) serve(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + r.URL.Path
	data, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.seen = append(f.seen, key)
	f.bodies[key] = append(f.bodies[key], string(data))
	var hit *rule
	for i := range f.rules {
		if f.rules[i].matches(r.Method, r.URL.Path) {
			hit = &f.rules[i]
			break
		}
	}
	drop, fail := false, false
	if hit != nil {
		hit.hits++
	}
	if hit != nil && hit.failFrom > 0 && hit.hits >= hit.failFrom {
		f.mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"value":{"error":"unknown error","message":"unknown error: the browser went away"}}`)
		return
	}
	if hit != nil && hit.drop > 0 {
		hit.drop--
		drop = true
	} else if hit != nil && hit.fail > 0 {
		hit.fail--
		fail = true
	}
	f.mu.Unlock()
	if hit == nil {
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"value":{"error":"unknown command","message":"no rule for `+key+`"}}`)
		return
	}
	if drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
		return
	}
	if fail {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"value":{"error":"javascript error","message":"javascript error: Execution context was destroyed."}}`)
		return
	}
	if hit.delay > 0 {
		select {
		case <-time.After(hit.delay):
		case <-r.Context().Done():
			return
		}
	}
	status := hit.status
	if status == 0 {
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, hit.body)
}

func (f *fakeW3C) count(suffix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, s := range f.seen {
		if strings.HasSuffix(s, suffix) {
			n++
		}
	}
	return n
}

const sessionOK = `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome","browserVersion":"156"}}}`

// withSession is a client with session s1 open on the fake.
func withSession(t *testing.T, f *fakeW3C, opts webdriver.ClientOptions) *webdriver.Client {
	t.Helper()
	f.rules = append([]rule{{match: "POST /session", body: sessionOK}}, f.rules...)
	c := webdriver.NewClient(f.srv.URL, opts)
	if _, err := c.NewSession(context.Background(), map[string]any{"browserName": "chrome"}, time.Second); err != nil {
		t.Fatal(err)
	}
	return c
}

func coded(t *testing.T, err error) *canonical.Error {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok {
		t.Fatalf("want a coded error, got %v", err)
	}
	return ce
}

func TestClientDecodesW3CErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		status     int
		code       canonical.Code
		w3c        string
	}{
		{"command error", `{"value":{"error":"move target out of bounds","message":"move target out of bounds\n  (Session info: chrome=156)","stacktrace":"#0 ..."}}`,
			500, canonical.CodeCommandFailed, "move target out of bounds"},
		{"no such element", `{"value":{"error":"no such element","message":"no such element: Unable to locate element"}}`,
			404, canonical.CodeCommandFailed, "no such element"},
		{"session gone", `{"value":{"error":"invalid session id","message":"invalid session id"}}`,
			404, canonical.CodeDeviceUnavailable, "invalid session id"},
		{"not implemented", `{"value":{"error":"unknown command","message":"unknown command: actions"}}`,
			404, canonical.CodeUnsupportedOperation, "unknown command"},
		{"error with 200", `{"value":{"error":"javascript error","message":"x is not defined"}}`,
			200, canonical.CodeCommandFailed, "javascript error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, rule{match: "/actions", status: c.status, body: c.body})
			cl := withSession(t, f, webdriver.ClientOptions{})
			err := cl.PerformActions(context.Background(), map[string]any{"actions": []any{}}, 0)
			ce := coded(t, err)
			if ce.Code != c.code || ce.Details["w3cError"] != c.w3c || ce.Details["command"] != "POST /session/{id}/actions" {
				t.Fatalf("got %s %v", ce.Code, ce.Details)
			}
			if msg, _ := ce.Details["w3cMessage"].(string); msg == "" || strings.Contains(msg, "\n") {
				t.Errorf("w3cMessage %q: want the first line of the message", msg)
			}
			if ce.Hint == "" || !strings.Contains(ce.Message, c.w3c) {
				t.Errorf("message %q, hint %q", ce.Message, ce.Hint)
			}
		})
	}
}

func TestClientReportsNonWebDriverAnswers(t *testing.T) {
	t.Parallel()
	f := newFake(t, rule{match: "/url", status: 502, body: "<html>Bad Gateway</html>"}, rule{match: "/title", body: "not json"})
	cl := withSession(t, f, webdriver.ClientOptions{})
	ce := coded(t, cl.Navigate(context.Background(), "http://127.0.0.1/"))
	if ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "WEBDRIVER_BAD_RESPONSE" || ce.Details["httpStatus"] != 502 {
		t.Fatalf("got %s %v", ce.Code, ce.Details)
	}
}

// A safe request is repeated after the connection broke; an action is
// never repeated, because it may have run.
func TestClientRetriesOnlySafeRequests(t *testing.T) {
	t.Parallel()
	f := newFake(t,
		rule{match: "GET /session/s1/screenshot", drop: 1, body: `{"value":"iVBORw0KGgo="}`},
		rule{match: "/actions", drop: 1, body: `{"value":null}`},
		rule{match: "/execute/sync", drop: 2, body: `{"value":7}`})
	cl := withSession(t, f, webdriver.ClientOptions{Backoff: time.Millisecond})
	ctx := context.Background()
	if _, err := cl.Screenshot(ctx); err != nil {
		t.Fatalf("screenshot after one dropped connection: %v", err)
	}
	if n := f.count("/screenshot"); n != 2 {
		t.Errorf("screenshot sent %d times, want 2", n)
	}
	err := cl.PerformActions(ctx, map[string]any{"actions": []any{}}, 0)
	if ce := coded(t, err); ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "WEBDRIVER_UNREACHABLE" {
		t.Errorf("dropped actions: %s %v", ce.Code, ce.Details)
	}
	if n := f.count("/actions"); n != 1 {
		t.Errorf("actions sent %d times, want exactly 1", n)
	}
	// A script that changes the page is not repeated; a read-only one is.
	var v int
	if err := cl.Execute(ctx, "window.x = 1", nil, false, &v); err == nil {
		t.Errorf("a dropped write script succeeded")
	}
	if err := cl.Execute(ctx, "return 7", nil, true, &v); err != nil || v != 7 {
		t.Errorf("read-only script after a dropped connection: %v, %d", err, v)
	}
	if n := f.count("/execute/sync"); n != 3 {
		t.Errorf("execute sent %d times, want 3 (1 write, 2 reads)", n)
	}
	total := int64(len(f.seen))
	if cl.RoundTrips() != total {
		t.Errorf("RoundTrips %d, the server saw %d", cl.RoundTrips(), total)
	}
}

func TestClientTimesOutWithoutRepeating(t *testing.T) {
	t.Parallel()
	f := newFake(t, rule{match: "/window/rect", delay: 2 * time.Second, body: `{"value":{}}`})
	cl := withSession(t, f, webdriver.ClientOptions{Timeout: 50 * time.Millisecond, Backoff: time.Millisecond})
	start := time.Now()
	_, err := cl.GetWindowRect(context.Background())
	ce := coded(t, err)
	if ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "WEBDRIVER_TIMEOUT" {
		t.Fatalf("got %s %v", ce.Code, ce.Details)
	}
	if time.Since(start) > time.Second {
		t.Errorf("the request took %s, past its 50 ms timeout", time.Since(start))
	}
	if n := f.count("/window/rect"); n != 1 {
		t.Errorf("a timed-out request was sent %d times", n)
	}
}

func TestClientStopsWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	f := newFake(t, rule{match: "/window/rect", delay: 2 * time.Second, body: `{"value":{}}`})
	cl := withSession(t, f, webdriver.ClientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := cl.GetWindowRect(ctx)
	if ce := coded(t, err); ce.Reason() != "INTERRUPTED" || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v (%v)", err, ce.Details)
	}
}

// An endpoint that hangs up on every connection: GET /status is tried three
// times (two repeats), then reported as unreachable.
func TestClientUnreachableEndpoint(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	var accepted atomic.Int32
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = conn.Close()
		}
	}()
	url := "http://" + l.Addr().String()
	cl := webdriver.NewClient(url, webdriver.ClientOptions{Backoff: time.Millisecond})
	_, _, err = cl.Status(context.Background())
	if ce := coded(t, err); ce.Code != canonical.CodeDeviceUnavailable || ce.Details["endpoint"] != url || ce.Reason() != "WEBDRIVER_UNREACHABLE" {
		t.Fatalf("got %s %v", ce.Code, ce.Details)
	}
	if n := accepted.Load(); n != 3 {
		t.Errorf("GET /status tried %d times, want 3 (two repeats): %v", n, err)
	}
}

func TestClientSessionRequestShapes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		caps map[string]any
		want string
	}{
		{"plain object is alwaysMatch", map[string]any{"browserName": "chrome"},
			`{"capabilities":{"alwaysMatch":{"browserName":"chrome"}}}`},
		{"full body passes through", map[string]any{"capabilities": map[string]any{"firstMatch": []any{map[string]any{"browserName": "firefox"}}}},
			`{"capabilities":{"firstMatch":[{"browserName":"firefox"}]}}`},
		{"alwaysMatch at the top", map[string]any{"alwaysMatch": map[string]any{"platformName": "android"}},
			`{"capabilities":{"alwaysMatch":{"platformName":"android"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, rule{match: "POST /session", body: sessionOK})
			cl := webdriver.NewClient(f.srv.URL, webdriver.ClientOptions{})
			s, err := cl.NewSession(context.Background(), c.caps, time.Second)
			if err != nil || s.ID != "s1" || cl.SessionID() != "s1" {
				t.Fatalf("session %+v, %v", s, err)
			}
			if got := f.bodies["POST /session"][0]; got != c.want {
				t.Errorf("sent %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestClientSessionFailureIsDeviceUnavailable(t *testing.T) {
	t.Parallel()
	f := newFake(t, rule{match: "POST /session", status: 500,
		body: `{"value":{"error":"session not created","message":"session not created: Chrome failed to start: exited normally."}}`})
	cl := webdriver.NewClient(f.srv.URL, webdriver.ClientOptions{})
	_, err := cl.NewSession(context.Background(), nil, time.Second)
	if ce := coded(t, err); ce.Code != canonical.CodeDeviceUnavailable || ce.Details["w3cError"] != "session not created" {
		t.Fatalf("got %s %v", ce.Code, ce.Details)
	}
	if n := f.count("POST /session"); n != 1 {
		t.Errorf("session creation sent %d times; it must never be repeated", n)
	}
	ce := coded(t, cl.Navigate(context.Background(), "about:blank"))
	if ce.Code != canonical.CodeDeviceUnavailable {
		t.Errorf("a command without a session: %s", ce.Code)
	}
}

func TestParseCapabilities(t *testing.T) {
	t.Parallel()
	caps, err := webdriver.ParseCapabilities("caps.json", []byte(`{"browserName":"chrome","flow:multiTouch":true,"appium:deviceName":"Pixel"}`))
	if err != nil || caps["flow:multiTouch"] != true || caps["browserName"] != "chrome" {
		t.Fatalf("%v %v", caps, err)
	}
	for _, bad := range []string{`[1,2]`, `{"a":`, `null`} {
		_, err := webdriver.ParseCapabilities("caps.json", []byte(bad))
		if ce := coded(t, err); ce.Code != canonical.CodeInvalidArgs || ce.Hint == "" {
			t.Errorf("%s: %s", bad, ce.Code)
		}
	}
	// flow's own keys are checked where the file is known, at their
	// position.
	for _, c := range []struct{ doc, msg, at, hint string }{
		{"{\n  \"browserName\": \"chrome\",\n  \"flow:touchDispatch\": \"cdp\"\n}", "flow:touchDispatch is cdp", "caps.json:3:3", `"devtools" or "actions"`},
		{`{"flow:multiTouch": "yes"}`, "flow:multiTouch is yes", "caps.json:1:2", "true or false"},
		{`{"browserName": "chrome", "flow:multitouch": true}`, "unknown capability flow:multitouch", "caps.json:1:27", "flow:multiTouch"},
		// W3C's full form keeps them inside alwaysMatch or firstMatch.
		{"{\"capabilities\": {\"alwaysMatch\": {\n  \"flow:calibrate\": 1}}}", "flow:calibrate is 1", "caps.json:2:3", "true or false"},
		{`{"firstMatch": [{}, {"flow:touch": "actions"}]}`, "unknown capability flow:touch", "caps.json:1:22", "flow:touchDispatch"},
	} {
		_, err := webdriver.ParseCapabilities("caps.json", []byte(c.doc))
		ce := coded(t, err)
		if ce.Code != canonical.CodeInvalidArgs || ce.Message != c.msg || ce.Pos.String() != c.at || !strings.Contains(ce.Hint, c.hint) {
			t.Errorf("%s: %s %q at %s, hint %q", c.doc, ce.Code, ce.Message, ce.Pos, ce.Hint)
		}
	}
	data, _ := json.Marshal(caps)
	if !strings.Contains(string(data), `"appium:deviceName":"Pixel"`) {
		t.Errorf("round trip lost a key: %s", data)
	}
}

// TestSessionRefusedNamesTheCause: a refused session says the endpoint
// refused it, in the endpoint's own full words (the driver's version
// mismatch is on the message's second line), with a hint about driver
// versions or capabilities, never that a session was lost.
func TestSessionRefusedNamesTheCause(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, message string
		said, hint    string
	}{
		{"version mismatch",
			`session not created: This version of ChromeDriver only supports Chrome version 114\nCurrent browser version is 120.0.6099.109 with binary path /usr/bin/chromium`,
			"Current browser version is 120.0.6099.109", "install the driver that matches the browser"},
		{"no matching node",
			`Could not start a new session. Could not start a new session. Unable to find provider for session: Capabilities {browserName: safari}`,
			"Unable to find provider for session: Capabilities {browserName: safari}", "check browserName, browserVersion and platformName"},
		{"browser failed", `session not created: Chrome failed to start: exited normally.`,
			"Chrome failed to start: exited normally.", "--capabilities"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, rule{match: "POST /session", status: 500,
				body: `{"value":{"error":"session not created","message":"` + tc.message + `"}}`})
			cl := webdriver.NewClient(f.srv.URL, webdriver.ClientOptions{})
			_, err := cl.NewSession(context.Background(), map[string]any{"browserName": "safari"}, time.Second)
			ce := coded(t, err)
			if ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "WEBDRIVER_SESSION_REFUSED" {
				t.Fatalf("got %s %v", ce.Code, ce.Details)
			}
			if !strings.Contains(ce.Message, "refused to create a session") || !strings.Contains(ce.Message, tc.said) ||
				!strings.Contains(ce.Message, f.srv.URL) {
				t.Errorf("message: %s", ce.Message)
			}
			if !strings.Contains(ce.Hint, tc.hint) || strings.Contains(ce.Hint, "gone") {
				t.Errorf("hint: %s", ce.Hint)
			}
		})
	}
}

// TestLostSessionSaysGone: a command on a session the endpoint no longer
// knows keeps the "session is gone" hint.
func TestLostSessionSaysGone(t *testing.T) {
	t.Parallel()
	f := newFake(t, rule{match: "POST /session", body: sessionOK},
		rule{match: "POST /url", status: 404, body: `{"value":{"error":"invalid session id","message":"invalid session id"}}`})
	cl := webdriver.NewClient(f.srv.URL, webdriver.ClientOptions{})
	if _, err := cl.NewSession(context.Background(), nil, time.Second); err != nil {
		t.Fatal(err)
	}
	ce := coded(t, cl.Navigate(context.Background(), "about:blank"))
	if ce.Code != canonical.CodeDeviceUnavailable || !strings.Contains(ce.Hint, "session is gone") {
		t.Errorf("got %s: %s", ce.Code, ce.Hint)
	}
}

// TestBrowserCrashIsDeviceLoss: drivers report a crashed or disconnected
// browser as a generic "unknown error"; those are the device failing
// (DEVICE_UNAVAILABLE, exit 3), while other unknown errors stay the
// command's (COMMAND_FAILED).
func TestBrowserCrashIsDeviceLoss(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]canonical.Code{
		"unknown error: session deleted because of page crash\nfrom tab crashed":            canonical.CodeDeviceUnavailable,
		"disconnected: not connected to DevTools\n  (failed to check if window was closed)": canonical.CodeDeviceUnavailable,
		"unknown error: chrome not reachable":                                               canonical.CodeDeviceUnavailable,
		"unknown error: cannot determine loading status":                                    canonical.CodeCommandFailed,
	} {
		body, _ := json.Marshal(map[string]any{"value": map[string]string{"error": "unknown error", "message": msg}})
		f := newFake(t, rule{match: "POST /session", body: sessionOK}, rule{match: "POST /url", status: 500, body: string(body)})
		cl := webdriver.NewClient(f.srv.URL, webdriver.ClientOptions{})
		if _, err := cl.NewSession(context.Background(), nil, time.Second); err != nil {
			t.Fatal(err)
		}
		if ce := coded(t, cl.Navigate(context.Background(), "about:blank")); ce.Code != want {
			t.Errorf("%q: got %s, want %s", msg, ce.Code, want)
		}
	}
}
