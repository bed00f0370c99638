package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// writeFiles writes name→text under a fresh folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const shopHeader = "appId: com.example.shop\n---\n"

// offscreen is a swipe whose end lies beyond any phone's width.
const offscreen = "- swipe:\n    start: 100, 500\n    end: 5000, 500\n"

// TestGestureThatCannotFitTouchesNothing: flow test plans every statically
// known coordinate gesture before the device acts. A flow whose swipe
// cannot fit fails with INVALID_ARGS at the swipe's position and exit 2,
// and the device did nothing at all: not even the launchApp before it (the
// event log is empty). Wherever the gesture is: the body, a hook, an
// inline runFlow, a repeat, a retry, a subflow file, a .ad gesture.
func TestGestureThatCannotFitTouchesNothing(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"body.yaml":        shopHeader + "- launchApp\n" + offscreen,
		"hook.yaml":        "appId: com.example.shop\nonFlowComplete:\n  - swipe:\n      start: 100, 500\n      end: 5000, 500\n---\n- launchApp\n",
		"inline.yaml":      shopHeader + "- launchApp\n- runFlow:\n    commands:\n      - swipe:\n          start: 100, 500\n          end: 5000, 500\n",
		"repeat.yaml":      shopHeader + "- launchApp\n- repeat:\n    times: 2\n    commands:\n      - swipe:\n          start: 100, 500\n          end: 5000, 500\n",
		"retry.yaml":       shopHeader + "- launchApp\n- retry:\n    maxRetries: 1\n    commands:\n      - swipe:\n          start: 100, 500\n          end: 5000, 500\n",
		"sub.yaml":         shopHeader + "- launchApp\n- runFlow: parts/swipe.yaml\n",
		"parts/swipe.yaml": shopHeader + offscreen,
		"gesture.ad":       "open com.example.shop\ngesture pan 540 1200 5000 0\n",
	})
	for _, tc := range []struct{ file, at string }{
		{"body.yaml", "body.yaml:4:3"}, {"hook.yaml", "hook.yaml:3:5"}, {"inline.yaml", "inline.yaml:6:9"},
		{"repeat.yaml", "repeat.yaml:7:9"}, {"retry.yaml", "retry.yaml:7:9"}, {"sub.yaml", "parts/swipe.yaml:3:3"},
		{"gesture.ad", "gesture.ad:2:1"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			events := filepath.Join(t.TempDir(), "events.jsonl")
			r := runFlow(t, "", "test", filepath.Join(dir, tc.file), "--events", events)
			if r.code != 2 {
				t.Fatalf("want exit 2:\n%s", r)
			}
			want := tc.at + ": INVALID_ARGS: "
			if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "the flow did not run") {
				t.Errorf("want %q and the refusal:\n%s", want, r)
			}
			if data, err := os.ReadFile(events); err != nil || len(data) != 0 {
				t.Errorf("the device acted for a refused flow (%v):\n%s", err, data)
			}
		})
	}
}

// TestRefusedFlowLetsOthersRun: in a suite, the refused flow is reported
// failed (INVALID_ARGS, exit 2) without starting, as a flow that cannot
// load is, and the other flows run; a branch for another platform is not
// planned (it never runs on this device).
func TestRefusedFlowLetsOthersRun(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"a_bad.yaml":  shopHeader + "- launchApp\n" + offscreen,
		"b_good.yaml": shopHeader + "- launchApp\n- runFlow:\n    when:\n      platform: iOS\n    commands:\n      - swipe:\n          start: 100, 500\n          end: 5000, 500\n",
		"c_good.yaml": shopHeader + "- launchApp\n",
	})
	out := filepath.Join(t.TempDir(), "report.json")
	events := filepath.Join(t.TempDir(), "events.jsonl")
	r := runFlow(t, "", "test", dir, "--format", "json", "--output", out, "--events", events)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	var rep struct {
		Flows []struct {
			Name, Status string
			Error        *struct{ Code string }
			Steps        []any
		}
	}
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Flows) != 3 {
		t.Fatalf("report: %v\n%s", err, data)
	}
	bad := rep.Flows[0]
	if bad.Name != "a_bad" || bad.Status != "failed" || bad.Error == nil || bad.Error.Code != "INVALID_ARGS" || len(bad.Steps) != 0 {
		t.Errorf("refused flow: %+v", bad)
	}
	for _, f := range rep.Flows[1:] {
		if f.Status != "passed" {
			t.Errorf("%s must run and pass: %+v\n%s", f.Name, f, r)
		}
	}
	data, _ = os.ReadFile(events)
	if n := strings.Count(string(data), `"launchApp"`); n != 2 {
		t.Errorf("want the two good flows' launches only, got %d:\n%s", n, data)
	}
}

// TestPreplanUsesTheAppsViewport: on sim the gestures are planned against
// the viewport of the app the flow targets, read from its model without
// launching it: a swipe that fits the 1000-px-wide app but not a 400-px one
// is refused only for the narrow app.
func TestPreplanUsesTheAppsViewport(t *testing.T) {
	t.Parallel()
	app := func(id string, width int) string {
		return "appId: " + id + "\nplatform: android\nviewport: {width: " + itoa(width) + ", height: 2000}\nstart: main\nscreens:\n" +
			"  - name: main\n    elements:\n      - {id: title, text: \"Title\", bounds: [0, 0, 400, 100]}\n"
	}
	swipe := "- launchApp\n- swipe:\n    start: 100, 500\n    end: 700, 500\n"
	dir := writeFiles(t, map[string]string{
		"wide.app.yaml":   app("com.wide", 1000),
		"narrow.app.yaml": app("com.narrow", 400),
		"wide.yaml":       "appId: com.wide\n---\n" + swipe,
		"narrow.yaml":     "appId: com.narrow\n---\n" + swipe,
	})
	args := []string{"test", "--app", filepath.Join(dir, "wide.app.yaml"), "--app", filepath.Join(dir, "narrow.app.yaml")}
	if r := runFlow(t, "", append(args, filepath.Join(dir, "wide.yaml"))...); r.code != 0 {
		t.Errorf("the swipe fits the wide app:\n%s", r)
	}
	r := runFlow(t, "", append(args, filepath.Join(dir, "narrow.yaml"))...)
	if r.code != 2 || !strings.Contains(r.stdout, "narrow.yaml:4:3: INVALID_ARGS: ") || !strings.Contains(r.stdout, "400x2000") {
		t.Errorf("the swipe cannot fit the narrow app:\n%s", r)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestPreplanOnWebReadsOnly: on a WebDriver endpoint the viewport for
// pre-planning is read with one script, and a refused flow sends no
// command that acts (no navigation, no actions).
func TestPreplanOnWebReadsOnly(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/session":
			fmt.Fprint(w, `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome"}}}`)
		case strings.HasSuffix(r.URL.Path, "/execute/sync"):
			fmt.Fprint(w, `{"value":[390,844]}`)
		default:
			fmt.Fprint(w, `{"value":null}`)
		}
	}))
	defer srv.Close()
	dir := writeFiles(t, map[string]string{"web.yaml": "url: http://127.0.0.1:1/\n---\n- launchApp\n" + offscreen})
	r := runFlow(t, "", "test", filepath.Join(dir, "web.yaml"), "--webdriver-url", srv.URL)
	if r.code != 2 || !strings.Contains(r.stdout, "web.yaml:4:3: INVALID_ARGS: ") || !strings.Contains(r.stdout, "on web 390x844") {
		t.Fatalf("want the swipe refused on the web viewport, exit 2:\n%s", r)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, req := range seen {
		if strings.HasSuffix(req, "/url") || (strings.HasSuffix(req, "/actions") && !strings.HasPrefix(req, "DELETE")) {
			t.Errorf("the device acted for a refused flow: %s (all: %v)", req, seen)
		}
	}
}
