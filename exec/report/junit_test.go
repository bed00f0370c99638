package report_test

import (
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

func junit(t *testing.T, run exec.RunResult, opts report.JUnitOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.JUnit(&b, run, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestJUnitSnapshot(t *testing.T) {
	t.Parallel()
	out := junit(t, fixture(), report.JUnitOptions{})
	snaps.WithConfig(snaps.Raw(), snaps.Ext(".xml")).MatchStandaloneSnapshot(t, out)
	if problems := validateJUnit([]byte(out)); len(problems) > 0 {
		t.Errorf("invalid JUnit:\n%s", strings.Join(problems, "\n"))
	}
}

// TestJUnitMaestroShape reproduces Maestro's own expected report
// (JUnitTestSuiteReporterTest, maestro-reference §4.5) byte for byte; only
// the failure text differs, because flow's errors carry their code (and
// position when known).
func TestJUnitMaestroShape(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{
		Device: exec.DeviceInfo{Platform: "ios", Name: "iPhone 15", ID: "B2D6"},
		Flows: []exec.FlowResult{
			{Name: "Flow A", Status: exec.StatusPassed, DurationMs: 421_000},
			{Name: "Flow B", Status: exec.StatusFailed, DurationMs: 131_000,
				Error: canonical.NewError(canonical.CodeAssertionFailed, "Error message")},
		},
	}
	want := `<?xml version='1.0' encoding='UTF-8'?>
<testsuites>
  <testsuite name="Test Suite" device="iPhone 15" tests="2" failures="1" time="552">
    <testcase id="Flow A" name="Flow A" classname="Flow A" time="421" status="SUCCESS"/>
    <testcase id="Flow B" name="Flow B" classname="Flow B" time="131" status="ERROR">
      <failure>ASSERTION_FAILED: Error message</failure>
    </testcase>
  </testsuite>
</testsuites>
`
	if got := junit(t, run, report.JUnitOptions{}); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestJUnitSuiteNameAndDevice(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{Device: exec.DeviceInfo{ID: "emulator-5554"},
		Flows: []exec.FlowResult{{Name: "a", Status: exec.StatusPassed}}}
	if got := junit(t, run, report.JUnitOptions{SuiteName: "Nightly"}); !strings.Contains(got,
		`<testsuite name="Nightly" device="emulator-5554" tests="1"`) {
		t.Errorf("suite name or device id fallback missing:\n%s", got)
	}
	run.Device = exec.DeviceInfo{}
	if got := junit(t, run, report.JUnitOptions{}); !strings.Contains(got, `<testsuite name="Test Suite" tests="1"`) {
		t.Errorf("an unknown device must omit the device attribute:\n%s", got)
	}
}

// TestJUnitTimes pins Maestro's rounding: each flow rounds to whole seconds
// (halves up) and the suite is the sum of the rounded flows, not the
// rounded sum.
func TestJUnitTimes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ms        []int64
		flows     []string
		suiteTime string
	}{
		{[]int64{0}, []string{"0"}, "0"},
		{[]int64{499}, []string{"0"}, "0"},
		{[]int64{500}, []string{"1"}, "1"},
		{[]int64{1499, 1500}, []string{"1", "2"}, "3"},
		{[]int64{400, 400, 400}, []string{"0", "0", "0"}, "0"}, // 1.2 s in all, but 0 as Maestro sums
		{[]int64{600, 600}, []string{"1", "1"}, "2"},           // 1.2 s in all, but 2
		{[]int64{-20}, []string{"0"}, "0"},
		{[]int64{3_599_501}, []string{"3600"}, "3600"},
	} {
		t.Run(fmt.Sprint(tc.ms), func(t *testing.T) {
			t.Parallel()
			var run exec.RunResult
			for i, ms := range tc.ms {
				run.Flows = append(run.Flows, exec.FlowResult{Name: fmt.Sprint("f", i), Status: exec.StatusPassed, DurationMs: ms})
			}
			root, err := parseXML([]byte(junit(t, run, report.JUnitOptions{})))
			if err != nil {
				t.Fatal(err)
			}
			suite := root.children("testsuite")[0]
			if got := suite.Attrs["time"]; got != tc.suiteTime {
				t.Errorf("suite time = %s, want %s", got, tc.suiteTime)
			}
			for i, c := range suite.children("testcase") {
				if got := c.Attrs["time"]; got != tc.flows[i] {
					t.Errorf("flow %d (%d ms) time = %s, want %s", i, tc.ms[i], got, tc.flows[i])
				}
			}
		})
	}
}

func TestJUnitShards(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{
		Device: exec.DeviceInfo{Name: "Pixel"},
		Flows: []exec.FlowResult{
			{Name: "b1", Status: exec.StatusPassed, DurationMs: 2000, Shard: 2},
			{Name: "a1", Status: exec.StatusFailed, DurationMs: 1000, Shard: 1,
				Error: canonical.NewError(canonical.CodeTimeout, "took too long").At(canonical.Pos{File: "a1.yaml", Line: 2, Col: 3})},
			{Name: "b2", Status: exec.StatusFailed, DurationMs: 1000, Shard: 2},
			{Name: "a2", Status: exec.StatusSkipped, Shard: 1},
		},
	}
	want := `<?xml version='1.0' encoding='UTF-8'?>
<testsuites>
  <testsuite name="Test Suite" device="Pixel" tests="2" failures="1" skipped="1" time="1">
    <testcase id="a1" name="a1" classname="a1" time="1" status="ERROR">
      <failure>[shard 1] a1.yaml:2:3: TIMEOUT: took too long</failure>
    </testcase>
    <testcase id="a2" name="a2" classname="a2" time="0" status="SKIPPED">
      <skipped/>
    </testcase>
  </testsuite>
  <testsuite name="Test Suite" device="Pixel" tests="2" failures="1" time="3">
    <testcase id="b1" name="b1" classname="b1" time="2" status="SUCCESS"/>
    <testcase id="b2" name="b2" classname="b2" time="1" status="ERROR">
      <failure>[shard 2] Unknown error</failure>
    </testcase>
  </testsuite>
</testsuites>
`
	got := junit(t, run, report.JUnitOptions{})
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if problems := validateJUnit([]byte(got)); len(problems) > 0 {
		t.Errorf("invalid JUnit:\n%s", strings.Join(problems, "\n"))
	}
}

func TestJUnitEmptyRun(t *testing.T) {
	t.Parallel()
	got := junit(t, exec.RunResult{}, report.JUnitOptions{})
	want := "<?xml version='1.0' encoding='UTF-8'?>\n<testsuites>\n" +
		`  <testsuite name="Test Suite" tests="0" failures="0" time="0"/>` + "\n</testsuites>\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestJUnitEscaping round-trips hostile names and messages through an XML
// parser: what a consumer reads back is what the run said.
func TestJUnitEscaping(t *testing.T) {
	t.Parallel()
	name := "a \"quoted\" 'flow' <b>&amp;</b>\ttab\nline\x01ctl"
	msg := "expected ]]> & <x> \"y\"\r\nsecond line"
	hint := "use <tapOn: {text: \"A&B\"}>"
	run := exec.RunResult{Device: exec.DeviceInfo{Name: `Pixel "7" <beta>`}, Flows: []exec.FlowResult{{
		Name: name, Status: exec.StatusFailed, DurationMs: 10,
		Error: canonical.NewError(canonical.CodeCommandFailed, msg).WithHint(hint),
	}}}
	out := junit(t, run, report.JUnitOptions{SuiteName: "S & <T>"})
	if problems := validateJUnit([]byte(out)); len(problems) > 0 {
		t.Fatalf("invalid JUnit:\n%s\n%s", strings.Join(problems, "\n"), out)
	}
	root, err := parseXML([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	suite := root.children("testsuite")[0]
	tc := suite.children("testcase")[0]
	wantName := strings.ReplaceAll(name, "\x01", `\x01`) // XML 1.0 cannot carry U+0001: shown as an escape
	for _, got := range []string{tc.Attrs["id"], tc.Attrs["name"], tc.Attrs["classname"]} {
		if got != wantName {
			t.Errorf("name read back as %q, want %q", got, wantName)
		}
	}
	if got := suite.Attrs["name"]; got != "S & <T>" {
		t.Errorf("suite name read back as %q", got)
	}
	if got := suite.Attrs["device"]; got != `Pixel "7" <beta>` {
		t.Errorf("device read back as %q", got)
	}
	wantText := "COMMAND_FAILED: " + strings.ReplaceAll(msg, "\r\n", "\n") + "\n" + hint // a CRLF is a line break
	if got := tc.children("failure")[0].Text; got != wantText {
		t.Errorf("failure read back as %q, want %q", got, wantText)
	}
}

func TestUnknownStatusIsAnError(t *testing.T) {
	t.Parallel()
	for name, run := range map[string]exec.RunResult{
		"flow": {Flows: []exec.FlowResult{{Name: "a", Status: "done"}}},
		"step": {Flows: []exec.FlowResult{{Name: "a", Status: exec.StatusPassed,
			Steps: []exec.StepResult{{Command: "tapOn"}}}}},
	} {
		for format, render := range map[string]func(*bytes.Buffer) error{
			"junit": func(b *bytes.Buffer) error { return report.JUnit(b, run, report.JUnitOptions{}) },
			"json":  func(b *bytes.Buffer) error { return report.JSON(b, run) },
			"html":  func(b *bytes.Buffer) error { return report.HTML(b, run, report.HTMLOptions{}) },
		} {
			var b bytes.Buffer
			err := render(&b)
			if canonical.CodeOf(err) != canonical.CodeInternal {
				t.Errorf("%s status, %s: err = %v, want INTERNAL", name, format, err)
			}
			if b.Len() > 0 {
				t.Errorf("%s status, %s: wrote %d bytes on error", name, format, b.Len())
			}
		}
	}
}

// TestValidatorCatchesBadDocuments proves validateJUnit can fail: each
// document breaks one rule.
func TestValidatorCatchesBadDocuments(t *testing.T) {
	t.Parallel()
	const decl = "<?xml version='1.0' encoding='UTF-8'?>\n"
	for _, tc := range []struct{ doc, want string }{
		{`<testsuites/>`, "missing XML declaration"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0">`, "not well-formed"},
		{decl + `<testsuite name="s" tests="0" failures="0"/>`, "want <testsuites>"},
		{decl + `<testsuites><testcase name="a" classname="a" time="0"/></testsuites>`, "<testsuites> contains <testcase>"},
		{decl + `<testsuites><testsuite tests="0" failures="0"/></testsuites>`, "lacks required attribute name"},
		{decl + `<testsuites><testsuite name="s" failures="0"/></testsuites>`, "lacks required attribute tests"},
		{decl + `<testsuites><testsuite name="s" tests="0"/></testsuites>`, "lacks required attribute failures"},
		{decl + `<testsuites><testsuite name="s" tests="0" failures="0" colour="red"/></testsuites>`, "unknown attribute colour"},
		{decl + `<testsuites><testsuite name="s" tests="2" failures="0"><testcase name="a" classname="a" time="0"/></testsuite></testsuites>`, "tests=2 but it has 1"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" classname="a" time="0"><failure>x</failure></testcase></testsuite></testsuites>`, "failures=0 but it has 1"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0" skipped="0"><testcase name="a" classname="a" time="0"><skipped/></testcase></testsuite></testsuites>`, "skipped=0 but it has 1"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase classname="a" time="0"/></testsuite></testsuites>`, "lacks required attribute name"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" time="0"/></testsuite></testsuites>`, "lacks required attribute classname"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" classname="a"/></testsuite></testsuites>`, "lacks required attribute time"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" classname="a" time="-1"/></testsuite></testsuites>`, "not a non-negative number"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="1"><testcase name="a" classname="a" time="0"><failure>x</failure><skipped/></testcase></testsuite></testsuites>`, "at most one"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" classname="a" time="0"><note/></testcase></testsuite></testsuites>`, "unexpected <note>"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="1"><testcase name="a" classname="a" time="0"><system-out/><failure>x</failure></testcase></testsuite></testsuites>`, "<failure> out of order"},
		{decl + `<testsuites><testsuite name="s" tests="1" failures="1"><testcase name="a" classname="a" time="0"><failure kind="x">x</failure></testcase></testsuite></testsuites>`, "unknown attribute kind"},
	} {
		problems := strings.Join(validateJUnit([]byte(tc.doc)), "\n")
		if !strings.Contains(problems, tc.want) {
			t.Errorf("%s\nproblems:\n%s\nwant one containing %q", tc.doc, problems, tc.want)
		}
	}
}

// xmllint finds xmllint, skipping the test when it is missing unless
// FLOW_REQUIRE_XMLLINT=1 (CI) makes that a failure. Debian/Ubuntu:
// apt-get install libxml2-utils.
func xmllint(t *testing.T) string {
	t.Helper()
	p, err := osexec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("FLOW_REQUIRE_XMLLINT") == "1" {
			t.Fatal("xmllint not found and FLOW_REQUIRE_XMLLINT=1: install libxml2-utils")
		}
		t.Skip("xmllint not found (apt-get install libxml2-utils); set FLOW_REQUIRE_XMLLINT=1 to make this a failure")
	}
	return p
}

func validateXSD(t *testing.T, lint, doc string) (string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := osexec.Command(lint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file).CombinedOutput()
	return string(out), err
}

// TestJUnitXSD validates real reports against testdata/junit.xsd.
func TestJUnitXSD(t *testing.T) {
	t.Parallel()
	lint := xmllint(t)
	shards := fixture()
	for i := range shards.Flows {
		shards.Flows[i].Shard = i%2 + 1
	}
	for name, run := range map[string]exec.RunResult{"fixture": fixture(), "shards": shards, "empty": {}} {
		if out, err := validateXSD(t, lint, junit(t, run, report.JUnitOptions{})); err != nil {
			t.Errorf("%s: xmllint: %v\n%s", name, err, out)
		}
	}
}

// TestJUnitXSDRejects proves the schema and the xmllint call can fail.
func TestJUnitXSDRejects(t *testing.T) {
	t.Parallel()
	lint := xmllint(t)
	for _, doc := range []string{
		`<testsuites><testsuite name="s" tests="1" failures="0"><testcase name="a" time="0"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="s" tests="x" failures="0"/></testsuites>`,
		`<testsuites><testsuite name="s" tests="1" failures="1"><testcase name="a" classname="a" time="0"><failure>x</failure><skipped/></testcase></testsuite></testsuites>`,
		`<testsuites><testcase name="a" classname="a" time="0"/></testsuites>`,
	} {
		if out, err := validateXSD(t, lint, doc); err == nil {
			t.Errorf("xmllint accepted %s\n%s", doc, out)
		}
	}
}

// TestJUnitAttachments: a flow with attachments carries them as
// [[ATTACHMENT|path]] lines in its <system-out>, after its failure, in the
// order given, with markup in a path escaped; flows without keep Maestro's
// shape. The document stays valid against testdata/junit.xsd.
func TestJUnitAttachments(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{Flows: []exec.FlowResult{
		{Name: "ok", Status: exec.StatusPassed},
		{Name: "bad", Status: exec.StatusFailed, Error: canonical.NewError(canonical.CodeAssertionFailed, "no")},
	}}
	attach := func(f exec.FlowResult) []string {
		if f.Status != exec.StatusFailed {
			return nil
		}
		return []string{"/tmp/a&b/bad-failure.png", "/tmp/x.json"}
	}
	out := junit(t, run, report.JUnitOptions{Attachments: attach})
	want := `    <testcase id="bad" name="bad" classname="bad" time="0" status="ERROR">
      <failure>ASSERTION_FAILED: no</failure>
      <system-out>[[ATTACHMENT|/tmp/a&amp;b/bad-failure.png]]
[[ATTACHMENT|/tmp/x.json]]</system-out>
    </testcase>
`
	if !strings.Contains(out, want) {
		t.Errorf("want\n%s\nin\n%s", want, out)
	}
	if !strings.Contains(out, `<testcase id="ok" name="ok" classname="ok" time="0" status="SUCCESS"/>`) {
		t.Errorf("a flow without attachments changed shape:\n%s", out)
	}
	if problems := validateJUnit([]byte(out)); len(problems) > 0 {
		t.Errorf("invalid JUnit:\n%s", strings.Join(problems, "\n"))
	}
	if lint, err := osexec.LookPath("xmllint"); err == nil {
		if msg, err := validateXSD(t, lint, out); err != nil {
			t.Errorf("xmllint: %v\n%s", err, msg)
		}
	}
}
