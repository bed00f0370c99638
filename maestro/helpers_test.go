package maestro_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// mainFlow is where every test flow lives; files it names are resolved
// against its folder, flows/.
const mainFlow = "flows/main.yaml"

// header is the smallest valid flow header; a command written right after
// it starts on line 3.
const header = "appId: com.example.app\n---\n"

// source is an in-memory Source: fstest.MapFS has ReadFile, Stat and
// ReadDir with the semantics of a real file system.
func source(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	return fsys
}

// fixtureFiles are the files every test flow can reference, relative to
// flows/: subflows (one in a subfolder that runs its own sibling), scripts,
// media of every allowed type, a folder named like an image, a subflow
// with an error and one that runs the main flow back.
func fixtureFiles() map[string]string {
	return map[string]string{
		"flows/sub.yaml":               "appId: com.example.sub\n---\n- back\n",
		"flows/sub/inner.yaml":         "appId: com.example.inner\n---\n- runFlow: leaf.yaml\n",
		"flows/sub/leaf.yaml":          "appId: com.example.leaf\n---\n- launchApp\n",
		"flows/broken.yaml":            "appId: com.example.broken\n---\n- back\n- frobnicate\n",
		"flows/cycle-b.yaml":           "appId: com.example.b\n---\n- runFlow: main.yaml\n",
		"flows/setup.js":               "output.ready = true\n",
		"flows/scripts/seed.js":        "output.seeded = 3\n",
		"flows/notes.txt":              "output.notes = 1\n",
		"flows/media/cat.png":          "png",
		"flows/media/dog.jpg":          "jpg",
		"flows/media/photo.jpeg":       "jpeg",
		"flows/media/anim.gif":         "gif",
		"flows/media/clip.mp4":         "mp4",
		"flows/media/folder.png/x.txt": "not an image",
	}
}

// result is one load: the flow (nil when it has problems), and every
// problem and warning rendered one per line.
type result struct {
	flow     *canonical.Flow
	err      error
	loader   *maestro.Loader
	problems []*canonical.Error
	warnings []*canonical.Error
}

// loadFlow writes text to flows/main.yaml next to files and loads it the
// way the CLI does (Loader.Load).
func loadFlow(t testing.TB, text string, files map[string]string) result {
	t.Helper()
	all := fixtureFiles()
	all[mainFlow] = text
	for k, v := range files {
		all[k] = v
	}
	l := newLoader139(source(all))
	f, err := l.Load(mainFlow)
	r := result{flow: f, err: err, loader: l, problems: l.Problems(), warnings: l.Warnings()}
	if err != nil {
		var le *maestro.LoadError
		if !errors.As(err, &le) {
			t.Fatalf("Load returned %T, want *maestro.LoadError: %v", err, err)
		}
		if len(le.Problems) == 0 {
			t.Fatalf("Load returned a LoadError without problems")
		}
	}
	if err == nil && len(r.problems) > 0 {
		t.Fatalf("Load returned no error but recorded problems:\n%s", renderProblems(r.problems))
	}
	return r
}

// loadBody loads header + body: the commands of a flow with appId
// com.example.app.
func loadBody(t testing.TB, body string, files map[string]string) result {
	t.Helper()
	return loadFlow(t, header+body, files)
}

// renderProblem is "file:line:col: CODE: message | hint: ..." on one line
// (newlines in the hint shown as \n).
func renderProblem(e *canonical.Error) string {
	s := e.Error()
	if e.Hint != "" {
		s += " | hint: " + strings.ReplaceAll(e.Hint, "\n", `\n`)
	}
	return s
}

func renderProblems(es []*canonical.Error) string {
	var lines []string
	for _, e := range es {
		lines = append(lines, renderProblem(e))
	}
	return strings.Join(lines, "\n")
}

// withoutHint is the part of a rendered problem a table pins exactly.
func withoutHint(e *canonical.Error) string { return e.Error() }

// renderCommands writes each command as its canonical JSON (EncodeCommand,
// which shows "at" positions), one per line. Inline bodies (runFlow
// commands, repeat, retry) follow indented; a subflow file is shown by
// path and its commands, indented under "=> path".
func renderCommands(b *strings.Builder, cmds []canonical.Command, indent string) error {
	for _, c := range cmds {
		data, err := canonical.EncodeCommand(c)
		if err != nil {
			return fmt.Errorf("EncodeCommand(%T): %w", c, err)
		}
		b.WriteString(indent)
		b.Write(data)
		b.WriteString("\n")
		var body []canonical.Command
		var sub *canonical.Flow
		switch t := c.(type) {
		case *canonical.RunFlow:
			body, sub = t.Commands, t.Flow
		case *canonical.Repeat:
			body = t.Commands
		case *canonical.Retry:
			body, sub = t.Commands, t.Flow
		}
		if err := renderCommands(b, body, indent+"  "); err != nil {
			return err
		}
		if sub != nil {
			fmt.Fprintf(b, "%s  => %s\n", indent, sub.File)
			if err := renderCommands(b, sub.Commands, indent+"    "); err != nil {
				return err
			}
		}
	}
	return nil
}

func renderWarnings(b *strings.Builder, ws []*canonical.Error) {
	for _, w := range ws {
		b.WriteString("warning: " + renderProblem(w) + "\n")
	}
}

// commandsOf is what the valid tables snapshot: the commands, then any
// warnings. It fails the test when the flow did not load.
func (r result) commandsOf(t testing.TB) string {
	t.Helper()
	if r.err != nil || r.flow == nil {
		t.Fatalf("flow did not load:\n%s", renderProblems(r.problems))
	}
	var b strings.Builder
	if err := renderCommands(&b, r.flow.Commands, ""); err != nil {
		t.Fatal(err)
	}
	renderWarnings(&b, r.warnings)
	return b.String()
}

// onlyProblem is the one problem of a load that must fail; it fails the
// test when the flow loaded or several problems were found.
func (r result) onlyProblem(t testing.TB) *canonical.Error {
	t.Helper()
	if r.err == nil {
		var b strings.Builder
		if r.flow != nil {
			_ = renderCommands(&b, r.flow.Commands, "")
		}
		t.Fatalf("flow loaded, want a problem; commands:\n%s", b.String())
	}
	if len(r.problems) != 1 {
		t.Fatalf("want exactly one problem, got %d:\n%s", len(r.problems), renderProblems(r.problems))
	}
	return r.problems[0]
}

// warningLines renders the warnings without the "warning: " prefix.
func (r result) warningLines() []string {
	var out []string
	for _, w := range r.warnings {
		out = append(out, renderProblem(w))
	}
	return out
}

// errorCase is one row of an error table: a command list (after header)
// and the one problem it must produce, exactly, without its hint; hint, if
// set, must appear in the hint.
type errorCase struct {
	name  string
	in    string
	files map[string]string
	want  string
	hint  string
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] {
			t.Fatalf("duplicate case name %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := loadBody(t, tc.in, tc.files).onlyProblem(t)
			if got := withoutHint(e); got != tc.want {
				t.Errorf("problem\n got: %s\nwant: %s", got, tc.want)
			}
			if e.Code != canonical.CodeInvalidArgs {
				t.Errorf("code %s, want INVALID_ARGS", e.Code)
			}
			if e.Hint == "" {
				t.Errorf("problem has no hint: %s", renderProblem(e))
			}
			if tc.hint != "" && !strings.Contains(e.Hint, tc.hint) {
				t.Errorf("hint %q does not contain %q", e.Hint, tc.hint)
			}
		})
	}
}

// validCase is one row of a valid table: its canonical output is pinned
// by a snapshot named after the subtest.
type validCase struct {
	name  string
	in    string
	files map[string]string
}

// runValidCases snapshots each row into __snapshots__/<snapFile>.snap.
func runValidCases(t *testing.T, snapFile string, cases []validCase) {
	t.Helper()
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] {
			t.Fatalf("duplicate case name %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			snaps.WithConfig(snaps.Filename(snapFile)).MatchSnapshot(t, loadBody(t, tc.in, tc.files).commandsOf(t))
		})
	}
}

// newLoader139 is the loader the tests written for Maestro 1.39's
// semantics use (taps retried by default, 1.39's command set): the
// default is now the current Maestro, so they say which one they test.
func newLoader139(src maestro.Source) *maestro.Loader {
	return maestro.NewLoader(src).WithMaestroVersion(canonical.Maestro139)
}
