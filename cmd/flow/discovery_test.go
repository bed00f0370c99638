package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// checkJSON runs flow check --json and decodes its answer.
func checkJSON(t *testing.T, args ...string) (result, struct {
	Flows    []string
	Problems []struct {
		Message string
		Hint    string
		Pos     struct {
			File      string
			Line, Col int
		}
	}
	Warnings []struct {
		Message string
		Pos     struct {
			File      string
			Line, Col int
		}
	}
}) {
	t.Helper()
	r := runFlow(t, "", append([]string{"check", "--json"}, args...)...)
	var out struct {
		Flows    []string
		Problems []struct {
			Message string
			Hint    string
			Pos     struct {
				File      string
				Line, Col int
			}
		}
		Warnings []struct {
			Message string
			Pos     struct {
				File      string
				Line, Col int
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("flow check --json: %v\n%s", err, r)
	}
	return r, out
}

// testedFiles runs flow test on sim with a JSON report and returns the
// report's flow files, sorted.
func testedFiles(t *testing.T, args ...string) (result, []string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	r := runFlow(t, "", append(append([]string{"test", "--device", "sim"}, args...), "--format", "json", "--output", out)...)
	data, err := os.ReadFile(out)
	if err != nil {
		return r, nil
	}
	var rep struct{ Flows []struct{ File string } }
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	var files []string
	for _, f := range rep.Flows {
		files = append(files, filepath.ToSlash(f.File))
	}
	sort.Strings(files)
	return r, files
}

// TestCheckAndTestDiscoverTheSameFlows runs flow check and flow test on one
// workspace: both select exactly the flows its globs select (a YAML file in
// a sub-folder the globs leave out is not a flow, a sim app model is not
// one either), so a broken draft outside the globs fails neither.
func TestCheckAndTestDiscoverTheSameFlows(t *testing.T) {
	t.Parallel()
	ws := "testdata/discovery"
	want := []string{ws + "/launch.yaml", ws + "/open.ad", ws + "/smoke/again.yaml"}
	r, checked := checkJSON(t, ws)
	if r.code != 0 || len(checked.Problems) > 0 {
		t.Fatalf("flow check: %s", r)
	}
	sort.Strings(checked.Flows)
	if !reflect.DeepEqual(checked.Flows, want) {
		t.Fatalf("flow check selected %q, want %q", checked.Flows, want)
	}
	r, tested := testedFiles(t, ws)
	if r.code != 0 {
		t.Fatalf("flow test: %s", r)
	}
	if !reflect.DeepEqual(tested, checked.Flows) {
		t.Fatalf("flow test ran %q, flow check checked %q", tested, checked.Flows)
	}
	// The draft is a flow when named: both then report its problem.
	draft := ws + "/drafts/unfinished.yaml"
	if r, out := checkJSON(t, draft); r.code != 2 || len(out.Problems) != 1 || out.Problems[0].Pos.Line != 4 {
		t.Fatalf("flow check on the draft: %s", r)
	}
	if r := runFlow(t, "", "test", "--device", "sim", draft); r.code != 2 || !strings.Contains(r.stdout, "unfinished.yaml:4:3") {
		t.Fatalf("flow test on the draft: %s", r)
	}
}

// TestCheckAndTestRefuseMediaOutsideTheWorkspace: Maestro refuses a
// workspace whose flow adds media from outside it, also when only files
// are given (its workspace is then those files), and lets a single file
// given alone add any media. flow check and flow test agree on each.
func TestCheckAndTestRefuseMediaOutsideTheWorkspace(t *testing.T) {
	t.Parallel()
	flow := "testdata/media/ws/upload.yaml"
	other := "testdata/discovery/launch.yaml"
	cases := []struct {
		name   string
		inputs []string
		refuse bool
		hint   string
	}{
		{"folder", []string{"testdata/media/ws"}, true, "move the file into the workspace folder"},
		{"files only", []string{flow, other}, true, "give the folder that holds the flows and their media"},
		{"the folder that holds the media too", []string{"testdata/media/ws", "testdata/media/assets"}, false, ""},
		{"single file", []string{flow}, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, out := checkJSON(t, tc.inputs...)
			tr := runFlow(t, "", append([]string{"test", "--device", "sim"}, tc.inputs...)...)
			if !tc.refuse {
				if r.code != 0 || tr.code != 0 {
					t.Fatalf("want both to accept:\n%s\n%s", r, tr)
				}
				return
			}
			if r.code != 2 || len(out.Problems) != 1 {
				t.Fatalf("flow check: %s", r)
			}
			p := out.Problems[0]
			if p.Pos.File != flow || p.Pos.Line != 4 || !strings.Contains(p.Message, `addMedia file "cat.png" is not inside the workspace`) ||
				!strings.Contains(p.Hint, tc.hint) {
				t.Fatalf("flow check problem: %+v", p)
			}
			if tr.code != 2 || !strings.Contains(tr.stdout+tr.stderr, flow+":4:3") || !strings.Contains(tr.stdout+tr.stderr, tc.hint) {
				t.Fatalf("flow test: %s", tr)
			}
		})
	}
}

// TestWarningsInCheckAndTest: what Maestro accepts but a reader should
// know is a warning with file:line:col in flow check and in flow test, and
// the flow runs.
func TestWarningsInCheckAndTest(t *testing.T) {
	t.Parallel()
	flow := "testdata/warnings/lenient.yaml"
	want := []string{
		flow + `:6:31: INVALID_ARGS: duplicate key "text" (first given at line 6): Maestro uses this last value`,
		flow + ":7:26: INVALID_ARGS: swipe ignores speed (Maestro does too)",
	}
	check := runFlow(t, "", "check", flow)
	test := runFlow(t, "", "test", "--device", "sim", flow)
	for _, r := range []result{check, test} {
		if r.code != 0 {
			t.Fatalf("want exit 0:\n%s", r)
		}
		for _, w := range want {
			if !strings.Contains(r.stdout, "warning: "+w) {
				t.Errorf("output lacks %q:\n%s", w, r)
			}
		}
	}
}

// TestHugeIndexIsMaestros: index: 1e20 is read as Maestro reads it, the
// Int maximum, which flow check warns about and the failure names; it is
// never printed as a wrapped integer.
func TestHugeIndexIsMaestros(t *testing.T) {
	t.Parallel()
	flow := "testdata/numbers/huge-index.yaml"
	check := runFlow(t, "", "check", flow)
	if check.code != 0 || !strings.Contains(check.stdout, flow+":7:12: INVALID_ARGS: index 1e20 is read as 2147483647, which matches no element") {
		t.Fatalf("flow check: %s", check)
	}
	test := runFlow(t, "", "test", "--device", "sim", flow)
	if test.code != 1 || !strings.Contains(test.stdout, `Assertion is false: "Shop", Index: 2147483647 is visible`) ||
		strings.Contains(test.stdout+test.stderr, "-9223372036854775808") {
		t.Fatalf("flow test: %s", test)
	}
}
