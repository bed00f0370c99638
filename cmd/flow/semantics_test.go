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
// settle one 200 ms poll when the screen is still, a lookup poll 200 ms
// (never past the lookup's deadline, so an absent element's 500 ms probe
// costs 500 ms). Lookup budgets follow Maestro: 17 s, 7 s when optional,
// minus the time since the last mutating command ended.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"os"
	"path/filepath"
	"regexp"
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
	return semRunWith(t, nil, semApps, flow, args...)
}

// semRunWith is semRun with a process environment (MAESTRO_* variables)
// and the app models to install, in order. With --device sim the platform
// is the model's of the app in front, or of the first app installed while
// none is.
func semRunWith(t *testing.T, environ, apps []string, flow string, args ...string) semResult {
	t.Helper()
	dir := t.TempDir()
	res := semResult{dir: dir, artifacts: filepath.Join(dir, "artifacts")}
	reportFile, eventsFile := filepath.Join(dir, "report.json"), filepath.Join(dir, "events.jsonl")
	argv := []string{"test"}
	if !slices.Contains(args, "--device") {
		argv = append(argv, "--device", "sim")
	}
	for _, a := range apps {
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
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: semGetenv(environ)}
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
	name string
	flow string
	args []string
	// apps are the models installed, in order; semApps when nil.
	apps   []string
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
			apps := tc.apps
			if apps == nil {
				apps = semApps
			}
			r := semRunWith(t, nil, apps, tc.flow, tc.args...)
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

// Events every taps/form flow starts with.
var (
	launchTaps = []string{"launchApp com.sem.taps", `observed - navigate screen="main"`}
	launchForm = []string{"launchApp com.sem.form", `observed - navigate screen="form"`}
	launchList = []string{"launchApp com.sem.list", `observed - navigate screen="list"`}
)

func with(prefix []string, rest ...string) []string {
	return append(append([]string{}, prefix...), rest...)
}

// TestSemanticsAppCommands: launchApp and its options, stopApp, killApp,
// clearState and openLink (maestro-reference §1.3, §1.5) as the sim app
// sees them: state that lives with the process, state marked persist: true
// that lives until clearState, and where a launch or a link lands.
func TestSemanticsAppCommands(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		name: "launch_variants",
		flow: "cmd_launch.yaml",
		// launchApp is 100 ms of launch plus one 200 ms settle poll; stop,
		// kill and clearState cost 10 ms; an absent element one 500 ms probe.
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 tapOn passed 450ms",
			"L5 launchApp passed 300ms", // stopApp: false resumes on "Second"
			"L7 assertVisible passed 0ms",
			"L8 launchApp passed 300ms", // stops first: back on the start screen
			"L9 assertVisible passed 0ms",
			"L10 tapOn passed 450ms",
			"L11 tapOn passed 450ms",
			"L12 launchApp passed 300ms",
			"L13 assertVisible passed 0ms", // persist: true survives a stop
			"L14 assertVisible passed 0ms", // process state does not
			"L15 launchApp passed 300ms",   // clearState: true
			"L17 assertVisible passed 0ms",
			"L18 stopApp passed 10ms",
			"L19 assertNotVisible passed 500ms", // the home screen
			"L20 launchApp passed 300ms",
			"L21 killApp passed 10ms",
			"L22 assertNotVisible passed 500ms",
			"L23 launchApp passed 300ms",
			"L24 tapOn passed 450ms",
			"L25 clearState passed 10ms",
			"L26 launchApp passed 300ms",
			"L27 assertVisible passed 0ms", // clearState reset the persisted toggle
			"L28 launchApp passed 300ms",   // another app by id
			"L29 assertVisible passed 0ms",
			"L30 stopApp passed 10ms",
			"L31 launchApp passed 300ms", // clearKeychain, permissions, arguments accepted
			"L36 assertVisible passed 0ms",
		},
		events: with(launchTaps,
			"tap 500,450", "observed next tap", `observed next navigate screen="second"`,
			"launchApp com.sem.taps", `observed - navigate screen="second"`,
			"launchApp com.sem.taps", `observed - navigate screen="main"`,
			"tap 500,1250", "observed saved tap", "observed saved toggle checked=true",
			"tap 250,1050", "observed check tap", "observed check toggle checked=true",
			"launchApp com.sem.taps", `observed - navigate screen="main"`,
			"launchApp com.sem.taps clearState", `observed - navigate screen="main"`,
			"stopApp com.sem.taps",
			"launchApp com.sem.taps", `observed - navigate screen="main"`,
			"stopApp com.sem.taps kill",
			"launchApp com.sem.taps", `observed - navigate screen="main"`,
			"tap 500,1250", "observed saved tap", "observed saved toggle checked=true",
			"clearState com.sem.taps",
			"launchApp com.sem.taps", `observed - navigate screen="main"`,
			"launchApp com.sem.form", `observed - navigate screen="form"`,
			"stopApp com.sem.form",
			"clearKeychain", // launchApp's clearKeychain: true, before the launch
			"launchApp com.sem.form", `observed - navigate screen="form"`),
	}, {
		name: "open_known_link",
		flow: "cmd_openlink.yaml",
		steps: []string{
			"L3 launchApp passed 300ms", "L4 openLink passed 300ms", "L5 assertVisible passed 0ms",
			"L6 back passed 210ms", "L7 assertVisible passed 0ms", "L8 stopApp passed 10ms",
			"L9 openLink passed 300ms", "L10 assertVisible passed 0ms",
		},
		// A link pushes its screen on the running app, or starts the app
		// on it.
		events: with(launchTaps,
			"openLink taps://second", `observed - navigate screen="second"`,
			"back", `observed - navigate screen="main"`,
			"stopApp com.sem.taps",
			"openLink taps://second", `observed - navigate screen="second"`),
	}, {
		name:   "open_unknown_link",
		flow:   "cmd_openlink_unknown.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "COMMAND_FAILED", Message: `no installed app opens link "taps://nowhere"`,
			Hint: "the installed apps open: taps://second, shop://login", Line: 4, Col: 3},
		steps:  []string{"L3 launchApp passed 300ms", "L4 openLink failed 0ms COMMAND_FAILED"},
		events: with(launchTaps, "openLink taps://nowhere"),
	}})
}

// TestSemanticsDeviceCommands: the commands sim accepts without anything
// on screen changing (setLocation, travel, addMedia, airplane mode,
// clearKeychain, recording), takeScreenshot writing its file relative to
// the working folder (here an absolute ${OUT}), and waitForAnimationToEnd on
// a still screen (two screenshots 200 ms apart that match).
func TestSemanticsDeviceCommands(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		name: "accepted_on_sim",
		flow: "cmd_device.yaml",
		args: []string{"-e", "OUT={dir}/out"},
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 setLocation passed 0ms",
			// 0.01° of latitude is 1111.95 m; at 100 m/s that is 11.12 s.
			"L7 travel passed 11119ms",
			"L12 addMedia passed 0ms",
			"L14 setAirplaneMode passed 0ms",
			"L15 toggleAirplaneMode passed 0ms",
			"L16 setAirplaneMode passed 0ms",
			"L17 clearKeychain passed 0ms",
			"L18 startRecording passed 0ms",
			"L19 stopRecording passed 0ms",
			"L20 takeScreenshot passed 0ms",
			"L21 waitForAnimationToEnd passed 200ms",
			"L22 waitForAnimationToEnd passed 200ms",
			"L24 assertVisible passed 0ms",
		},
		check: func(t *testing.T, r semResult) {
			want := filepath.ToSlash(filepath.Join(r.dir, "out", "shots", "cmd_device.png"))
			// sim records an animated GIF (exec.AnimationExt), not Maestro's .mp4.
			rec := filepath.ToSlash(filepath.Join(r.dir, "out", "recording.gif"))
			// Every device action is in the log (contracts §8), setLocation
			// too: one for the command, then travel's start and its 50 steps.
			var others []string
			for _, l := range r.eventLines() {
				if !strings.HasPrefix(l, "setLocation ") {
					others = append(others, l)
				}
			}
			checkLines(t, "events", others, with(launchTaps,
				`addMedia {"files":["testdata/semantics/media/pixel.png"]}`,
				`airplaneMode {"on":true}`, `airplaneMode {"on":false}`, `airplaneMode {"on":false}`,
				"clearKeychain", `startRecording {"path":"`+rec+`"}`, "stopRecording", "screenshot "+want))
			locs := r.eventLines("setLocation")
			if len(locs) != 52 {
				t.Fatalf("%d setLocation events, want 1 + travel's 51:\n%s", len(locs), strings.Join(locs, "\n"))
			}
			checkLines(t, "setLocation events", []string{locs[0], locs[1], locs[2], locs[51]}, []string{
				`setLocation {"latitude":52.52,"longitude":13.405}`,
				`setLocation {"latitude":52.52,"longitude":13.405}`,
				`setLocation {"latitude":52.5202,"longitude":13.405}`,
				`setLocation {"latitude":52.53,"longitude":13.405}`})
			png, err := os.ReadFile(want)
			if err != nil || !strings.HasPrefix(string(png), "\x89PNG\r\n\x1a\n") {
				t.Errorf("takeScreenshot wrote no PNG at %s: %v", want, err)
			}
			if frames := gifFrames(t, rec); len(frames.Image) != 1 {
				t.Errorf("the recording of an unchanged screen has %d frames, want 1", len(frames.Image))
			}
		},
	}})
}

// gifFrames decodes the animated GIF at path.
func gifFrames(t *testing.T, path string) *gif.GIF {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatalf("no recording: %v", err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the recording %s does not decode as a GIF: %v", path, err)
	}
	return g
}

// TestSemanticsRecording: startRecording on sim writes <path>.gif, relative
// to the working folder as Maestro's <path>.mp4 (Orchestra
// .startRecordingCommand), with a frame per screen change, lasting at least
// Maestro's 3 s (Maestro.startScreenRecording); a recording left open is
// written when the main commands end (Orchestra.runFlow).
func TestSemanticsRecording(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		name: "sim_writes_gif",
		flow: "cmd_recording.yaml",
		args: []string{"-e", "OUT={dir}/out"},
		check: func(t *testing.T, r semResult) {
			clip := gifFrames(t, filepath.Join(r.dir, "out", "clip.gif"))
			// main, second, main again.
			if len(clip.Image) != 3 {
				t.Errorf("clip.gif has %d frames, want 3 (main, second, main)", len(clip.Image))
			}
			total := 0
			for _, d := range clip.Delay {
				total += d
			}
			if total < 300 {
				t.Errorf("clip.gif lasts %d/100 s, want at least Maestro's 3 s", total)
			}
			open := gifFrames(t, filepath.Join(r.dir, "out", "open.gif"))
			if len(open.Image) != 2 {
				t.Errorf("open.gif (closed by the end of the flow) has %d frames, want 2 (before and after the toggle)", len(open.Image))
			}
		},
	}})
}

// TestSemanticsInput: typing, erasing, copying and pasting, and the
// inputRandom* generators, seen through the focused field's text.
func TestSemanticsInput(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		name: "type_erase_copy_paste",
		flow: "cmd_input.yaml",
		// Each typed or erased character costs 10 ms, then one settle poll.
		steps: []string{
			"L3 launchApp passed 300ms",
			"L4 tapOn passed 450ms",
			"L5 inputText passed 230ms",
			"L6 inputText passed 290ms",
			"L7 assertVisible passed 0ms", // text accumulates: "Ada Lovelace"
			"L8 eraseText passed 290ms",
			"L9 assertVisible passed 0ms",
			"L10 eraseText passed 700ms", // bare eraseText: 50 characters
			"L11 assertNotVisible passed 500ms",
			"L12 copyTextFrom passed 0ms",
			"L13 tapOn passed 450ms",
			"L14 pasteText passed 240ms",
			"L15 assertVisible passed 0ms",
			"L16 assertTrue passed 0ms", // maestro.copiedText
			"L17 copyTextFrom passed 0ms",
			"L18 assertTrue passed 0ms", // the accessibility label when there is no text
			"L19 eraseText passed 240ms",
			"L20 inputRandomText passed 280ms", // 8 characters
			"L21 eraseText passed 280ms",
			"L22 inputRandomNumber passed 250ms", // length: 5
			"L23 eraseText passed 250ms",
			"L24 inputRandomEmail passed",
			"L25 eraseText passed 700ms",
			"L26 inputRandomPersonName passed",
		},
		check: func(t *testing.T, r semResult) {
			var typed []string
			for _, e := range r.events {
				if e.Type == "inputText" {
					typed = append(typed, e.F["text"].(string))
				}
			}
			if len(typed) != 7 || !slices.Equal(typed[:3], []string{"Ada", " Lovelace", "4711"}) {
				t.Fatalf("typed %q", typed)
			}
			for i, re := range []string{`^[A-Za-z0-9]{8}$`, `^[1-9][0-9]{4}$`,
				`^[a-z]+_[a-z]+_[a-z0-9]{4}@(gmail|yahoo|hotmail|aol|msn|outlook)\.com$`, `^[A-Z][a-z]+ [A-Z][a-z]+$`} {
				if !regexp.MustCompile(re).MatchString(typed[3+i]) {
					t.Errorf("random input %d %q does not match %s", i, typed[3+i], re)
				}
			}
			var texts []string
			for _, l := range r.eventLines("observed") {
				if strings.Contains(l, " text text=") && !strings.Contains(l, "email text") {
					texts = append(texts, l)
				}
			}
			checkLines(t, "name field texts", texts, []string{`observed name text text="Ada"`,
				`observed name text text="Ada Lovelace"`, `observed name text text="Ada"`, `observed name text text=""`})
		},
	}, {
		name:   "paste_without_copy_types_nothing",
		flow:   "cmd_paste_nothing.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L5 pasteText passed 0ms", "L6 assertVisible passed 0ms"},
		events: with(launchForm, "tap 500,250", "observed name tap", "observed name focus"),
	}, {
		name: "keys_back_hide_keyboard",
		flow: "cmd_keys.yaml",
		steps: []string{
			"L3 launchApp passed 300ms", "L4 tapOn passed 450ms",
			"L5 hideKeyboard passed 210ms", "L6 inputText passed 220ms", // the field keeps focus
			"L7 pressKey passed 210ms", "L8 pressKey passed 210ms",
			"L9 tapOn passed 450ms", "L10 back passed 210ms", "L11 assertVisible passed 0ms",
			"L12 pressKey passed 210ms", "L13 assertNotVisible passed 500ms",
			"L14 launchApp passed 300ms", "L15 pressKey passed 210ms", "L16 assertNotVisible passed 500ms",
			"L17 launchApp passed 300ms", "L18 tapOn passed 450ms",
			"L19 back passed 210ms", "L20 assertVisible passed 0ms", "L21 pressKey passed 210ms",
		},
		events: with(launchForm,
			"tap 500,250", "observed name tap", "observed name focus",
			"hideKeyboard",
			`inputText "ab"`, `observed name text text="ab"`,
			"pressKey backspace", `observed name text text="a"`,
			"pressKey enter", "observed name submit",
			"tap 500,1050", "observed submit tap", `observed submit navigate screen="done"`,
			"back", `observed - navigate screen="form"`,
			// Back on the first screen leaves the app; so does Home.
			"pressKey back", `observed - exit appId="com.sem.form"`,
			"launchApp com.sem.form", `observed - navigate screen="form"`,
			"pressKey home", `observed - exit appId="com.sem.form"`,
			"launchApp com.sem.form", `observed - navigate screen="form"`,
			"tap 500,450", "observed email tap", "observed email focus",
			// With the keyboard up, back only puts it down (Android).
			"back",
			"pressKey volume up"),
	}})
}

// semGetenv reads environ's variables, a variable written with an empty
// value (FLOW_MAESTRO_VERSION=) as unset; the rest is getenv139's.
func semGetenv(environ []string) func(string) string {
	vals := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		vals[k] = v
	}
	return func(k string) string {
		if v, ok := vals[k]; ok {
			return v
		}
		return getenv139(k)
	}
}
