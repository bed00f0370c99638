package report_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

// loopFixture is a flow with the result shapes long loops leave: a repeat
// of 30 runs listing runs 1-10 and 30, with a nested repeat of 12 runs in
// its first run; and a repeat whose last run listed no step (its body was
// skipped), whose summary then closes the loop.
func loopFixture() exec.RunResult {
	const file = "flows/loop.yaml"
	step := func(cmd string, line, depth, run int) exec.StepResult {
		return exec.StepResult{Command: cmd, Status: exec.StatusPassed, DurationMs: 10, Pos: pos(file, line, 3+2*depth),
			Depth: depth, Iteration: run}
	}
	omitted := func(first, last, passed, logs int, ms int64) *exec.OmittedRuns {
		return &exec.OmittedRuns{First: first, Last: last, Steps: map[exec.Status]int{exec.StatusPassed: passed}, Logs: logs, DurationMs: ms}
	}
	outer := step("repeat", 3, 0, 0)
	outer.Iterations = &exec.Iterations{Count: 30, Omitted: omitted(11, 29, 19, 2, 1900)}
	inner := step("repeat", 6, 1, 1)
	inner.Iterations = &exec.Iterations{Count: 12, Omitted: omitted(11, 11, 1, 0, 10)}
	steps := []exec.StepResult{outer, step("tapOn", 5, 1, 1), inner}
	for run := 1; run <= 10; run++ {
		steps = append(steps, step("back", 8, 2, run))
	}
	steps = append(steps, step("back", 8, 2, 12))
	for run := 2; run <= 10; run++ {
		steps = append(steps, step("tapOn", 5, 1, run))
	}
	steps = append(steps, step("tapOn", 5, 1, 30))
	empty := step("repeat", 10, 0, 0)
	empty.Iterations = &exec.Iterations{Count: 14, Omitted: omitted(11, 13, 0, 0, 0)}
	empty.Iterations.Omitted.Steps = map[exec.Status]int{}
	steps = append(steps, empty, step("assertVisible", 13, 0, 0))
	return exec.RunResult{Flows: []exec.FlowResult{{Name: "loop", File: file, Status: exec.StatusPassed, DurationMs: 2500, Steps: steps}}}
}

// TestJSONLoopSummary: a repeat's step carries iterations (count, and what
// the unlisted runs did) and each body step its run; the keys are the ones
// the report documents.
func TestJSONLoopSummary(t *testing.T) {
	t.Parallel()
	out := jsonReport(t, loopFixture())
	snaps.WithConfig(snaps.Raw(), snaps.Ext(".json")).MatchStandaloneSnapshot(t, string(out))
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	steps := doc["flows"].([]any)[0].(map[string]any)["steps"].([]any)
	for i, s := range steps {
		stepKeys.check(t, fmt.Sprintf("steps[%d]", i), s)
	}
	it := steps[0].(map[string]any)["iterations"].(map[string]any)
	om := it["omitted"].(map[string]any)
	if it["count"] != 30.0 || om["first"] != 11.0 || om["last"] != 29.0 || om["logs"] != 2.0 ||
		om["steps"].(map[string]any)["passed"] != 19.0 || om["durationMs"] != 1900.0 {
		t.Errorf("iterations = %v", it)
	}
}

// TestHTMLLoopRows: the summary row of a loop's unlisted runs sits right
// before its last run, at the body's depth, nested loops each with their
// own; a last run without steps gets the row after the loop.
func TestHTMLLoopRows(t *testing.T) {
	t.Parallel()
	page := html(t, loopFixture(), report.HTMLOptions{})
	row := regexp.MustCompile(`(?s)<tr class="([a-z]+)">.*?--depth: (\d)">(.*?)</td>`)
	var got []string
	for _, m := range row.FindAllStringSubmatch(page, -1) {
		cell := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(strings.SplitN(m[3], "\n", 2)[0], "")
		got = append(got, fmt.Sprintf("%s %s %s", m[1], m[2], strings.TrimSpace(cell)))
	}
	want := []string{"passed 0 repeat (30 runs)", "passed 1 #1 tapOn", "passed 1 #1 repeat (12 runs)"}
	for run := 1; run <= 10; run++ {
		want = append(want, fmt.Sprintf("passed 2 #%d back", run))
	}
	want = append(want, "gap 2 run 11 not listed: 1 step passed", "passed 2 #12 back")
	for run := 2; run <= 10; run++ {
		want = append(want, fmt.Sprintf("passed 1 #%d tapOn", run))
	}
	want = append(want, "gap 1 runs 11–29 not listed: 19 steps passed, 2 log lines", "passed 1 #30 tapOn",
		"passed 0 repeat (14 runs)", "gap 1 runs 11–13 not listed: no steps", "passed 0 assertVisible")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
