package archtest_test

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/internal/archtest"
)

const module = "github.com/flow-runner/flow"

// TestImportGraph fails on any import edge the design card forbids.
func TestImportGraph(t *testing.T) {
	t.Parallel()
	problems, err := archtest.Check(os.DirFS("../.."), module, archtest.Rules())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestCheckerCatchesForbiddenEdges proves the checker can fail: a tree with
// every kind of wrong edge yields every violation.
func TestCheckerCatchesForbiddenEdges(t *testing.T) {
	t.Parallel()
	file := func(imports ...string) *fstest.MapFile {
		var b strings.Builder
		b.WriteString("package x\nimport (\n")
		for _, i := range imports {
			b.WriteString("\t_ \"" + i + "\"\n")
		}
		b.WriteString(")\n")
		return &fstest.MapFile{Data: []byte(b.String())}
	}
	tree := fstest.MapFS{
		"canonical/a.go":    file("fmt", module+"/planner"),
		"planner/p.go":      file(module+"/canonical", module+"/exec"),
		"exec/run.go":       file(module+"/maestro", module+"/planner"),
		"exec/sim/s.go":     file(module + "/exec/android"),
		"exec/android/a.go": file("github.com/danielpaulus/go-ios/ios"),
		"maestro/m.go":      file(module+"/compat", "gopkg.in/yaml.v3"),
		"ad/s.go":           file(module + "/compat"),
		"compat/q.go":       file(module + "/ad"),
		"exec/ad.go":        file(module + "/ad"),
		"convert/c.go":      file(module+"/ad", module+"/compat"),
		"planner/p_test.go": file("github.com/gkampitakis/go-snaps/snaps", module+"/internal/browsertest"),
		"planner/q.go":      file(module + "/internal/browsertest"),
		"newpkg/n.go":       file("fmt"),
		"exec/api.go":       file(module),
		"api.go":            file(module + "/exec"),
		"api_test.go":       file(module),
	}
	problems, err := archtest.Check(tree, module, archtest.Rules())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ad must not import compat (ad/s.go)",
		"canonical must not import planner (canonical/a.go)",
		"compat must not import ad (compat/q.go)",
		"exec must not import . (exec/api.go)",
		"exec must not import ad (exec/ad.go)",
		"exec must not import maestro (exec/run.go)",
		"exec/android must not use github.com/danielpaulus/go-ios/ios (exec/android/a.go)",
		"exec/sim must not import exec/android (exec/sim/s.go)",
		"newpkg has no place in the import graph (newpkg/n.go): add it to archtest.Rules",
		"planner must not import exec (planner/p.go)",
		"planner must not import internal/browsertest (planner/q.go)",
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}
