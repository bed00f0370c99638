package studio

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// adSession parses .ad lines to the canonical commands the ad codec makes
// of them (studio may not import the codec; cmd/flow's studio tests run
// the real one): a press, and a swipe series, which Maestro cannot write.
type adSession struct{ ranSession }

func (adSession) ParseLine(line string) (*canonical.Flow, error) {
	switch line {
	case `press text="Log in"`:
		return &canonical.Flow{Commands: []canonical.Command{&canonical.Tap{Meta: canonical.Meta{Name: "press"}, Mode: canonical.TapSingle,
			Selector: &canonical.Selector{Text: ptr(canonical.Text("Log in", canonical.Pos{}))}, Repeat: 1, DelayMs: 100, RetryIfNoChange: true}}}, nil
	case "swipe 540 1800 540 900":
		return &canonical.Flow{Commands: []canonical.Command{&canonical.SwipeSeries{Meta: canonical.Meta{Name: "swipe"},
			Swipe: canonical.SwipeInput{From: canonical.Point{X: 540, Y: 1800}, To: canonical.Point{X: 540, Y: 900}, Count: 1}}}}, nil
	}
	return nil, canonical.Errorf(canonical.CodeInvalidArgs, "unknown line %q", line)
}

func (adSession) Run(context.Context, *canonical.Flow) (exec.FlowResult, error) {
	return exec.FlowResult{Status: exec.StatusPassed}, nil
}

func ptr[T any](v T) *T { return &v }

// An .ad line is appended as the Maestro steps it converts to, after the
// Maestro steps sent with it, and the file still loads as a flow; the
// answer lists what was appended. Running the line shows the same YAML.
func TestAppendAdLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "login.yaml")
	orig := "appId: com.example.shop\n---\n- launchApp\n"
	os.WriteFile(file, []byte(orig), 0o644)
	h := New(Options{Session: &adSession{}, FlowFile: file, MaestroVersion: canonical.Maestro139}).Handler()

	code, out := post(t, h, "/api/run", map[string]any{"command": `press text="Log in"`})
	if code != http.StatusOK || out["status"] != "passed" || len(out["yaml"].([]any)) != 1 || out["yaml"].([]any)[0] != "- tapOn: Log in" {
		t.Fatalf("run shows the YAML the line appends as: %d %v", code, out)
	}
	code, out = post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{"- back", `press text="Log in"`}})
	if code != http.StatusOK {
		t.Fatalf("append: %d %v", code, out)
	}
	want := orig + "- back\n- tapOn: Log in\n"
	if b, _ := os.ReadFile(file); string(b) != want {
		t.Fatalf("the file:\n%s\nwant:\n%s", b, want)
	}
	if got := out["appended"].([]any); len(got) != 2 || got[1] != "- tapOn: Log in" {
		t.Fatalf("appended: %v", got)
	}
	if _, err := New(Options{}).flows.loader(context.Background()).Load(file); err != nil {
		t.Fatalf("the appended file does not load: %v", err)
	}
}

// A line with no Maestro form is refused with UNSUPPORTED_OPERATION and a
// hint, and the file is left byte for byte as it was, also when Maestro
// steps came with it. Running it says so before any append.
func TestAppendAdLineWithoutMaestroForm(t *testing.T) {
	file := filepath.Join(t.TempDir(), "login.yaml")
	orig := "appId: com.example.shop\n---\n- launchApp" // no final newline: untouched means untouched
	os.WriteFile(file, []byte(orig), 0o644)
	h := New(Options{Session: &adSession{}, FlowFile: file}).Handler()

	code, out := post(t, h, "/api/run", map[string]any{"command": "swipe 540 1800 540 900"})
	ae, _ := out["appendError"].(map[string]any)
	if code != http.StatusOK || out["status"] != "passed" || ae == nil || ae["code"] != "UNSUPPORTED_OPERATION" || out["yaml"] != nil {
		t.Fatalf("run must say the line cannot be appended: %d %v", code, out)
	}
	code, out = post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{"- back", "swipe 540 1800 540 900"}})
	e, _ := out["error"].(map[string]any)
	if code != http.StatusBadRequest || e == nil || e["code"] != "UNSUPPORTED_OPERATION" || !strings.Contains(e["hint"].(string), "swipe") {
		t.Fatalf("want UNSUPPORTED_OPERATION with a hint: %d %v", code, out)
	}
	if b, _ := os.ReadFile(file); string(b) != orig {
		t.Fatalf("a refused append changed the file:\n%q", b)
	}
}

// Undo drops the steps of the last append, once, and only while the file
// is what the append wrote; a file the append created is removed.
func TestUndoAppend(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "login.yaml")
	orig := "appId: com.example.shop\n---\n- launchApp"
	os.WriteFile(file, []byte(orig), 0o644)
	h := New(Options{Session: &adSession{}, FlowFile: file}).Handler()
	if code, out := post(t, h, "/api/undo", map[string]any{}); code != http.StatusBadRequest || out["error"] == nil {
		t.Fatalf("nothing to undo yet: %d %v", code, out)
	}
	if code, out := post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{"- back", `press text="Log in"`}}); code != http.StatusOK {
		t.Fatalf("append: %d %v", code, out)
	}
	if code, out := post(t, h, "/api/undo", map[string]any{}); code != http.StatusOK {
		t.Fatalf("undo: %d %v", code, out)
	}
	if b, _ := os.ReadFile(file); string(b) != orig {
		t.Fatalf("undo must give the file its bytes back:\n%q", b)
	}
	if code, _ := post(t, h, "/api/undo", map[string]any{}); code != http.StatusBadRequest {
		t.Fatalf("an append is undone once: %d", code)
	}
	// An edit made after the append is never thrown away.
	post(t, h, "/api/append", map[string]any{"file": file, "steps": []string{"- back"}})
	edited := orig + "\n- back\n# mine\n"
	os.WriteFile(file, []byte(edited), 0o644)
	if code, _ := post(t, h, "/api/undo", map[string]any{}); code != http.StatusBadRequest {
		t.Fatalf("undo after an edit must be refused: %d", code)
	}
	if b, _ := os.ReadFile(file); string(b) != edited {
		t.Fatalf("a refused undo changed the file:\n%q", b)
	}
	// A file the append created goes away again.
	created := filepath.Join(dir, "new.yaml")
	h = New(Options{Session: &adSession{}, AppID: "com.example.shop"}).Handler()
	post(t, h, "/api/append", map[string]any{"file": created, "steps": []string{"- back"}})
	if code, _ := post(t, h, "/api/undo", map[string]any{}); code != http.StatusOK {
		t.Fatalf("undo of a new file: %d", code)
	}
	if _, err := os.Stat(created); !os.IsNotExist(err) {
		t.Fatalf("the file the append created must be removed: %v", err)
	}
}
