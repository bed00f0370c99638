package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// unevenSuite writes six flows of uneven length on the demo shop: the
// odd ones swipe `swipes` times, the even ones only launch. --shard-split
// 2's round robin gives one device every long flow.
func unevenSuite(t testing.TB, swipes int) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i := 1; i <= 6; i++ {
		body := fmt.Sprintf("appId: com.example.shop\nname: flow %d\n---\n- launchApp\n- assertVisible: Shop\n", i)
		if i%2 == 1 {
			body += strings.Repeat("- swipe:\n    start: 50%, 60%\n    end: 50%, 40%\n    duration: 300\n", swipes)
		}
		file := filepath.Join(dir, fmt.Sprintf("f%d.yaml", i))
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	return files
}

// parallelReport reads a JSON report as "name status shard" lines.
func parallelReport(t *testing.T, file string) []string {
	t.Helper()
	var rep struct {
		Flows []struct {
			Name, Status string
			Shard        int
		}
	}
	data, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(data, &rep) != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	var out []string
	for _, f := range rep.Flows {
		out = append(out, fmt.Sprintf("%s %s %d", f.Name, f.Status, f.Shard))
	}
	return out
}

// TestParallelOnSim: --parallel 2 (and --device sim,sim --parallel) runs
// six flows on two sim devices from one queue: one report, every flow
// once, in input order, each on device 1 or 2. Sim's virtual clock runs
// a flow in no wall time, so which device takes how many is the
// scheduler's choice (TestParallelOnTwoFakePhones sees both used).
func TestParallelOnSim(t *testing.T) {
	t.Parallel()
	files := unevenSuite(t, 2)
	for name, args := range map[string][]string{
		"count":       {"--device", "sim", "--parallel", "2"},
		"device list": {"--device", "sim,sim:android", "--parallel"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			report := filepath.Join(t.TempDir(), "report.json")
			r := runFlow(t, "", append(append([]string{"test"}, files...), append(args, "--output", report)...)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r)
			}
			got := parallelReport(t, report)
			if len(got) != 6 {
				t.Fatalf("want six flows, got %q", got)
			}
			for i, line := range got {
				if !strings.HasPrefix(line, fmt.Sprintf("flow %d passed ", i+1)) {
					t.Errorf("flow %d: %q, want it passed in input order", i+1, line)
				}
				if shard := line[strings.LastIndex(line, " ")+1:]; shard != "1" && shard != "2" {
					t.Errorf("flow %d ran on device %s of 2", i+1, shard)
				}
			}
			if strings.Count(r.stdout, "] flow ") != 6 {
				t.Errorf("the progress shows each flow once:\n%s", r.stdout)
			}
		})
	}
}

// TestParallelRefusals: what --parallel cannot be combined with is exit 2
// with a hint.
func TestParallelRefusals(t *testing.T) {
	t.Parallel()
	files := unevenSuite(t, 0)
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"with shard-split":  {[]string{"--parallel", "2", "--shard-split", "2"}, "cannot be combined"},
		"bare without list": {[]string{"--parallel"}, "needs a number of devices"},
		"negative":          {[]string{"--parallel=-1"}, "positive"},
		"mixed kinds":       {[]string{"--device", "sim,android", "--parallel"}, "mixes sim and android"},
		"list too short":    {[]string{"--device", "sim,sim", "--parallel", "3"}, "--device lists 2 devices; --parallel 3 needs 3"},
		"with record":       {[]string{"--parallel", "2", "--record", "x.ad"}, "--record cannot be used"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runFlow(t, "", append(append([]string{"test"}, files...), tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "hint") {
				t.Fatalf("want exit 2 saying %q with a hint: %s", tc.want, r)
			}
		})
	}
}

// TestProgressRequeue: a flow given back to the queue is counted once:
// its second start shows the same number as its first, after a line that
// says why it starts again.
func TestProgressRequeue(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := newProgress(&b, false, 2)
	f := &canonical.Flow{Name: "Checkout", File: "checkout.yaml"}
	p.FlowStarted(f, 1)
	p.FlowRequeued(f, 1, canonical.NewError(canonical.CodeDeviceUnavailable, "Android device \"A\" is offline"))
	p.FlowStarted(f, 2)
	want := "[shard 1] [1/2] Checkout (checkout.yaml)\n" +
		"[shard 1] Checkout: Android device \"A\" is offline; the flow goes back to the queue for another device\n" +
		"[shard 2] [1/2] Checkout (checkout.yaml)\n"
	if b.String() != want {
		t.Fatalf("progress:\n%s\nwant:\n%s", b.String(), want)
	}
}
