package main

import (
	"strings"
	"testing"
)

// TestSemanticsFlowControl: runFlow (file, inline, when), repeat (times,
// while, zero runs), retry (a pass on a later attempt, the cap at 3),
// runScript and evalScript, the AI commands and labels. Nested steps are
// indented by depth; a subflow's steps carry its own file's lines.
func TestSemanticsFlowControl(t *testing.T) {
	t.Parallel()
	check := []string{"tap 250,1050", "observed check tap"}
	on, off := "observed check toggle checked=true", "observed check toggle checked=false"
	runSemCases(t, []semCase{{
		name: "run_flow",
		flow: "ctl_runflow.yaml",
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 runFlow passed 450ms",
			"  L3 tapOn passed 450ms", // sub/tap_next.yaml
			"L5 assertVisible passed 0ms",
			"L6 runFlow passed 450ms", // inline commands
			"  L8 tapOn passed 450ms",
			"  L9 assertVisible passed 0ms",
			"L10 runFlow skipped 0ms",  // platform: iOS on Android
			"L14 runFlow passed 450ms", // visible: Plain
			"  L18 tapOn passed 450ms",
			// notVisible: Plain stays false for the whole 7 s condition
			// budget, counted from the tap that just ended.
			"L19 runFlow skipped 7000ms",
			"L24 runFlow skipped 0ms", // true: ${1 == 2}
			"L29 runFlow passed 0ms",  // platform, visible and true all hold
			"  L35 assertVisible passed 0ms",
			"L36 evalScript passed 0ms",
			"L37 runFlow skipped 7000ms", // visible: Nowhere
		},
		events: with(launchTaps,
			"tap 500,450", "observed next tap", `observed next navigate screen="second"`,
			"tap 500,250", "observed go_back tap", `observed go_back navigate screen="main"`,
			check[0], check[1], on),
		check: func(t *testing.T, r semResult) {
			if got := r.flow(t).Steps[2].Pos.File; got != "testdata/semantics/sub/tap_next.yaml" {
				t.Errorf("a subflow step is positioned in its own file, got %q", got)
			}
		},
	}, {
		name: "repeat",
		flow: "ctl_repeat.yaml",
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 repeat passed 1350ms", // times: 3
			"  L7 tapOn passed 450ms",
			"  L7 tapOn passed 450ms",
			"  L7 tapOn passed 450ms",
			"L8 assertVisible passed 0ms",
			"L9 evalScript passed 0ms",
			"L10 repeat passed 900ms", // while true: ${output.n < 2}
			"  L14 evalScript passed 0ms",
			"  L15 tapOn passed 450ms",
			"  L14 evalScript passed 0ms",
			"  L15 tapOn passed 450ms",
			"L16 assertTrue passed 0ms",
			"L17 repeat skipped 0ms",  // times: 0
			"L21 repeat passed 900ms", // times: ${output.n}
			"  L24 tapOn passed 450ms",
			"  L24 tapOn passed 450ms",
			"L25 tapOn passed 450ms",
			// while visible unchecked, up to 5 times: one tap, then the
			// condition waits its 7 s for an unchecked Check in vain.
			"L26 repeat passed 7450ms",
			"  L31 tapOn passed 450ms",
			"L32 assertVisible passed 0ms",
		},
		events: with(launchTaps, check[0], check[1], on, check[0], check[1], off, check[0], check[1], on,
			check[0], check[1], off, check[0], check[1], on,
			check[0], check[1], off, check[0], check[1], on,
			check[0], check[1], off, check[0], check[1], on),
	}, {
		// The first attempt fails at the assertion; the whole block runs
		// again and passes. The failed attempt stays in the report.
		name: "retry_passes_on_second_attempt",
		flow: "ctl_retry.yaml",
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 evalScript passed 0ms",
			"L5 retry passed 900ms",
			"  L8 evalScript passed 0ms",
			"  L9 tapOn passed 450ms",
			"  L10 assertTrue failed 0ms ASSERTION_FAILED",
			"  L8 evalScript passed 0ms",
			"  L9 tapOn passed 450ms",
			"  L10 assertTrue passed 0ms",
			"L11 assertTrue passed 0ms",
			"L12 assertVisible passed 0ms",
			"L13 retry passed 450ms", // file form
			"  L3 tapOn passed 450ms",
			"L15 assertVisible passed 0ms",
		},
		events: with(launchTaps, check[0], check[1], on, check[0], check[1], off,
			"tap 500,450", "observed next tap", `observed next navigate screen="second"`),
		check: func(t *testing.T, r semResult) {
			want := []string{"Retrying the commands due to an error: Assertion is false: false is true (attempt 1)"}
			checkLines(t, "retry logs", r.flow(t).Steps[2].Logs, want)
		},
	}, {
		// maxRetries: 10 is capped at 3: four attempts, then the flow
		// fails with the last attempt's error.
		name:   "retry_capped_at_three",
		flow:   "ctl_retry_fails.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: "Assertion is false: false is true", Line: 9, Col: 9},
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 evalScript passed 0ms",
			"L5 retry failed 0ms ASSERTION_FAILED",
			"  L8 evalScript passed 0ms", "  L9 assertTrue failed 0ms ASSERTION_FAILED",
			"  L8 evalScript passed 0ms", "  L9 assertTrue failed 0ms ASSERTION_FAILED",
			"  L8 evalScript passed 0ms", "  L9 assertTrue failed 0ms ASSERTION_FAILED",
			"  L8 evalScript passed 0ms", "  L9 assertTrue failed 0ms ASSERTION_FAILED",
		},
	}, {
		name: "scripts_output_env_logs",
		flow: "ctl_scripts.yaml",
		steps: []string{
			"L5 launchApp passed 300ms",
			"L6 runScript passed 0ms",   // env NAME from the header env
			"L10 assertTrue passed 0ms", // output.message set by the script
			"L11 assertTrue passed 0ms", // runScript env and vars do not leak
			"L12 evalScript passed 0ms",
			"L13 tapOn passed 450ms",
			"L14 inputText passed 210ms", // ${output.sum} is "2"
			"L15 assertVisible passed 0ms",
			"L16 evalScript passed 0ms",
			"L17 runScript skipped 0ms",  // when: true is false
			"L21 inputText passed 310ms", // \${GREETING} is typed as written
			"L22 assertVisible passed 0ms",
		},
		events: with(launchForm, "tap 500,250", "observed name tap", "observed name focus",
			`inputText "2"`, `observed name text text="2"`,
			`inputText "${GREETING}"`, `observed name text text="2${GREETING}"`),
		check: func(t *testing.T, r semResult) {
			f := r.flow(t)
			checkLines(t, "runScript logs", f.Steps[1].Logs, []string{"computed Hello Ada!"})
			checkLines(t, "evalScript logs", f.Steps[8].Logs, []string{"sum is 2"})
		},
	}, {
		// AI commands are optional by default: UNSUPPORTED_OPERATION is a
		// warning and the flow passes (marked warned in the report).
		name: "ai_commands_warn",
		flow: "ai.yaml",
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 assertWithAI warned 0ms UNSUPPORTED_OPERATION",
			"L5 assertNoDefectsWithAI warned 0ms UNSUPPORTED_OPERATION",
			"L6 extractTextWithAI warned 0ms UNSUPPORTED_OPERATION",
			"L7 assertVisible passed 0ms",
		},
		check: func(t *testing.T, r semResult) {
			if !r.flow(t).Warned || r.rep.Summary.Passed != 1 {
				t.Errorf("a flow with warnings passes and is marked warned: %+v", r.rep.Summary)
			}
		},
	}, {
		name: "ai_command_not_optional_fails",
		flow: "ai_required.yaml",
		// UNSUPPORTED_OPERATION: the runner cannot do it, which is not a
		// verdict on the app (contracts §1: 3, like a driver's limit).
		code:   3,
		status: "failed",
		err: &wantErr{Code: "UNSUPPORTED_OPERATION", Message: "assertWithAI needs an AI model, which flow does not run",
			Line: 4, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 assertWithAI failed 0ms UNSUPPORTED_OPERATION"},
	}, {
		name:  "label_replaces_description",
		flow:  "label.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L5 tapOn passed 450ms", "L8 assertVisible passed 0ms", "L11 tapOn passed 450ms"},
		check: func(t *testing.T, r semResult) {
			f := r.flow(t)
			var labels []string
			for _, s := range f.Steps {
				labels = append(labels, s.Label)
			}
			checkLines(t, "labels", labels, []string{"Start the taps app", "Open the second screen", "The second screen shows", ""})
			for _, want := range []string{"✓ Start the taps app 300ms", "✓ Open the second screen 450ms",
				"✓ The second screen shows 0ms", `✓ Tap on "Go back" 450ms`} {
				if !strings.Contains(r.r.stdout, want) {
					t.Errorf("progress lacks %q:\n%s", want, r.r.stdout)
				}
			}
			for _, gone := range []string{`Launch app "com.sem.taps"`, `Tap on "Next"`, `"Second" is visible`} {
				if strings.Contains(r.r.stdout, gone) {
					t.Errorf("a label replaces %q:\n%s", gone, r.r.stdout)
				}
			}
		},
	}})
}

// TestSemanticsHooks: onFlowStart, the body and onFlowComplete (§3.3).
// Hook steps are reported at their lines in the header.
func TestSemanticsHooks(t *testing.T) {
	t.Parallel()
	logs := func(r semResult) []string {
		var out []string
		for _, s := range r.flow(t).Steps {
			if s.Command == "evalScript" {
				out = append(out, s.Logs...)
			}
		}
		return out
	}
	runSemCases(t, []semCase{{
		name: "order_with_subflow_hooks",
		flow: "hooks_order.yaml",
		steps: []string{
			"L3 evalScript passed 0ms", // onFlowStart
			"L4 launchApp passed 300ms",
			"L9 evalScript passed 0ms", // body
			"L10 tapOn passed 450ms",
			"L11 runFlow passed 230ms",
			"  L3 evalScript passed 0ms", // the subflow's own onFlowStart
			"  L7 inputText passed 230ms",
			"  L5 evalScript passed 0ms", // and onFlowComplete
			"L6 evalScript passed 0ms",   // onFlowComplete
			"L7 assertVisible passed 0ms",
		},
		check: func(t *testing.T, r semResult) {
			checkLines(t, "logs", logs(r), []string{"start", "body", "sub start", "sub complete", "complete"})
		},
	}, {
		// onFlowStart fails: the body is skipped, onFlowComplete runs, the
		// flow fails with the onFlowStart error.
		name:   "start_fails",
		flow:   "hooks_start_fails.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: "Assertion is false: false is true", Line: 4, Col: 5},
		steps:  []string{"L3 launchApp passed 300ms", "L4 assertTrue failed 0ms ASSERTION_FAILED", "L7 evalScript passed 0ms"},
		events: launchForm,
		check: func(t *testing.T, r semResult) {
			checkLines(t, "logs", logs(r), []string{"complete"})
		},
	}, {
		// The body fails and so does onFlowComplete: the body's error is the
		// flow's.
		name:   "body_and_complete_fail",
		flow:   "hooks_body_fails.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: "Assertion is false: false is true", Line: 7, Col: 3},
		steps: []string{"L6 launchApp passed 300ms", "L7 assertTrue failed 0ms ASSERTION_FAILED",
			"L3 evalScript passed 0ms", "L4 assertTrue failed 0ms ASSERTION_FAILED"},
		check: func(t *testing.T, r semResult) {
			checkLines(t, "logs", logs(r), []string{"complete"})
		},
	}, {
		// The body passes but onFlowComplete fails: the flow fails.
		name:   "complete_fails",
		flow:   "hooks_complete_fails.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: "Assertion is false: false is true", Line: 3, Col: 5},
		steps:  []string{"L5 launchApp passed 300ms", "L6 evalScript passed 0ms", "L3 assertTrue failed 0ms ASSERTION_FAILED"},
	}})
}

// TestSemanticsEnv: variable precedence (§3.4). Every rule is an
// assertTrue, so a broken rule fails the flow at its line.
func TestSemanticsEnv(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		// -e A=cli -e B=cli; the header sets B and D: ${A + '-seen'};
		// H2: ${H1} cannot see H1 of the same block. A user's
		// MAESTRO_FILENAME is overridden by the file's stem, in subflows
		// too. runFlow env is interpolated in the caller; the subflow's
		// header env beats it; both stay defined after the subflow.
		name: "precedence",
		flow: "env_precedence.yaml",
		args: []string{"-e", "A=cli", "-e", "B=cli", "-e", "MAESTRO_FILENAME=custom"},
		steps: []string{
			"L8 assertTrue passed", "L9 assertTrue passed", "L10 assertTrue passed", "L11 assertTrue passed",
			"L12 assertTrue passed", "L13 runFlow passed",
			"  L5 assertTrue passed", "  L6 assertTrue passed", "  L7 assertTrue passed", "  L8 assertTrue passed",
			"L18 assertTrue passed", "L19 assertTrue passed",
			"L20 runFlow passed", "  L24 assertTrue passed", "L25 assertTrue passed",
		},
	}, {
		// Without -e A the header's D is "undefined-seen": the flow fails
		// at the first rule, which shows each assertTrue can fail.
		name:   "precedence_needs_cli_values",
		flow:   "env_precedence.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: "Assertion is false: false is true", Line: 8, Col: 3},
	}})
}

// TestSemanticsShellVars: MAESTRO_* variables of the environment become
// flow variables unless empty or given with -e; others do not. The header
// appId is interpolated from -e.
func TestSemanticsShellVars(t *testing.T) {
	t.Parallel()
	environ := []string{"MAESTRO_SHELL=from shell", "MAESTRO_EMPTY=", "OTHER=nope", "MAESTRO_GIVEN=shell", "PATH=/bin"}
	r := semRunWith(t, environ, semApps, "env_shell.yaml", "-e", "MAESTRO_GIVEN=cli", "-e", "APP=com.sem.form")
	if r.r.code != 0 {
		t.Fatalf("%s", r.r)
	}
	checkSteps(t, r.flow(t), []string{"L3 assertTrue passed", "L4 assertTrue passed", "L5 assertTrue passed",
		"L6 assertTrue passed", "L7 launchApp passed 300ms", "L8 assertVisible passed 0ms"})
	checkLines(t, "events", r.eventLines(), launchForm)
	// Without the shell variable the first rule fails.
	r = semRunWith(t, []string{"MAESTRO_GIVEN=shell"}, semApps, "env_shell.yaml", "-e", "MAESTRO_GIVEN=cli", "-e", "APP=com.sem.form")
	if f := r.flow(t); r.r.code != 1 || f.Error == nil || f.Error.Pos == nil || f.Error.Pos.Line != 3 {
		t.Fatalf("want a failure at line 3 without MAESTRO_SHELL:\n%s", r.r)
	}
}
