package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLongOutputNameKeepsItsReport: a report file name of 250 bytes is
// valid (file systems allow 255), so the run writes its report there. The
// temporary file the report is written to first must not take the name
// over the limit after the suite has run.
func TestLongOutputNameKeepsItsReport(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), strings.Repeat("r", 245)+".json")
	r := runFlow(t, "", "test", "../../flows/demo/01-launch.yaml", "--output", report)
	if r.code != 0 {
		t.Fatalf("a 250-byte report name: want exit 0, got\n%s", r)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("the report is lost: %v", err)
	}
	var rep struct{ Summary *struct{ Passed int } }
	if err := json.Unmarshal(data, &rep); err != nil || rep.Summary == nil || rep.Summary.Passed != 1 {
		t.Fatalf("not the run's report: %v\n%.300s", err, data)
	}
}

// TestUnwritableOutputFailsBeforeTheRun: a report that cannot be created
// (here a name over the file system's limit) is refused before any flow
// runs, not after the suite when the report is all that is left.
func TestUnwritableOutputFailsBeforeTheRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows limits the whole path, not each name")
	}
	t.Parallel()
	dir := t.TempDir()
	report := filepath.Join(dir, strings.Repeat("r", 251)+".json")
	events := filepath.Join(dir, "events.jsonl")
	r := runFlow(t, "", "test", "../../flows/demo/01-launch.yaml", "--output", report, "--events", events)
	if r.code != 2 || !strings.Contains(r.stderr, "--output") || !strings.Contains(r.stderr, "file name too long") {
		t.Fatalf("want exit 2 naming --output and the cause, got\n%s", r)
	}
	if strings.Contains(r.stdout, "Launch the shop") {
		t.Fatalf("the flow ran before the report was known to be unwritable:\n%s", r)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestEventsOnFullDiskKeepsTheReport: an event log or a recording that
// cannot be written (a full disk: /dev/full answers every write with
// ENOSPC) does not cost the run its report. The report is written with
// the flows' verdicts, and the output's failure is still reported,
// naming its flag.
func TestEventsOnFullDiskKeepsTheReport(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	t.Parallel()
	for _, flag := range []string{"--events", "--record"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			report := filepath.Join(t.TempDir(), "report.json")
			r := runFlow(t, "", "test", "../../flows/demo/01-launch.yaml", "--output", report, flag, "/dev/full")
			data, err := os.ReadFile(report)
			if err != nil {
				t.Fatalf("the report is lost: %v\n%s", err, r)
			}
			var rep struct{ Summary *struct{ Passed int } }
			if err := json.Unmarshal(data, &rep); err != nil || rep.Summary == nil || rep.Summary.Passed != 1 {
				t.Fatalf("not the run's report: %v\n%.300s", err, data)
			}
			if r.code != 2 || !strings.Contains(r.stderr, "/dev/full") || !strings.Contains(r.stderr, "no space left on device") ||
				!strings.Contains(r.stderr, flag) {
				t.Fatalf("want exit 2 reporting the %s failure, got\n%s", flag, r)
			}
			if !strings.Contains(r.stdout, "1 passed") {
				t.Fatalf("the summary is missing:\n%s", r)
			}
		})
	}
}
