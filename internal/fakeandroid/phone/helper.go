package phone

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// The fake helper: flow-helper-v1 (helper-apk/PROTOCOL.md) answered from
// the sim device. Every op that changes the screen bumps eventSeq, and a
// read whose hierarchy differs from the last one served bumps it too, so
// equal eventSeq values mean no change, as the protocol promises.

// maxLine is the protocol's longest line.
const maxLine = 64 << 20

// protocolName is the only protocol hello accepts.
const protocolName = "flow-helper-v1"

type response map[string]any

// opError is a refusal the helper sends as ok:false.
type opError struct {
	code, message, hint string
}

func (e *opError) Error() string { return e.code + ": " + e.message }

func invalid(format string, args ...any) *opError {
	return &opError{code: "INVALID_ARGS", message: fmt.Sprintf(format, args...)}
}

// fromDevice turns a sim error into the code the helper would answer with:
// the canonical codes the protocol knows pass through, the rest are
// COMMAND_FAILED (the device could not do it).
func fromDevice(err error) *opError {
	var ce *canonical.Error
	if !errors.As(err, &ce) {
		return &opError{code: "INTERNAL", message: err.Error()}
	}
	code := string(ce.Code)
	switch ce.Code {
	case canonical.CodeInvalidArgs, canonical.CodeCommandFailed, canonical.CodeUnsupportedOperation,
		canonical.CodeTimeout, canonical.CodeDeviceUnavailable, canonical.CodeInternal:
	default:
		code = string(canonical.CodeCommandFailed)
	}
	return &opError{code: code, message: ce.Message, hint: ce.Hint}
}

func marshalLine(r response) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// request is one decoded request line.
type request struct {
	id     int64
	op     string
	fields map[string]json.RawMessage
}

// serve answers requests on c until the host closes it, quit, or a fault.
func (s *session) serve(c net.Conn) {
	defer func() {
		c.Close()
		s.mu.Lock()
		if s.conn == c {
			s.conn = nil
		}
		s.mu.Unlock()
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	r := bufio.NewReaderSize(c, 64<<10)
	w := bufio.NewWriter(c)
	for {
		line, err := readLine(r)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.requests++
		n := s.requests
		s.mu.Unlock()
		if drop := s.p.faults.HelperDropAfter; drop > 0 && n > drop {
			s.crashed = true
			s.stop()
			return
		}
		req, perr := parseRequest(line)
		var out []byte
		quit := false
		if perr != nil {
			out = s.answer(req.id, nil, nil, perr)
		} else {
			res, body, err := s.do(ctx, req, r)
			out = s.answer(req.id, res, body, err)
			quit = req.op == "quit" && err == nil || err == errUiDisconnected
		}
		if _, err := w.Write(out); err != nil {
			return
		}
		if err := w.Flush(); err != nil {
			return
		}
		if quit {
			s.stop()
			return
		}
	}
}

// readLine reads one request line, refusing one longer than the protocol
// allows.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("request line longer than %d bytes", maxLine)
		}
		if err == nil {
			return line[:len(line)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

func parseRequest(line []byte) (request, *opError) {
	var req request
	if err := json.Unmarshal(line, &req.fields); err != nil || req.fields == nil {
		return req, invalid("request is not a JSON object")
	}
	if raw, ok := req.fields["id"]; ok {
		id, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || id <= 0 {
			return req, invalid("id must be a positive integer")
		}
		req.id = id
	} else {
		return req, invalid("missing required field: id")
	}
	if err := json.Unmarshal(req.fields["op"], &req.op); err != nil || req.op == "" {
		return req, invalid("missing required field: op")
	}
	return req, nil
}

// answer renders one response line, followed by body when it carries
// bytes.
func (s *session) answer(id int64, res response, body []byte, err error) []byte {
	var out response
	if err != nil {
		var oe *opError
		if !errors.As(err, &oe) {
			oe = fromDevice(err)
		}
		out = response{"id": id, "ok": false, "code": oe.code, "message": oe.message}
		if oe.hint != "" {
			out["hint"] = oe.hint
		}
	} else {
		out = response{}
		for k, v := range res {
			out[k] = v
		}
		out["id"], out["ok"] = id, true
		if body != nil {
			out["bytes"] = len(body)
		}
	}
	line, merr := marshalLine(out)
	if merr != nil {
		line, _ = marshalLine(response{"id": id, "ok": false, "code": "INTERNAL", "message": merr.Error()})
		body = nil
	}
	if err == nil && body != nil {
		line = append(line, body...)
	}
	return line
}

// do runs one op. r is the connection, for the bytes a media request
// carries after its line.
func (s *session) do(ctx context.Context, req request, r *bufio.Reader) (response, []byte, error) {
	p := s.p
	f := fields(req.fields)
	if s.uiDead.Load() && needsUiAutomation[req.op] {
		return nil, nil, errUiDisconnected
	}
	switch req.op {
	case "hello":
		proto, err := f.str("protocol")
		if err != nil {
			return nil, nil, err
		}
		if proto != protocolName {
			return nil, nil, invalid("unsupported protocol %q; this helper speaks %s", proto, protocolName)
		}
		vp, err := p.dev.Viewport(ctx)
		if err != nil {
			return nil, nil, err
		}
		sdk, _ := strconv.Atoi(p.props["ro.build.version.sdk"])
		density, _ := strconv.Atoi(p.props["ro.sf.lcd_density"])
		return response{"protocol": protocolName, "versionCode": p.versionCd, "sdk": sdk,
			"display": response{"w": int(vp.Width), "h": int(vp.Height), "rotation": 0, "density": density}}, nil, nil
	case "hierarchy":
		res, err := p.hierarchy(ctx, f)
		delete(res, appSeqKey)
		return res, nil, err
	case "settle":
		res, err := p.settle(ctx, f)
		return res, nil, err
	case "viewport":
		vp, err := p.dev.Viewport(ctx)
		if err != nil {
			return nil, nil, err
		}
		return response{"x": int(vp.X), "y": int(vp.Y), "w": int(vp.Width), "h": int(vp.Height)}, nil, nil
	case "touch":
		res, err := p.touch(ctx, req.fields["plan"])
		return res, nil, err
	case "key":
		code, err := f.integer("code")
		if err != nil {
			return nil, nil, err
		}
		if code == 4 {
			err = p.dev.Back(ctx)
		} else {
			err = p.dev.PressKey(ctx, exec.Key{AndroidCode: int(code)})
		}
		p.bump()
		p.transitioned()
		return response{}, nil, err
	case "text":
		text, err := f.str("text")
		if err != nil {
			return nil, nil, err
		}
		// The helper pastes every character but newline and tab (keys) at the
		// focused field's cursor (helper-apk TextEntry); a paste needs a
		// focused input node (PROTOCOL.md text).
		method := "keys"
		if !onlyKeys(text) {
			method = "paste"
			if shown, err := p.keyboardShown(ctx); err != nil {
				return nil, nil, err
			} else if !shown {
				return nil, nil, &opError{code: "COMMAND_FAILED", message: "no focused input field to set the text on",
					hint: "tap a text field before inputText"}
			}
		}
		if err := p.dev.InputText(ctx, text); err != nil {
			return nil, nil, err
		}
		p.bump()
		return response{"method": method}, nil, nil
	case "erase":
		n, err := f.integer("count")
		if err != nil {
			return nil, nil, err
		}
		if n < 0 {
			return nil, nil, invalid("count must be 0 or more")
		}
		if err := p.dev.EraseText(ctx, int(n)); err != nil {
			return nil, nil, err
		}
		p.bump()
		return response{}, nil, nil
	case "hideKeyboard":
		shown, err := p.keyboardShown(ctx)
		if err != nil {
			return nil, nil, err
		}
		if err := p.dev.HideKeyboard(ctx); err != nil {
			return nil, nil, err
		}
		p.bump()
		return response{"wasShown": shown}, nil, nil
	case "screenshot":
		png, err := p.dev.Screenshot(ctx)
		if err != nil {
			return nil, nil, err
		}
		// sim has no secure windows: nothing it draws comes back black.
		return response{"black": false}, png, nil
	case "launch":
		return p.launch(ctx, f)
	case "permissions":
		pkg, err := f.str("pkg")
		if err != nil {
			return nil, nil, err
		}
		if !p.installed(pkg) {
			return nil, nil, &opError{code: "COMMAND_FAILED", message: fmt.Sprintf("package %s is not installed", pkg)}
		}
		requested := append([]string{}, p.perms[pkg]...)
		return response{"requested": requested}, nil, nil
	case "location":
		lat, err := f.number("lat")
		if err != nil {
			return nil, nil, err
		}
		lon, err := f.number("lon")
		if err != nil {
			return nil, nil, err
		}
		return response{}, nil, p.dev.SetLocation(ctx, lat, lon)
	case "media":
		return p.media(ctx, f, r)
	case "quit":
		return response{}, nil, nil
	}
	return nil, nil, &opError{code: "UNSUPPORTED_OPERATION", message: fmt.Sprintf("unknown op %q", req.op),
		hint: "flow-helper-v1 ops are listed in helper-apk/PROTOCOL.md"}
}

// onlyKeys says whether every character of s is one the helper presses as
// a key (newline ENTER, tab TAB: helper-apk KeyText.special) rather than
// pastes.
func onlyKeys(s string) bool {
	for _, c := range s {
		if c != '\n' && c != '\t' {
			return false
		}
	}
	return true
}

// keyboardShown approximates the input method window: sim keeps its
// keyboard state to itself, so a focused text field stands for it.
func (p *Phone) keyboardShown(ctx context.Context) (bool, error) {
	root, err := p.dev.Hierarchy(ctx)
	if err != nil {
		return false, err
	}
	var walk func(n *exec.Node) bool
	walk = func(n *exec.Node) bool {
		if n.Focused && n.Class == "android.widget.EditText" {
			return true
		}
		for _, c := range n.Children {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(root), nil
}

func (p *Phone) launch(ctx context.Context, f fields) (response, []byte, error) {
	pkg, err := f.str("pkg")
	if err != nil {
		return nil, nil, err
	}
	opts := exec.LaunchOptions{AppID: pkg}
	if raw, ok := f["extras"]; ok {
		var extras []struct {
			K    string          `json:"k"`
			V    json.RawMessage `json:"v"`
			Type string          `json:"type"`
		}
		if err := json.Unmarshal(raw, &extras); err != nil {
			return nil, nil, invalid("extras must be a list of {k, v, type}")
		}
		opts.Arguments = map[string]any{}
		for _, e := range extras {
			v, err := extra(e.Type, e.V)
			if err != nil {
				return nil, nil, invalid("extra %q: %v", e.K, err)
			}
			opts.Arguments[e.K] = v
		}
	}
	if !p.isApp(pkg) {
		return nil, nil, &opError{code: "COMMAND_FAILED", message: fmt.Sprintf("no launch intent for package %s", pkg)}
	}
	if err := p.dev.LaunchApp(ctx, opts); err != nil {
		return nil, nil, err
	}
	p.setFront(pkg)
	p.bump()
	p.transitioned()
	return response{}, nil, nil
}

// extra reads one typed launch extra as Maestro's launchApp types them.
func extra(typ string, raw json.RawMessage) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	switch typ {
	case "string":
		if s, ok := v.(string); ok {
			return s, nil
		}
	case "bool":
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case "int", "long":
		if n, ok := v.(json.Number); ok {
			return n.Int64()
		}
	case "double":
		if n, ok := v.(json.Number); ok {
			return n.Float64()
		}
	default:
		return nil, fmt.Errorf("unknown type %q", typ)
	}
	return nil, fmt.Errorf("value %s is not a %s", raw, typ)
}

// mediaTypes are the files MediaStore takes (Maestro Media.kt).
var mediaTypes = map[string]string{"jpg": "images", "jpeg": "images", "png": "images", "gif": "images", "mp4": "video"}

func (p *Phone) media(ctx context.Context, f fields, r *bufio.Reader) (response, []byte, error) {
	size, err := f.integer("bytes")
	if err != nil {
		return nil, nil, err
	}
	if size < 0 || size > maxLine {
		return nil, nil, invalid("bytes must be between 0 and %d", maxLine)
	}
	// The body follows whatever the line says; read it first so an error
	// answer keeps the stream in step.
	if _, err := io.CopyN(io.Discard, r, size); err != nil {
		return nil, nil, err
	}
	name, err := f.str("name")
	if err != nil {
		return nil, nil, err
	}
	ext, err := f.str("ext")
	if err != nil {
		return nil, nil, err
	}
	kind, ok := mediaTypes[ext]
	if !ok {
		return nil, nil, invalid("media type %q is not one of jpg, jpeg, png, gif, mp4", ext)
	}
	// Below API 29 the media store's provider enforces the caller's
	// WRITE_EXTERNAL_STORAGE (AOSP ContentProvider.enforceWritePermission
	// throws SecurityException "Permission Denial: …"); the Java helper
	// answers that as COMMAND_FAILED with a hint (Media.java).
	if p.storageDenied() {
		return nil, nil, &opError{code: "COMMAND_FAILED",
			message: "the media store refused " + name + "." + ext + ": " + reply("media-permission-denial", "uri", "content://media/external/"+kind+"/media"),
			hint:    "below Android 10 the helper needs storage access: adb shell pm grant dev.flow.helper android.permission.WRITE_EXTERNAL_STORAGE"}
	}
	if err := p.dev.AddMedia(ctx, []string{name + "." + ext}); err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	p.mediaCount++
	n := p.mediaCount
	p.mu.Unlock()
	return response{"uri": fmt.Sprintf("content://media/external/%s/media/%d", kind, n)}, nil, nil
}

// fields are a request's arguments.
type fields map[string]json.RawMessage

func (f fields) str(name string) (string, error) {
	raw, ok := f[name]
	if !ok {
		return "", invalid("missing required field: %s", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", invalid("%s must be a string", name)
	}
	return s, nil
}

func (f fields) integer(name string) (int64, error) {
	raw, ok := f[name]
	if !ok {
		return 0, invalid("missing required field: %s", name)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, invalid("%s must be an integer", name)
	}
	return n, nil
}

// optInt is an optional integer field with a default.
func (f fields) optInt(name string, def int64) (int64, error) {
	if _, ok := f[name]; !ok {
		return def, nil
	}
	return f.integer(name)
}

func (f fields) number(name string) (float64, error) {
	raw, ok := f[name]
	if !ok {
		return 0, invalid("missing required field: %s", name)
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, invalid("%s must be a number", name)
	}
	return x, nil
}

// appSeqKey carries the app's own event count from hierarchy to settle;
// it never goes on the wire.
const appSeqKey = "\x00appSeq"

// hierarchy reads the screen as Maestro's XML.
func (p *Phone) hierarchy(ctx context.Context, f fields) (response, error) {
	maxNodes, err := f.optInt("maxNodes", 5000)
	if err != nil {
		return nil, err
	}
	maxDepth, err := f.optInt("maxDepth", 128)
	if err != nil {
		return nil, err
	}
	if maxNodes <= 0 || maxDepth <= 0 {
		return nil, invalid("maxNodes and maxDepth must be positive")
	}
	root, err := p.dev.Hierarchy(ctx)
	if err != nil {
		return nil, err
	}
	x := writeXML(root, p.frontPackage(root), int(maxNodes), int(maxDepth), p.toast())
	p.mu.Lock()
	if x.xml != p.lastXML {
		p.lastXML = x.xml
		p.eventSeq++
	}
	// eventSeq counts every event the helper saw, SystemUI's too
	// (PROTOCOL.md); appSeq, the front app's alone, is what settle waits on.
	seq, app := p.eventSeq+p.systemUIEvents(), p.eventSeq
	p.mu.Unlock()
	return response{"xml": x.xml, "nodes": x.nodes, "truncated": x.truncated, "eventSeq": strconv.FormatUint(seq, 10), appSeqKey: app}, nil
}

// settle waits until the screen stayed the same for quietMs, or timeoutMs
// passed, then reads it. sim has no accessibility events, so "no event" is
// "the hierarchy did not change", sampled every quietMs.
func (p *Phone) settle(ctx context.Context, f fields) (response, error) {
	quiet, err := f.integer("quietMs")
	if err != nil {
		return nil, err
	}
	timeout, err := f.integer("timeoutMs")
	if err != nil {
		return nil, err
	}
	if quiet < 0 || timeout < 0 {
		return nil, invalid("quietMs and timeoutMs must be 0 or more")
	}
	deadline := p.clock.Now().Add(time.Duration(timeout) * time.Millisecond)
	first, err := p.hierarchy(ctx, f)
	if err != nil {
		return nil, err
	}
	still := false
	for {
		left := deadline.Sub(p.clock.Now())
		if left <= 0 {
			break
		}
		wait := min(time.Duration(quiet)*time.Millisecond, left)
		if err := p.clock.Sleep(ctx, wait); err != nil {
			return nil, err
		}
		next, err := p.hierarchy(ctx, f)
		if err != nil {
			return nil, err
		}
		// Only the app's events break the quiet window: SystemUI's clock
		// and icons never stop (Maestro waits per app).
		same := next[appSeqKey] == first[appSeqKey]
		first = next
		if same && wait == time.Duration(quiet)*time.Millisecond {
			still = true
			break
		}
	}
	first["still"], first["opaque"] = still, false
	delete(first, appSeqKey)
	return first, nil
}
