package main

import (
	"bufio"
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// readTSV reads a tab-separated table, skipping # comments and the header.
func readTSV(t *testing.T, file string) [][]string {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var rows [][]string
	sc := bufio.NewScanner(fh)
	header := true
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if header {
			header = false
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// TestMaestroCorpus runs flow check on every flow file of Maestro 1.39.10's
// own test suites and workspace planning on its planner cases, and requires
// Maestro's verdict. It needs a checkout of Maestro v1.39.10: set
// FLOW_MAESTRO_CORPUS to its folder (tools/maestro-compat/README.md).
func TestMaestroCorpus(t *testing.T) {
	root := os.Getenv("FLOW_MAESTRO_CORPUS")
	if root == "" {
		t.Skip("FLOW_MAESTRO_CORPUS is not set: point it at a Maestro v1.39.10 checkout to run the compatibility corpus")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(wd, "..", "..") // tests run in cmd/flow
	t.Chdir(root)
	counts := map[string]int{}
	for _, row := range readTSV(t, filepath.Join(repo, "tools/maestro-compat/files.tsv")) {
		file, kind, want := row[0], row[1], row[2]
		res, _ := flowapi.Check(context.Background(), []string{file}, flowapi.CheckOptions{})
		got := "accept"
		if len(res.Problems) > 0 {
			got = "reject"
			for _, p := range res.Problems {
				if p.Pos.Line == 0 && !strings.Contains(p.Message, "does not exist") {
					t.Errorf("%s: problem without a line: %v", file, p)
				}
			}
		}
		counts[kind+" "+want+" -> "+got]++
		if got != want {
			t.Errorf("%s: Maestro would %s it, flow check would %s it: %v", file, want, got, res.Problems)
		}
	}
	for _, row := range readTSV(t, filepath.Join(repo, "tools/maestro-compat/workspaces.tsv")) {
		name, inputs, want := row[0], splitList(row[1]), row[5]
		plan, err := maestro.NewLoader(flowapi.OSSource{}).WithMaestroVersion(canonical.Maestro139).Plan(inputs, maestro.PlanOptions{
			IncludeTags: splitList(row[2]), ExcludeTags: splitList(row[3]), ConfigFile: row[4]})
		got := "error"
		if err == nil {
			var names []string
			for _, f := range plan.Sequence {
				names = append(names, "seq:"+path.Base(f.File))
			}
			for _, f := range plan.Flows {
				names = append(names, path.Base(f.File))
			}
			got = strings.Join(names, " ")
		}
		counts["workspace "+map[bool]string{true: "agrees", false: "differs"}[got == want]]++
		if got != want {
			t.Errorf("workspace case %s: want %q, got %q (%v)", name, want, got, err)
		}
	}
	for k, v := range counts {
		t.Logf("%4d %s", v, k)
	}
}
