package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// TestIOSRunnerThatStopsAnsweringIsALostDevice: a runner that keeps its
// connection open but stops answering (a wedged XCTest, a frozen
// simulator, a dead link to an iPhone) is a lost device. The optional
// lookup that met it fails with DEVICE_UNAVAILABLE instead of being
// excused as a warning, flow sends the runner nothing more (no failure
// screenshot, no next flow each waiting out its own timeouts), the flows
// after it are skipped with the reason, the run exits 3 and the report
// is written. It costs one command's timeout (30 s), not one per command.
func TestIOSRunnerThatStopsAnsweringIsALostDevice(t *testing.T) {
	t.Parallel()
	rn, url := fakeRunner(t, runner.Options{Simulator: true, HangOn: func(command string) bool { return command == "hierarchy" }})
	head := "appId: com.example.shop\n---\n- launchApp\n"
	dir := writeTree(t, map[string]string{
		"a.yaml": head + "- assertVisible:\n    text: Log in\n    optional: true\n- tapOn:\n    text: Log in\n    optional: true\n",
		"b.yaml": head + "- tapOn: Log in\n",
		"c.yaml": head + "- tapOn: Log in\n",
	})
	report := filepath.Join(dir, "report.json")
	// Bounded so that a run that waits out every command ends here too
	// (as interrupted) instead of after many minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	start := time.Now()
	r := runFlowCtx(ctx, "", "test", "--ios-runner-url", url, "--format", "json", "--output", report,
		filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml"))
	took := time.Since(start)
	if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "DEVICE_UNAVAILABLE") {
		t.Fatalf("want exit 3 with DEVICE_UNAVAILABLE after %s:\n%s", took, r)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("the report was lost: %v", err)
	}
	var rep struct {
		Flows []struct {
			Name   string
			Status string
			Error  struct{ Code, Message, Hint string }
			Steps  []struct {
				Command string
				Status  string
				Error   struct{ Code string }
			}
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Flows) != 3 {
		t.Fatalf("%v\n%s", err, data)
	}
	a := rep.Flows[0]
	if a.Status != "failed" || a.Error.Code != "DEVICE_UNAVAILABLE" || a.Error.Hint == "" || !strings.Contains(a.Error.Message, "did not answer") {
		t.Errorf("the flow that met the loss must fail with DEVICE_UNAVAILABLE, saying the runner did not answer, with a hint: %+v", a)
	}
	for _, s := range a.Steps {
		if s.Status == "warned" {
			t.Errorf("optional: excused a runner that stopped answering: %+v", s)
		}
	}
	if n := len(a.Steps); n != 2 || a.Steps[1].Command != "assertVisible" || a.Steps[1].Status != "failed" || a.Steps[1].Error.Code != "DEVICE_UNAVAILABLE" {
		t.Errorf("want launchApp passed, then the optional assertVisible failed with DEVICE_UNAVAILABLE: %+v", a.Steps)
	}
	for _, f := range rep.Flows[1:] {
		if f.Status != "skipped" || f.Error.Code != "DEVICE_UNAVAILABLE" || !strings.Contains(f.Error.Message, "lost") {
			t.Errorf("a flow after the loss must be skipped with the reason: %+v", f)
		}
	}
	if n := rn.Hung(); n != 1 {
		t.Errorf("flow sent %d requests to a runner that had stopped answering; want only the one that found out", n)
	}
	if took > 75*time.Second {
		t.Errorf("the run took %s: more than one command's timeout", took)
	}
}

// TestIOSRunnerBrokenAnswersExit3: a runner whose answers no working
// runner gives (a refusal coded INVALID_ARGS of a request flow checked, a
// frame or a viewport of 1e308 points) is a broken device: exit 3 with
// DEVICE_UNAVAILABLE, never exit 2 (the flow's input was fine) or 1.
func TestIOSRunnerBrokenAnswersExit3(t *testing.T) {
	t.Parallel()
	huge := map[string]any{"x": 0, "y": 0, "w": 1e308, "h": 1e308}
	for name, tamper := range map[string]func(command string, ans map[string]any){
		"INVALID_ARGS refusal": func(command string, ans map[string]any) {
			if command == "tap" {
				delete(ans, "data")
				ans["ok"] = false
				ans["error"] = map[string]any{"code": "INVALID_ARGS", "message": `tap: field "x" must be a number`}
			}
		},
		"frame of 1e308": func(command string, ans map[string]any) {
			if data, ok := ans["data"].(map[string]any); ok && (command == "hierarchy" || command == "settle") {
				if root, ok := data["root"].(map[string]any); ok {
					root["frame"] = huge
				}
			}
		},
		"viewport of 1e308": func(command string, ans map[string]any) {
			if data, ok := ans["data"].(map[string]any); ok && command == "viewport" {
				data["w"] = 1e308
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, url := fakeRunner(t, runner.Options{Simulator: true, Tamper: tamper})
			dir := writeTree(t, map[string]string{"a.yaml": "appId: com.example.shop\n---\n- launchApp\n- tapOn: Log in\n- swipe:\n    direction: UP\n"})
			report := filepath.Join(dir, "report.xml")
			r := runFlowWithin(t, "test", "--ios-runner-url", url, "--format", "junit", "--output", report, filepath.Join(dir, "a.yaml"))
			if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "DEVICE_UNAVAILABLE") || !strings.Contains(r.stdout+r.stderr, "hint:") {
				t.Fatalf("want exit 3 with DEVICE_UNAVAILABLE and a hint:\n%s", r)
			}
			if _, err := os.Stat(report); err != nil {
				t.Fatalf("the report was lost: %v\n%s", err, r)
			}
		})
	}
}
