package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"
)

// TestDemoPasses runs the README's command on the built-in sim.
func TestDemoPasses(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.xml")
	r := runFlow(t, "", "test", "--device", "sim", "../../flows/demo", "--format", "junit", "--output", out)
	if r.code != 0 {
		t.Fatalf("the demo must pass:\n%s", r)
	}
	if !strings.Contains(r.stdout, "\n5 passed, 0 failed in ") {
		t.Fatalf("no clear pass summary:\n%s", r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Name   string `xml:"name,attr"`
				Status string `xml:"status,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatalf("report is not XML: %v\n%s", err, data)
	}
	if len(suites.Suites) != 1 || suites.Suites[0].Tests != 5 || suites.Suites[0].Failures != 0 {
		t.Fatalf("unexpected JUnit report:\n%s", data)
	}
	if got := suites.Suites[0].Cases[1].Name; got != "Log in" {
		t.Fatalf("flows are named by their header name as Maestro does; got %q", got)
	}
}

// TestWrongSelectorFails: exit 1, the position, the selector, the nearest
// candidates, and a screenshot and hierarchy in the artifacts.
func TestWrongSelectorFails(t *testing.T) {
	t.Parallel()
	art := t.TempDir()
	r := runFlow(t, "", "test", "testdata/run/wrong-selector.yaml", "--artifacts", art)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	for _, want := range []string{`testdata/run/wrong-selector.yaml:5:3: ELEMENT_NOT_FOUND: Element not found: "Log inn"`,
		`closest on screen: text "Log in"`, "0 passed, 1 failed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	shots, _ := filepath.Glob(filepath.Join(art, "Wrong_selector-*-failure.png"))
	if len(shots) != 1 {
		t.Fatalf("want one failure screenshot named after the flow, got %v", shots)
	}
	png, err := os.ReadFile(shots[0])
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("no failure screenshot: %v", err)
	}
	var h map[string]any
	data, err := os.ReadFile(strings.TrimSuffix(shots[0], "-failure.png") + "-hierarchy.json")
	if err != nil || json.Unmarshal(data, &h) != nil || h["children"] == nil {
		t.Errorf("no failure hierarchy: %v", err)
	}
}

// TestBrokenFlowIsReported: a flow that cannot load appears in the JSON
// report with its position, the others still run, and the exit is 2.
func TestBrokenFlowIsReported(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.json")
	r := runFlow(t, "", "test", "testdata/run/broken.yaml", "testdata/run/events.yaml", "--format", "json", "--output", out)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	var rep struct {
		Summary struct{ Passed, Failed int }
		Flows   []struct {
			File   string
			Status string
			Error  *struct {
				Code string
				Pos  struct{ Line, Col int }
			}
		}
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Passed != 1 || rep.Summary.Failed != 1 || rep.Flows[0].Error == nil ||
		rep.Flows[0].Error.Code != "INVALID_ARGS" || rep.Flows[0].Error.Pos.Line != 5 {
		t.Fatalf("unexpected report:\n%s", data)
	}
}

// TestWaitsCostNoWallTime: a flow that waits a minute of Maestro time runs
// on the virtual clock; the report shows the device time it took.
// (BenchmarkSixtySecondsOfWaits measures the wall time.)
func TestWaitsCostNoWallTime(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.json")
	r := runFlow(t, "", "test", "testdata/run/waits.yaml", "--format", "json", "--output", out)
	if r.code != 0 {
		t.Fatalf("optional waits warn, the flow passes:\n%s", r)
	}
	var rep struct{ Summary struct{ DurationMs int64 } }
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.DurationMs < 57000 {
		t.Fatalf("the flow should take about a minute of device time, took %d ms", rep.Summary.DurationMs)
	}
}

func BenchmarkSixtySecondsOfWaits(b *testing.B) {
	for b.Loop() {
		var out bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: getenv139}
		if code := run(b.Context(), env, []string{"flow", "test", "testdata/run/waits.yaml"}); code != 0 {
			b.Fatalf("exit %d\n%s", code, out.String())
		}
	}
}

// TestEventLog pins the device event log of a short flow (contracts §8).
func TestEventLog(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "events.jsonl")
	r := runFlow(t, "", "test", "testdata/run/events.yaml", "--events", out)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			T    *int64
			Type string
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.T == nil || e.Type == "" {
			t.Fatalf("line %d is not an event: %s", i+1, line)
		}
	}
	snaps.MatchSnapshot(t, string(data))
}

// BenchmarkFlow200Steps runs a 200-step flow on sim; ns/op divided by 200
// is flow's per-step overhead (docs/performance.md).
func BenchmarkFlow200Steps(b *testing.B) {
	dir := b.TempDir()
	var f strings.Builder
	f.WriteString("appId: com.example.shop\nname: two hundred steps\n---\n- launchApp\n")
	for i := 0; len(strings.Split(f.String(), "\n- "))-1 < 200; i++ {
		f.WriteString("- tapOn: Log in\n- assertVisible: Welcome back\n- tapOn:\n    id: email\n- inputText: a@b.c\n")
		f.WriteString("- eraseText: 5\n- hideKeyboard\n- assertVisible:\n    id: remember_me\n- swipe:\n    direction: UP\n- back\n- assertVisible: Shop\n")
	}
	flow := filepath.Join(dir, "steps.yaml")
	if err := os.WriteFile(flow, []byte(f.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var out bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: getenv139}
		if code := run(b.Context(), env, []string{"flow", "test", flow}); code != 0 {
			b.Fatalf("exit %d\n%s", code, out.String())
		}
	}
}

// TestShards: --shard-split spreads flows over devices run at once,
// --shard-all runs every flow on each; one merged report shows every shard,
// and a failing shard does not hide the others.
func TestShards(t *testing.T) {
	t.Parallel()
	type flowRow struct {
		Name   string
		Shard  int
		Status string
	}
	report := func(args ...string) (int, []flowRow) {
		out := filepath.Join(t.TempDir(), "report.json")
		r := runFlow(t, "", append(append([]string{"test", "testdata/shards"}, args...), "--format", "json", "--output", out)...)
		var rep struct{ Flows []flowRow }
		data, _ := os.ReadFile(out)
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatalf("%v\n%s", err, r)
		}
		return r.code, rep.Flows
	}
	code, flows := report("--shard-split", "2")
	perShard := map[int]int{}
	for _, f := range flows {
		perShard[f.Shard]++
	}
	if code != 1 || len(flows) != 4 || perShard[1] != 2 || perShard[2] != 2 {
		t.Fatalf("split: exit %d, flows %+v", code, flows)
	}
	code, flows = report("--shard-all", "3")
	passed := 0
	for _, f := range flows {
		if f.Status == "passed" {
			passed++
		}
	}
	if code != 1 || len(flows) != 12 || passed != 9 {
		t.Fatalf("all: exit %d, %d flows, %d passed: %+v", code, len(flows), passed, flows)
	}
	if r := runFlow(t, "", "test", "testdata/shards", "--shard-split", "2", "--shard-all", "2"); r.code != 2 {
		t.Fatalf("both shard flags: %s", r)
	}
}

// TestInterruptWritesReport: cancelling the run (Ctrl-C) stops it between
// commands, exits 130 and still writes the report, the flow interrupted.
func TestInterruptWritesReport(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: getenv139}
	code := run(ctx, env, []string{"flow", "test", "testdata/run/forever.yaml", "--format", "json", "--output", out})
	if code != 130 {
		t.Fatalf("exit %d, want 130 (interrupted)\n%s", code, stdout.String())
	}
	var rep struct {
		Flows []struct {
			Status string
			Error  struct{ Message string }
		}
	}
	data, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Flows) != 1 || rep.Flows[0].Status != "interrupted" ||
		!strings.Contains(rep.Flows[0].Error.Message, "interrupted") {
		t.Fatalf("report after interrupt: %v\n%s", err, data)
	}
}

// TestSimStateBetweenInvocations: separate flow commands act on one sim
// device, as on a real one; flow sim reset starts a fresh one.
func TestSimStateBetweenInvocations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	call := func(args ...string) result {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: dir}
		code := run(context.Background(), env, append([]string{"flow"}, args...))
		return result{code: code, stdout: out.String(), stderr: errb.String()}
	}
	if r := call("test", "testdata/state/first.yaml"); r.code != 0 {
		t.Fatalf("first: %s", r)
	}
	if r := call("test", "testdata/state/second.yaml"); r.code != 0 {
		t.Fatalf("the second command must see the first one's screen and text:\n%s", r)
	}
	if r := call("sim", "reset"); r.code != 0 {
		t.Fatalf("reset: %s", r)
	}
	if r := call("test", "testdata/state/second.yaml"); r.code != 1 {
		t.Fatalf("after a reset the device starts fresh on its home screen:\n%s", r)
	}
}

// TestAdScriptRuns: an .ad script runs on sim through the same canonical
// core as YAML, its gestures planned by the one planner.
func TestAdScriptRuns(t *testing.T) {
	t.Parallel()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	r := runFlow(t, "", "test", "../../flows/scripts-ad/gesture-lab.ad", "--events", events)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	data, _ := os.ReadFile(events)
	if got := strings.Count(string(data), `"type":"gesture"`); got != 4 {
		t.Fatalf("want 4 gestures (2 swipes, a pan, a fling), got %d:\n%s", got, data)
	}
}

// TestAdRemovedFormFailsBeforeAnyAction: a removed positional fails when
// the script is parsed, naming the line and the rewrite; the device is never
// touched.
func TestAdRemovedFormFailsBeforeAnyAction(t *testing.T) {
	t.Parallel()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	r := runFlow(t, "", "test", "../../flows/invalid/removed-timed-swipe.ad", "--events", events)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	for _, want := range []string{"removed-timed-swipe.ad:4:24: INVALID_ARGS: swipe accepts 4 arguments: x1 y1 x2 y2 (line 4).",
		`use "gesture pan 540 1800 0 -900 300" for the same timed drag`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if data, _ := os.ReadFile(events); len(data) != 0 {
		t.Fatalf("the device was touched:\n%s", data)
	}
}

// TestPipelineRecordReplay is docs/scripts.md's mixed pipeline: a YAML flow,
// direct CLI gestures recorded into an .ad script, then the script replayed
// on a fresh sim. The replay must perform the same device actions and plans
// (the event logs are equal up to timestamps).
func TestPipelineRecordReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	script := filepath.Join(dir, "session.ad")
	live, replay := filepath.Join(dir, "live.jsonl"), filepath.Join(dir, "replay.jsonl")
	call := func(args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: state}
		if code := run(context.Background(), env, append([]string{"flow"}, args...)); code != 0 {
			t.Fatalf("flow %v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
	}
	call("test", "../../flows/demo/01-launch.yaml")
	rec := []string{"--record", script, "--events", live}
	call(append([]string{"open", "com.example.shop"}, rec...)...)
	call(append([]string{"press", "text=Log in"}, rec...)...)
	call(append([]string{"fill", "id=email", "pipe@example.com"}, rec...)...)
	call(append([]string{"press", "text=Submit"}, rec...)...)
	call(append([]string{"swipe", "540", "1800", "540", "900", "--count", "2", "--pause-ms", "100"}, rec...)...)
	call(append([]string{"gesture", "pan", "540", "1600", "0", "-500", "400"}, rec...)...)
	call(append([]string{"gesture", "fling", "down", "540", "900", "600"}, rec...)...)
	call("sim", "reset")
	call("test", script, "--events", replay)
	if a, b := untimedEvents(t, live), untimedEvents(t, replay); a != b {
		t.Fatalf("replay differs from the recorded session:\nlive:\n%s\nreplay:\n%s", a, b)
	}
	if got := strings.Count(untimedEvents(t, replay), `"type":"gesture"`); got != 4 {
		t.Fatalf("want 4 gestures, got %d", got)
	}
}

// TestDragRecordReplay: a recorded target-authored drag carries both
// endpoints' identities (targets-v1). Replayed where the destination moved,
// it drags to the new place; replayed where the selector now finds another
// element, it fails before pointer-down and nothing is injected.
func TestDragRecordReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "drag.ad")
	call := func(state string, args ...string) result {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139,
			StateDir: filepath.Join(dir, state)}
		code := run(context.Background(), env, append([]string{"flow"}, args...))
		return result{code: code, stdout: out.String(), stderr: errb.String()}
	}
	if r := call("rec", "open", "com.example.board", "--app", "testdata/drag/board.yaml", "--record", script); r.code != 0 {
		t.Fatalf("%s", r)
	}
	if r := call("rec", "gesture", "drag", "text=Card A", "text=Done column", "--record", script); r.code != 0 {
		t.Fatalf("%s", r)
	}
	data, _ := os.ReadFile(script)
	if !strings.Contains(string(data), `# agent-device:targets-v1 {"source":{"id":"card_a"`) {
		t.Fatalf("the recording lacks the targets-v1 annotation:\n%s", data)
	}
	moved := filepath.Join(dir, "moved.jsonl")
	if r := call("moved", "test", script, "--app", "testdata/drag/board-moved.yaml", "--events", moved); r.code != 0 {
		t.Fatalf("a moved destination is still the recorded element:\n%s", r)
	}
	events, _ := os.ReadFile(moved)
	if !strings.Contains(string(events), `{"offsetMs":1300,"point":{"x":800,"y":1550}}`) {
		t.Fatalf("the drag must end at the destination's new centre:\n%s", events)
	}
	changed := filepath.Join(dir, "changed.jsonl")
	r := call("changed", "test", script, "--app", "testdata/drag/board-changed.yaml", "--events", changed)
	if r.code != 1 || !strings.Contains(r.stdout, `the drag destination is not the recorded element: recorded id "done"`) {
		t.Fatalf("want a clear identity failure:\n%s", r)
	}
	events, _ = os.ReadFile(changed)
	if strings.Contains(string(events), `"type":"gesture"`) {
		t.Fatalf("nothing may be injected when the screen no longer matches:\n%s", events)
	}
}

// TestSnapshotRefs: snapshot numbers the elements; a command may name one
// by its ref, and the recording keeps a portable selector, not the ref.
func TestSnapshotRefs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "refs.ad")
	call := func(args ...string) result {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: dir}
		code := run(context.Background(), env, append([]string{"flow"}, args...))
		return result{code: code, stdout: out.String(), stderr: errb.String()}
	}
	if r := call("press", "@e1"); r.code != 2 || !strings.Contains(r.stderr, "needs a snapshot first") {
		t.Fatalf("a ref before any snapshot: %s", r)
	}
	call("open", "com.example.shop")
	snap := call("snapshot")
	if !strings.Contains(snap.stdout, `@e4 id="login_button" text="Log in"`) {
		t.Fatalf("snapshot:\n%s", snap.stdout)
	}
	if r := call("press", "@e4", "--record", script); r.code != 0 {
		t.Fatalf("%s", r)
	}
	if r := call("is", "visible", "text=Welcome back"); r.code != 0 {
		t.Fatalf("the ref tapped the wrong element:\n%s", r)
	}
	data, _ := os.ReadFile(script)
	if !strings.Contains(string(data), `press "id=\"login_button\""`) || strings.Contains(string(data), "@e") {
		t.Fatalf("recordings must hold selectors, not refs:\n%s", data)
	}
}

// TestTestRecordReplay: flow test --record writes each passed YAML step
// that has an exact .ad form, with the values it ran with, and a comment
// for each one that has none. Replayed on a fresh sim, the script performs
// the same device actions (event logs equal up to timestamps), because the
// steps left out only read the screen.
func TestTestRecordReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "login.ad")
	live, replay := filepath.Join(dir, "live.jsonl"), filepath.Join(dir, "replay.jsonl")
	call := func(state string, args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139,
			StateDir: filepath.Join(dir, state)}
		if code := run(context.Background(), env, append([]string{"flow"}, args...)); code != 0 {
			t.Fatalf("flow %v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
	}
	call("live", "test", "../../flows/demo/02-login.yaml", "--record", script, "--events", live, "-e", "EMAIL=rec@example.com")
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	snaps.MatchSnapshot(t, string(data))
	if !strings.Contains(string(data), `type "rec@example.com"`) {
		t.Fatalf("the recording must hold the value the step typed (-e wins over the flow's env):\n%s", data)
	}
	call("replay", "test", script, "--events", replay)
	if a, b := untimedEvents(t, live), untimedEvents(t, replay); a != b {
		t.Fatalf("replay differs from the recorded run:\nlive:\n%s\nreplay:\n%s", a, b)
	}
}

// TestTestRecordRefusesShards: one script is one sequence of steps.
func TestTestRecordRefusesShards(t *testing.T) {
	t.Parallel()
	r := runFlow(t, "", "test", "../../flows/demo", "--record", filepath.Join(t.TempDir(), "x.ad"), "--shard-split", "2")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "--record cannot be used with --shard-split") {
		t.Fatalf("want a usage error:\n%s", r)
	}
}

// TestAdSelectorAlternatives: an .ad "a || b" selector tries b when a
// matches nothing, as agent-device does; the not-found error names every
// alternative; Maestro has no such selector, so converting it is refused.
func TestAdSelectorAlternatives(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ok := filepath.Join(dir, "alt.ad")
	os.WriteFile(ok, []byte("open \"com.example.shop\" --relaunch\npress \"text=Nowhere || text=\\\"Log in\\\"\"\nwait \"text\" \"Welcome back\"\n"), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: dir}
	if code := run(context.Background(), env, []string{"flow", "test", ok}); code != 0 {
		t.Fatalf("the second alternative must be tapped: exit %d\n%s%s", code, out.String(), errb.String())
	}
	bad := filepath.Join(dir, "none.ad")
	os.WriteFile(bad, []byte("open \"com.example.shop\" --relaunch\nwait \"text=Nowhere || id=missing\" 1000\n"), 0o644)
	out.Reset()
	if code := run(context.Background(), env, []string{"flow", "test", bad}); code != 1 || !strings.Contains(out.String(), `"Nowhere" || id: missing`) {
		t.Fatalf("want a failure naming both alternatives: exit %d\n%s", code, out.String())
	}
	r := runFlow(t, "", "convert", ok, "--to", "maestro")
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, "Maestro selectors have no alternatives") {
		t.Fatalf("want the conversion refused:\n%s", r)
	}
}

// TestAdDroppedAlternativeWarns: an alternative flow cannot match (role=)
// is not silently dropped: flow check and flow test say so, with the line.
func TestAdDroppedAlternativeWarns(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "role.ad")
	os.WriteFile(file, []byte("open \"com.example.shop\" --relaunch\npress \"role=button label=\\\"Nope\\\" || text=\\\"Log in\\\"\"\n"), 0o644)
	want := `role.ad:2:1: UNSUPPORTED_OPERATION: selector alternative role="button" label="Nope" is ignored`
	if r := runFlow(t, "", "check", file); r.code != 0 || !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, "1 warning") {
		t.Fatalf("flow check must warn and pass:\n%s", r)
	}
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: t.TempDir()}
	if code := run(context.Background(), env, []string{"flow", "test", file}); code != 0 || !strings.Contains(out.String(), "warning: ") {
		t.Fatalf("flow test must warn and run the other alternative: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// untimedEvents reads an event log without its timestamps, one event per
// line, so two runs compare equal when they did the same things.
func untimedEvents(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "t")
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
	}
	return strings.Join(lines, "\n")
}
