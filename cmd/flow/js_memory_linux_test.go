//go:build linux

package main

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/internal/peakrss"
)

// TestRegexpBombsKeepTheReport runs the two scripts through flow
// test, as its own process under a 3 GiB address-space limit (the issue saw
// 7.3 GB, and a kill under a 6 GB ulimit with no report): each flow fails
// with the budget error at the script's position, exit 1, the report is
// written, and the process peaks well under 1.5 GB.
func TestRegexpBombsKeepTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flow test in child processes")
	}
	if raceDetector {
		t.Skip("absolute memory bounds do not hold for a -race binary; the plain go test run checks them")
	}
	for name, expr := range map[string]string{
		"replace": "'a'.repeat(3e7).replace(/a/g,'bbbbbbbbbb')",
		"match":   "'a'.repeat(2e7).match(/a/g)",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			flow := filepath.Join(dir, "bomb.yaml")
			if err := os.WriteFile(flow, []byte("appId: com.example.demo\n---\n- evalScript: ${"+expr+"}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(dir, "report.json")
			cmd := osexec.Command("/bin/sh", "-c", `ulimit -v 3145728 && exec "$@"`, "sh",
				os.Args[0], "test", "--output", report, flow)
			cmd.Env = append(os.Environ(), asCLIEnv+"=1", "FLOW_STATE_DIR="+filepath.Join(dir, "state"))
			peak := peakrss.Wrap(cmd, dir)
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Fatalf("exit %d, want 1:\n%.3000s", code, out)
			}
			rss, err := peak.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("peak RSS %d MB", rss>>20)
			if rss >= 1<<30 {
				t.Errorf("peak RSS %d MB, want under 1 GB", rss>>20)
			}
			data, err := os.ReadFile(report)
			if err != nil {
				t.Fatalf("no report: %v\n%s", err, out)
			}
			var r struct {
				Flows []struct {
					Status string
					Error  struct {
						Code    string
						Message string
						Pos     struct{ Line, Col int }
						Details map[string]any
					}
				}
			}
			if err := json.Unmarshal(data, &r); err != nil || len(r.Flows) != 1 {
				t.Fatalf("report %v: %.2000s", err, data)
			}
			f := r.Flows[0]
			col := strings.Index(expr, "."+name+"(") + len(name) + 2
			if f.Status != "failed" || f.Error.Code != "COMMAND_FAILED" || f.Error.Pos.Line != 3 || f.Error.Pos.Col != 15 ||
				!strings.Contains(f.Error.Message, "exceeded its memory budget of 64 MiB: String.prototype."+name) ||
				f.Error.Details["col"] != float64(col) {
				t.Errorf("flow %s, error %+v; want failed with the budget error of String.prototype.%s at 3:15 (script column %d)", f.Status, f.Error, name, col)
			}
		})
	}
}
