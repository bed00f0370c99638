package android

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// A transcript step (helper-apk/PROTOCOL.md, "Transcripts").
type wireStep struct {
	Send      json.RawMessage `json:"send"`
	Recv      json.RawMessage `json:"recv"`
	SendBytes *string         `json:"sendBytes"`
	RecvBytes *string         `json:"recvBytes"`
	Comment   *string         `json:"comment"`
}

// transcripts are the java lane's golden wire files (the contract) and,
// next to them, the provisional one this package wrote from PROTOCOL.md.
func transcripts(t *testing.T) map[string][]wireStep {
	t.Helper()
	var files []string
	for _, dir := range []string{"../../helper-apk/testdata/wire", "testdata/wire"} {
		m, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no wire transcripts found")
	}
	out := map[string][]wireStep{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var steps []wireStep
		for i, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var s wireStep
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("%s:%d: %v", f, i+1, err)
			}
			if s.Comment != nil {
				continue
			}
			steps = append(steps, s)
		}
		out[f] = steps
	}
	return out
}

func b64(t *testing.T, s *string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(*s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// planFromPayload rebuilds the planner plan a payload was lowered from:
// lowering an already lowered one-contact path returns it unchanged (every
// sample is a planned endpoint) and two-contact plans pass through, so
// Lower(planFromPayload(p)) must write p byte for byte.
func planFromPayload(t *testing.T, raw json.RawMessage) planner.Plan {
	t.Helper()
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	plan := planner.Plan{Topology: planner.Single, DurationMs: p.DurationMs}
	if p.Kind == KindTransform {
		plan.Topology = planner.Two
	}
	for _, ptr := range p.Pointers {
		pp := planner.Pointer{PointerID: ptr.PointerID}
		for _, s := range ptr.Samples {
			pp.Samples = append(pp.Samples, planner.Sample{OffsetMs: s.OffsetMs, Point: canonical.Point{X: s.X, Y: s.Y}})
		}
		plan.Pointers = append(plan.Pointers, pp)
	}
	return plan
}

// invoke calls the typed client method a transcript request stands for,
// with the arguments it names, and returns what the client made of the
// answer.
func invoke(t *testing.T, ctx context.Context, h *helper, send json.RawMessage, body []byte) (any, error) {
	t.Helper()
	var req struct {
		Op string `json:"op"`
	}
	if err := json.Unmarshal(send, &req); err != nil {
		t.Fatal(err)
	}
	args := func(v any) {
		if err := json.Unmarshal(send, v); err != nil {
			t.Fatal(err)
		}
	}
	switch req.Op {
	case "hello":
		return h.hello(ctx)
	case "hierarchy":
		var a hierarchyArgs
		args(&a)
		return h.hierarchy(ctx, a)
	case "settle":
		var a settleArgs
		args(&a)
		return h.settle(ctx, a.QuietMs, a.TimeoutMs, a.hierarchyArgs)
	case "viewport":
		return h.viewport(ctx)
	case "touch":
		var a struct {
			Plan json.RawMessage `json:"plan"`
		}
		args(&a)
		tp, err := Lower(planFromPayload(t, a.Plan))
		if err != nil {
			t.Fatalf("the transcript's plan does not lower: %v", err)
		}
		return h.touch(ctx, tp)
	case "key":
		var a keyArgs
		args(&a)
		return nil, h.key(ctx, a)
	case "text":
		var a struct {
			Text string `json:"text"`
		}
		args(&a)
		return h.text(ctx, a.Text)
	case "erase":
		var a struct {
			Count int `json:"count"`
		}
		args(&a)
		return nil, h.erase(ctx, a.Count)
	case "hideKeyboard":
		return h.hideKeyboard(ctx)
	case "screenshot":
		png, _, err := h.screenshot(ctx)
		return png, err
	case "launch":
		var a launchArgs
		args(&a)
		return nil, h.launch(ctx, a.Pkg, a.Extras)
	case "permissions":
		var a struct {
			Pkg string `json:"pkg"`
		}
		args(&a)
		return h.permissions(ctx, a.Pkg)
	case "location":
		var a struct {
			Lat float64 `json:"lat"`
			Lon float64 `json:"lon"`
		}
		args(&a)
		return nil, h.location(ctx, a.Lat, a.Lon)
	case "media":
		var a mediaArgs
		args(&a)
		return h.media(ctx, a.Name, a.Ext, body)
	case "quit":
		return nil, h.quit(ctx, time.Second)
	}
	t.Fatalf("transcript op %q has no client method", req.Op)
	return nil, nil
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// TestHelperTranscripts plays the helper side of every transcript: it reads
// what the client wrote, compares it with the transcript's send (JSON
// values; touch.plan byte for byte), answers with recv and checks what the
// client returns.
func TestHelperTranscripts(t *testing.T) {
	for name, steps := range transcripts(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			client, phone := net.Pipe()
			defer phone.Close()
			h := newHelper(client, "emulator-5554")
			defer h.close()
			pr := bufio.NewReader(phone)
			ctx := context.Background()
			for i := 0; i < len(steps); i++ {
				s := steps[i]
				if s.Send == nil {
					t.Fatalf("step %d: expected a send, got %+v", i, s)
				}
				var sendBody, recvBytes []byte
				var recv json.RawMessage
				j := i + 1
				if j < len(steps) && steps[j].SendBytes != nil {
					sendBody = b64(t, steps[j].SendBytes)
					j++
				}
				if j < len(steps) && steps[j].Recv != nil {
					recv = steps[j].Recv
					j++
				}
				if j < len(steps) && steps[j].RecvBytes != nil {
					recvBytes = b64(t, steps[j].RecvBytes)
					j++
				}
				i = j - 1

				type result struct {
					v   any
					err error
				}
				done := make(chan result, 1)
				go func() {
					v, err := invoke(t, ctx, h, s.Send, sendBody)
					done <- result{v, err}
				}()
				line, err := pr.ReadBytes('\n')
				if err != nil {
					t.Fatalf("step %d: reading the client's request: %v", i, err)
				}
				line = line[:len(line)-1]
				if !jsonEqual(t, line, s.Send) {
					t.Fatalf("step %d: client wrote\n %s\nwant\n %s", i, line, s.Send)
				}
				checkPlanBytes(t, line, s.Send)
				if sendBody != nil {
					got := make([]byte, len(sendBody))
					if _, err := io.ReadFull(pr, got); err != nil || !bytes.Equal(got, sendBody) {
						t.Fatalf("step %d: body %q (%v), want %q", i, got, err, sendBody)
					}
				}
				if recv == nil {
					t.Fatalf("step %d: the transcript has no answer", i)
				}
				if _, err := phone.Write(append(append([]byte(nil), recv...), '\n')); err != nil {
					t.Fatal(err)
				}
				if recvBytes != nil {
					if _, err := phone.Write(recvBytes); err != nil {
						t.Fatal(err)
					}
				}
				r := <-done
				checkResult(t, i, recv, recvBytes, r.v, r.err)
			}
		})
	}
}

// checkPlanBytes holds touch.plan to the exact bytes of the transcript.
func checkPlanBytes(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w map[string]json.RawMessage
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal(want, &w)
	if wp, ok := w["plan"]; ok {
		if !bytes.Equal(g["plan"], wp) {
			t.Fatalf("touch.plan bytes\n got %s\nwant %s", g["plan"], wp)
		}
	}
}

func checkResult(t *testing.T, step int, recv json.RawMessage, recvBytes []byte, v any, err error) {
	t.Helper()
	var head replyHead
	if e := json.Unmarshal(recv, &head); e != nil {
		t.Fatal(e)
	}
	if !*head.OK {
		ce, ok := canonical.AsError(err)
		if !ok {
			t.Fatalf("step %d: error %v, want the helper's %s", step, err, head.Code)
		}
		if string(ce.Code) != head.Code || ce.Message != head.Message || ce.Hint != head.Hint {
			t.Fatalf("step %d: error %s %q hint %q, want %s %q hint %q", step, ce.Code, ce.Message, ce.Hint, head.Code, head.Message, head.Hint)
		}
		if ce.Details["serial"] != "emulator-5554" || ce.Details["op"] == nil {
			t.Fatalf("step %d: details %v lack serial and op", step, ce.Details)
		}
		return
	}
	if err != nil {
		t.Fatalf("step %d: %v", step, err)
	}
	if recvBytes != nil {
		if b, _ := v.([]byte); !bytes.Equal(b, recvBytes) {
			t.Fatalf("step %d: bytes %q, want %q", step, b, recvBytes)
		}
		return
	}
	if v == nil {
		return
	}
	// Every field the client decoded must be the transcript's: re-encode
	// the client's view and compare the fields it knows.
	var want map[string]any
	_ = json.Unmarshal(recv, &want)
	got := map[string]any{}
	switch x := v.(type) {
	case string:
		for k := range want {
			if k == "method" || k == "uri" {
				got[k] = x
			}
		}
	case bool:
		got["wasShown"] = x
	case []string:
		arr := make([]any, len(x))
		for i, s := range x {
			arr[i] = s
		}
		got["requested"] = arr
	default:
		data, _ := json.Marshal(x)
		_ = json.Unmarshal(data, &got)
	}
	for k, gv := range got {
		if wv, ok := want[k]; ok && !reflect.DeepEqual(gv, wv) && !(k == "keyboard" && gv == nil) {
			t.Fatalf("step %d: %s = %v, want %v", step, k, gv, wv)
		}
		if _, ok := want[k]; !ok && !isZero(gv) {
			t.Fatalf("step %d: client invented %s = %v", step, k, gv)
		}
	}
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case float64:
		return x == 0
	case string:
		return x == ""
	}
	return false
}

// helperPair is a client whose helper side the test scripts by hand.
func helperPair(t *testing.T) (*helper, net.Conn, *bufio.Reader) {
	t.Helper()
	client, phone := net.Pipe()
	t.Cleanup(func() { client.Close(); phone.Close() })
	return newHelper(client, "R58M1234"), phone, bufio.NewReader(phone)
}

func TestHelperWrongIDBreaksSession(t *testing.T) {
	h, phone, pr := helperPair(t)
	go func() {
		_, _ = pr.ReadBytes('\n')
		_, _ = phone.Write([]byte(`{"id":7,"ok":true}` + "\n"))
	}()
	_, err := h.viewport(context.Background())
	if canonical.CodeOf(err) != canonical.CodeDeviceUnavailable || !strings.Contains(err.Error(), "answered request 7, not 1") {
		t.Fatalf("err = %v", err)
	}
	// The connection is closed and every later call fails at once.
	if _, err := h.viewport(context.Background()); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("second call: %v", err)
	}
}

func TestHelperLineBound(t *testing.T) {
	h, phone, pr := helperPair(t)
	h.maxLine = 1000
	go func() {
		_, _ = pr.ReadBytes('\n')
		// A line without an end, longer than the bound: the client must
		// give up after max bytes instead of buffering all of it.
		_, _ = phone.Write(bytes.Repeat([]byte("x"), 200<<10))
	}()
	_, err := h.hierarchy(context.Background(), defaultHierarchy)
	if !errors.Is(err, errLineTooLong) {
		t.Fatalf("err = %v, want the line bound", err)
	}
}

func TestHelperTimeout(t *testing.T) {
	h, _, pr := helperPair(t)
	go func() { _, _ = pr.ReadBytes('\n') }() // reads the request, never answers
	start := time.Now()
	_, err := h.call(context.Background(), "viewport", 50*time.Millisecond, nil, nil, nil)
	if canonical.CodeOf(err) != canonical.CodeTimeout || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
	ce, _ := canonical.AsError(err)
	if ce.Details["serial"] != "R58M1234" || ce.Details["op"] != "viewport" || ce.Hint == "" {
		t.Fatalf("details %v hint %q", ce.Details, ce.Hint)
	}
}

func TestHelperCancelClosesConnection(t *testing.T) {
	h, _, pr := helperPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = pr.ReadBytes('\n')
		cancel()
	}()
	_, err := h.hierarchy(ctx, defaultHierarchy)
	if canonical.CodeOf(err) != canonical.CodeInterrupted || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if h.broken == nil {
		t.Fatal("a cancelled request must leave the connection closed")
	}
}

func TestHelperUnknownCodeIsInternal(t *testing.T) {
	h, phone, pr := helperPair(t)
	go func() {
		_, _ = pr.ReadBytes('\n')
		_, _ = phone.Write([]byte(`{"id":1,"ok":false,"code":"BOOM","message":"NullPointerException"}` + "\n"))
	}()
	err := h.key(context.Background(), keyArgs{Code: 4})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeInternal || ce.Details["helperCode"] != "BOOM" || ce.Hint == "" {
		t.Fatalf("err = %#v", err)
	}
	// An error line keeps the session: the next request goes out with id 2.
	go func() {
		line, _ := pr.ReadBytes('\n')
		if !bytes.HasPrefix(line, []byte(`{"id":2,"op":"key"`)) {
			_, _ = phone.Write([]byte(`{"id":0,"ok":true}` + "\n"))
			return
		}
		_, _ = phone.Write([]byte(`{"id":2,"ok":true}` + "\n"))
	}()
	if err := h.key(context.Background(), keyArgs{Code: 4}); err != nil {
		t.Fatal(err)
	}
}

func TestHelperOversizedBody(t *testing.T) {
	h, phone, pr := helperPair(t)
	go func() {
		_, _ = pr.ReadBytes('\n')
		_, _ = phone.Write([]byte(`{"id":1,"ok":true,"bytes":999999999999}` + "\n"))
	}()
	if _, _, err := h.screenshot(context.Background()); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("err = %v", err)
	}
}

func TestHelloRefusesOtherProtocol(t *testing.T) {
	h, phone, pr := helperPair(t)
	go func() {
		_, _ = pr.ReadBytes('\n')
		_, _ = phone.Write([]byte(`{"id":1,"ok":true,"protocol":"flow-helper-v2","versionCode":9,"sdk":34}` + "\n"))
	}()
	if _, err := h.hello(context.Background()); canonical.CodeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("err = %v", err)
	}
}
