package ios

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

type wireLine struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
}

// transcriptRunner plays the runner's side of a transcript: each request
// must equal the transcript's (as JSON values); the answer is the next
// response.
func transcriptRunner(t *testing.T, file string) (string, func() []string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []wireLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l wireLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Request != nil || l.Response != nil {
			lines = append(lines, l)
		}
	}
	var mu sync.Mutex
	var problems []string
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/command" || next+1 >= len(lines) {
			problems = append(problems, "unexpected "+r.Method+" "+r.URL.Path+" "+string(body))
			http.Error(w, "unexpected", http.StatusBadRequest)
			return
		}
		var got, want any
		json.Unmarshal(body, &got)
		json.Unmarshal(lines[next].Request, &want)
		if !reflect.DeepEqual(got, want) {
			problems = append(problems, "sent "+string(body)+"\n transcript: "+string(lines[next].Request))
		}
		w.Write(lines[next+1].Response)
		next += 2
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		if next != len(lines) {
			problems = append(problems, "the transcript was not played to its end")
		}
		return problems
	}
}

// TestClientTranscript drives the device through the session transcript:
// every request flow sends is the transcript's, and answers decode as the
// protocol says.
func TestClientTranscript(t *testing.T) {
	url, check := transcriptRunner(t, "../../ios-runner/testdata/wire/session.jsonl")
	ctx := context.Background()
	d, err := Attach(ctx, Config{URL: url, Name: "sim-1"})
	if err != nil {
		t.Fatal(err)
	}
	if !d.simulator {
		t.Fatal("status said simulator")
	}
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true, Permissions: map[string]string{"all": "allow"},
		Arguments: map[string]any{"onboarded": true}}); err != nil {
		t.Fatal(err)
	}
	vp, err := d.Viewport(ctx)
	if err != nil || vp.Width != 1080 || vp.Height != 2400 {
		t.Fatalf("viewport %+v %v", vp, err)
	}
	root, err := d.Hierarchy(ctx)
	if err != nil || len(root.Children) != 1 || root.Children[0].Text != "Log in" || root.Children[0].ID != "login_button" ||
		root.Children[0].Bounds.W != 800 || root.Children[0].Class != "button" {
		t.Fatalf("hierarchy %+v %v", root, err)
	}
	if err := d.Tap(ctx, canonical.Point{X: 540, Y: 320}); err != nil {
		t.Fatal(err)
	}
	st, err := d.ReadSettled(ctx, 3*time.Second)
	if err != nil || !st.Still || st.Version == "" || st.Root.Children[0].Hint != "Email" || !st.Root.Children[0].Focused {
		t.Fatalf("settled %+v %v", st, err)
	}
	for _, step := range []func() error{
		func() error { return d.InputText(ctx, "ada@example.com ✓") },
		func() error { return d.EraseText(ctx, 2) },
		func() error { return d.PressKey(ctx, exec.Key{Name: "Enter"}) },
		func() error { return d.HideKeyboard(ctx) },
		func() error { return d.OpenLink(ctx, "shop://cart", false) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	err = d.StopApp(ctx, "com.missing", false)
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeCommandFailed || ce.Hint != "check the appId" || ce.Details["device"] != "sim-1" {
		t.Fatalf("a runner refusal keeps its code and hint and names the device: %v", err)
	}
	err = d.c.call(ctx, "swipe", nil, 0, nil)
	if canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
		t.Fatalf("unknown command: %v", err)
	}
	if err := d.c.call(ctx, "quit", nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	if p := check(); len(p) > 0 {
		t.Fatal(strings.Join(p, "\n"))
	}
}

func TestClientBrokenRunner(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"not json":   func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) },
		"http 500":   func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
		"wrong id":   func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"ok":true,"commandId":99,"data":{}}`)) },
		"no verdict": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"commandId":1}`)) },
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			_, err := Attach(context.Background(), Config{URL: srv.URL, Name: "iphone-1"})
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Hint == "" {
				t.Fatalf("want DEVICE_UNAVAILABLE with a hint, got %v", err)
			}
		})
	}
}

func TestTwoFingersRefusedOnIPhone(t *testing.T) {
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct {
			Command   string `json:"command"`
			CommandID int    `json:"commandId"`
		}
		json.NewDecoder(r.Body).Decode(&b)
		if b.Command == "gesture" {
			sent++
		}
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "commandId": b.CommandID, "data": map[string]any{"protocol": RunnerProtocol, "simulator": false}})
	}))
	defer srv.Close()
	d, err := Attach(context.Background(), Config{URL: srv.URL, Name: "iphone-1"})
	if err != nil {
		t.Fatal(err)
	}
	p0 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 380}}, {OffsetMs: 40, Point: canonical.Point{X: 220, Y: 360}}}
	p1 := []planner.Sample{{OffsetMs: 0, Point: canonical.Point{X: 200, Y: 460}}, {OffsetMs: 40, Point: canonical.Point{X: 220, Y: 440}}}
	plan := planner.Plan{Topology: planner.Two, Intent: canonical.IntentPinch, DurationMs: 40, Viewport: canonical.Viewport{Width: 390, Height: 844},
		Pointers: []planner.Pointer{{PointerID: 0, Samples: p0}, {PointerID: 1, Samples: p1}}}
	err = d.PerformGesture(context.Background(), plan)
	if canonical.CodeOf(err) != canonical.CodeUnsupportedOperation || sent != 0 {
		t.Fatalf("want UNSUPPORTED_OPERATION and nothing sent, got %v (%d sent)", err, sent)
	}
}

// TestClientTranscriptIPhone drives the device through the iPhone
// transcript (points, a missing app, typing without focus, the keyboard):
// every request is the transcript's and the runner's refusals keep their
// code.
func TestClientTranscriptIPhone(t *testing.T) {
	url, check := transcriptRunner(t, "../../ios-runner/testdata/wire/iphone.jsonl")
	ctx := context.Background()
	d, err := Attach(ctx, Config{URL: url, Name: "00008110-A"})
	if err != nil {
		t.Fatal(err)
	}
	if d.simulator {
		t.Fatal("status said a real iPhone")
	}
	err = d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.missing", StopApp: true})
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Message, "not installed") {
		t.Fatalf("launching a missing app: %v", err)
	}
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.notes", StopApp: true}); err != nil {
		t.Fatal(err)
	}
	if vp, err := d.Viewport(ctx); err != nil || vp.Width != 390 || vp.Height != 844 {
		t.Fatalf("viewport in points: %+v %v", vp, err)
	}
	if err := d.InputText(ctx, "hello"); canonical.CodeOf(err) != canonical.CodeCommandFailed {
		t.Fatalf("typing without focus: %v", err)
	}
	steps := []func() error{
		func() error { return d.HideKeyboard(ctx) },
		func() error { return d.Tap(ctx, canonical.Point{X: 195, Y: 142}) },
		func() error {
			vp, err := d.Viewport(ctx)
			if err == nil && (vp.Width != 390 || vp.Height != 844) {
				err = canonical.Errorf(canonical.CodeInternal, "the keyboard changed the viewport: %+v", vp)
			}
			return err
		},
		func() error { return d.InputText(ctx, "hello ✓") },
		func() error { return d.HideKeyboard(ctx) },
		func() error { _, err := d.Viewport(ctx); return err },
		func() error { return d.c.call(ctx, "quit", nil, 0, nil) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if p := check(); len(p) > 0 {
		t.Fatal(strings.Join(p, "\n"))
	}
}

// TestClientTranscriptOrientation drives the device through the
// orientation transcript: each of Maestro's orientations is sent by the
// runner's name for it, and a value the runner refuses as invalid (which
// flow itself never sends) means a runner of another protocol.
func TestClientTranscriptOrientation(t *testing.T) {
	url, check := transcriptRunner(t, "../../ios-runner/testdata/wire/orientation.jsonl")
	ctx := context.Background()
	d, err := Attach(ctx, Config{URL: url, Name: "sim-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: "com.example.shop", StopApp: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		orientation string
		w, h        float64
	}{{"LANDSCAPE_LEFT", 844, 390}, {"LANDSCAPE_RIGHT", 844, 390}, {"UPSIDE_DOWN", 390, 844}, {"PORTRAIT", 390, 844}} {
		if err := d.SetOrientation(ctx, c.orientation); err != nil {
			t.Fatalf("%s: %v", c.orientation, err)
		}
		if vp, err := d.Viewport(ctx); err != nil || vp.Width != c.w || vp.Height != c.h {
			t.Fatalf("%s: viewport %+v %v", c.orientation, vp, err)
		}
	}
	if err := d.SetOrientation(ctx, "SIDEWAYS"); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Fatalf("flow must refuse SIDEWAYS before sending: %v", err)
	}
	err = d.c.call(ctx, CommandSetOrientation, map[string]any{"orientation": "sideways"}, 0, nil)
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeDeviceUnavailable || ce.Reason() != "RUNNER_REFUSED_REQUEST" {
		t.Fatalf("a refused value: %v", err)
	}
	if err := d.c.call(ctx, "quit", nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	if p := check(); len(p) > 0 {
		t.Fatal(strings.Join(p, "\n"))
	}
}

// TestSetOrientationOnAnOlderRunner: a runner built before setOrientation
// answers it as any unknown command; flow says to rebuild the runner.
func TestSetOrientationOnAnOlderRunner(t *testing.T) {
	d, _, _ := attachScripted(t, func(command string) map[string]any {
		return map[string]any{"ok": false,
			"error": map[string]any{"code": "UNSUPPORTED_OPERATION", "message": `unknown command "` + command + `"`}}
	})
	err := d.SetOrientation(context.Background(), "LANDSCAPE_LEFT")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeUnsupportedOperation || !strings.Contains(ce.Hint, "flow ios runner build") || !strings.Contains(ce.Message, "older") {
		t.Fatalf("want UNSUPPORTED_OPERATION with the hint to rebuild the runner, got %v", err)
	}
}
