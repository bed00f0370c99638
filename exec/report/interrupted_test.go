package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

// interruptedRun is a run stopped by Ctrl-C during its second flow: the
// first passed, the second (and its running step) is interrupted, the
// third never started.
func interruptedRun() exec.RunResult {
	stop := canonical.Interrupted(nil).At(pos("flows/b.yaml", 4, 3)).WithHint("the flow stopped during this command")
	return exec.RunResult{Device: exec.DeviceInfo{Platform: "android", Name: "sim"}, DurationMs: 3000, Flows: []exec.FlowResult{
		{Name: "A", File: "flows/a.yaml", Status: exec.StatusPassed, DurationMs: 1000,
			Steps: []exec.StepResult{{Command: "launchApp", Status: exec.StatusPassed, Pos: pos("flows/a.yaml", 3, 3)}}},
		{Name: "B", File: "flows/b.yaml", Status: exec.StatusInterrupted, DurationMs: 2000, Error: stop,
			Steps: []exec.StepResult{
				{Command: "launchApp", Status: exec.StatusPassed, Pos: pos("flows/b.yaml", 3, 3)},
				{Command: "extendedWaitUntil", Status: exec.StatusInterrupted, Pos: pos("flows/b.yaml", 4, 3), Error: stop},
			}},
		{Name: "C", File: "flows/c.yaml", Status: exec.StatusSkipped,
			Error: canonical.NewError(canonical.CodeInterrupted, "not run: the run was interrupted before this flow started")},
	}}
}

// TestInterruptedInEveryFormat: the interrupted flow keeps its own status
// in the JSON report (and the summary counts it), is a JUnit <error> (the
// suite counts errors="1") with the skipped flow saying why it did not
// run, and has its own badge and card in the HTML page.
func TestInterruptedInEveryFormat(t *testing.T) {
	t.Parallel()
	run := interruptedRun()

	var doc struct {
		Summary map[string]int
		Flows   []struct {
			Status string
			Error  *struct{ Code string }
			Steps  []struct{ Status string }
		}
	}
	if err := json.Unmarshal(jsonReport(t, run), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Summary; s["passed"] != 1 || s["failed"] != 0 || s["interrupted"] != 1 || s["skipped"] != 1 {
		t.Errorf("JSON summary %v", s)
	}
	if f := doc.Flows[1]; f.Status != "interrupted" || f.Error == nil || f.Error.Code != "INTERRUPTED" || f.Steps[1].Status != "interrupted" {
		t.Errorf("JSON interrupted flow: %+v", f)
	}
	if f := doc.Flows[2]; f.Status != "skipped" || f.Error == nil || f.Error.Code != "INTERRUPTED" {
		t.Errorf("JSON flow not started: %+v", f)
	}

	x := junit(t, run, report.JUnitOptions{})
	if problems := validateJUnit([]byte(x)); len(problems) > 0 {
		t.Errorf("JUnit invalid: %v\n%s", problems, x)
	}
	for _, want := range []string{`tests="3" failures="0" errors="1" skipped="1"`,
		`<testcase id="B" name="B" classname="B" time="2" status="ERROR">`,
		"<error message=\"interrupted\">flows/b.yaml:4:3: INTERRUPTED: interrupted\nthe flow stopped during this command</error>",
		`<skipped message="not run: the run was interrupted before this flow started"/>`} {
		if !strings.Contains(x, want) {
			t.Errorf("JUnit lacks %q:\n%s", want, x)
		}
	}

	var b bytes.Buffer
	if err := report.HTML(&b, run, report.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"Test Result: INTERRUPTED", `<span class="badge interrupted">INTERRUPTED</span>`,
		`<div class="card interrupted"><div class="label">Interrupted</div><div class="value">1</div></div>`} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if err := wellFormed(page); err != nil {
		t.Errorf("HTML not well-formed: %v", err)
	}
}

// TestInterruptedJUnitXSD validates the interrupted run against the XSD.
func TestInterruptedJUnitXSD(t *testing.T) {
	t.Parallel()
	lint := xmllint(t)
	if out, err := validateXSD(t, lint, junit(t, interruptedRun(), report.JUnitOptions{})); err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}
