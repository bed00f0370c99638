package studio

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

func post(t *testing.T, h http.Handler, path string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", path, strings.NewReader(string(b)))
	req.Host = "127.0.0.1:7422"
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s answered no JSON: %s", path, rec.Body)
	}
	return rec.Code, out
}

// Append loads the whole file as flow check would before writing: a step
// that would break the flow is refused with the loader's coded error and
// the file is left as it was; a good one is added after the last step.
func TestAppendKeepsAValidFlow(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "login.yaml")
	orig := "appId: com.example.shop\n---\n- launchApp"
	os.WriteFile(file, []byte(orig), 0o644)
	h := New(Options{FlowFile: file}).Handler()

	code, out := post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{"- tapOn:\n    idd: x"}})
	if code != http.StatusBadRequest || out["error"] == nil {
		t.Fatalf("a step with an unknown key must be refused: %d %v", code, out)
	}
	if b, _ := os.ReadFile(file); string(b) != orig {
		t.Fatalf("a refused append changed the file:\n%s", b)
	}
	code, out = post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{`- tapOn: "Log in"`, "- assertVisible:\n    id: email"}})
	if code != http.StatusOK {
		t.Fatalf("good steps refused: %d %v", code, out)
	}
	want := orig + "\n- tapOn: \"Log in\"\n- assertVisible:\n    id: email\n"
	if b, _ := os.ReadFile(file); string(b) != want {
		t.Fatalf("the file:\n%s\nwant:\n%s", b, want)
	}
}

// A new file gets an appId header, and without an appId to write the
// append is refused with what to do.
func TestAppendNewFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sub", "new.yaml")
	code, out := post(t, New(Options{}).Handler(), "/api/append", map[string]any{"file": file, "steps": []string{"- back"}})
	if code != http.StatusBadRequest || !strings.Contains(out["error"].(map[string]any)["hint"].(string), "--app-id") {
		t.Fatalf("no appId: %d %v", code, out)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused append created the file")
	}
	code, out = post(t, New(Options{AppID: "com.example.shop"}).Handler(), "/api/append", map[string]any{"file": file, "steps": []string{"- back"}})
	if b, _ := os.ReadFile(file); code != http.StatusOK || string(b) != "appId: \"com.example.shop\"\n---\n- back\n" {
		t.Fatalf("new file: %d %v\n%s", code, out, b)
	}
}

// The command box tells Maestro YAML from .ad lines, and writes a command
// as a list item of the flow.
func TestCommandKinds(t *testing.T) {
	for cmd, yaml := range map[string]bool{
		`tapOn: "Log in"`:           true,
		"- launchApp":               true,
		"launchApp":                 true,
		"tapOn:\n  id: login":       true,
		`press text="Log in"`:       false,
		"back":                      true, // Maestro's back (the .ad back is the same action)
		`fill id=email "a@b.c"`:     false,
		"scroll down":               false,
		"assertVisible:\n  text: x": true,
	} {
		if got := isYAML(cmd); got != yaml {
			t.Errorf("isYAML(%q) = %v, want %v", cmd, got, yaml)
		}
	}
	for in, want := range map[string]string{
		`tapOn: "Log in"`:   `- tapOn: "Log in"`,
		"tapOn:\n  id: x\n": "- tapOn:\n    id: x",
		"- launchApp":       "- launchApp",
	} {
		if got := listItem(in); got != want {
			t.Errorf("listItem(%q) = %q, want %q", in, got, want)
		}
	}
}

// Other web pages the user visits cannot drive the device through the
// browser: a cross-origin request, a POST that is not JSON (a form or
// text/plain needs no CORS preflight) and, without a token, a Host that
// is not loopback (DNS rebinding) are refused before any handler runs.
func TestOtherOriginsRefused(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.yaml")
	h := New(Options{AppID: "com.example.shop"}).Handler()
	body := `{"file":"` + file + `","steps":["- back"]}`
	for _, c := range []struct {
		name, host, origin, ctype string
		want                      int
	}{
		{"rebound host", "evil.example:7422", "", "application/json", http.StatusForbidden},
		{"other origin", "127.0.0.1:7422", "http://evil.example", "application/json", http.StatusForbidden},
		{"text/plain post", "127.0.0.1:7422", "", "text/plain", http.StatusUnsupportedMediaType},
		{"form post", "localhost:7422", "", "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
	} {
		req := httptest.NewRequest("POST", "/api/append", strings.NewReader(body))
		req.Host = c.host
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		req.Header.Set("Content-Type", c.ctype)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, rec.Code, c.want)
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused request wrote the flow file")
	}
	// The page itself, same origin, JSON: let in.
	req := httptest.NewRequest("POST", "/api/append", strings.NewReader(body))
	req.Host = "[::1]:7422"
	req.Header.Set("Origin", "http://[::1]:7422")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("the page's own request: %d %s", rec.Code, rec.Body)
	}
}

// ranSession records what studio asked to run; it stands for cmd/flow's
// session only in tests of what studio hands it.
type ranSession struct{ ran []*canonical.Flow }

func (s *ranSession) Screenshot(context.Context) ([]byte, error) { return nil, nil }
func (s *ranSession) Hierarchy(context.Context) (*exec.Node, canonical.Viewport, error) {
	return &exec.Node{}, canonical.Viewport{}, nil
}
func (s *ranSession) ParseLine(string) (*canonical.Flow, error) { return &canonical.Flow{}, nil }
func (s *ranSession) Run(_ context.Context, f *canonical.Flow) (exec.FlowResult, error) {
	s.ran = append(s.ran, f)
	return exec.FlowResult{Status: exec.StatusPassed}, nil
}
func (s *ranSession) Reopen(context.Context) error { return nil }

// Commands are read with the Maestro version studio was given, as flow
// test reads them: setClipboard is today's command, unknown to 1.39.
func TestCommandFollowsMaestroVersion(t *testing.T) {
	old := &ranSession{}
	code, out := post(t, New(Options{Session: old, AppID: "a", MaestroVersion: canonical.Maestro139}).Handler(), "/api/run", map[string]any{"command": "setClipboard: hi"})
	if code != http.StatusOK || out["status"] != "failed" || out["error"] == nil || len(old.ran) != 0 {
		t.Fatalf("1.39 must refuse setClipboard before running anything: %d %v (ran %d)", code, out, len(old.ran))
	}
	cur := &ranSession{}
	code, out = post(t, New(Options{Session: cur, AppID: "a"}).Handler(), "/api/run", map[string]any{"command": "setClipboard: hi"})
	if code != http.StatusOK || out["status"] != "passed" || len(cur.ran) != 1 || out["step"] != "- setClipboard: hi" {
		t.Fatalf("today's Maestro runs setClipboard: %d %v (ran %d)", code, out, len(cur.ran))
	}
}
