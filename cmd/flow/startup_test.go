package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// initCost is what GODEBUG=inittrace=1 reports for one package's init.
type initCost struct {
	pkg    string
	bytes  int
	allocs int
}

// parseInitTrace reads the runtime's inittrace lines, one per package that
// has init work, in the form the runtime prints them (runtime/proc.go,
// doInit1): "init PKG @T ms, D ms clock, B bytes, A allocs".
func parseInitTrace(stderr []byte) ([]initCost, error) {
	var costs []initCost
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("unreadable inittrace line %q", sc.Text())
		}
		costs = append(costs, initCost{pkg: f[1], bytes: b, allocs: a})
	}
	return costs, sc.Err()
}

// TestStartupInitIsLight guards issue 23's start-up rule: flow's own packages
// do no work at initialization (patterns, templates and tables are built on
// first use), so `flow --version`, `flow --help` and a one-gesture `flow plan`
// do not pay for what they never use. It measures allocations, which a loaded
// machine does not change, not time. Before the patterns became lazy the
// flow packages allocated about 3,300 times (470 KB) at start; now about 100.
//
// The bound covers flow's packages only: third-party inits (the JSON Schema
// library compiling its meta-schemas is the largest) are listed in the log,
// and docs/performance.md says what remains.
func TestStartupInitIsLight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the flow binary")
	}
	if raceDetector {
		t.Skip("the race detector's instrumentation allocates in every init")
	}
	// The go tool that runs this test builds the binary; go test puts its
	// directory first on PATH.
	goTool, err := osexec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			t.Skipf("no go tool on PATH or in GOROOT to build the flow binary: %v", err)
		}
	}
	bin := filepath.Join(t.TempDir(), "flow")
	build := osexec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const (
		maxAllocs = 256
		maxBytes  = 32 << 10
	)
	for _, args := range [][]string{
		{"--version"},
		{"--help"},
		{"plan", "--", "gesture", "pinch", "0.5"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := osexec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("flow %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
			}
			costs, err := parseInitTrace(stderr.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if len(costs) == 0 {
				t.Fatalf("no inittrace lines in stderr (does this Go print GODEBUG=inittrace=1?):\n%.2000s", stderr.Bytes())
			}
			var ours, allocs, bytesTotal int
			var report strings.Builder
			for _, c := range costs {
				if c.pkg != "main" && c.pkg != "github.com/flow-runner/flow" && !strings.HasPrefix(c.pkg, "github.com/flow-runner/flow/") {
					continue
				}
				ours++
				allocs += c.allocs
				bytesTotal += c.bytes
				fmt.Fprintf(&report, "  %s: %d allocs, %d bytes\n", c.pkg, c.allocs, c.bytes)
			}
			if ours == 0 {
				t.Fatalf("no flow package in the inittrace; the filter is wrong:\n%.2000s", stderr.Bytes())
			}
			t.Logf("flow's packages at start: %d allocs, %d bytes\n%s", allocs, bytesTotal, report.String())
			if allocs > maxAllocs || bytesTotal > maxBytes {
				t.Errorf("flow's packages allocate %d times (%d bytes) before main runs; the bound is %d allocs and %d bytes: "+
					"build patterns, templates and tables on first use (sync.OnceValue), not in init or package-level initializers\n%s",
					allocs, bytesTotal, maxAllocs, maxBytes, report.String())
			}
		})
	}
}
