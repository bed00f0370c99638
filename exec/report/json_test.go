package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

func jsonReport(t *testing.T, run exec.RunResult) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.JSON(&b, run); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJSONSnapshot(t *testing.T) {
	t.Parallel()
	out := jsonReport(t, fixture())
	snaps.WithConfig(snaps.Raw(), snaps.Ext(".json")).MatchStandaloneSnapshot(t, string(out))
	if !bytes.HasSuffix(out, []byte("}\n")) || !bytes.Contains(out, []byte("\n  \"summary\": {\n")) {
		t.Errorf("want two-space indentation and a trailing newline:\n%s", out)
	}
}

// The contracts §6 keys, and the keys this package adds (contracts: extend
// by adding). A key outside both is a contract break.
var (
	reportKeys  = keys{required: []string{"summary", "flows"}, added: []string{"device"}}
	summaryKeys = keys{required: []string{"passed", "failed", "skipped", "durationMs"}}
	flowKeys    = keys{required: []string{"name", "file", "status", "durationMs", "steps"},
		optional: []string{"error"}, added: []string{"warned", "shard", "artifacts"}}
	stepKeys = keys{required: []string{"command", "status", "durationMs", "pos"},
		added: []string{"label", "description", "depth", "error", "logs", "iteration", "iterations"}}
	errorKeys = keys{required: []string{"code", "message"}, optional: []string{"hint", "pos", "details"}}
	posKeys   = keys{optional: []string{"file", "line", "col"}}
)

type keys struct{ required, optional, added []string }

func (k keys) check(t *testing.T, where string, obj any) map[string]any {
	t.Helper()
	m, ok := obj.(map[string]any)
	if !ok {
		t.Fatalf("%s: %T, want an object", where, obj)
	}
	for _, r := range k.required {
		if _, ok := m[r]; !ok {
			t.Errorf("%s: missing %q", where, r)
		}
	}
	var names []string
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(k.required, name) && !slices.Contains(k.optional, name) && !slices.Contains(k.added, name) {
			t.Errorf("%s: unexpected key %q", where, name)
		}
	}
	return m
}

func checkError(t *testing.T, where string, v any) {
	t.Helper()
	e := errorKeys.check(t, where, v)
	for _, k := range []string{"code", "message", "hint"} {
		if _, ok := e[k]; ok {
			if s, isString := e[k].(string); !isString || s == "" {
				t.Errorf("%s.%s = %#v, want a non-empty string", where, k, e[k])
			}
		}
	}
	if p, ok := e["pos"]; ok {
		checkPos(t, where+".pos", p)
	}
}

func checkPos(t *testing.T, where string, v any) {
	t.Helper()
	p := posKeys.check(t, where, v)
	for _, k := range []string{"line", "col"} {
		if _, ok := p[k]; ok {
			if _, isNum := p[k].(float64); !isNum {
				t.Errorf("%s.%s = %#v, want a number", where, k, p[k])
			}
		}
	}
}

func number(t *testing.T, where string, v any) float64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Errorf("%s = %#v, want a number", where, v)
	}
	return f
}

// TestJSONContract parses the report back and holds it to contracts §6:
// exactly the contract's keys (plus documented additions), the right
// types, and statuses from the contract's sets.
func TestJSONContract(t *testing.T) {
	t.Parallel()
	var doc any
	if err := json.Unmarshal(jsonReport(t, fixture()), &doc); err != nil {
		t.Fatal(err)
	}
	root := reportKeys.check(t, "report", doc)
	summary := summaryKeys.check(t, "summary", root["summary"])
	got := map[string]float64{}
	for _, k := range summaryKeys.required {
		got[k] = number(t, "summary."+k, summary[k])
	}
	// Passed and warned count as passed (contracts §6).
	if want := (map[string]float64{"passed": 2, "failed": 1, "skipped": 1, "durationMs": 9876}); !equalMaps(got, want) {
		t.Errorf("summary = %v, want %v", got, want)
	}
	flows, ok := root["flows"].([]any)
	if !ok || len(flows) != 4 {
		t.Fatalf("flows = %#v, want 4 flows", root["flows"])
	}
	var statuses []string
	for i, fv := range flows {
		where := fmt.Sprintf("flows[%d]", i)
		f := flowKeys.check(t, where, fv)
		status, _ := f["status"].(string)
		statuses = append(statuses, status)
		if !slices.Contains([]string{"passed", "failed", "skipped"}, status) {
			t.Errorf("%s.status = %q, want passed, failed or skipped", where, status)
		}
		for _, k := range []string{"name", "file"} {
			if _, isString := f[k].(string); !isString {
				t.Errorf("%s.%s = %#v, want a string", where, k, f[k])
			}
		}
		number(t, where+".durationMs", f["durationMs"])
		if e, ok := f["error"]; ok {
			checkError(t, where+".error", e)
		}
		steps, ok := f["steps"].([]any)
		if !ok {
			t.Fatalf("%s.steps = %#v, want an array (never null)", where, f["steps"])
		}
		for j, sv := range steps {
			sw := fmt.Sprintf("%s.steps[%d]", where, j)
			s := stepKeys.check(t, sw, sv)
			if st, _ := s["status"].(string); !slices.Contains([]string{"passed", "failed", "warned", "skipped"}, st) {
				t.Errorf("%s.status = %q", sw, st)
			}
			if _, isString := s["command"].(string); !isString {
				t.Errorf("%s.command = %#v, want a string", sw, s["command"])
			}
			number(t, sw+".durationMs", s["durationMs"])
			checkPos(t, sw+".pos", s["pos"])
			if e, ok := s["error"]; ok {
				checkError(t, sw+".error", e)
			}
		}
	}
	if want := []string{"passed", "failed", "passed", "skipped"}; !slices.Equal(statuses, want) {
		t.Errorf("flow statuses = %v, want %v (a warned flow is passed)", statuses, want)
	}
	failed := flows[1].(map[string]any)
	wantErr := map[string]any{
		"code": "ELEMENT_NOT_FOUND", "message": "Element not found: Text matching regex: Pay now",
		"hint":    "check the text on screen, or wait for it with extendedWaitUntil",
		"pos":     map[string]any{"file": "flows/subflows/pay.yaml", "line": 4.0, "col": 3.0},
		"details": map[string]any{"selector": map[string]any{"text": "Pay now"}, "timeoutMs": 17000.0},
	}
	if got, _ := json.Marshal(failed["error"]); !bytes.Equal(got, mustJSON(t, wantErr)) {
		t.Errorf("failed flow error = %s, want %s", got, mustJSON(t, wantErr))
	}
	if w := flows[2].(map[string]any)["warned"]; w != true {
		t.Errorf("warned flow: warned = %#v, want true", w)
	}
	for _, i := range []int{0, 1, 3} {
		if w, ok := flows[i].(map[string]any)["warned"]; ok {
			t.Errorf("flow %d: warned = %#v, want it absent", i, w)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func equalMaps(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestJSONMinimal: an empty run and a flow without steps, error or
// additions carry exactly the contract's keys, with [] (not null) arrays.
func TestJSONMinimal(t *testing.T) {
	t.Parallel()
	if got, want := string(jsonReport(t, exec.RunResult{})),
		"{\n  \"summary\": {\n    \"passed\": 0,\n    \"failed\": 0,\n    \"skipped\": 0,\n    \"durationMs\": 0\n  },\n  \"flows\": []\n}\n"; got != want {
		t.Errorf("empty run:\n%s\nwant:\n%s", got, want)
	}
	run := exec.RunResult{DurationMs: 5, Flows: []exec.FlowResult{
		{Name: "a", File: "a.yaml", Status: exec.StatusPassed, DurationMs: 5,
			Steps: []exec.StepResult{{Command: "back", Status: exec.StatusPassed, DurationMs: 1}}},
		{Name: "b", File: "b.yaml", Status: exec.StatusFailed},
	}}
	var compact bytes.Buffer
	if err := json.Compact(&compact, jsonReport(t, run)); err != nil {
		t.Fatal(err)
	}
	want := `{"summary":{"passed":1,"failed":1,"skipped":0,"durationMs":5},"flows":[` +
		`{"name":"a","file":"a.yaml","status":"passed","durationMs":5,"steps":[{"command":"back","status":"passed","durationMs":1,"pos":{}}]},` +
		`{"name":"b","file":"b.yaml","status":"failed","durationMs":0,"steps":[]}]}`
	if compact.String() != want {
		t.Errorf("got  %s\nwant %s", compact.String(), want)
	}
}

// TestJSONPassedFlowWithWarnedStep: Maestro keeps a flow SUCCESS when an
// optional command warns; the report says passed and warned.
func TestJSONPassedFlowWithWarnedStep(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{Flows: []exec.FlowResult{{Name: "a", Status: exec.StatusPassed, Steps: []exec.StepResult{
		{Command: "tapOn", Status: exec.StatusWarned, Error: canonical.NewError(canonical.CodeElementNotFound, "no")},
	}}}}
	out := string(jsonReport(t, run))
	if !strings.Contains(out, `"status": "passed",`) || !strings.Contains(out, `"warned": true`) {
		t.Errorf("want status passed and warned true:\n%s", out)
	}
}
