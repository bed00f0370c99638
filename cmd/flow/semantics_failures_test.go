package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkArtifacts: a failed flow leaves one screenshot and one hierarchy in
// --artifacts, named after the flow (and a hash of its file) and listed in
// the report.
func checkArtifacts(t *testing.T, r semResult, base string) {
	t.Helper()
	f := r.flow(t)
	var want []string
	if len(f.Artifacts) == 2 {
		hash := strings.TrimSuffix(strings.TrimPrefix(f.Artifacts[0], base+"-"), "-failure.png")
		if len(hash) == 8 && strings.Trim(hash, "0123456789abcdef") == "" {
			want = []string{base + "-" + hash + "-failure.png", base + "-" + hash + "-hierarchy.json"}
		}
	}
	if !slices.Equal(f.Artifacts, want) || want == nil {
		t.Fatalf("artifacts %v, want %s-HASH-failure.png and %s-HASH-hierarchy.json", f.Artifacts, base, base)
	}
	png, err := os.ReadFile(filepath.Join(r.artifacts, want[0]))
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n") {
		t.Errorf("no failure screenshot: %v", err)
	}
	var h struct {
		Children []struct{ ID string }
	}
	data, err := os.ReadFile(filepath.Join(r.artifacts, want[1]))
	if err != nil || json.Unmarshal(data, &h) != nil || len(h.Children) == 0 {
		t.Errorf("no failure hierarchy: %v\n%s", err, data)
	}
}

// TestSemanticsFailures: what a failing flow gives the user: exit 1, the
// error code at the failing command's file:line:col, a message naming the
// selector, a hint with the nearest candidates on screen, and the
// artifacts; and the rules of optional (§1.2): element and assertion
// failures become warnings, script errors never do.
func TestSemanticsFailures(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		name:   "wrong_selector",
		flow:   "fail_selector.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ELEMENT_NOT_FOUND", Message: `Element not found: "Sumbit"`,
			Hint: `closest on screen: text "Submit" at 0,1000; id "submit" at 0,1000`, Line: 6, Col: 3},
		steps:  []string{"L4 launchApp passed 300ms", "L5 tapOn passed 450ms", "L6 tapOn failed 17000ms ELEMENT_NOT_FOUND"},
		events: with(launchForm, "tap 500,250", "observed name tap", "observed name focus"),
		check: func(t *testing.T, r semResult) {
			checkArtifacts(t, r, "Wrong_selector")
			f := r.flow(t)
			d := f.Error.Details
			if d["selector"] != `"Sumbit"` {
				t.Errorf("details.selector %v", d["selector"])
			}
			if c, _ := d["candidates"].([]any); len(c) != 5 || c[0] != `text "Submit" at 0,1000` {
				t.Errorf("details.candidates %v", d["candidates"])
			}
			if s := f.Steps[2]; s.Error == nil || s.Error.Message != f.Error.Message {
				t.Errorf("the failed step carries the error: %+v", s.Error)
			}
			for _, want := range []string{"testdata/semantics/fail_selector.yaml:6:3: ELEMENT_NOT_FOUND: Element not found: \"Sumbit\"",
				`hint: closest on screen: text "Submit" at 0,1000`, "0 passed, 1 failed"} {
				if !strings.Contains(r.r.stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, r.r.stdout)
				}
			}
		},
	}, {
		name:   "failed_assertion",
		flow:   "fail_assert.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ASSERTION_FAILED", Message: `Assertion is false: "Form" is not visible`,
			Hint: "stayed on screen", Line: 4, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 assertNotVisible failed 17000ms ASSERTION_FAILED"},
		check: func(t *testing.T, r semResult) { checkArtifacts(t, r, "fail_assert") },
	}, {
		// optional: true does not excuse a script error; the position is
		// the ${ in the condition.
		name:   "script_error_optional_still_fails",
		flow:   "fail_script.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED",
			Message: "script ${missingFunction()} failed: TypeError: Value is not an object: null (at 1:16 in the expression)", // undeclared is null in Rhino
			Line:    5, Col: 16},
		steps: []string{"L3 launchApp passed 300ms", "L4 assertTrue failed 0ms COMMAND_FAILED"},
		check: func(t *testing.T, r semResult) {
			if r.flow(t).Error.Details["scriptError"] != true {
				t.Errorf("details: %v", r.flow(t).Error.Details)
			}
			checkArtifacts(t, r, "fail_script")
		},
	}, {
		// A runScript error names the script's own line and column.
		name:   "run_script_error_optional_still_fails",
		flow:   "fail_runscript.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED",
			Message: "script scripts/throws.js failed: TypeError: Cannot read property 'call' of undefined or null (at scripts/throws.js:2:1)",
			Line:    4, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 runScript failed 0ms COMMAND_FAILED"},
		check: func(t *testing.T, r semResult) {
			d := r.flow(t).Error.Details
			if d["script"] != "scripts/throws.js" || d["line"] != 2.0 || d["col"] != 1.0 || d["scriptError"] != true {
				t.Errorf("details: %v", d)
			}
		},
	}, {
		name:   "script_syntax_error",
		flow:   "fail_eval_syntax.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED",
			Message: "script ${output.x = (1 +} failed: SyntaxError: Unexpected end of input (at 1:16 in the expression)",
			Line:    4, Col: 15},
		steps: []string{"L3 launchApp passed 300ms", "L4 evalScript failed 0ms COMMAND_FAILED"},
	}, {
		// sim refuses text typed with no field focused.
		name:   "input_without_focus",
		flow:   "fail_input.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED", Message: `no text field has focus, so "typed into nothing" would go nowhere`,
			Hint: "tap an editable field first", Line: 4, Col: 3},
		steps:  []string{"L3 launchApp passed 300ms", "L4 inputText failed 0ms COMMAND_FAILED"},
		events: with(launchForm, `inputText "typed into nothing"`),
		check:  func(t *testing.T, r semResult) { checkArtifacts(t, r, "fail_input") },
	}, {
		name:   "launch_app_not_installed",
		flow:   "fail_launch.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED", Message: `app "com.sem.missing" is not installed on sim`,
			Hint: "installed: com.sem.taps, com.sem.form", Line: 3, Col: 3},
		steps:  []string{"L3 launchApp failed 0ms COMMAND_FAILED"},
		events: []string{"launchApp com.sem.missing"},
	}, {
		name:   "copy_from_element_without_text",
		flow:   "fail_copy_empty.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "COMMAND_FAILED", Message: "the element has no text to copy", Line: 4, Col: 3},
		steps:  []string{"L3 launchApp passed 300ms", "L4 copyTextFrom failed 0ms COMMAND_FAILED"},
	}, {
		// Element, assertion and copy failures of optional commands are
		// warnings and the flow passes. The lookups: 7 s for the tap, the
		// full 17 s minus those 7 for the assertion, one 1301 ms round for
		// scrollUntilVisible (timeout 1000); by then the 7 s budget of the
		// optional swipe and tap is used up: one look each.
		name: "optional_failures_warn",
		flow: "fail_optional.yaml",
		apps: []string{"list"},
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 tapOn warned 7000ms ELEMENT_NOT_FOUND",
			"L7 assertVisible warned 10000ms ASSERTION_FAILED",
			"L10 scrollUntilVisible warned 1301ms ELEMENT_NOT_FOUND",
			"L14 copyTextFrom warned 0ms COMMAND_FAILED",
			"L17 assertTrue warned 0ms ASSERTION_FAILED",
			"L20 swipe warned 0ms ELEMENT_NOT_FOUND",
			"L24 tapOn warned 0ms ELEMENT_NOT_FOUND",
			"L25 assertVisible passed 0ms",
		},
		events: with(launchList, "gesture 500,1000>500,200 601ms endpoint-hold", "observed rows scroll offset=0,800"),
		check: func(t *testing.T, r semResult) {
			f := r.flow(t)
			if !f.Warned || len(f.Artifacts) != 0 || r.rep.Summary.Passed != 1 {
				t.Errorf("warned %v, artifacts %v, summary %+v", f.Warned, f.Artifacts, r.rep.Summary)
			}
			if e := f.Steps[1].Error; e == nil || e.Pos == nil || e.Pos.Line != 4 || e.Message != `Element not found: "Nowhere"` {
				t.Errorf("a warned step keeps its error and position: %+v", e)
			}
		},
	}, {
		// The body fails after 17 s; onFlowComplete still runs, and its
		// lookup has no time left. One set of artifacts: the first failure.
		name:   "body_and_complete_fail_one_artifact_set",
		flow:   "fail_body_complete.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ELEMENT_NOT_FOUND", Message: `Element not found: "Not on screen"`, Line: 6, Col: 3},
		steps: []string{"L5 launchApp passed 300ms", "L6 tapOn failed 17000ms ELEMENT_NOT_FOUND",
			"L3 tapOn failed 0ms ELEMENT_NOT_FOUND"},
		check: func(t *testing.T, r semResult) { checkArtifacts(t, r, "fail_body_complete") },
	}, {
		// A flow that cannot load fails with its position, runs nothing and
		// makes the exit 2.
		name:   "load_error",
		flow:   "fail_load.yaml",
		code:   2,
		status: "failed",
		err: &wantErr{Code: "INVALID_ARGS", Message: `unknown key "retryTapIfNoChnage" in tapOn`,
			Hint: `did you mean "retryTapIfNoChange"?`, Line: 6, Col: 5},
		steps:  []string{},
		events: []string{},
		check: func(t *testing.T, r semResult) {
			if f := r.flow(t); f.File != "testdata/semantics/fail_load.yaml" || f.Error.Pos.File != f.File || len(f.Artifacts) != 0 {
				t.Errorf("flow %+v", f)
			}
		},
	}})
}

// TestSemanticsLoadErrorDoesNotStopOthers: with a broken flow and a good
// one, the good one runs and passes, the broken one is reported failed
// with its position, and the exit is 2.
func TestSemanticsLoadErrorDoesNotStopOthers(t *testing.T) {
	t.Parallel()
	r := semRun(t, "fail_load.yaml", filepath.Join(semDir, "tap_navigates.yaml"))
	if r.r.code != 2 || len(r.rep.Flows) != 2 || r.rep.Summary.Passed != 1 || r.rep.Summary.Failed != 1 {
		t.Fatalf("exit %d, summary %+v\n%s", r.r.code, r.rep.Summary, r.r)
	}
	byFile := map[string]semFlow{}
	for _, f := range r.rep.Flows {
		byFile[f.File] = f
	}
	bad, good := byFile["testdata/semantics/fail_load.yaml"], byFile["testdata/semantics/tap_navigates.yaml"]
	checkErr(t, "broken flow", bad.Error, &wantErr{Code: "INVALID_ARGS", Line: 6, Col: 5})
	if bad.Status != "failed" || good.Status != "passed" {
		t.Fatalf("statuses %q and %q", bad.Status, good.Status)
	}
	checkSteps(t, good, []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms"})
}
