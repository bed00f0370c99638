package main

// End-to-end tests of Maestro's command semantics and runtime rules on the
// built-in sim (issue "[3 of 5]", deliverable 8). Every case is a small flow
// in testdata/semantics run with
//
//	flow test --device sim --app <models> <flow> --format json --output R --events E --artifacts A
//
// and checked through what a user gets: the exit code, the JSON report
// (statuses, error code, message and position, device-time durations) and
// the device event log (what was tapped, typed and gestured). The app
// models in testdata/semantics/apps are small and purpose-built, so each
// screen is obvious from its file.
//
// Durations are device time on sim's virtual clock, so they are exact. The
// costs that make them up: a tap 50 ms, a key or typed character 10 ms, a
// launch or link 100 ms, a stop 10 ms, a gesture its planned duration, a
// settle one 200 ms poll when the screen is still, a lookup poll 200 ms.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const semDir = "testdata/semantics"

// semApps are installed on every run; each flow picks its app by appId.
var semApps = []string{"taps", "form", "list", "selectors", "timing"}

type semReport struct {
	Summary struct {
		Passed, Failed, Skipped int
		DurationMs              int64
	}
	Device struct{ Platform, Name, ID string }
	Flows  []semFlow
}

type semFlow struct {
	Name       string
	File       string
	Status     string
	DurationMs int64
	Error      *semError
	Warned     bool
	Artifacts  []string
	Steps      []semStep
}

type semStep struct {
	Command    string
	Label      string
	Status     string
	DurationMs int64
	Pos        semPos
	Depth      int
	Error      *semError
	Logs       []string
}

type semPos struct {
	File      string
	Line, Col int
}

type semError struct {
	Code    string
	Message string
	Hint    string
	Pos     *semPos
	Details map[string]any
}

// semEvent is one line of the --events log.
type semEvent struct {
	T    int64
	Type string
	F    map[string]any
}

// semResult is everything one flow test run left behind.
type semResult struct {
	r         result
	rep       semReport
	events    []semEvent
	artifacts string
	dir       string
}

// flow is the one flow of the run.
func (s semResult) flow(t *testing.T) semFlow {
	t.Helper()
	if len(s.rep.Flows) != 1 {
		t.Fatalf("want one flow in the report, got %d\n%s", len(s.rep.Flows), s.r)
	}
	return s.rep.Flows[0]
}

// semRun runs flow test on sim with every semantics app installed. args
// come after the defaults ("{dir}" in them becomes the run's temporary
// folder); --device given there replaces sim.
func semRun(t *testing.T, flow string, args ...string) semResult {
	t.Helper()
	return semRunEnv(t, nil, flow, args...)
}

// semRunEnv is semRun with a process environment (MAESTRO_* variables).
func semRunEnv(t *testing.T, environ []string, flow string, args ...string) semResult {
	t.Helper()
	dir := t.TempDir()
	res := semResult{dir: dir, artifacts: filepath.Join(dir, "artifacts")}
	reportFile, eventsFile := filepath.Join(dir, "report.json"), filepath.Join(dir, "events.jsonl")
	argv := []string{"test"}
	if !slices.Contains(args, "--device") {
		argv = append(argv, "--device", "sim")
	}
	for _, a := range semApps {
		argv = append(argv, "--app", filepath.Join(semDir, "apps", a+".yaml"))
	}
	argv = append(argv, "--format", "json", "--output", reportFile, "--events", eventsFile, "--artifacts", res.artifacts)
	for _, a := range args {
		argv = append(argv, strings.ReplaceAll(a, "{dir}", dir))
	}
	if flow != "" {
		argv = append(argv, filepath.ToSlash(filepath.Join(semDir, flow)))
	}
	var out, errb strings.Builder
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if environ != nil {
		env.Environ = func() []string { return environ }
	}
	code := run(t.Context(), env, append([]string{"flow"}, argv...))
	res.r = result{code: code, stdout: out.String(), stderr: errb.String()}
	data, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, res.r)
	}
	if err := json.Unmarshal(data, &res.rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, data)
	}
	if data, err := os.ReadFile(eventsFile); err == nil {
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if line == "" {
				continue
			}
			var f map[string]any
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Fatalf("event line %d is not JSON: %s", i+1, line)
			}
			e := semEvent{Type: f["type"].(string), F: f}
			e.T = int64(f["t"].(float64))
			delete(f, "type")
			delete(f, "t")
			res.events = append(res.events, e)
		}
	}
	return res
}

// stepLine renders a step as "  L7 tapOn failed 16400ms ELEMENT_NOT_FOUND",
// indented two spaces per nesting level.
func stepLine(s semStep, withDuration bool) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", s.Depth))
	fmt.Fprintf(&b, "L%d %s %s", s.Pos.Line, s.Command, s.Status)
	if withDuration {
		fmt.Fprintf(&b, " %dms", s.DurationMs)
	}
	if s.Error != nil {
		b.WriteString(" " + s.Error.Code)
	}
	return b.String()
}

// checkSteps compares a flow's steps with want; a wanted line without a
// duration matches any duration.
func checkSteps(t *testing.T, f semFlow, want []string) {
	t.Helper()
	var got, full []string
	ok := len(f.Steps) == len(want)
	for i, s := range f.Steps {
		full = append(full, stepLine(s, true))
		if i < len(want) {
			if want[i] == stepLine(s, true) || want[i] == stepLine(s, false) {
				got = append(got, want[i])
				continue
			}
			ok = false
		}
		got = append(got, stepLine(s, true))
	}
	if !ok {
		t.Errorf("steps differ\n got:\n\t%s\nwant:\n\t%s", strings.Join(full, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func num(v any) string {
	f, _ := v.(float64)
	return fmt.Sprint(f)
}

func point(v any) string {
	m, _ := v.(map[string]any)
	return num(m["x"]) + "," + num(m["y"])
}

// eventLine renders an event compactly: "tap 500,450", "gesture
// 500,1000>500,200 601ms endpoint-hold", "observed next tap".
func eventLine(e semEvent) string {
	f := e.F
	switch e.Type {
	case "tap":
		return "tap " + point(f["point"])
	case "longPress":
		return fmt.Sprintf("longPress %s %sms", point(f["point"]), num(f["durationMs"]))
	case "gesture":
		plan := f["plan"].(map[string]any)
		ptrs := plan["pointers"].([]any)
		samples := ptrs[0].(map[string]any)["samples"].([]any)
		first, last := samples[0].(map[string]any), samples[len(samples)-1].(map[string]any)
		return fmt.Sprintf("gesture %s>%s %sms %v", point(first["point"]), point(last["point"]), num(plan["durationMs"]), plan["executionProfile"])
	case "inputText":
		return fmt.Sprintf("inputText %q", f["text"])
	case "eraseText":
		return "eraseText " + num(f["count"])
	case "pressKey":
		return fmt.Sprintf("pressKey %v", f["key"])
	case "launchApp":
		s := fmt.Sprintf("launchApp %v", f["appId"])
		if f["clearState"] == true {
			s += " clearState"
		}
		return s
	case "stopApp":
		s := fmt.Sprintf("stopApp %v", f["appId"])
		if f["kill"] == true {
			s += " kill"
		}
		return s
	case "clearState":
		return fmt.Sprintf("clearState %v", f["appId"])
	case "openLink":
		return fmt.Sprintf("openLink %v", f["link"])
	case "screenshot":
		return fmt.Sprintf("screenshot %v", f["path"])
	case "observed":
		el, _ := f["element"].(string)
		if el == "" {
			el = "-"
		}
		s := fmt.Sprintf("observed %s %v", el, f["event"])
		var keys []string
		for k := range f {
			if k != "element" && k != "event" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := f[k]
			switch vv := v.(type) {
			case map[string]any:
				v = point(vv)
			case string:
				v = fmt.Sprintf("%q", vv)
			}
			s += fmt.Sprintf(" %s=%v", k, v)
		}
		return s
	}
	if len(f) == 0 {
		return e.Type
	}
	data, _ := json.Marshal(f)
	return e.Type + " " + string(data)
}

// eventLines renders the events whose type is in types (all when empty).
func (s semResult) eventLines(types ...string) []string {
	var out []string
	for _, e := range s.events {
		if len(types) == 0 || slices.Contains(types, e.Type) {
			out = append(out, eventLine(e))
		}
	}
	return out
}

func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s differ\n got:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// wantErr is the error a flow or step must carry; empty fields are not
// checked, Line 0 means no position check.
type wantErr struct {
	Code    string
	Message string // exact
	Hint    string // substring
	Line    int
	Col     int
}

func checkErr(t *testing.T, what string, got *semError, want *wantErr) {
	t.Helper()
	switch {
	case want == nil && got == nil:
		return
	case want == nil:
		t.Errorf("%s: unexpected error %+v", what, *got)
		return
	case got == nil:
		t.Errorf("%s: no error, want %+v", what, *want)
		return
	}
	if got.Code != want.Code {
		t.Errorf("%s: code %s, want %s (%s)", what, got.Code, want.Code, got.Message)
	}
	if want.Message != "" && got.Message != want.Message {
		t.Errorf("%s: message\n\t%q\nwant\n\t%q", what, got.Message, want.Message)
	}
	if !strings.Contains(got.Hint, want.Hint) {
		t.Errorf("%s: hint %q lacks %q", what, got.Hint, want.Hint)
	}
	if want.Line > 0 {
		if got.Pos == nil || got.Pos.Line != want.Line || got.Pos.Col != want.Col {
			t.Errorf("%s: pos %+v, want line %d col %d", what, got.Pos, want.Line, want.Col)
		}
	}
}

// semCase is one flow run and what it must produce.
type semCase struct {
	name   string
	flow   string
	args   []string
	code   int
	status string // flow status, "passed" when empty
	err    *wantErr
	steps  []string
	// events, when set, must equal the event log filtered to eventTypes
	// (every event when eventTypes is empty).
	events     []string
	eventTypes []string
	check      func(t *testing.T, r semResult)
}

func runSemCases(t *testing.T, cases []semCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := semRun(t, tc.flow, tc.args...)
			if r.r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s", r.r.code, tc.code, r.r)
			}
			f := r.flow(t)
			status := tc.status
			if status == "" {
				status = "passed"
			}
			if f.Status != status {
				t.Errorf("flow %s, want %s\n%s", f.Status, status, r.r.stdout)
			}
			checkErr(t, "flow error", f.Error, tc.err)
			if tc.steps != nil {
				checkSteps(t, f, tc.steps)
			}
			if tc.events != nil {
				checkLines(t, "events", r.eventLines(tc.eventTypes...), tc.events)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}
