package webdriver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Client is a thin W3C WebDriver client for one endpoint and at most one
// session: chromedriver, a Selenium Grid, an Appium server or a device
// cloud all speak the same protocol. Every request takes a context and a
// per-request timeout; only requests that are safe to repeat are retried,
// and only when the connection failed before an answer arrived.
//
// Errors are *canonical.Error: DEVICE_UNAVAILABLE when the endpoint or the
// session is gone (transport failures, timeouts, "invalid session id"),
// UNSUPPORTED_OPERATION when the endpoint does not implement a command, and
// COMMAND_FAILED for every other W3C error, with the W3C error name and
// message in details.w3cError and details.w3cMessage.
//
// A Client is safe for concurrent use, though a Device uses it from one
// goroutine.
type Client struct {
	// base is the endpoint without user info: every message and detail
	// shows it. user holds the credentials the URL carried, sent as HTTP
	// basic authentication and never printed.
	base    string
	user    *url.Userinfo
	secrets []string
	http    *http.Client
	timeout time.Duration
	retries int
	backoff time.Duration
	session atomic.Value // string
	trips   atomic.Int64
}

// ClientOptions tune a Client. Zero values take the defaults.
type ClientOptions struct {
	// HTTP is the transport; nil uses a keep-alive client of its own.
	HTTP *http.Client
	// Timeout bounds each request that does not set its own (60 s). A
	// request that waits for the page (actions, navigation, async scripts)
	// adds its own expected duration on top.
	Timeout time.Duration
	// Retries is how often a safe request is repeated after a connection
	// error (2); Backoff the pause before the first repeat, doubled after
	// each (100 ms).
	Retries int
	Backoff time.Duration
}

// Default client settings.
const (
	defaultTimeout = 60 * time.Second
	defaultRetries = 2
	defaultBackoff = 100 * time.Millisecond
)

// NewClient makes a client for the endpoint URL (for example
// http://127.0.0.1:9515 or https://hub.example.com/wd/hub).
//
// Credentials in the URL (https://USER:KEY@hub.example.com/wd/hub, as
// device clouds document) are sent as basic authentication and never
// appear in Endpoint, in errors or in their details: see Redact.
func NewClient(endpoint string, opts ClientOptions) *Client {
	base, user := splitUser(strings.TrimRight(endpoint, "/"))
	c := &Client{base: base, user: user, http: opts.HTTP, timeout: opts.Timeout,
		retries: opts.Retries, backoff: opts.Backoff}
	if user != nil {
		c.secrets = append(c.secrets, user.Username())
		if pw, ok := user.Password(); ok {
			c.secrets = append(c.secrets, pw)
		}
	}
	if c.http == nil {
		c.http = &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4,
			IdleConnTimeout: 90 * time.Second, DialContext: (&net.Dialer{Timeout: 10 * time.Second}).DialContext}}
	}
	if c.timeout <= 0 {
		c.timeout = defaultTimeout
	}
	if c.retries < 0 {
		c.retries = 0
	} else if opts.Retries == 0 {
		c.retries = defaultRetries
	}
	if c.backoff <= 0 {
		c.backoff = defaultBackoff
	}
	c.session.Store("")
	return c
}

// Endpoint is the URL the client talks to, without its credentials.
func (c *Client) Endpoint() string { return c.base }

// splitUser takes the user info out of an endpoint URL.
func splitUser(endpoint string) (string, *url.Userinfo) {
	u, err := url.Parse(endpoint)
	if err != nil || u.User == nil {
		return endpoint, nil
	}
	user := u.User
	u.User = nil
	return u.String(), user
}

// Redact is an endpoint URL as flow prints it: user info (a device
// cloud's user name and access key) is replaced by "***".
func Redact(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		// Not a URL: cut anything that looks like user info.
		if at := strings.LastIndex(endpoint, "@"); at >= 0 {
			if i := strings.Index(endpoint, "://"); i >= 0 && i < at {
				return endpoint[:i+3] + "***@" + endpoint[at+1:]
			}
		}
		return endpoint
	}
	if u.User == nil {
		return endpoint
	}
	u.User = nil
	s := u.String()
	return strings.Replace(s, "://", "://***@", 1)
}

// AddSecret names a value the client must never print (a capability's
// access key): errors from the endpoint that echo it have it replaced by
// "***".
func (c *Client) AddSecret(v string) {
	if len(v) >= 4 {
		c.secrets = append(c.secrets, v)
	}
}

// scrub removes the client's secrets from an error's message, hint and
// string details: an endpoint may echo the credentials it refused.
func (c *Client) scrub(err error) error {
	ce, ok := canonical.AsError(err)
	if !ok || len(c.secrets) == 0 {
		return err
	}
	clean := func(s string) string {
		for _, sec := range c.secrets {
			if sec != "" {
				s = strings.ReplaceAll(s, sec, "***")
			}
		}
		return s
	}
	ce.Message, ce.Hint = clean(ce.Message), clean(ce.Hint)
	for k, v := range ce.Details {
		if str, ok := v.(string); ok {
			ce.Details[k] = clean(str)
		}
	}
	if we, ok := ce.Err.(w3cCause); ok {
		we.Message = clean(we.Message)
		ce.Err = we
	}
	return ce
}

// SessionID is the current session, "" before NewSession and after
// DeleteSession.
func (c *Client) SessionID() string { return c.session.Load().(string) }

// RoundTrips counts the HTTP requests written to the endpoint, repeats
// included: the unit the performance figures are given in.
func (c *Client) RoundTrips() int64 { return c.trips.Load() }

// call is one WebDriver command.
type call struct {
	method string
	path   string // relative to the session when session is true
	body   any
	// session prefixes the path with /session/{id}.
	session bool
	// safe marks a request that may be repeated after a connection error:
	// GET, DELETE, and POSTs that change nothing (a read-only script).
	safe bool
	// extra lengthens the timeout for a request that waits for the page.
	extra time.Duration
	// limit caps the reply's size in bytes; 0 is maxReply.
	limit int64
}

// Reply size caps. An endpoint that streams without end (a proxy gone
// wrong, a hostile server) must not take the machine's memory: flow reads
// at most this much of a reply and fails with DEVICE_UNAVAILABLE. A
// screenshot of a 4K screen is about 25 MB of PNG, a third more in
// base64; everything else (hierarchies of very large pages included) fits
// well within the smaller cap.
const (
	maxReply           = 16 << 20
	maxScreenshotReply = 64 << 20
)

// tooLarge is a reply that passed its cap.
type tooLarge struct{ limit int64 }

func (e tooLarge) Error() string {
	return fmt.Sprintf("the reply is larger than %s", sizeText(e.limit))
}

func sizeText(n int64) string { return fmt.Sprintf("%d MB", n>>20) }

// W3C error names that mean the session, not the command, failed.
var sessionErrors = map[string]bool{"invalid session id": true, "session not created": true}

// W3C error names that mean the endpoint does not implement the command.
var unsupportedErrors = map[string]bool{"unknown command": true, "unknown method": true, "unsupported operation": true}

// w3cError is the error object of a failed command.
type w3cError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func (c *Client) name(k call) string {
	p := k.path
	if k.session {
		p = "/session/{id}" + p
	}
	return k.method + " " + p
}

// do sends one command and decodes its value into out (when non-nil).
func (c *Client) do(ctx context.Context, k call, out any) error {
	return c.scrub(c.send(ctx, k, out))
}

func (c *Client) send(ctx context.Context, k call, out any) error {
	var payload []byte
	if k.body != nil {
		var err error
		if payload, err = json.Marshal(k.body); err != nil {
			return canonical.Errorf(canonical.CodeInternal, "cannot encode %s: %v", c.name(k), err).Wrap(err)
		}
	} else if k.method == http.MethodPost {
		payload = []byte("{}")
	}
	url := c.base + k.path
	if k.session {
		id := c.SessionID()
		if id == "" {
			return canonical.NewError(canonical.CodeDeviceUnavailable, "the WebDriver session is not open").
				With("command", c.name(k)).WithHint("open the device before using it")
		}
		url = c.base + "/session/" + id + k.path
	}
	attempts := 1
	if k.safe {
		attempts += c.retries
	}
	wait := c.backoff
	for attempt := 1; ; attempt++ {
		status, body, err := c.roundTrip(ctx, k, url, payload)
		if err == nil {
			return c.decode(k, status, body, out)
		}
		var big tooLarge
		if errors.As(err, &big) {
			return canonical.Errorf(canonical.CodeDeviceUnavailable, "the WebDriver endpoint %s answered %s with more than %s",
				c.base, c.name(k), sizeText(big.limit)).
				With("reason", "WEBDRIVER_REPLY_TOO_LARGE").With("endpoint", c.base).With("command", c.name(k)).
				With("limitBytes", big.limit).
				WithHint("flow stops reading a reply at this size; the endpoint (or a proxy in front of it) is misbehaving").Wrap(err)
		}
		if attempt >= c.retries+1 || ctx.Err() != nil || !(notSent(err) || (attempt < attempts && connectionError(err))) {
			return c.transportError(ctx, k, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.transportError(ctx, k, ctx.Err())
		case <-t.C:
		}
		wait *= 2
	}
}

func (c *Client) roundTrip(ctx context.Context, k call, url string, payload []byte) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout+k.extra)
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	// Count every request written, including the ones net/http repeats
	// itself on a stale keep-alive connection: the figure is what the
	// endpoint saw.
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { c.trips.Add(1) }})
	req, err := http.NewRequestWithContext(ctx, k.method, url, body)
	if err != nil {
		return 0, nil, err
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	if c.user != nil {
		pw, _ := c.user.Password()
		req.SetBasicAuth(c.user.Username(), pw)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	limit := k.limit
	if limit <= 0 {
		limit = maxReply
	}
	if resp.ContentLength > limit {
		return 0, nil, tooLarge{limit}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return 0, nil, err
	}
	if int64(len(data)) > limit {
		return 0, nil, tooLarge{limit}
	}
	return resp.StatusCode, data, nil
}

// notSent reports a failure before the request reached the endpoint: the
// connection was refused or never made. Any request may be repeated then,
// a new session and actions included; nothing ran.
func notSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" && !op.Timeout()
}

// connectionError reports a failure to reach the endpoint or to read its
// answer on a connection that broke: the request may not have run, so a
// safe request may be sent again. Timeouts are not repeated; their budget
// is spent.
func connectionError(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	// net/http reports a connection the endpoint closed before the request
	// was written with an unexported error; nothing was sent, so a repeat
	// is safe.
	if strings.Contains(err.Error(), "http: server closed idle connection") {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func (c *Client) transportError(ctx context.Context, k call, err error) error {
	what := "did not answer"
	reason := "WEBDRIVER_UNREACHABLE"
	var ne net.Error
	switch {
	case ctx.Err() != nil:
		what = "was interrupted"
		reason = "INTERRUPTED"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		what = fmt.Sprintf("did not answer within %s", c.timeout+k.extra)
		reason = "WEBDRIVER_TIMEOUT"
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "the WebDriver endpoint %s %s: %s", c.base, what, c.name(k)).
		With("reason", reason).With("endpoint", c.base).With("command", c.name(k)).
		WithHint("check that the browser driver, Grid or Appium server is running and reachable").Wrap(err)
}

// decode reads {"value": ...}: a W3C error object on failure, the result
// otherwise.
func (c *Client) decode(k call, status int, body []byte, out any) error {
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	jsonErr := json.Unmarshal(body, &env)
	var we w3cError
	if jsonErr == nil && len(env.Value) > 0 && env.Value[0] == '{' {
		_ = json.Unmarshal(env.Value, &we)
	}
	if status >= 400 || we.Error != "" {
		if we.Error == "" {
			return canonical.Errorf(canonical.CodeDeviceUnavailable, "the WebDriver endpoint %s answered HTTP %d without a WebDriver error: %s",
				c.base, status, c.name(k)).
				With("reason", "WEBDRIVER_BAD_RESPONSE").With("endpoint", c.base).With("command", c.name(k)).
				With("httpStatus", status).With("body", clip(string(body), 300)).
				WithHint("the URL may not be a WebDriver endpoint; Selenium 3 Grids need the /wd/hub path")
		}
		return commandError(c.name(k), status, we)
	}
	if jsonErr != nil {
		return canonical.Errorf(canonical.CodeDeviceUnavailable, "the WebDriver endpoint %s answered %s with invalid JSON: %v",
			c.base, c.name(k), jsonErr).With("reason", "WEBDRIVER_BAD_RESPONSE").With("endpoint", c.base).
			With("command", c.name(k)).With("body", clip(string(body), 300)).Wrap(jsonErr)
	}
	if out == nil || len(env.Value) == 0 {
		return nil
	}
	if err := json.Unmarshal(env.Value, out); err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "unexpected answer to %s: %v", c.name(k), err).
			With("command", c.name(k)).With("body", clip(string(env.Value), 300)).Wrap(err)
	}
	return nil
}

// commandError is the canonical form of a W3C error object.
func commandError(command string, status int, we w3cError) *canonical.Error {
	msg := firstLine(we.Message)
	code := canonical.CodeCommandFailed
	hint := "the browser refused the command; the message says why"
	switch {
	case sessionErrors[we.Error] || browserGone(we.Message):
		code = canonical.CodeDeviceUnavailable
		hint = "the browser session is gone (the browser crashed or the endpoint timed the session out); rerun the flow"
	case unsupportedErrors[we.Error]:
		code = canonical.CodeUnsupportedOperation
		hint = "this WebDriver endpoint does not implement the command"
	}
	return canonical.Errorf(code, "WebDriver %s failed: %s: %s", command, we.Error, msg).
		With("w3cError", we.Error).With("w3cMessage", msg).With("command", command).With("httpStatus", status).
		WithHint(hint).Wrap(w3cCause{we})
}

// w3cCause keeps the whole W3C error object (the message's later lines
// included) as the cause of its canonical error.
type w3cCause struct{ w3cError }

func (w w3cCause) Error() string { return w.w3cError.Error + ": " + w.Message }

// browserGone recognises the messages with which drivers report, under
// the generic "unknown error", that the browser itself died or was
// disconnected: the session cannot recover, so it is the device that
// failed (exit 3), not the command.
func browserGone(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"session deleted", "not connected to devtools", "chrome not reachable",
		"cannot connect to chrome", "tab crashed", "target crashed", "browser has closed the connection"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Status is GET /status: whether the endpoint can create a session now.
func (c *Client) Status(ctx context.Context) (ready bool, message string, err error) {
	var v struct {
		Ready   bool   `json:"ready"`
		Message string `json:"message"`
	}
	err = c.do(ctx, call{method: http.MethodGet, path: "/status", safe: true}, &v)
	return v.Ready, v.Message, err
}

// Session is what POST /session answered.
type Session struct {
	ID           string         `json:"sessionId"`
	Capabilities map[string]any `json:"capabilities"`
}

// NewSession creates the session with the given capabilities: an object
// used as alwaysMatch, or a full {"capabilities":{...}} body passed through.
// Creating a session is not repeated: a second browser could start.
func (c *Client) NewSession(ctx context.Context, caps map[string]any, timeout time.Duration) (Session, error) {
	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": caps}}
	if inner, ok := caps["capabilities"].(map[string]any); ok {
		body = map[string]any{"capabilities": inner}
	} else if _, ok := caps["alwaysMatch"]; ok {
		body = map[string]any{"capabilities": caps}
	} else if _, ok := caps["firstMatch"]; ok {
		body = map[string]any{"capabilities": caps}
	}
	var s Session
	if err := c.do(ctx, call{method: http.MethodPost, path: "/session", body: body, extra: timeout}, &s); err != nil {
		return Session{}, c.sessionRefused(err)
	}
	if s.ID == "" {
		return Session{}, canonical.NewError(canonical.CodeDeviceUnavailable, "the WebDriver endpoint created a session without an id").
			With("endpoint", c.base).WithHint("the endpoint may speak the legacy JSON Wire Protocol; flow needs W3C WebDriver")
	}
	c.session.Store(s.ID)
	return s, nil
}

// sessionRefused is the error of a failed POST /session. No session is no
// device (DEVICE_UNAVAILABLE); when the endpoint answered with a W3C error
// it refused the session, so the message carries the endpoint's own words
// in full (a driver's version mismatch is on its second line) and the
// hint points at what usually causes a refusal, never at a session that
// was lost: there was none.
func (c *Client) sessionRefused(err error) error {
	ce, ok := canonical.AsError(err)
	if !ok {
		return err
	}
	ce.Code = canonical.CodeDeviceUnavailable
	name, _ := ce.Details["w3cError"].(string)
	if name == "" {
		return ce // a transport failure or a reply that is not WebDriver: their own hints hold
	}
	var full w3cError
	if we, ok := ce.Err.(w3cCause); ok {
		full = we.w3cError
	}
	said := oneLine(full.Message)
	if said == "" {
		said = fmt.Sprint(ce.Details["w3cMessage"])
	}
	ce.Message = fmt.Sprintf("the WebDriver endpoint %s refused to create a session: %s", c.base, clip(said, 600))
	ce.With("reason", "WEBDRIVER_SESSION_REFUSED").With("endpoint", c.base).With("w3cMessage", clip(said, 600))
	lower := strings.ToLower(said)
	switch {
	case strings.Contains(lower, "only supports") || strings.Contains(lower, "browser version") ||
		strings.Contains(lower, "version of chromedriver"):
		ce.Hint = "the driver and the browser are different versions: install the driver that matches the browser (for Chromium, chromedriver of the same major version)"
	case strings.Contains(lower, "capabilit") || strings.Contains(lower, "no matching") || strings.Contains(lower, "provider") ||
		strings.Contains(lower, "node"):
		ce.Hint = "the endpoint has no browser or device matching the capabilities: check browserName, browserVersion and platformName in --capabilities against what it offers"
	default:
		ce.Hint = "the endpoint could not start a browser for these capabilities; its message says why. Check --capabilities (browserName, browserVersion, platformName), and that the endpoint's driver matches its browser version"
	}
	return ce
}

// oneLine joins a multi-line driver message into one line.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// DeleteSession ends the session (which closes the browser). Deleting is
// safe to repeat.
func (c *Client) DeleteSession(ctx context.Context) error {
	if c.SessionID() == "" {
		return nil
	}
	err := c.do(ctx, call{method: http.MethodDelete, path: "", session: true, safe: true}, nil)
	c.session.Store("")
	return err
}

// Navigate is POST /url; it returns when the page has loaded (by the
// session's page load strategy).
func (c *Client) Navigate(ctx context.Context, url string) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/url", session: true, body: map[string]string{"url": url}}, nil)
}

// CurrentURL is GET /url.
func (c *Client) CurrentURL(ctx context.Context) (string, error) {
	var u string
	err := c.do(ctx, call{method: http.MethodGet, path: "/url", session: true, safe: true}, &u)
	return u, err
}

// Back is POST /back.
func (c *Client) Back(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/back", session: true}, nil)
}

// Execute runs a synchronous script and decodes its return value into out.
// readOnly marks a script that changes nothing, so a connection error may
// repeat it.
func (c *Client) Execute(ctx context.Context, script string, args []any, readOnly bool, out any) error {
	if args == nil {
		args = []any{}
	}
	return c.do(ctx, call{method: http.MethodPost, path: "/execute/sync", session: true, safe: readOnly,
		body: map[string]any{"script": script, "args": args}}, out)
}

// ExecuteAsync runs an asynchronous script (the last argument is its
// callback); wait is how long it may take, added to the request timeout.
func (c *Client) ExecuteAsync(ctx context.Context, script string, args []any, readOnly bool, wait time.Duration, out any) error {
	if args == nil {
		args = []any{}
	}
	return c.do(ctx, call{method: http.MethodPost, path: "/execute/async", session: true, safe: readOnly, extra: wait,
		body: map[string]any{"script": script, "args": args}}, out)
}

// PerformActions sends an action sequence; wait is how long the actions
// take on the page, added to the request timeout. Actions are never
// repeated: a gesture sent twice is a different gesture.
func (c *Client) PerformActions(ctx context.Context, actions any, wait time.Duration) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/actions", session: true, body: actions, extra: wait}, nil)
}

// ReleaseActions is DELETE /actions: every pressed key and pointer is
// released. It is safe to repeat.
func (c *Client) ReleaseActions(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodDelete, path: "/actions", session: true, safe: true}, nil)
}

// Screenshot is a PNG of the viewport.
func (c *Client) Screenshot(ctx context.Context) ([]byte, error) {
	var b64 string
	if err := c.do(ctx, call{method: http.MethodGet, path: "/screenshot", session: true, safe: true, limit: maxScreenshotReply}, &b64); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeCommandFailed, "the screenshot is not base64: %v", err).Wrap(err)
	}
	return png, nil
}

// WindowRect is the browser window's position and size in CSS pixels.
type WindowRect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// GetWindowRect is GET /window/rect.
func (c *Client) GetWindowRect(ctx context.Context) (WindowRect, error) {
	var r WindowRect
	err := c.do(ctx, call{method: http.MethodGet, path: "/window/rect", session: true, safe: true}, &r)
	return r, err
}

// elementKey is the W3C web element identifier key.
const elementKey = "element-6066-11e4-a52e-4f735466cecf"

// ActiveElement is the focused element's id, "" when nothing has focus.
func (c *Client) ActiveElement(ctx context.Context) (string, error) {
	var v map[string]string
	err := c.do(ctx, call{method: http.MethodGet, path: "/element/active", session: true, safe: true}, &v)
	if ce, ok := canonical.AsError(err); ok && ce.Details["w3cError"] == "no such element" {
		return "", nil
	}
	return v[elementKey], err
}

// FindElement is POST /element with a CSS selector; finding changes
// nothing, so it is safe to repeat.
func (c *Client) FindElement(ctx context.Context, css string) (string, error) {
	var v map[string]string
	err := c.do(ctx, call{method: http.MethodPost, path: "/element", session: true, safe: true,
		body: map[string]string{"using": "css selector", "value": css}}, &v)
	return v[elementKey], err
}

// ElementSendKeys types text into an element.
func (c *Client) ElementSendKeys(ctx context.Context, element, text string) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/element/" + element + "/value", session: true,
		body: map[string]string{"text": text}}, nil)
}

// DeleteCookies deletes the cookies the current page can see.
func (c *Client) DeleteCookies(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodDelete, path: "/cookie", session: true, safe: true}, nil)
}

// SetTimeouts sets the session's script, page load and implicit wait
// timeouts; a negative value leaves one unchanged.
func (c *Client) SetTimeouts(ctx context.Context, script, pageLoad, implicit time.Duration) error {
	body := map[string]int64{}
	for k, v := range map[string]time.Duration{"script": script, "pageLoad": pageLoad, "implicit": implicit} {
		if v >= 0 {
			body[k] = v.Milliseconds()
		}
	}
	return c.do(ctx, call{method: http.MethodPost, path: "/timeouts", session: true, safe: true, body: body}, nil)
}

// ChromiumCDP runs a Chrome DevTools Protocol command through chromedriver's
// vendor endpoint (POST /session/{id}/goog/cdp/execute). Only Chromium
// drivers have it; others answer "unknown command", which decodes to
// UNSUPPORTED_OPERATION.
func (c *Client) ChromiumCDP(ctx context.Context, cmd string, params map[string]any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	return c.do(ctx, call{method: http.MethodPost, path: "/goog/cdp/execute", session: true,
		body: map[string]any{"cmd": cmd, "params": params}}, out)
}

// NewWindow opens a browser tab (or window) and returns its handle; the
// session stays on the current one. Not repeated: it would open two.
func (c *Client) NewWindow(ctx context.Context, kind string) (string, error) {
	var v struct {
		Handle string `json:"handle"`
	}
	err := c.do(ctx, call{method: http.MethodPost, path: "/window/new", session: true, body: map[string]string{"type": kind}}, &v)
	return v.Handle, err
}

// CloseWindow closes the current tab; the session must then switch to
// another. Not repeated: it would close the next one.
func (c *Client) CloseWindow(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodDelete, path: "/window", session: true}, nil)
}

// WindowHandle is the current tab's handle.
func (c *Client) WindowHandle(ctx context.Context) (string, error) {
	var h string
	err := c.do(ctx, call{method: http.MethodGet, path: "/window", session: true, safe: true}, &h)
	return h, err
}

// WindowHandles are the handles of the session's tabs.
func (c *Client) WindowHandles(ctx context.Context) ([]string, error) {
	var hs []string
	err := c.do(ctx, call{method: http.MethodGet, path: "/window/handles", session: true, safe: true}, &hs)
	return hs, err
}

// SwitchToWindow makes the tab with this handle current.
func (c *Client) SwitchToWindow(ctx context.Context, handle string) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/window", session: true, safe: true,
		body: map[string]string{"handle": handle}}, nil)
}

// PageSource is GET /source: the page's HTML, or a native app's view
// hierarchy as the Appium driver writes it.
func (c *Client) PageSource(ctx context.Context) (string, error) {
	var src string
	err := c.do(ctx, call{method: http.MethodGet, path: "/source", session: true, safe: true}, &src)
	return src, err
}

// Logs is POST /se/log: the entries of one log type (Appium's route; its
// fake driver keeps the actions it received under "actions").
func (c *Client) Logs(ctx context.Context, kind string, out any) error {
	return c.do(ctx, call{method: http.MethodPost, path: "/se/log", session: true, safe: true,
		body: map[string]string{"type": kind}}, out)
}

// Command sends a command of the session that the client does not wrap
// (an Appium endpoint such as /appium/start_recording_screen). path is
// relative to the session; a GET is repeated after a connection error,
// nothing else is. wait lengthens the request's timeout.
func (c *Client) Command(ctx context.Context, method, path string, body any, wait time.Duration, out any) error {
	return c.do(ctx, call{method: method, path: path, session: true, body: body, safe: method == http.MethodGet, extra: wait}, out)
}
