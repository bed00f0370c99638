package android

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// HelperProtocol is the wire the helper speaks (helper-apk/PROTOCOL.md).
const HelperProtocol = "flow-helper-v1"

// Wire bounds of PROTOCOL.md: a line is at most 64 MiB; a binary body (a
// screenshot, a media file) gets the same bound so a corrupt length cannot
// make flow allocate gigabytes.
const (
	maxLineBytes = 64 << 20
	maxBodyBytes = 256 << 20
)

// How long flow waits for each answer. The helper answers reads within
// its own idle timeouts; these bound a helper that hangs, so that a run
// ends instead of waiting forever. touch waits TransportPlan.HelperTimeoutMs.
const (
	defaultOpTimeout = 30 * time.Second
	settleSlack      = 30 * time.Second
	launchTimeout    = 60 * time.Second
	mediaTimeout     = 120 * time.Second
	// characterGap is the helper's pause after each typed character
	// (helper-apk TextEntry.CHARACTER_GAP_MS), Maestro's 75 ms
	// (maestro-android MaestroDriverService.kt inputText).
	characterGap = 75 * time.Millisecond
)

// helper is the flow-helper-v1 client over one connection. Requests are
// sequential (a Device is used from one goroutine). Once the connection
// broke (an I/O error, a timeout, a cancelled context, a reply that is not
// the protocol) it is closed and every later call fails fast: the session
// layer decides whether to start a new one.
type helper struct {
	conn    net.Conn
	r       *bufio.Reader
	serial  string
	id      int
	maxLine int
	broken  error
	// written says the last request reached the connection whole, so the
	// helper may have acted on it.
	written bool
}

func newHelper(conn net.Conn, serial string) *helper {
	return &helper{conn: conn, r: bufio.NewReaderSize(conn, 64<<10), serial: serial, maxLine: maxLineBytes}
}

// close ends the connection; later calls fail as a dropped session.
func (h *helper) close() {
	if h.broken == nil {
		h.broken = errors.New("the helper connection was closed")
	}
	_ = h.conn.Close()
}

// Request arguments per op. Optional fields are omitted when zero, so the
// line is exactly what PROTOCOL.md's transcripts hold.
type (
	hierarchyArgs struct {
		MaxNodes      int `json:"maxNodes"`
		MaxDepth      int `json:"maxDepth"`
		IdleQuietMs   int `json:"idleQuietMs"`
		IdleTimeoutMs int `json:"idleTimeoutMs"`
	}
	settleArgs struct {
		QuietMs   int `json:"quietMs"`
		TimeoutMs int `json:"timeoutMs"`
		hierarchyArgs
	}
	keyArgs struct {
		Code      int  `json:"code"`
		Meta      int  `json:"meta,omitempty"`
		LongPress bool `json:"longPress,omitempty"`
	}
	launchExtra struct {
		K    string `json:"k"`
		V    any    `json:"v"`
		Type string `json:"type"`
	}
	launchArgs struct {
		Pkg    string        `json:"pkg"`
		Extras []launchExtra `json:"extras"`
	}
	mediaArgs struct {
		Name  string `json:"name"`
		Ext   string `json:"ext"`
		Bytes int    `json:"bytes"`
	}
)

// defaultHierarchy is PROTOCOL.md's defaults: Maestro's waitForIdle(500)
// with a 100 ms quiet window, and bounds that keep one read small.
var defaultHierarchy = hierarchyArgs{MaxNodes: 5000, MaxDepth: 128, IdleQuietMs: 100, IdleTimeoutMs: 500}

// Responses.
type (
	helloReply struct {
		Protocol    string `json:"protocol"`
		VersionCode int64  `json:"versionCode"`
		SDK         int    `json:"sdk"`
		Display     struct {
			W        float64 `json:"w"`
			H        float64 `json:"h"`
			Rotation int     `json:"rotation"`
			Density  float64 `json:"density"`
		} `json:"display"`
	}
	hierarchyReply struct {
		XML       string `json:"xml"`
		Nodes     int    `json:"nodes"`
		Truncated bool   `json:"truncated"`
		EventSeq  string `json:"eventSeq"`
	}
	settleReply struct {
		hierarchyReply
		Still  bool `json:"still"`
		Opaque bool `json:"opaque"`
	}
	box struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
		W float64 `json:"w"`
		H float64 `json:"h"`
	}
	viewportReply struct {
		box
		Keyboard *box `json:"keyboard"`
	}
	touchReply struct {
		InjectedEvents int     `json:"injectedEvents"`
		ElapsedMs      float64 `json:"elapsedMs"`
		LateMs         float64 `json:"lateMs"`
		// DownWaitMs is how long the DOWN's injection waited (for window
		// animations, Android 11+); the schedule counts from its end.
		DownWaitMs float64 `json:"downWaitMs"`
	}
)

func (h *helper) hello(ctx context.Context) (helloReply, error) {
	var out helloReply
	_, err := h.call(ctx, "hello", defaultOpTimeout, struct {
		Protocol string `json:"protocol"`
	}{HelperProtocol}, nil, &out)
	if err == nil && out.Protocol != HelperProtocol {
		h.close()
		err = h.sessionErr("hello", fmt.Errorf("the helper speaks %q, not %s", out.Protocol, HelperProtocol)).
			WithHint("the installed helper is from another flow version; remove it with `adb uninstall dev.flow.helper` and run again")
	}
	return out, err
}

func (h *helper) hierarchy(ctx context.Context, a hierarchyArgs) (hierarchyReply, error) {
	var out hierarchyReply
	_, err := h.call(ctx, "hierarchy", defaultOpTimeout, a, nil, &out)
	return out, err
}

func (h *helper) settle(ctx context.Context, quietMs, timeoutMs int, a hierarchyArgs) (settleReply, error) {
	var out settleReply
	_, err := h.call(ctx, "settle", time.Duration(timeoutMs)*time.Millisecond+settleSlack,
		settleArgs{QuietMs: quietMs, TimeoutMs: timeoutMs, hierarchyArgs: a}, nil, &out)
	return out, err
}

func (h *helper) viewport(ctx context.Context) (viewportReply, error) {
	var out viewportReply
	_, err := h.call(ctx, "viewport", defaultOpTimeout, nil, nil, &out)
	return out, err
}

// touch sends the payload exactly as TransportPlan.MarshalJSON writes it:
// the helper validates those bytes, so flow never re-encodes them.
func (h *helper) touch(ctx context.Context, tp TransportPlan) (touchReply, error) {
	payload, err := tp.MarshalJSON()
	if err != nil {
		return touchReply{}, err
	}
	var out touchReply
	_, err = h.call(ctx, "touch", time.Duration(tp.HelperTimeoutMs())*time.Millisecond, rawArgs{"plan": payload}, nil, &out)
	return out, err
}

func (h *helper) key(ctx context.Context, a keyArgs) error {
	_, err := h.call(ctx, "key", defaultOpTimeout, a, nil, nil)
	return err
}

func (h *helper) text(ctx context.Context, text string) (string, error) {
	var out struct {
		Method string `json:"method"`
	}
	// The helper types one character per characterGap (Maestro's pace), and
	// each paste is a few binder calls on top.
	timeout := defaultOpTimeout + time.Duration(utf8.RuneCountInString(text))*(characterGap+50*time.Millisecond)
	_, err := h.call(ctx, "text", timeout, struct {
		Text string `json:"text"`
	}{text}, nil, &out)
	return out.Method, err
}

func (h *helper) erase(ctx context.Context, count int) error {
	timeout := defaultOpTimeout + time.Duration(count)*50*time.Millisecond
	_, err := h.call(ctx, "erase", timeout, struct {
		Count int `json:"count"`
	}{count}, nil, nil)
	return err
}

func (h *helper) hideKeyboard(ctx context.Context) (bool, error) {
	var out struct {
		WasShown bool `json:"wasShown"`
	}
	_, err := h.call(ctx, "hideKeyboard", defaultOpTimeout, nil, nil, &out)
	return out.WasShown, err
}

// screenshot returns the PNG and whether it is all black, as secure
// windows (FLAG_SECURE) are captured.
func (h *helper) screenshot(ctx context.Context) ([]byte, bool, error) {
	var out struct {
		Black bool `json:"black"`
	}
	png, err := h.call(ctx, "screenshot", defaultOpTimeout, nil, nil, &out)
	return png, out.Black, err
}

func (h *helper) launch(ctx context.Context, pkg string, extras []launchExtra) error {
	if extras == nil {
		extras = []launchExtra{}
	}
	_, err := h.call(ctx, "launch", launchTimeout, launchArgs{Pkg: pkg, Extras: extras}, nil, nil)
	return err
}

func (h *helper) permissions(ctx context.Context, pkg string) ([]string, error) {
	var out struct {
		Requested []string `json:"requested"`
	}
	_, err := h.call(ctx, "permissions", defaultOpTimeout, struct {
		Pkg string `json:"pkg"`
	}{pkg}, nil, &out)
	return out.Requested, err
}

func (h *helper) location(ctx context.Context, lat, lon float64) error {
	_, err := h.call(ctx, "location", defaultOpTimeout, struct {
		Lat float64 `json:"lat"`
		Lon float64 `json:"lon"`
	}{lat, lon}, nil, nil)
	return err
}

func (h *helper) media(ctx context.Context, name, ext string, body []byte) (string, error) {
	var out struct {
		URI string `json:"uri"`
	}
	_, err := h.call(ctx, "media", mediaTimeout, mediaArgs{Name: name, Ext: ext, Bytes: len(body)}, body, &out)
	return out.URI, err
}

func (h *helper) quit(ctx context.Context, timeout time.Duration) error {
	_, err := h.call(ctx, "quit", timeout, nil, nil, nil)
	return err
}

// rawArgs are arguments whose JSON values are written byte for byte.
type rawArgs map[string]json.RawMessage

// encodeRequest writes {"id":N,"op":"…",args…}: id and op first, then the
// fields of args (an object) in their own order. rawArgs values are copied
// without re-encoding, which is what keeps touch.plan byte-exact.
func encodeRequest(id int, op string, args any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.WriteString(strconv.Itoa(id))
	b.WriteString(`,"op":`)
	opJSON, err := marshal(op)
	if err != nil {
		return nil, err
	}
	b.Write(opJSON)
	switch a := args.(type) {
	case nil:
	case rawArgs:
		for _, k := range slices.Sorted(maps.Keys(a)) {
			kj, err := marshal(k)
			if err != nil {
				return nil, err
			}
			b.WriteByte(',')
			b.Write(kj)
			b.WriteByte(':')
			b.Write(a[k])
		}
	default:
		obj, err := marshal(args)
		if err != nil {
			return nil, err
		}
		if len(obj) < 2 || obj[0] != '{' {
			return nil, fmt.Errorf("helper arguments must be a JSON object, got %s", obj)
		}
		if inner := obj[1 : len(obj)-1]; len(inner) > 0 {
			b.WriteByte(',')
			b.Write(inner)
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping: the helper reads JSON, not
// HTML, and a typed "<" should cross the wire as "<".
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// replyHead is what every response line carries.
type replyHead struct {
	ID      *int   `json:"id"`
	OK      *bool  `json:"ok"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
	Bytes   *int64 `json:"bytes"`
}

// call sends one request (and body, for media), reads its answer and the
// bytes that follow it, and decodes the answer into out. A helper error
// line becomes a canonical.Error with the helper's code, message and hint;
// the connection stays usable. Anything else that goes wrong leaves the
// connection in an unknown state, so it is closed and the error says the
// session dropped.
func (h *helper) call(ctx context.Context, op string, timeout time.Duration, args any, body []byte, out any) ([]byte, error) {
	if h.broken != nil {
		return nil, h.sessionErr(op, h.broken)
	}
	if err := ctx.Err(); err != nil {
		return nil, canonical.Interrupted(err).With("serial", h.serial).With("op", op)
	}
	h.id++
	line, err := encodeRequest(h.id, op, args)
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeInternal, "cannot encode the helper request %s: %v", op, err).Wrap(err)
	}
	// A cancelled context closes the connection: that is the only way to
	// interrupt a blocked read, and the helper's answer could no longer be
	// matched to a request anyway.
	stop := context.AfterFunc(ctx, func() { _ = h.conn.Close() })
	defer stop()
	_ = h.conn.SetDeadline(time.Now().Add(timeout))

	fail := func(err error) ([]byte, error) {
		h.broken = err
		_ = h.conn.Close()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, canonical.Interrupted(ctxErr).With("serial", h.serial).With("op", op)
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, canonical.Errorf(canonical.CodeTimeout, "the helper on %s did not answer %s within %v", h.serial, op, timeout).
				Wrap(err).With("serial", h.serial).With("op", op).
				WithHint("the helper is stuck; flow restarts it once. If this repeats, reboot the device or check `adb logcat` for dev.flow.helper")
		}
		return nil, h.sessionErr(op, err)
	}

	h.written = false
	if _, err := h.conn.Write(line); err != nil {
		return fail(err)
	}
	if len(body) > 0 {
		if _, err := h.conn.Write(body); err != nil {
			return fail(err)
		}
	}
	h.written = true
	reply, err := readLine(h.r, h.maxLine)
	if err != nil {
		return fail(err)
	}
	var head replyHead
	if err := json.Unmarshal(reply, &head); err != nil {
		return fail(fmt.Errorf("the helper's answer is not JSON: %v", err))
	}
	switch {
	case head.ID == nil || head.OK == nil:
		return fail(fmt.Errorf("the helper's answer lacks id or ok: %s", clip(reply, 200)))
	case *head.ID != h.id:
		return fail(fmt.Errorf("the helper answered request %d, not %d", *head.ID, h.id))
	}
	var data []byte
	if head.Bytes != nil {
		n := *head.Bytes
		if n < 0 || n > maxBodyBytes {
			return fail(fmt.Errorf("the helper announced %d bytes (at most %d)", n, maxBodyBytes))
		}
		data = make([]byte, n)
		if _, err := io.ReadFull(h.r, data); err != nil {
			return fail(err)
		}
	}
	if !*head.OK {
		e := h.helperErr(op, head)
		if e.Code == canonical.CodeDeviceUnavailable {
			// PROTOCOL.md "Framing": the helper can no longer serve (its
			// UiAutomation disconnected), did not act on the request and
			// ends the session. The session layer starts a new one and
			// repeats the request there.
			h.broken = e
			h.written = false
			_ = h.conn.Close()
		}
		return nil, e
	}
	if out != nil {
		if err := json.Unmarshal(reply, out); err != nil {
			return fail(fmt.Errorf("the helper's %s answer does not fit the protocol: %v", op, err))
		}
	}
	return data, nil
}

// helperErr maps the helper's error line 1:1 onto canonical codes.
func (h *helper) helperErr(op string, head replyHead) *canonical.Error {
	code := canonical.Code(head.Code)
	switch code {
	case canonical.CodeInvalidArgs, canonical.CodeCommandFailed, canonical.CodeUnsupportedOperation,
		canonical.CodeTimeout, canonical.CodeDeviceUnavailable, canonical.CodeInternal:
	default:
		code = canonical.CodeInternal
	}
	msg := head.Message
	if msg == "" {
		msg = "the helper refused " + op
	}
	e := canonical.NewError(code, msg).With("serial", h.serial).With("op", op)
	if code != canonical.Code(head.Code) {
		e.With("helperCode", head.Code)
	}
	if head.Hint != "" {
		e.WithHint(head.Hint)
	} else if code == canonical.CodeInternal {
		e.WithHint("the helper failed unexpectedly; `adb logcat` shows its stack trace (tag flow-helper)")
	}
	return e
}

func (h *helper) sessionErr(op string, cause error) *canonical.Error {
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "the helper session on %s dropped during %s: %v", h.serial, op, cause).
		Wrap(cause).With("serial", h.serial).With("op", op).
		WithHint("check that the device is still connected (`adb devices`); flow restarts the helper once per run")
}

var errLineTooLong = errors.New("the helper sent a line longer than the protocol's 64 MiB")

// readLine reads one \n-terminated line of at most max bytes (without the
// newline), never buffering more than that.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
}

func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}
