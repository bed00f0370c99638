//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fanOutFiles writes main.yaml and f02..f31.yaml into dir: each runs the
// next twice, so the whole would run 2^30 leaves.
func fanOutFiles(t *testing.T, dir string) {
	t.Helper()
	for k := 1; k <= 31; k++ {
		body := "- evalScript: ${1}\n"
		if k < 31 {
			body = fmt.Sprintf("- runFlow: f%02d.yaml\n- runFlow: f%02d.yaml\n", k+1, k+1)
		}
		name := fmt.Sprintf("f%02d.yaml", k)
		if k == 1 {
			name = "main.yaml"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("appId: com.example.shop\n---\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSubflowFanOutIsBoundedAndStops: files that each runFlow the next
// twice reached 10.9 GB in 60 s, and Ctrl-C ended nothing within 10 s
// (most of it writing a report of millions of steps). Run for seconds,
// flow stays small, the first SIGINT ends it at once with 130, and the
// report it writes lists a bounded number of steps.
func TestSubflowFanOutIsBoundedAndStops(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flow test for seconds in a child process")
	}
	t.Parallel()
	dir := t.TempDir()
	fanOutFiles(t, dir)
	p, peak := startFlowMeasured(t, dir, "test", "--output", "report.json", "main.yaml")
	sent := p.signal(t, 6*time.Second, syscall.SIGINT)
	p.wait(t, 5*time.Second)
	t.Logf("stopped %v after the signal", time.Since(sent).Round(time.Millisecond))
	if code := p.exitCode(); code != 130 {
		t.Fatalf("exit %d, want 130:\n%.3000s", code, p.stderr.String())
	}
	info, err := os.Stat(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	rss, err := peak.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report %d KB, peak RSS %d MB", info.Size()>>10, rss>>20)
	if info.Size() > 4<<20 {
		t.Errorf("the report is %d MB; a bounded result writes a few hundred KB", info.Size()>>20)
	}
	if !raceDetector && rss > 256<<20 {
		t.Errorf("peak RSS %d MB after 6 s, want a bounded run (under 256 MB)", rss>>20)
	}
}

// TestRunFlowChainTooDeepIsRefused: a chain of subflow files deeper than
// the nesting limit is refused at load time, exit 2, at the runFlow where
// it crosses the limit.
func TestRunFlowChainTooDeepIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < 300; i++ {
		body := "- back\n"
		if i < 299 {
			body = fmt.Sprintf("- runFlow: c%03d.yaml\n", i+1)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%03d.yaml", i)), []byte("appId: com.example.shop\n---\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runFlow(t, "", "test", "--output", filepath.Join(dir, "r.json"), filepath.Join(dir, "c000.yaml"))
	want := filepath.Join(dir, "c042.yaml") + ":3:3: INVALID_ARGS: runFlow nests the flow 257 blocks deep through c043.yaml; the limit is 256"
	if r.code != 2 || !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("want exit 2 with %q:\n%.3000s", want, r)
	}
}
