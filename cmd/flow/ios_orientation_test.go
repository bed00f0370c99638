package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// TestSetOrientationOnIOS: setOrientation through the iOS runner (the
// fake, over flow-runner-v1): the flow passes, the event log has each
// turn, and the runner shows the last one (a device turned
// LANDSCAPE_RIGHT shows the interface landscapeLeft). A runner built
// before the command fails the step UNSUPPORTED_OPERATION (exit 3) with
// the hint to rebuild it.
func TestSetOrientationOnIOS(t *testing.T) {
	flow := filepath.Join(t.TempDir(), "turn.yaml")
	os.WriteFile(flow, []byte("appId: com.example.notes\n---\n- launchApp\n- setOrientation: LANDSCAPE_LEFT\n- setOrientation: UPSIDE_DOWN\n- setOrientation: LANDSCAPE_RIGHT\n"), 0o644)
	t.Run("current runner", func(t *testing.T) {
		_, url := fakeRunner(t, runner.Options{Simulator: true, Apps: []*sim.App{loadNotes(t)}})
		events := filepath.Join(t.TempDir(), "events.jsonl")
		if r := runFlow(t, "", "test", flow, "--maestro-version", "2.10", "--ios-runner-url", url, "--events", events); r.code != 0 {
			t.Fatalf("%s", r)
		}
		data, _ := os.ReadFile(events)
		var turns []string
		for _, line := range strings.Split(string(data), "\n") {
			var e struct {
				Type        string `json:"type"`
				Orientation string `json:"orientation"`
			}
			if json.Unmarshal([]byte(line), &e) == nil && e.Type == "setOrientation" {
				turns = append(turns, e.Orientation)
			}
		}
		if strings.Join(turns, ",") != "LANDSCAPE_LEFT,UPSIDE_DOWN,LANDSCAPE_RIGHT" {
			t.Fatalf("setOrientation events %v", turns)
		}
		resp, err := http.Post(url+"/command", "application/json", bytes.NewReader([]byte(`{"command":"viewport","commandId":99,"appIds":["com.example.notes"]}`)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var vp struct {
			Data struct {
				Orientation string `json:"orientation"`
			} `json:"data"`
		}
		json.NewDecoder(resp.Body).Decode(&vp)
		if vp.Data.Orientation != "landscapeLeft" {
			t.Fatalf("the runner shows %q after LANDSCAPE_RIGHT, want landscapeLeft", vp.Data.Orientation)
		}
	})
	t.Run("older runner", func(t *testing.T) {
		older := func(command string, answer map[string]any) {
			if command == "setOrientation" {
				delete(answer, "data")
				answer["ok"] = false
				answer["error"] = map[string]any{"code": "UNSUPPORTED_OPERATION", "message": `unknown command "setOrientation"`}
			}
		}
		_, url := fakeRunner(t, runner.Options{Simulator: true, Apps: []*sim.App{loadNotes(t)}, Tamper: older})
		r := runFlow(t, "", "test", flow, "--maestro-version", "2.10", "--ios-runner-url", url)
		if r.code != 3 || !strings.Contains(r.stdout, "turn.yaml:4:3") || !strings.Contains(r.stdout, "UNSUPPORTED_OPERATION") ||
			!strings.Contains(r.stdout, "flow ios runner build") {
			t.Fatalf("want exit 3, UNSUPPORTED_OPERATION at line 4 and the hint to rebuild the runner:\n%s", r)
		}
	})
}
