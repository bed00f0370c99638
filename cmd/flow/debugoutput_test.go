package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/exec"
)

// Maestro's debug folder (maestro-cli/src/main/java/maestro/cli/report/
// TestDebugReporter.kt, 1.39.10: buildDefaultDebugOutputPath and
// saveFlow) stamps the folder with yyyy-MM-dd_HHmmss and each screenshot
// with the epoch milliseconds; debugTree masks both, and checks they are
// there.
var (
	debugStamp = regexp.MustCompile(`^\.maestro/tests/\d{4}-\d{2}-\d{2}_\d{6}/`)
	shotStamp  = regexp.MustCompile(`^(screenshot-(?:shard-\d+-)?❌)-\d{13}-`)
)

// debugTree lists the files under dir, slash-separated and sorted, with
// the timestamps of their names masked.
func debugTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		rel = debugStamp.ReplaceAllString(rel, ".maestro/tests/<yyyy-MM-dd_HHmmss>/")
		base := baseName(rel)
		masked := shotStamp.ReplaceAllString(base, "$1-<epochMs>-")
		out = append(out, strings.TrimSuffix(rel, base)+masked)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func baseName(rel string) string {
	if i := strings.LastIndex(rel, "/"); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

// TestDebugOutputLayout pins the tree --debug-output writes for a passing
// and a failing flow against Maestro's layout (TestDebugReporter.kt):
// suite mode names files after the flow, single-flow mode
// (TestRunner.runSingle) after the file with its extension, sharded runs
// add shard-N-, --flatten-debug-output drops .maestro/tests/<stamp>/. It
// fails without --debug-output support (the flag was refused, exit 2).
func TestDebugOutputLayout(t *testing.T) {
	t.Parallel()
	const pass, fail = "../../flows/demo/01-launch.yaml", "testdata/shards/fails.yaml"
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"suite", []string{pass, fail}, 1},
		{"suite_flattened", []string{pass, fail, "--flatten-debug-output"}, 1},
		{"single_passing", []string{pass}, 0},
		{"single_failing", []string{fail}, 1},
		{"single_with_noop_report", []string{fail, "--format", "noop"}, 1},
		{"single_with_report_is_suite", []string{fail, "--output", "REPORT"}, 1},
		{"sharded", []string{pass, fail, "--shard-split", "2"}, 1},
		{"single_file_on_every_shard_is_suite", []string{fail, "--shard-all", "2"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := append([]string{"test", "--device", "sim", "--debug-output", dir}, c.args...)
			if i := slices.Index(args, "REPORT"); i >= 0 {
				args[i] = filepath.Join(t.TempDir(), "r.json")
			}
			r := runFlow(t, "", args...)
			if r.code != c.code {
				t.Fatalf("want exit %d:\n%s", c.code, r)
			}
			tree := debugTree(t, dir)
			snaps.MatchSnapshot(t, strings.Join(tree, "\n"))
			for _, f := range tree {
				if strings.Contains(f, "<epochMs>") {
					checkPNG(t, dir, f)
				}
			}
		})
	}
}

// checkPNG finds the masked file f under dir and decodes it as a PNG.
func checkPNG(t *testing.T, dir, masked string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*", "screenshot-*"))
	flat, _ := filepath.Glob(filepath.Join(dir, "screenshot-*"))
	for _, m := range append(matches, flat...) {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("%s is not a PNG: %v", m, err)
		}
		return
	}
	t.Errorf("no screenshot file for %s", masked)
}

// TestDebugOutputCommands pins commands-(FLOW).json of a failing flow:
// Maestro's CommandDebugWrapper list ({command, metadata}) with
// CommandDebugMetadata's status names (CommandStatus.kt), timestamp,
// duration and error, pretty-printed as Jackson's default printer does.
// Timestamps are masked in the snapshot and checked here: each step
// starts when the one before ended (device time) and the durations are
// the run's (the JSON report's steps).
func TestDebugOutputCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	report := filepath.Join(t.TempDir(), "r.json")
	r := runFlow(t, "", "test", "--device", "sim", "--debug-output", dir, "--flatten-debug-output",
		"testdata/debug/nested.yaml", "testdata/shards/fails.yaml", "--output", report)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "commands-(fails).json"))
	if err != nil {
		t.Fatalf("no commands file: %v\n%v", err, debugTree(t, dir))
	}
	var entries []struct {
		Command  map[string]json.RawMessage
		Metadata struct {
			Status    string
			Timestamp int64
			Duration  *int64
			Error     *struct{ Message string }
		}
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	var rep struct {
		Flows []struct {
			Name  string
			Steps []struct {
				Command    string
				Status     string
				DurationMs int64
			}
		}
	}
	repData, _ := os.ReadFile(report)
	if err := json.Unmarshal(repData, &rep); err != nil {
		t.Fatal(err)
	}
	steps := rep.Flows[1].Steps
	if len(entries) != len(steps) {
		t.Fatalf("%d commands for %d steps:\n%s", len(entries), len(steps), data)
	}
	for i, e := range entries {
		if e.Metadata.Duration == nil || *e.Metadata.Duration != steps[i].DurationMs {
			t.Errorf("command %d: duration %v, the run says %d", i, e.Metadata.Duration, steps[i].DurationMs)
		}
		if i > 0 && e.Metadata.Timestamp != entries[i-1].Metadata.Timestamp+*entries[i-1].Metadata.Duration {
			t.Errorf("command %d starts at %d, the one before ended at %d", i, e.Metadata.Timestamp,
				entries[i-1].Metadata.Timestamp+*entries[i-1].Metadata.Duration)
		}
	}
	if last := entries[len(entries)-1].Metadata; last.Status != "FAILED" || last.Error == nil || last.Error.Message == "" {
		t.Errorf("the failing command: %+v", last)
	}
	masked := regexp.MustCompile(`"timestamp" : \d+`).ReplaceAll(data, []byte(`"timestamp" : <epochMs>`))
	snaps.MatchSnapshot(t, string(masked))
	// Nested commands (runFlow, repeat) are listed after their parent,
	// every run of a loop's body, and an optional failure is WARNED.
	hooks, err := os.ReadFile(filepath.Join(dir, "commands-(nested).json"))
	if err != nil {
		names, _ := os.ReadDir(dir)
		t.Fatalf("no commands file for the nested flow: %v %v", err, names)
	}
	snaps.MatchSnapshot(t, string(regexp.MustCompile(`"timestamp" : \d+`).ReplaceAll(hooks, []byte(`"timestamp" : <epochMs>`))))
}

// TestDebugOutputLog: maestro.log holds a line per command start and end
// in Maestro's file pattern (LogConfig: HH:mm:ss.SSS [LEVEL] logger:
// message) with Maestro's words (RUNNING, COMPLETED, FAILED).
func TestDebugOutputLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := runFlow(t, "", "test", "--device", "sim", "--debug-output", dir, "--flatten-debug-output", "testdata/shards/fails.yaml")
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "maestro.log"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^\d{2}:\d{2}:\d{2}\.\d{3} \[ ?(INFO|ERROR)\] flow\.test: `)
	var msgs []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("not in Maestro's log pattern: %q", l)
			continue
		}
		msgs = append(msgs, line.ReplaceAllString(l, ""))
	}
	want := []string{`Launch app "com.example.shop" RUNNING`, `Launch app "com.example.shop" COMPLETED`,
		`Assert that "Nope" is visible RUNNING`, `Assert that "Nope" is visible FAILED`}
	var got []string
	for _, m := range msgs {
		if strings.HasSuffix(m, "RUNNING") || strings.HasSuffix(m, "COMPLETED") || strings.HasSuffix(m, "FAILED") {
			got = append(got, m)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("command lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNoDebugOutputWithoutTheFlag: flow writes no debug output unless
// asked (Maestro writes one under the home folder on every run);
// --flatten-debug-output alone warns and writes nothing.
func TestNoDebugOutputWithoutTheFlag(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home) // where Maestro would write
	r := runFlow(t, "", "test", "--device", "sim", "--flatten-debug-output", "testdata/shards/fails.yaml")
	if r.code != 1 || !strings.Contains(r.stdout, "warning: --flatten-debug-output does nothing without --debug-output") {
		t.Fatalf("want exit 1 and a warning:\n%s", r)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("wrote into the home folder: %v", entries)
	}
	if _, err := os.Stat("maestro.log"); err == nil {
		t.Errorf("wrote maestro.log into the working folder")
	}
}

// TestDebugFileFlowName: "/" in a flow name becomes "_" (Maestro's
// commands file name), and a long name is cut on a character boundary so
// every debug file name fits the usual 255-byte limit.
func TestDebugFileFlowName(t *testing.T) {
	t.Parallel()
	d := &debugOutput{}
	if got := d.fileFlowName(exec.FlowResult{Name: "login/happy path", File: "f.yaml"}); got != "login_happy path" {
		t.Errorf("got %q", got)
	}
	long := strings.Repeat("é", 150) // 300 bytes
	got := d.fileFlowName(exec.FlowResult{Name: long})
	if len(got) > maxDebugName || !utf8.ValidString(got) || !strings.HasPrefix(long, got) {
		t.Errorf("a long name became %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	longest := "screenshot-shard-999-❌-1234567890123-(" + got + ").png"
	if len(longest) > 255 {
		t.Errorf("the longest file name is %d bytes", len(longest))
	}
	single := &debugOutput{single: true}
	if got := single.fileFlowName(exec.FlowResult{Name: "Login", File: "flows/login.yaml"}); got != "login.yaml" {
		t.Errorf("single-flow mode: got %q, want the file name", got)
	}
}

// TestDebugOutputFolderChecks: --debug-output naming a file is refused
// before any flow runs; it may share its folder with --artifacts.
func TestDebugOutputFolderChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runFlow(t, "", "test", "--device", "sim", "testdata/shards/fails.yaml", "--debug-output", file)
	if r.code != 2 || !strings.Contains(r.stderr, "--debug-output "+file+" is a file, not a folder") || strings.Contains(r.stdout, "[1/") {
		t.Fatalf("want exit 2 before the run:\n%s", r)
	}
	shared := filepath.Join(dir, "shared")
	r = runFlow(t, "", "test", "--device", "sim", "testdata/shards/fails.yaml", "--debug-output", shared,
		"--flatten-debug-output", "--artifacts", shared)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if tree := debugTree(t, shared); len(tree) != 5 { // 2 artifacts, log, commands, screenshot
		t.Errorf("shared folder holds %v", tree)
	}
}
