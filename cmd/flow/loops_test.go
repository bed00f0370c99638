package main

import (
	"encoding/json"
	"strings"
	"time"

	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/maestro"
)

// heapProbe is an event log that measures the live heap when the sim
// runtime records given numbers of key presses, from inside the running loop.
type heapProbe struct {
	exec.EventLog
	presses int
	at      map[int]uint64 // key presses → live heap bytes
}

func (p *heapProbe) Record(typ string, fields map[string]any) {
	p.EventLog.Record(typ, fields)
	if typ != "pressKey" {
		return
	}
	p.presses++
	if _, ok := p.at[p.presses]; ok {
		p.at[p.presses] = liveHeap()
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's finalizers released
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// loopFlow runs on the semantics "taps" app: each run presses a key (a
// device action with its settle; a tap would add a PNG screenshot per run,
// which costs more than the rest of the run together) and runs an inline
// subflow (its own script scope) whose script counts the runs and prints a
// log line every 1,000.
const loopFlow = `appId: com.sem.taps
---
- launchApp
- evalScript: ${output.n = 0}
- repeat:
    times: ${RUNS}
    commands:
      - pressKey: Volume Up
      - runFlow:
          commands:
            - evalScript: ${(output.n = output.n + 1) % 1000 == 0 && console.log('run ' + output.n)}
- assertTrue: ${output.n == RUNS}
`

// TestLoopMemoryIsBounded: a loop of 100,000 runs on sim holds no more
// memory than one of 10,000, measured as the live heap after a forced GC
// at the 10,000th and the 100,000th key press, while the loop runs with the
// console observer attached; and the result and every report it renders
// list the same bounded steps.
func TestLoopMemoryIsBounded(t *testing.T) {
	// Not parallel: it measures the process's heap.
	if testing.Short() {
		t.Skip("runs 100,000 loop iterations")
	}
	const runs = 100_000
	data, err := os.ReadFile(filepath.Join(semDir, "apps", "taps.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	app, err := sim.LoadApp("taps.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "loop.yaml")
	if err := os.WriteFile(file, []byte(loopFlow), 0o600); err != nil {
		t.Fatal(err)
	}
	l := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139)
	flow, err := l.Load(filepath.ToSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	clock := flowapi.ClockFor("sim")
	probe := &heapProbe{EventLog: exec.NewJSONLog(io.Discard, clock), at: map[int]uint64{runs / 10: 0, runs: 0}}
	dev := sim.New(sim.Options{Apps: []*sim.App{app}, Clock: clock, Events: probe})
	var console bytes.Buffer
	prog := newProgress(&console, false, 1)
	cfg := exec.Config{Device: dev, Clock: clock, Events: probe, Observer: prog, NewScripts: flowapi.NewScripts,
		Env: []exec.Var{{Name: "RUNS", Value: fmt.Sprint(runs)}}}
	res := exec.RunFlow(context.Background(), cfg, flow)
	if res.Status != exec.StatusPassed {
		t.Fatalf("flow %s: %v\n%s", res.Status, res.Error, console.String())
	}
	at10k, at100k := probe.at[runs/10], probe.at[runs]
	if at10k == 0 || at100k == 0 {
		t.Fatalf("the probe saw %d key presses", probe.presses)
	}
	// A leak of a dozen bytes a run would add 1 MB over the 90,000 runs
	// between the two points; keeping every step (as flow once did) adds
	// tens of MB.
	const slack = 1 << 20
	if at100k > at10k+slack {
		t.Errorf("live heap grew from %d KB at run %d to %d KB at run %d", at10k>>10, runs/10, at100k>>10, runs)
	}
	t.Logf("live heap: %d KB at run %d, %d KB at run %d", at10k>>10, runs/10, at100k>>10, runs)

	// The loop lists 10 runs and the last, 3 steps each, under it.
	rep := res.Steps[2]
	if rep.Iterations == nil || rep.Iterations.Count != runs || rep.Iterations.Omitted == nil ||
		rep.Iterations.Omitted.Steps[exec.StatusPassed] != 3*(runs-11) || rep.Iterations.Omitted.Logs != (runs-1)/1000 {
		t.Fatalf("repeat summary %+v", rep.Iterations)
	}
	// In the last run the runFlow, at its 100,000th run, is summarised on
	// its step (a runFlow command lists its first 10 runs, as a loop does).
	if want := 2 + 1 + 3*10 + 2 + 1; len(res.Steps) != want {
		t.Fatalf("%d steps listed, want %d", len(res.Steps), want)
	}
	if last := res.Steps[len(res.Steps)-2]; last.Command != "runFlow" || last.Iterations == nil || last.Iterations.Omitted == nil ||
		last.Iterations.Omitted.Steps[exec.StatusPassed] != 1 {
		t.Errorf("the last run's runFlow %+v, want its one step summarised", last)
	}
	run := exec.RunResult{Flows: []exec.FlowResult{res}}
	for name, render := range map[string]func(io.Writer) error{
		"json":    func(w io.Writer) error { return report.JSON(w, run) },
		"html":    func(w io.Writer) error { return report.HTML(w, run, report.HTMLOptions{}) },
		"junit":   func(w io.Writer) error { return report.JUnit(w, run, report.JUnitOptions{}) },
		"console": func(w io.Writer) error { _, err := w.Write(console.Bytes()); return err },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if b.Len() > 64<<10 {
			t.Errorf("the %s output of the loop is %d KB", name, b.Len()>>10)
		}
	}
	if want := fmt.Sprintf("runs 11–%d not listed: %d steps passed, %d log lines", runs-1, 3*(runs-11), (runs-1)/1000); !bytes.Contains(console.Bytes(), []byte(want)) {
		t.Errorf("the console does not summarise the unlisted runs:\n%s", console.String())
	}
}

// reportStep is a step of the JSON report with the loop fields.
type reportStep struct {
	Command    string
	Status     string
	Depth      int
	Pos        struct{ Line int }
	Iteration  int
	Iterations *struct {
		Count   int
		Omitted *struct {
			First, Last int
			Steps       map[string]int
			Logs        int
			DurationMs  int64
		}
	}
}

// TestLongLoopsInReports: on sim, a while loop of 25 runs and a loop
// that fails in its 15th run list their first ten runs and their last one
// in the JSON report, the HTML report and on the console, with the runs
// between summarised; the event log keeps every device action.
func TestLongLoopsInReports(t *testing.T) {
	t.Parallel()
	r := semRun(t, "ctl_long_loop.yaml")
	if r.r.code != 1 {
		t.Fatalf("exit %d, want 1 (the second loop fails)\n%s", r.r.code, r.r)
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Flows []struct{ Steps []reportStep }
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range rep.Flows[0].Steps {
		line := fmt.Sprintf("%sL%d %s %s", strings.Repeat("  ", s.Depth), s.Pos.Line, s.Command, s.Status)
		if s.Iteration > 0 {
			line += fmt.Sprintf(" #%d", s.Iteration)
		}
		if it := s.Iterations; it != nil {
			line += fmt.Sprintf(" (%d runs", it.Count)
			if o := it.Omitted; o != nil {
				line += fmt.Sprintf("; %d–%d omitted: %v, %d logs", o.First, o.Last, o.Steps, o.Logs)
			}
			line += ")"
		}
		lines = append(lines, line)
	}
	want := []string{"L3 launchApp passed", "L4 evalScript passed",
		"L5 repeat passed (25 runs; 11–24 omitted: map[passed:28], 0 logs)"}
	for _, run := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25} {
		want = append(want, fmt.Sprintf("  L9 evalScript passed #%d", run), fmt.Sprintf("  L10 tapOn passed #%d", run))
	}
	want = append(want, "L11 assertTrue passed", "L12 repeat failed (15 runs; 11–14 omitted: map[passed:8], 0 logs)")
	for _, run := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} {
		want = append(want, fmt.Sprintf("  L15 evalScript passed #%d", run), fmt.Sprintf("  L16 assertTrue passed #%d", run))
	}
	want = append(want, "  L15 evalScript passed #15", "  L16 assertTrue failed #15")
	checkLines(t, "report steps", lines, want)

	// The console shows the same runs and says what it left out.
	for _, s := range []string{"⋯ runs 11–24 not listed: 28 steps passed", "✓ Repeat while condition (25 runs)",
		"⋯ runs 11–14 not listed: 8 steps passed", "✗ Repeat 1e30 times (15 runs)", "ASSERTION_FAILED"} {
		if !strings.Contains(r.r.stdout, s) {
			t.Errorf("console lacks %q:\n%s", s, r.r.stdout)
		}
	}
	if n := strings.Count(r.r.stdout, `Tap on "Check"`); n != 11 {
		t.Errorf("the console shows %d taps, want 11 (runs 1-10 and 25):\n%s", n, r.r.stdout)
	}
	// The device log streams every action: all 25 taps.
	taps := 0
	for _, e := range r.events {
		if e.Type == "tap" {
			taps++
		}
	}
	if taps != 25 {
		t.Errorf("the event log has %d taps, want 25", taps)
	}

	// The HTML report puts the summary row right before the last run.
	html := filepath.Join(r.dir, "report.html")
	h := runFlow(t, "", "test", "--device", "sim", "--app", filepath.Join(semDir, "apps", "taps.yaml"),
		"--format", "html", "--output", html, filepath.Join(semDir, "ctl_long_loop.yaml"))
	if h.code != 1 {
		t.Fatalf("html run: %s", h)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	gap := strings.Index(string(page), "runs 11–24 not listed: 28 steps passed")
	last := strings.Index(string(page), `<span class="run">#25</span>`)
	tenth := strings.Index(string(page), `<span class="run">#10</span>`)
	if gap < 0 || tenth < 0 || last < 0 || !(tenth < gap && gap < last) {
		t.Errorf("the HTML report does not summarise runs 11-24 between runs 10 and 25 (at %d, %d, %d)", tenth, gap, last)
	}
	if n := strings.Count(string(page), `<span class="run">#`); n != 2*11+2*11 {
		t.Errorf("the HTML report lists %d body steps, want 44", n)
	}
}

// TestCheckWarnsAboutLoopCounts: flow check points at each literal count
// Maestro reads as a loop that never runs or never ends, says what Maestro
// does and how to fix it, and still passes (they are warnings).
func TestCheckWarnsAboutLoopCounts(t *testing.T) {
	t.Parallel()
	r := runFlow(t, "", "check", "testdata/check/loops")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r)
	}
	snaps.MatchSnapshot(t, r.String())
}

// TestInterruptTightLoop: Ctrl-C stops an endless while loop whose body is
// one cheap script, and the report written after it lists the loop's first
// runs and its last, with the flow stopped as interrupted.
func TestInterruptTightLoop(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: getenv139}
	code := run(ctx, env, []string{"flow", "test", "testdata/run/tight_loop.yaml", "--format", "json", "--output", out})
	if code == 0 {
		t.Fatalf("exit 0 after an interrupt\n%s", stdout.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no report after the interrupt: %v\n%s", err, stdout.String())
	}
	var rep struct {
		Flows []struct {
			Status string
			Error  struct{ Message string }
			Steps  []reportStep
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Flows) != 1 {
		t.Fatalf("report: %v\n%s", err, data)
	}
	f := rep.Flows[0]
	if f.Status == "passed" || !strings.Contains(f.Error.Message, "interrupted") {
		t.Fatalf("flow %s: %q, want it stopped as interrupted", f.Status, f.Error.Message)
	}
	loop := f.Steps[1]
	if loop.Command != "repeat" || loop.Status == "passed" || loop.Iterations == nil || loop.Iterations.Count < 1 {
		t.Fatalf("the loop step: %+v", loop)
	}
	if body := len(f.Steps) - 2; body > exec.KeptIterations+1 || body > loop.Iterations.Count {
		t.Errorf("%d body steps listed for %d runs", body, loop.Iterations.Count)
	}
	for _, s := range f.Steps {
		if s.Pos.Line == 10 {
			t.Errorf("the command after the loop ran")
		}
	}
}
