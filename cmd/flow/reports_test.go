package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"image/png"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// junitXSD is the JUnit schema exec/report's tests validate against.
const junitXSD = "../../exec/report/testdata/junit.xsd"

// TestThreeOutputs: three --output flags in one run write three reports,
// each in the format its extension names. Without --artifacts the
// failing flow's screenshot is still taken: the JUnit report attaches it
// as a [[ATTACHMENT|absolute path]] line of the case's <system-out> (the
// Jenkins JUnit Attachments and GitLab convention) to a PNG that exists
// after the run, and the HTML report embeds the same image as a data:
// URI. The JUnit report is valid against the schema (xmllint; skipped
// when xmllint is missing unless FLOW_REQUIRE_XMLLINT=1). Before
// repeatable --output the second flag replaced the first and one report
// was written.
func TestThreeOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	xmlPath, htmlPath, jsonPath := filepath.Join(dir, "out", "report.xml"), filepath.Join(dir, "report.html"), filepath.Join(dir, "report.json")
	r := runFlow(t, "", "test", "--device", "sim", "../../flows/demo/01-launch.yaml", "testdata/shards/fails.yaml",
		"--output", xmlPath, "--output", htmlPath, "--output", jsonPath)
	if r.code != 1 {
		t.Fatalf("want exit 1 (a flow fails):\n%s", r)
	}
	for _, p := range []string{xmlPath, htmlPath, jsonPath} {
		if !strings.Contains(r.stdout, "report: "+p+"\n") {
			t.Errorf("stdout does not name report %s:\n%s", p, r.stdout)
		}
	}
	junit, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<system-out>\[\[ATTACHMENT\|([^\]]+)\]\]</system-out>`).FindAllSubmatch(junit, -1)
	if len(m) != 1 {
		t.Fatalf("want one attachment line (the failing flow's):\n%s", junit)
	}
	shotPath := string(m[0][1])
	if !filepath.IsAbs(shotPath) {
		t.Errorf("attachment path %q is not absolute", shotPath)
	}
	shot, err := os.ReadFile(shotPath)
	if err != nil {
		t.Fatalf("the attached screenshot is missing after the run: %v", err)
	}
	if _, err := png.Decode(bytes.NewReader(shot)); err != nil {
		t.Fatalf("the attachment is not a PNG: %v", err)
	}
	if !strings.Contains(string(junit), `<testcase id="fails" name="fails" classname="fails" time="17" status="ERROR">`) {
		t.Errorf("the attachment is not on the failing case:\n%s", junit)
	}
	if lint, err := osexec.LookPath("xmllint"); err == nil || os.Getenv("FLOW_REQUIRE_XMLLINT") == "1" {
		if err != nil {
			t.Fatal("xmllint not found and FLOW_REQUIRE_XMLLINT=1: install libxml2-utils")
		}
		if out, err := osexec.Command(lint, "--noout", "--schema", junitXSD, xmlPath).CombinedOutput(); err != nil {
			t.Errorf("xmllint: %v\n%s", err, out)
		}
	}
	page, err := os.ReadFile(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	// The attribute is HTML-escaped (html/template writes + as &#43;).
	if !strings.Contains(html.UnescapeString(string(page)), "data:image/png;base64,"+base64.StdEncoding.EncodeToString(shot)) {
		t.Errorf("the HTML report does not embed the failure screenshot")
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Summary struct{ Passed, Failed int }
		Flows   []struct{ Artifacts []string }
	}
	if err := json.Unmarshal(data, &rep); err != nil || rep.Summary.Passed != 1 || rep.Summary.Failed != 1 {
		t.Fatalf("JSON report: %v\n%.400s", err, data)
	}
	for _, f := range rep.Flows {
		if len(f.Artifacts) > 0 {
			t.Errorf("the JSON report names artifacts of a folder the run removed: %v", f.Artifacts)
		}
	}
	if strings.Contains(r.stdout, "artifact: ") {
		t.Errorf("the console names artifacts of a folder the run removed:\n%s", r.stdout)
	}
}

// TestAttachmentPaths: the JUnit attachment is the --artifacts file when
// --artifacts is given, the debug screenshot when --debug-output is, and
// nothing else is written beside the report then.
func TestAttachmentPaths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		flag string
		want *regexp.Regexp
	}{
		{"--artifacts", regexp.MustCompile(`/extra/fails-[0-9a-f]{8}-failure\.png$`)},
		{"--debug-output", regexp.MustCompile(`/extra/\.maestro/tests/[0-9_-]+/screenshot-❌-\d{13}-\(fails\)\.png$`)},
	} {
		t.Run(c.flag, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			report := filepath.Join(dir, "r.xml")
			r := runFlow(t, "", "test", "--device", "sim", "testdata/shards/fails.yaml", "--output", report, c.flag, filepath.Join(dir, "extra"))
			if r.code != 1 {
				t.Fatalf("want exit 1:\n%s", r)
			}
			junit, _ := os.ReadFile(report)
			m := regexp.MustCompile(`\[\[ATTACHMENT\|([^\]]+)\]\]`).FindSubmatch(junit)
			if m == nil || !c.want.MatchString(filepath.ToSlash(string(m[1]))) {
				t.Fatalf("attachment %q, want one matching %s:\n%s", m, c.want, junit)
			}
			if _, err := os.Stat(string(m[1])); err != nil {
				t.Errorf("the attached file is missing: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "r-attachments")); err == nil {
				t.Errorf("copied the screenshot beside the report as well")
			}
		})
	}
}

// TestReportOutputs pins how --format and the --output flags select the
// reports: --format is the format of the one report (Maestro), noop
// writes none even with --output, several --output files take the format
// of their extensions and cannot share one --format.
func TestReportOutputs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		format  string
		outputs []string
		want    []reportOutput
		err     string
	}{
		{"", nil, nil, ""},
		{"junit", nil, []reportOutput{{"junit", "report.xml"}}, ""},
		{"html", nil, []reportOutput{{"html", "report.html"}}, ""},
		{"junit", []string{"out.txt"}, []reportOutput{{"junit", "out.txt"}}, ""},
		{"", []string{"a.xml", "b.HTML", "c.json"}, []reportOutput{{"junit", "a.xml"}, {"html", "b.HTML"}, {"json", "c.json"}}, ""},
		{"", []string{"a,b.xml"}, []reportOutput{{"junit", "a,b.xml"}}, ""},
		{"noop", []string{"a.xml"}, nil, ""},
		{"junit", []string{"a.xml", "b.xml"}, nil, "--format junit names the format of one report, but 2 --output files are given"},
		{"", []string{"a.xml", "b.txt"}, nil, "--output b.txt: cannot tell the report format from the file name"},
		{"pdf", nil, nil, `unknown report format "pdf"`},
	}
	for _, c := range cases {
		got, err := readReportOutputs(c.format, c.outputs)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || canonical.CodeOf(err) != canonical.CodeInvalidArgs {
				t.Errorf("%q %v: want INVALID_ARGS %q, got %v", c.format, c.outputs, c.err, err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%q %v: got %v, %v; want %v", c.format, c.outputs, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q %v: got %v; want %v", c.format, c.outputs, got, c.want)
			}
		}
	}
}

// TestOutputCommaKeepsItsName: a report file whose name has a comma is
// written under that name (urfave/cli's slice flags would split it).
func TestOutputCommaKeepsItsName(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "a,b.json")
	r := runFlow(t, "", "test", "--device", "sim", "../../flows/demo/01-launch.yaml", "--output", report)
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	if _, err := os.Stat(report); err != nil {
		t.Fatalf("report not written under its name: %v", err)
	}
}
