package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/flow-runner/flow/exec"
)

// DefaultSuiteName is the <testsuite> name when none is given; Maestro's
// default for --test-suite-name.
const DefaultSuiteName = "Test Suite"

// JUnitOptions configures [JUnit].
type JUnitOptions struct {
	// SuiteName names every <testsuite>; empty means [DefaultSuiteName].
	SuiteName string
	// Attachments lists the files attached to a flow's <testcase> (its
	// failure screenshot), as the paths CI tools should open; nil attaches
	// nothing.
	Attachments func(f exec.FlowResult) []string
}

// JUnit writes run as the JUnit XML Maestro writes (maestro-reference §4.5):
//
//	<?xml version='1.0' encoding='UTF-8'?>
//	<testsuites>
//	  <testsuite name="Test Suite" device="Pixel 7" tests="2" failures="1" time="552">
//	    <testcase id="Flow A" name="Flow A" classname="Flow A" time="421" status="SUCCESS"/>
//	    <testcase id="Flow B" name="Flow B" classname="Flow B" time="131" status="ERROR">
//	      <failure>flows/b.yaml:4:3: ASSERTION_FAILED: Assertion is false: "Welcome" is visible
//	wait for the screen with extendedWaitUntil</failure>
//	    </testcase>
//	  </testsuite>
//	</testsuites>
//
// There is one <testsuite> per shard ([exec.FlowResult.Shard], ascending; an
// unsharded run is one suite, and a run with no flows is one empty suite).
// device is the run's device name (else its id) and is omitted when unknown;
// the run has one device, so every shard's suite names the same one.
// id, name and classname are the flow name. time is whole seconds: each
// flow's duration rounded as Maestro rounds it, the suite's the sum of its
// flows' rounded times. Passed and warned flows are SUCCESS (warnings never
// change a Maestro flow status), failed ones ERROR with one attribute-less
// <failure> whose text is the error as `file:line:col: CODE: message`, the
// hint on the next line, and Maestro's "[shard N] " prefix when sharded.
//
// Skipped flows are an addition (Maestro never skips a flow it reports):
// status "SKIPPED" and a <skipped/> child, which is what JUnit consumers
// (Jenkins, GitLab, GitHub test reporters, Surefire-style tools) count as
// skipped; the suite gains skipped="N" when N > 0 and still counts them in
// tests, as JUnit does. Interrupted flows (running when the run was
// stopped) are another: status "ERROR" with an <error
// message="interrupted"> child holding the error as for a failure, counted
// in the suite's errors="N"; flows the interruption kept from starting are
// skipped, with <skipped message="..."> saying so. A flow with
// attachments ([JUnitOptions.Attachments]: its failure screenshot) gains a
// <system-out> of [[ATTACHMENT|path]] lines, which Jenkins and GitLab show
// beside the case (Maestro has no <system-out>; users ask for screenshots
// in JUnit, Maestro issue #1486). Without skipped or interrupted flows or
// attachments the output has exactly Maestro's shape.
func JUnit(w io.Writer, run exec.RunResult, opts JUnitOptions) error {
	if err := checkStatuses(run); err != nil {
		return err
	}
	name := opts.SuiteName
	if name == "" {
		name = DefaultSuiteName
	}
	var b bytes.Buffer
	b.WriteString("<?xml version='1.0' encoding='UTF-8'?>\n<testsuites>\n")
	for _, shard := range byShard(run.Flows) {
		writeSuite(&b, name, deviceName(run.Device), shard, opts.Attachments)
	}
	b.WriteString("</testsuites>\n")
	_, err := w.Write(b.Bytes())
	return err
}

type shardFlows struct {
	shard int
	flows []exec.FlowResult
}

// byShard groups flows by shard in ascending shard order, keeping run order
// within a shard. No flows is one empty group.
func byShard(flows []exec.FlowResult) []shardFlows {
	var groups []shardFlows
	for _, f := range flows {
		i := slices.IndexFunc(groups, func(g shardFlows) bool { return g.shard == f.Shard })
		if i < 0 {
			groups = append(groups, shardFlows{shard: f.Shard})
			i = len(groups) - 1
		}
		groups[i].flows = append(groups[i].flows, f)
	}
	if len(groups) == 0 {
		return []shardFlows{{}}
	}
	slices.SortStableFunc(groups, func(a, b shardFlows) int { return a.shard - b.shard })
	return groups
}

func writeSuite(b *bytes.Buffer, name, device string, s shardFlows, attachments func(exec.FlowResult) []string) {
	var failures, errs, skipped int
	var seconds int64
	for _, f := range s.flows {
		switch f.Status {
		case exec.StatusFailed:
			failures++
		case exec.StatusInterrupted:
			errs++
		case exec.StatusSkipped:
			skipped++
		}
		seconds += wholeSeconds(f.DurationMs)
	}
	b.WriteString(`  <testsuite name="` + attr(name) + `"`)
	if device != "" {
		b.WriteString(` device="` + attr(device) + `"`)
	}
	fmt.Fprintf(b, ` tests="%d" failures="%d"`, len(s.flows), failures)
	if errs > 0 {
		fmt.Fprintf(b, ` errors="%d"`, errs)
	}
	if skipped > 0 {
		fmt.Fprintf(b, ` skipped="%d"`, skipped)
	}
	fmt.Fprintf(b, ` time="%d"`, seconds)
	if len(s.flows) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n")
	for _, f := range s.flows {
		var files []string
		if attachments != nil {
			files = attachments(f)
		}
		writeCase(b, f, files)
	}
	b.WriteString("  </testsuite>\n")
}

func writeCase(b *bytes.Buffer, f exec.FlowResult, attachments []string) {
	n := attr(f.Name)
	fmt.Fprintf(b, `    <testcase id="%s" name="%s" classname="%s" time="%d" status="%s"`,
		n, n, n, wholeSeconds(f.DurationMs), junitStatus(f.Status))
	var inner string
	switch f.Status {
	case exec.StatusFailed:
		inner = "      <failure>" + text(failureText(f)) + "</failure>\n"
	case exec.StatusInterrupted:
		inner = "      <error message=\"interrupted\">" + text(failureText(f)) + "</error>\n"
	case exec.StatusSkipped:
		if f.Error != nil {
			inner = "      <skipped message=\"" + attr(f.Error.Message) + "\"/>\n"
		} else {
			inner = "      <skipped/>\n"
		}
	}
	inner += systemOut(attachments)
	if inner == "" {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n" + inner + "    </testcase>\n")
}

// systemOut is a <system-out> holding one [[ATTACHMENT|path]] line per
// file: the convention of Jenkins' JUnit Attachments plugin (its
// hudson.plugins.junitattachments.TestCaseAttachmentTestAction matches
// \[\[ATTACHMENT\|.+]] in a case's output) and of GitLab's unit test
// reports (docs.gitlab.com/ci/testing/unit_test_reports), which show a
// failed case's screenshot from it. Empty when there is nothing to attach.
func systemOut(files []string) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("      <system-out>")
	for i, f := range files {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("[[ATTACHMENT|" + text(f) + "]]")
	}
	b.WriteString("</system-out>\n")
	return b.String()
}

// junitStatus is Maestro's FlowStatus name for a flow, plus SKIPPED.
func junitStatus(s exec.Status) string {
	switch s {
	case exec.StatusFailed, exec.StatusInterrupted:
		return "ERROR"
	case exec.StatusSkipped:
		return "SKIPPED"
	}
	return "SUCCESS"
}

// failureText is the error as the CLI prints it (contracts §2): its
// compiler-style line, then the hint on its own line. A failed flow without
// an error gets Maestro's "Unknown error".
func failureText(f exec.FlowResult) string {
	msg := "Unknown error"
	if f.Error != nil {
		msg = f.Error.Error()
		if f.Error.Hint != "" {
			msg += "\n" + f.Error.Hint
		}
	}
	if f.Shard > 0 {
		msg = fmt.Sprintf("[shard %d] %s", f.Shard, msg)
	}
	return msg
}

// attr escapes an attribute value: markup characters and quotes, and tab
// and LF as character references so attribute normalisation keeps them.
// Control characters (which XML 1.0 cannot carry, even escaped) and bidi
// overrides are first made [Printable], shown as \x1b or \u202e.
func attr(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(Printable(s))) // a strings.Builder never fails
	return b.String()
}

// text escapes element text like attr but keeps line breaks literal, so a
// multi-line failure message stays readable in the file.
func text(s string) string {
	lines := strings.Split(Printable(s), "\n")
	for i, l := range lines {
		lines[i] = attr(l)
	}
	return strings.Join(lines, "\n")
}
