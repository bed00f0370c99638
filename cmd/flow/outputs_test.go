package main

import (
	"encoding/json"
	"encoding/xml"
	"html/template"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// outputFixture is a small workspace: a flow with a subflow, a script and
// a media file, and an .ad script.
func outputFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"main.yaml": "appId: com.example.shop\n---\n- launchApp\n- runFlow: sub.yaml\n- runScript: setup.js\n- addMedia:\n    - cat.png\n",
		"sub.yaml":  "appId: com.example.shop\n---\n- tapOn: Log in\n",
		"setup.js":  "output.ok = true\n",
		"cat.png":   "\x89PNG\r\n\x1a\n",
		"run.ad":    "open \"com.example.shop\" --relaunch\n",
		"plain":     "a file\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOutputsNeverClobberInputs: an output flag that names a file the run
// reads, a folder where a file goes, a file where a folder goes, or the
// same file as another output is refused with exit 2, the flag, the path
// and a hint, before any flow starts; every input is left as it was.
func TestOutputsNeverClobberInputs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args func(dir string) []string
		want []string // in stderr
	}{
		{"report over the flow", func(d string) []string { return []string{"--output", j(d, "main.yaml"), "--format", "junit"} },
			[]string{"--output " + j(d0, "main.yaml") + " would overwrite a flow this run reads", "hint: write the report to a file of its own"}},
		{"report over a subflow", func(d string) []string { return []string{"--output", j(d, "sub.yaml"), "--format", "json"} },
			[]string{"would overwrite a subflow this run reads"}},
		{"report over a script", func(d string) []string { return []string{"--output", j(d, "setup.js"), "--format", "html"} },
			[]string{"would overwrite a script this run reads"}},
		{"events over a media file", func(d string) []string { return []string{"--events", j(d, "cat.png")} },
			[]string{"--events", "would overwrite a media file this run reads", "hint: write the event log to a file of its own"}},
		{"events over the flow, spelt differently", func(d string) []string {
			return []string{"--events", strings.Join([]string{d, "folder", "..", "main.yaml"}, string(filepath.Separator))}
		}, []string{"main.yaml would overwrite a flow this run reads\n"}},
		{"recording over the flow", func(d string) []string { return []string{"--record", j(d, "main.yaml")} },
			[]string{"--record", "would overwrite a flow", "hint: record to a new .ad file"}},
		// The folder, not run.ad alone: with only files given, Maestro's
		// workspace rule would refuse main.yaml's addMedia first.
		{"recording into the script it runs", func(d string) []string { return []string{d, "--record", j(d, "run.ad")} },
			[]string{"--record " + j(d0, "run.ad") + " would overwrite a flow this run reads"}},
		{"artifacts on a flow", func(d string) []string { return []string{"--artifacts", j(d, "main.yaml")} },
			[]string{"--artifacts " + j(d0, "main.yaml") + " is a file, not a folder", "hint: name a folder of its own"}},
		{"artifacts under a file", func(d string) []string { return []string{"--artifacts", j(d, "plain", "out")} },
			[]string{"--artifacts " + j(d0, "plain", "out") + " cannot be created: " + j(d0, "plain") + " is a file, not a folder"}},
		{"report is a folder", func(d string) []string { return []string{"--output", j(d, "folder"), "--format", "json"} },
			[]string{"--output " + j(d0, "folder") + " is a folder, not a file"}},
		{"report under a file", func(d string) []string { return []string{"--output", j(d, "plain", "r.json")} },
			[]string{"cannot be created: " + j(d0, "plain") + " is a file, not a folder"}},
		{"report and events share a file", func(d string) []string {
			return []string{"--output", j(d, "r.json"), "--events", strings.Join([]string{d, "folder", "..", "r.json"}, string(filepath.Separator))}
		}, []string{"--output and --events both name", "hint: give each output its own file"}},
		{"events and recording share a file", func(d string) []string { return []string{"--events", j(d, "x.ad"), "--record", j(d, "x.ad")} },
			[]string{"--events and --record both name"}},
		{"artifacts folder is the report", func(d string) []string { return []string{"--output", j(d, "out.xml"), "--artifacts", j(d, "out.xml")} },
			[]string{"--output and --artifacts both name"}},
		{"report inside the event log", func(d string) []string { return []string{"--events", j(d, "ev"), "--output", j(d, "ev", "r.json")} },
			[]string{"--events " + j(d0, "ev") + " would be a file, but --output " + j(d0, "ev", "r.json") + " is inside it"}},
		{"artifacts inside the report", func(d string) []string {
			return []string{"--output", j(d, "r.xml"), "--artifacts", j(d, "r.xml", "art")}
		},
			[]string{"--artifacts " + j(d0, "r.xml", "art") + " is inside " + j(d0, "r.xml") + ", which --output writes as a file"}},
		{"report format unknown", func(d string) []string { return []string{"--output", j(d, "r.txt")} },
			[]string{"--output " + j(d0, "r.txt") + ": cannot tell the report format from the file name", "hint: add --format junit"}},
	}
	if runtime.GOOS != "windows" {
		cases = append(cases, struct {
			name string
			args func(dir string) []string
			want []string
		}{"report through a symlink to the flow", func(d string) []string {
			link := j(d, "link.xml")
			if err := os.Symlink(j(d, "main.yaml"), link); err != nil {
				t.Fatal(err)
			}
			return []string{"--output", link}
		}, []string{"--output " + j(d0, "link.xml") + " would overwrite a flow this run reads (" + j(d0, "main.yaml") + ")"}},
			struct {
				name string
				args func(dir string) []string
				want []string
			}{"report on a hard link to the flow", func(d string) []string {
				link := j(d, "hard.json")
				if err := os.Link(j(d, "main.yaml"), link); err != nil {
					t.Fatal(err)
				}
				return []string{"--output", link}
			}, []string{"would overwrite a flow this run reads"}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := outputFixture(t)
			args := append([]string{"test", j(dir, "main.yaml")}, c.args(dir)...)
			before := snapshotDir(t, dir)
			r := runFlow(t, "", args...)
			if r.code != 2 {
				t.Fatalf("want exit 2:\n%s", r)
			}
			for _, w := range c.want {
				if w = strings.ReplaceAll(w, d0, dir); !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r)
				}
			}
			if strings.Contains(r.stdout, "[1/") {
				t.Errorf("a flow started before the outputs were checked:\n%s", r)
			}
			if after := snapshotDir(t, dir); after != before {
				t.Errorf("the refused run changed the workspace:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// d0 stands for the fixture folder in expected messages.
const d0 = "\x00DIR\x00"

func j(parts ...string) string { return filepath.Join(parts...) }

// snapshotDir lists every file under dir with its content.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		b.WriteString(rel + " " + info.Mode().String())
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOutputFormatFromExtension: --output alone picks the report format
// from the file name, in any case.
func TestOutputFormatFromExtension(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flow := "../../flows/demo/01-launch.yaml"
	for _, name := range []string{"r.xml", "r.JSON", "r.html", "r.htm"} {
		out := filepath.Join(dir, name)
		r := runFlow(t, "", "test", flow, "--output", out)
		if r.code != 0 || !strings.Contains(r.stdout, "report: "+out) {
			t.Fatalf("%s: want a pass that names the report:\n%s", name, r)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("%s: no report written: %v", name, err)
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".xml":
			var suites struct {
				XMLName xml.Name `xml:"testsuites"`
			}
			if err := xml.Unmarshal(data, &suites); err != nil {
				t.Errorf("%s is not JUnit XML: %v", name, err)
			}
		case ".json":
			var rep struct{ Summary *struct{ Passed int } }
			if err := json.Unmarshal(data, &rep); err != nil || rep.Summary == nil || rep.Summary.Passed != 1 {
				t.Errorf("%s is not the JSON report: %v\n%s", name, err, data)
			}
		default:
			if !strings.HasPrefix(string(data), "<!DOCTYPE html>") {
				t.Errorf("%s is not the HTML report:\n%.200s", name, data)
			}
		}
	}
}

// TestOutputsToDevNull: a run whose report and event log go to
// /dev/null (the way to discard them) passes, and /dev/null is still the
// device afterwards.
func TestOutputsToDevNull(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	t.Parallel()
	r := runFlow(t, "", "test", "../../flows/demo/01-launch.yaml", "--format", "json", "--output", os.DevNull, "--events", os.DevNull)
	if r.code != 0 || !strings.Contains(r.stdout, "report: "+os.DevNull) {
		t.Fatalf("want a pass that names the report:\n%s", r)
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, info.Mode(), err)
	}
}

// TestArtifactNamesUniquePerFlow: flows with the same file name in
// different folders, the same name:, names that sanitise alike and a
// 5,000-character name each get their own, writable artifacts, and the
// report points every flow at its own (the hierarchy of the flow that
// failed on the login screen holds the email field; the others do not).
func TestArtifactNamesUniquePerFlow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := "- launchApp\n- assertVisible: Nowhere\n"
	login := "- launchApp\n- tapOn: Log in\n- assertVisible: Nowhere\n"
	flows := []struct{ file, name, body string }{
		{"a/login.yaml", "Login", home},
		{"b/login.yaml", "Login", login},
		{"c.yaml", "Log in?", home},
		{"d.yaml", "Log in*", login},
		{"e.yaml", strings.Repeat("long name ", 500), login},
	}
	var args []string
	for _, f := range flows {
		p := filepath.Join(dir, filepath.FromSlash(f.file))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("appId: com.example.shop\nname: \""+f.name+"\"\n---\n"+f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	art, out := filepath.Join(dir, "artifacts"), filepath.Join(dir, "report.json")
	r := runFlow(t, "", append([]string{"test", "--artifacts", art, "--output", out}, args...)...)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	var rep struct {
		Flows []struct {
			File      string
			Artifacts []string
		}
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Flows) != len(flows) {
		t.Fatalf("report: %v\n%s", err, data)
	}
	seen := map[string]string{}
	for i, f := range rep.Flows {
		if len(f.Artifacts) != 2 {
			t.Fatalf("%s: want a screenshot and a hierarchy, got %v", f.File, f.Artifacts)
		}
		for _, a := range f.Artifacts {
			if prev, dup := seen[a]; dup {
				t.Errorf("%s and %s share the artifact %s", prev, f.File, a)
			}
			seen[a] = f.File
			if len(a) > 120 {
				t.Errorf("artifact name of %d bytes: %s", len(a), a)
			}
			if _, err := os.Stat(filepath.Join(art, a)); err != nil {
				t.Errorf("%s: listed artifact not written: %v", f.File, err)
			}
		}
		h, err := os.ReadFile(filepath.Join(art, f.Artifacts[1]))
		if err != nil {
			t.Fatal(err)
		}
		onLogin := strings.Contains(string(h), `"email"`)
		if want := flows[i].body == login; onLogin != want {
			t.Errorf("%s points at the wrong hierarchy (login screen %v, want %v): %s", f.File, onLogin, want, f.Artifacts[1])
		}
	}
	if entries, _ := os.ReadDir(art); len(entries) != 2*len(flows) {
		t.Errorf("want %d artifact files, got %d", 2*len(flows), len(entries))
	}
}

// TestArtifactsPerShard: with --shard-all the same flow fails on every
// device; each device's artifacts are kept.
func TestArtifactsPerShard(t *testing.T) {
	t.Parallel()
	art := filepath.Join(t.TempDir(), "artifacts")
	r := runFlow(t, "", "test", "testdata/run/wrong-selector.yaml", "--shard-all", "2", "--artifacts", art)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if entries, _ := os.ReadDir(art); len(entries) != 4 {
		t.Fatalf("want a screenshot and a hierarchy per shard, got %d files", len(entries))
	}
}

// TestHTMLReportNamesStepsAsConsole: every step the console prints appears
// in the HTML report under the same description (Tap on "Log in", not
// tapOn), in the same order.
func TestHTMLReportNamesStepsAsConsole(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report.html")
	r := runFlow(t, "", "test", "../../flows/demo/02-login.yaml", "--output", out)
	if r.code != 0 {
		t.Fatalf("want a pass:\n%s", r)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if rest, ok := strings.CutPrefix(l, "  ✓ "); ok {
			steps = append(steps, rest[:strings.LastIndex(rest, " ")])
		}
	}
	if len(steps) < 10 || !slices.Contains(steps, `Tap on "Log in"`) {
		t.Fatalf("console steps %q", steps)
	}
	rest := string(page)
	for _, s := range steps {
		cell := `<span class="text">` + template.HTMLEscapeString(s) + `</span>`
		i := strings.Index(rest, cell)
		if i < 0 {
			t.Fatalf("the report lacks the console's step %q (in order)", s)
		}
		rest = rest[i+len(cell):]
	}
}
