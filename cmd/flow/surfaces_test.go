package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// TestSurfacesAgreeOnGestures: the same gesture inputs give the same plan,
// or the same coded error, through every surface that takes them — the
// CLI command line (flow plan -- gesture …), .ad (flow plan SCRIPT.ad and
// flow check SCRIPT.ad), structured JSON (flow plan --jsonl), the Go API
// (flow.PlanGesture) and MCP (plan_gesture). Positions differ by nature (a script's line, stdin's)
// and are left out of the comparison; everything else must be equal.
func TestSurfacesAgreeOnGestures(t *testing.T) {
	h := startMCP(t)
	dir := t.TempDir()
	for name, input := range map[string]map[string]any{
		"pan":             {"kind": "pan", "origin": map[string]any{"x": 540, "y": 1600}, "delta": map[string]any{"x": 0, "y": -500}, "durationMs": 400},
		"pan two fingers": {"kind": "pan", "origin": map[string]any{"x": 540, "y": 1200}, "delta": map[string]any{"x": 200, "y": 0}, "pointerCount": 2},
		"fling":           {"kind": "fling", "direction": "left", "origin": map[string]any{"x": 800, "y": 1200}},
		"swipe preset":    {"kind": "swipe", "preset": "left-edge"},
		"pinch":           {"kind": "pinch", "scale": 0.5},
		"rotate":          {"kind": "rotate", "degrees": 35, "origin": map[string]any{"x": 540, "y": 1200}},
		"transform":       {"kind": "transform", "origin": map[string]any{"x": 540, "y": 1200}, "delta": map[string]any{"x": 40, "y": 0}, "scale": 1.5, "degrees": 20},
		"out of bounds":   {"kind": "pan", "origin": map[string]any{"x": 99999, "y": 10}, "delta": map[string]any{"x": 10, "y": 0}},
		"too far":         {"kind": "pinch", "scale": 40},
		"removed form":    {"kind": "fling", "direction": "up", "origin": map[string]any{"x": 540, "y": 1200}, "durationMs": 300},
		"profile":         {"kind": "pan", "origin": map[string]any{"x": 540, "y": 1200}, "delta": map[string]any{"x": 0, "y": -100}, "executionProfile": "endpoint-hold"},
		"unknown kind":    {"kind": "wiggle"},
	} {
		t.Run(name, func(t *testing.T) {
			// MCP.
			mcpOut, mcpErr := h.call("plan_gesture", map[string]any{"input": input, "platform": "android"})
			// Structured JSON lines.
			line, _ := json.Marshal(map[string]any{"input": input, "platform": "android"})
			jl := runFlow(t, string(line)+"\n", "plan", "--jsonl")
			var jsonl map[string]map[string]any
			if err := json.Unmarshal([]byte(strings.TrimSpace(jl.stdout)), &jsonl); err != nil {
				t.Fatalf("flow plan --jsonl: %v %s", err, jl)
			}
			if mcpErr {
				e := jsonl["error"]
				if e == nil {
					t.Fatalf("MCP refused %v but --jsonl planned it", mcpOut)
				}
				delete(e, "pos")
				if a, b := mustJSON(t, mcpOut), mustJSON(t, e); a != b {
					t.Fatalf("errors differ:\nmcp:   %s\njsonl: %s", a, b)
				}
			} else if a, b := mustJSON(t, mcpOut["plan"]), mustJSON(t, jsonl["plan"]); a != b {
				t.Fatalf("plans differ:\nmcp:   %s\njsonl: %s", a, b)
			}

			// The Go API.
			apiPlan, apiErr := flowapi.PlanGesture(input, flowapi.PlanOptions{Platform: planner.Android})
			if mcpErr != (apiErr != nil) {
				t.Fatalf("MCP refused: %v; the Go API: %v", mcpErr, apiErr)
			}
			if mcpErr {
				if a, b := mustJSON(t, mcpOut), mustJSONText(t, mustJSON(t, canonical.Coded(apiErr))); a != b {
					t.Fatalf("errors differ:\nmcp: %s\napi: %s", a, b)
				}
			} else if a, b := mustJSON(t, mcpOut["plan"]), mustJSONText(t, mustJSON(t, apiPlan)); a != b {
				t.Fatalf("plans differ:\nmcp: %s\napi: %s", a, b)
			}

			// The command line and .ad take the same gesture as positionals
			// when it has that form; a removed form or a public
			// executionProfile has none, and the structured surfaces refused
			// it above.
			raw, _ := json.Marshal(input)
			decoded, _ := canonical.DecodeJSON(raw)
			in, err := canonical.NormalizeGesture(decoded)
			if err != nil {
				if !mcpErr {
					t.Fatalf("NormalizeGesture refused what MCP planned: %v", err)
				}
				return
			}
			act, why := ad.GestureAction(in)
			if len(why) > 0 {
				t.Fatalf("no .ad form: %v", why)
			}
			tokens := append([]string{act.Command}, act.Positionals...)
			for k, v := range act.Flags {
				tokens = append(tokens, "--"+k, v)
			}
			cli := runFlow(t, "", append([]string{"plan", "--platform", "android", "--"}, tokens...)...)
			script := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".ad")
			os.WriteFile(script, []byte("context platform=android\n"+ad.EncodeAction(act)+"\n"), 0o644)
			ad := runFlow(t, "", "plan", "--platform", "android", script)
			check := runFlow(t, "", "check", "--json", "--platform", "android", script)
			var checked struct {
				Problems []map[string]any `json:"problems"`
			}
			if err := json.Unmarshal([]byte(check.stdout), &checked); err != nil {
				t.Fatalf("flow check --json: %v %s", err, check)
			}
			if mcpErr {
				if cli.code != 2 || ad.code != 2 || check.code != 2 || len(checked.Problems) != 1 {
					t.Fatalf("refused by MCP, but the command line exits %d, .ad plan %d, check %d with %d problems\n%s%s",
						cli.code, ad.code, check.code, len(checked.Problems), cli.stderr, check.stdout)
				}
				p := checked.Problems[0]
				// check names the platform it planned for; the rest is the planner's.
				for _, k := range []string{"code", "hint"} {
					if p[k] != mcpOut[k] {
						t.Errorf("flow check's %s %v, MCP's %v", k, p[k], mcpOut[k])
					}
				}
				if !strings.HasPrefix(p["message"].(string), mcpOut["message"].(string)) {
					t.Errorf("flow check's message %q does not start with MCP's %q", p["message"], mcpOut["message"])
				}
				return
			}
			if cli.code != 0 || ad.code != 0 || check.code != 0 {
				t.Fatalf("planned by MCP, but the command line exits %d, .ad plan %d, check %d\n%s%s", cli.code, ad.code, check.code, cli.stderr, ad.stderr)
			}
			if a, b := mustJSON(t, mcpOut["plan"]), mustJSONText(t, cli.stdout); a != b {
				t.Errorf("the command line planned differently:\nmcp: %s\ncli: %s", a, b)
			}
			var adLine struct {
				Plan any `json:"plan"`
			}
			for _, l := range strings.Split(strings.TrimSpace(ad.stdout), "\n") {
				if strings.Contains(l, `"plan"`) {
					json.Unmarshal([]byte(l), &adLine)
				}
			}
			if a, b := mustJSON(t, mcpOut["plan"]), mustJSON(t, adLine.Plan); a != b {
				t.Errorf(".ad planned differently:\nmcp: %s\n.ad: %s", a, b)
			}
		})
	}
}
