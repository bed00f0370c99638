package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// TestUnknownCommandsAreInvalid: a command, subcommand or flag flow does
// not have is invalid input (exit 2, INVALID_ARGS) with a did-you-mean
// hint when one is close, in every command group; never urfave's
// "No help topic" as INTERNAL (exit 3).
func TestUnknownCommandsAreInvalid(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string // in stderr
		hint string // "" when no suggestion is expected
	}{
		{[]string{"xyz"}, `flow has no command "xyz"`, ""},
		{[]string{"tset", "flows"}, `flow has no command "tset"`, "did you mean flow test?"},
		{[]string{"chek"}, `flow has no command "chek"`, "did you mean flow check?"},
		{[]string{"convet"}, `flow has no command "convet"`, "did you mean flow convert?"},
		{[]string{"sim", "xyz"}, `flow sim has no command "xyz"`, ""},
		{[]string{"sim", "rest"}, `flow sim has no command "rest"`, "did you mean flow sim reset?"},
		{[]string{"sim", "reset", "now"}, `flow sim reset takes no arguments, got "now"`, ""},
		{[]string{"sim", "state", "x"}, `flow sim state takes no arguments`, ""},
		{[]string{"help", "tets"}, `flow has no command "tets"`, "did you mean flow test?"},
		{[]string{"version", "x"}, `flow version takes no arguments`, ""},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus", ""},
		{[]string{"test", "--formt", "junit", "flows"}, "flag provided but not defined: -formt", "did you mean --format?"},
		{[]string{"check", "--platfrom", "ios", "flows"}, "flag provided but not defined: -platfrom", "did you mean --platform?"},
		{[]string{"sim", "reset", "--force"}, "flag provided but not defined: -force", ""},
		{[]string{"gesture", "xyz"}, "INVALID_ARGS", ""},
		{[]string{"press", "--bogus"}, "press does not accept --bogus", ""},
		{[]string{"scroll", "sideways"}, `unknown scroll direction "sideways"`, ""},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, "_"), func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", tc.args...)
			if r.code != 2 {
				t.Fatalf("want exit 2:\n%s", r)
			}
			if !strings.Contains(r.stderr, "INVALID_ARGS: ") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("want INVALID_ARGS and %q:\n%s", tc.want, r)
			}
			if tc.hint != "" && !strings.Contains(r.stderr, tc.hint) {
				t.Errorf("want the hint %q:\n%s", tc.hint, r)
			}
			if strings.Contains(r.stderr, "No help topic") || strings.Contains(r.stderr, "INTERNAL") {
				t.Errorf("urfave's internal error leaked:\n%s", r)
			}
		})
	}
	// --json keeps the contracts §2 shape.
	r := runFlow(t, "", "check", "--json", "--jsn", "flows")
	var doc struct {
		Error struct{ Code, Hint string }
	}
	if r.code != 2 || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "INVALID_ARGS" {
		t.Errorf("want a JSON INVALID_ARGS error:\n%s", r)
	}
}

// TestHelpStillWorks: the group actions that refuse unknown commands
// still print help for no command, help and help COMMAND.
func TestHelpStillWorks(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"help"}, {"--help"}, {"sim"}, {"help", "test"}, {"sim", "--help"}} {
		r := runFlow(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "USAGE:") {
			t.Errorf("flow %s: want help and exit 0:\n%s", strings.Join(args, " "), r)
		}
	}
	if r := runFlow(t, "", "help", "test"); !strings.Contains(r.stdout, "flow test - run flows") {
		t.Errorf("flow help test must show test's help:\n%s", r)
	}
}

// TestVersion: flow --version and flow version print flow's version and
// the Go version this binary was built with; --json gives the fields.
func TestVersion(t *testing.T) {
	t.Parallel()
	want := "flow (devel) " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		r := runFlow(t, "", args...)
		if r.code != 0 || r.stdout != want {
			t.Errorf("flow %s: want %q:\n%s", args[0], want, r)
		}
	}
	r := runFlow(t, "", "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("flow version --json: %v\n%s", err, r)
	}
}

// TestReadVersion: the commit, its time and the modified flag come from
// the build info's vcs settings; the main module's version is used when
// go install stamped one.
func TestReadVersion(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "07cd9741a5fed691245083b91cf41f765ede6da4"},
			{Key: "vcs.time", Value: "2026-05-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := readVersion(info, true).String()
	want := "flow v1.4.0 (commit 07cd9741a5fe, modified, 2026-05-01T10:00:00Z) go1.99.1 " + runtime.GOOS + "/" + runtime.GOARCH
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	info.Settings[2].Value = "false"
	if got := readVersion(info, true); got.Modified || strings.Contains(got.String(), "modified") {
		t.Errorf("a clean tree is not modified: %q", got.String())
	}
	if got := readVersion(nil, false); got.Version != "(devel)" || got.Go != runtime.Version() {
		t.Errorf("without build info: %+v", got)
	}
}

// runFlowCtx is runFlow with a context the test cancels.
func runFlowCtx(ctx context.Context, dir string, args ...string) result {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139}
	code := run(ctx, env, append([]string{"flow"}, args...))
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// TestCancelledRunIsInterrupted: a run whose context ends (the in-process
// form of Ctrl-C) exits 130 with INTERRUPTED, reports the running flow
// interrupted, its running step too, and the flow not started skipped
// with the reason, in every report format.
func TestCancelledRunIsInterrupted(t *testing.T) {
	t.Parallel()
	dir := endlessSuite(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	out := filepath.Join(t.TempDir(), "report.xml")
	r := runFlowCtx(ctx, "", "test", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml"),
		"--format", "junit", "--output", out)
	if r.code != 130 || !strings.Contains(r.stderr, "INTERRUPTED: flow test was interrupted") {
		t.Fatalf("want exit 130 and INTERRUPTED:\n%s", r)
	}
	for _, want := range []string{"■ Run", "(interrupted)", "INTERRUPTED: the run was interrupted", "INTERRUPTED b",
		"SKIPPED c (not run: the run was interrupted before this flow started)", "1 passed, 0 failed, 1 interrupted, 1 skipped"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("console lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "the report was written") {
		t.Errorf("the hint must say the report was written:\n%s", r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`errors="1" skipped="1"`, `<error message="interrupted">`, `<skipped message="not run:`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JUnit lacks %q:\n%s", want, data)
		}
	}
}

// TestCancelledCheckIsInterrupted: a check stopped by its context prints
// no summary (that could pass for a verdict) and exits 130; with --json the
// error is the contracts §2 object.
func TestCancelledCheckIsInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := runFlowCtx(ctx, "", "check", "--json", "testdata/check/ok")
	var doc struct {
		Error struct{ Code, Message string }
	}
	if r.code != 130 || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "INTERRUPTED" {
		t.Fatalf("want exit 130 and a JSON INTERRUPTED error:\n%s", r)
	}
	if r.stdout != "" {
		t.Errorf("an interrupted check printed a result:\n%s", r.stdout)
	}
}

// endlessSuite is three flows; the second runs a script that never ends.
func endlessSuite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a.yaml": "appId: com.example.shop\n---\n- launchApp\n",
		"b.yaml": "appId: com.example.shop\n---\n- launchApp\n- evalScript: ${while (true) {}}\n- back\n",
		"c.yaml": "appId: com.example.shop\n---\n- launchApp\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestExitCodeContract: representative failures of every kind, each with
// the exit status and error code contracts §1 and §2 give it. A run with
// several kinds of failure exits with the most serious: device (3) over
// invalid input (2) over a failed flow (1).
func TestExitCodeContract(t *testing.T) {
	t.Parallel()
	head := "appId: com.example.shop\n---\n- launchApp\n"
	dir := writeFiles(t, map[string]string{
		"ok.yaml":           head,
		"syntax.yaml":       head + "- tapOn: [unclosed\n",
		"unknown.yaml":      head + "- tapp: Log in\n",
		"notfound.yaml":     head + "- tapOn: Nowhere to be found\n",
		"assert.yaml":       head + "- assertVisible: Nowhere to be found\n",
		"timeout.yaml":      head + "- extendedWaitUntil:\n    visible: Nowhere\n    timeout: 1000\n",
		"script.yaml":       head + "- evalScript: ${undefinedFunction()}\n",
		"offscreen.yaml":    head + offscreen,
		"badindex.yaml":     head + "- evalScript: ${output.i = 'abc'}\n- tapOn:\n    text: Log in\n    index: ${output.i}\n",
		"ai.yaml":           head + "- assertWithAI:\n    assertion: a form\n    optional: false\n",
		"web.yaml":          "url: http://127.0.0.1:1/\n---\n- launchApp\n",
		"ws/notfound.yaml":  head + "- tapOn: Nowhere to be found\n",
		"ws/offscreen.yaml": head + offscreen,
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name string
		args []string
		exit int
		code string // the error code on the last error line ("" when none)
	}{
		{"passes", []string{"test", p("ok.yaml")}, 0, ""},
		{"unknown command", []string{"tset"}, 2, "INVALID_ARGS"},
		{"unknown subcommand", []string{"sim", "xyz"}, 2, "INVALID_ARGS"},
		{"unknown flag", []string{"test", "--bogus", p("ok.yaml")}, 2, "INVALID_ARGS"},
		{"bad flag value", []string{"test", "--format", "pdf", p("ok.yaml")}, 2, "INVALID_ARGS"},
		{"missing path", []string{"test", p("nope.yaml")}, 2, "INVALID_ARGS"},
		{"unknown device", []string{"test", "--device", "simulator", p("ok.yaml")}, 2, "INVALID_ARGS"},
		{"YAML syntax", []string{"test", p("syntax.yaml")}, 2, "INVALID_ARGS"},
		{"unknown Maestro command", []string{"test", p("unknown.yaml")}, 2, "INVALID_ARGS"},
		{"check finds a problem", []string{"check", p("unknown.yaml")}, 2, "INVALID_ARGS"},
		{"removed form", []string{"plan", "--", "swipe", "100", "200", "300", "400", "500"}, 2, "INVALID_ARGS"},
		{"gesture cannot fit (test)", []string{"test", p("offscreen.yaml")}, 2, "INVALID_ARGS"},
		{"gesture cannot fit (check)", []string{"check", p("offscreen.yaml")}, 2, "INVALID_ARGS"},
		{"invalid once interpolated", []string{"test", p("badindex.yaml")}, 2, "INVALID_ARGS"},
		{"element not found", []string{"test", p("notfound.yaml")}, 1, "ELEMENT_NOT_FOUND"},
		{"assertion", []string{"test", p("assert.yaml")}, 1, "ASSERTION_FAILED"},
		{"timeout", []string{"test", p("timeout.yaml")}, 1, "ASSERTION_FAILED"},
		{"script error", []string{"test", p("script.yaml")}, 1, "COMMAND_FAILED"},
		{"runner cannot", []string{"test", p("ai.yaml")}, 3, "UNSUPPORTED_OPERATION"},
		{"endpoint unreachable", []string{"test", p("web.yaml"), "--webdriver-url", "http://127.0.0.1:1"}, 3, "DEVICE_UNAVAILABLE"},
		{"android not available", []string{"test", "--device", "android", p("ok.yaml")}, 3, "DEVICE_UNAVAILABLE"},
		{"invalid input outranks a failure", []string{"test", p("ws")}, 2, "INVALID_ARGS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", tc.args...)
			if r.code != tc.exit {
				t.Fatalf("want exit %d:\n%s", tc.exit, r)
			}
			if tc.code != "" && !strings.Contains(r.stdout+r.stderr, tc.code+": ") {
				t.Errorf("want an error coded %s:\n%s", tc.code, r)
			}
			if tc.exit != 3 && strings.Contains(r.stdout+r.stderr, "INTERNAL") {
				t.Errorf("an INTERNAL error for %s:\n%s", tc.name, r)
			}
		})
	}
}

// TestRunVerdictPrecedence: the exit status of a run with several kinds of
// failure is the most serious one; interrupted and skipped flows are no
// verdict; a failed flow without an error still fails the run.
func TestRunVerdictPrecedence(t *testing.T) {
	t.Parallel()
	flow := func(status exec.Status, code canonical.Code) exec.FlowResult {
		f := exec.FlowResult{Status: status}
		if code != "" {
			f.Error = canonical.NewError(code, string(code))
		}
		return f
	}
	failed := exec.StatusFailed
	for _, tc := range []struct {
		flows []exec.FlowResult
		want  int
	}{
		{nil, 0},
		{[]exec.FlowResult{flow(exec.StatusPassed, ""), flow(exec.StatusSkipped, canonical.CodeInterrupted)}, 0},
		{[]exec.FlowResult{flow(failed, canonical.CodeElementNotFound), flow(failed, canonical.CodeInvalidArgs)}, 2},
		{[]exec.FlowResult{flow(failed, canonical.CodeInvalidArgs), flow(failed, canonical.CodeDeviceUnavailable), flow(failed, canonical.CodeTimeout)}, 3},
		{[]exec.FlowResult{flow(failed, canonical.CodeAssertionFailed), flow(failed, canonical.CodeInternal)}, 3},
		{[]exec.FlowResult{flow(failed, "")}, 1},
		{[]exec.FlowResult{flow(exec.StatusInterrupted, canonical.CodeInterrupted)}, 0},
	} {
		err := runVerdict(exec.RunResult{Flows: tc.flows})
		got := exitOK
		if err != nil {
			got = exitCode(canonical.CodeOf(err))
		}
		if got != tc.want {
			t.Errorf("%+v: exit %d, want %d", tc.flows, got, tc.want)
		}
	}
}
