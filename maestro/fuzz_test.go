package maestro_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// fuzzFiles are the fixture files; cycle-b.yaml runs the fuzzed flow back.
func fuzzFiles() map[string]string { return fixtureFiles() }

// FuzzLoad: any bytes as a flow file load or are refused with problems;
// never a panic. Every problem and warning is INVALID_ARGS with a message,
// a hint, a file and a line (a column too, except for YAML syntax errors);
// every command of a loaded flow has a position and re-encodes.
func FuzzLoad(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files := fuzzFiles()
		files[mainFlow] = string(data)
		l := newLoader139(source(files))
		flow, err := l.Load(mainFlow)
		checkLoad(t, l, flow, err)

		// The in-memory entry point must agree on success.
		l2 := newLoader139(source(fuzzFiles()))
		flow2, err2 := l2.LoadBytes(mainFlow, data)
		checkLoad(t, l2, flow2, err2)
		if (err == nil) != (err2 == nil) && !strings.Contains(string(data), "main.yaml") && !strings.Contains(string(data), "cycle-b") {
			t.Fatalf("Load and LoadBytes disagree:\nLoad: %v\nLoadBytes: %v", err, err2)
		}
	})
}

func checkLoad(t *testing.T, l *maestro.Loader, flow *canonical.Flow, err error) {
	t.Helper()
	if (err == nil) != (len(l.Problems()) == 0) {
		t.Fatalf("error %v but %d problems", err, len(l.Problems()))
	}
	if err == nil && flow == nil {
		t.Fatal("no error and no flow")
	}
	for _, p := range l.Problems() {
		checkProblem(t, "problem", p)
	}
	for _, w := range l.Warnings() {
		checkProblem(t, "warning", w)
	}
	if err != nil {
		return
	}
	for _, fl := range l.Flows() {
		fl.AllCommands(func(c canonical.Command) {
			pos := c.Base().Pos
			if pos.File == "" || pos.Line <= 0 || pos.Col <= 0 {
				t.Fatalf("%s command %s has no position: %+v", fl.File, c.Kind(), pos)
			}
			if _, err := canonical.EncodeCommand(c); err != nil {
				t.Fatalf("%s: EncodeCommand(%s): %v", pos, c.Kind(), err)
			}
		})
	}
}

func checkProblem(t *testing.T, what string, e *canonical.Error) {
	t.Helper()
	if e.Code != canonical.CodeInvalidArgs || e.Message == "" || e.Hint == "" {
		t.Fatalf("%s is not INVALID_ARGS with a message and a hint: %s", what, renderProblem(e))
	}
	if e.Pos.File == "" {
		t.Fatalf("%s has no file: %s", what, renderProblem(e))
	}
	if e.Pos.Line <= 0 {
		t.Fatalf("%s has no line: %s", what, renderProblem(e))
	}
	if e.Pos.Col <= 0 && !strings.HasPrefix(e.Message, "invalid YAML: ") {
		t.Fatalf("%s has no column: %s", what, renderProblem(e))
	}
}

// fuzzSeeds are every input of the tables in this package and every flow
// under the repository's flows/ folder.
func fuzzSeeds(tb testing.TB) []string {
	var out []string
	for _, c := range allCases() {
		out = append(out, c)
	}
	root := filepath.Join("..", "flows")
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			out = append(out, string(data))
		}
		return nil
	})
	return out
}

// allCases are the flows of every table row, sorted by family so the seed
// corpus is stable.
func allCases() []string {
	fams := families()
	names := make([]string, 0, len(fams))
	for name := range fams {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		for _, c := range fams[name].valid {
			out = append(out, header+c.in)
		}
		for _, c := range fams[name].errors {
			out = append(out, header+c.in)
		}
	}
	for _, cases := range [][]fileCase{documentCases(), headerCases(), aliasCases(), maestroCorpusCases()} {
		for _, c := range cases {
			out = append(out, c.text)
		}
	}
	return out
}
