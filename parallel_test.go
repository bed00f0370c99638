package flow

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// losingDevice is a sim device that is lost at its launch number lostAt
// (from 1; 0 never): that launch and every call after it fail with
// DEVICE_UNAVAILABLE, as a phone pulled off USB answers.
type losingDevice struct {
	exec.Device
	mu       sync.Mutex
	launches int
	lostAt   int
	// They order two devices' flows, which goroutines alone would not.
	// Device 2 closes entered as it starts its first launch (it holds a
	// flow then) and holds that launch until gate closes (device 1 gave
	// its flow back); device 1 waits for entered at its launch number
	// gateAt.
	gate, entered chan struct{}
	gateAt        int
}

func (d *losingDevice) lost() error {
	if d.lostAt > 0 && d.launches >= d.lostAt {
		return canonical.NewError(canonical.CodeDeviceUnavailable, "device gone")
	}
	return nil
}

func (d *losingDevice) LaunchApp(ctx context.Context, o exec.LaunchOptions) error {
	d.mu.Lock()
	if d.launches == 0 && d.gate != nil {
		close(d.entered)
		<-d.gate
	}
	if d.gate == nil && d.launches+1 == d.gateAt {
		<-d.entered
	}
	d.launches++
	err := d.lost()
	d.mu.Unlock()
	if err != nil {
		return err
	}
	return d.Device.LaunchApp(ctx, o)
}

func (d *losingDevice) Hierarchy(ctx context.Context) (*exec.Node, error) {
	d.mu.Lock()
	err := d.lost()
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return d.Device.Hierarchy(ctx)
}

// countingObserver counts each flow's reported ends and its requeues;
// firstRequeue closes at the first.
type countingObserver struct {
	exec.NopObserver
	mu           sync.Mutex
	finished     map[string]int
	requeued     []string
	firstRequeue chan struct{}
}

func newCountingObserver() *countingObserver {
	return &countingObserver{finished: map[string]int{}, firstRequeue: make(chan struct{})}
}

func (o *countingObserver) FlowFinished(r exec.FlowResult) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finished[r.Name]++
}

func (o *countingObserver) FlowRequeued(f *canonical.Flow, shard int, _ *canonical.Error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requeued = append(o.requeued, fmt.Sprintf("%s from %d", f.Name, shard))
	if len(o.requeued) == 1 {
		close(o.firstRequeue)
	}
}

// queueRuns opens two sim devices, lost at launch lostAt[0] and
// lostAt[1]; device 1's launch number gateAt waits until device 2 holds
// a flow, and device 2 launches nothing before a flow was given back.
func queueRuns(lostAt [2]int, gateAt int, obs *countingObserver) []*shardRun {
	var runs []*shardRun
	entered := make(chan struct{})
	for i, at := range lostAt {
		clock := ClockFor("sim")
		dev := &losingDevice{Device: sim.New(sim.Options{Clock: clock}), lostAt: at}
		if i == 0 {
			dev.gateAt, dev.entered = gateAt, entered
		} else {
			dev.gate, dev.entered = obs.firstRequeue, entered
		}
		runs = append(runs, &shardRun{dev: dev, cfg: exec.Config{Device: dev, Clock: clock, Events: exec.NopLog{},
			Observer: obs, NewScripts: ScriptsFor(false), Files: DirFiles{Dir: "."}, Shard: i + 1}})
	}
	return runs
}

func demoFlows(t *testing.T) []*canonical.Flow {
	t.Helper()
	var paths []string
	for _, f := range []string{"01-launch", "02-login", "03-browse", "04-product"} {
		paths = append(paths, "flows/demo/"+f+".yaml")
	}
	loaded, err := Load(context.Background(), paths, LoadOptions{Device: "sim"})
	if err != nil || len(loaded.Plan.Flows) != 4 || len(loaded.Plan.Sequence) != 0 {
		t.Fatalf("loading the demo flows: %v %+v", err, loaded.Plan)
	}
	return loaded.Plan.Flows
}

func report(rs []exec.FlowResult) string {
	var b strings.Builder
	for _, r := range rs {
		code := ""
		if r.Error != nil {
			code = " " + string(r.Error.Code)
		}
		fmt.Fprintf(&b, "%s %s%s\n", r.Name, r.Status, code)
	}
	return b.String()
}

// TestQueueGivesALostDevicesFlowBackOnce: two devices take flows from one
// queue; the first is lost as it launches its second flow. That flow goes
// back to the queue once and passes on the other device, which then runs
// everything left: every flow is reported once, passed, in input order,
// and the observer hears one requeue, never the lost attempt's end.
func TestQueueGivesALostDevicesFlowBackOnce(t *testing.T) {
	t.Parallel()
	flows := demoFlows(t)
	obs := newCountingObserver()
	// Device 1 runs flow 1 and is lost launching flow 3; device 2 holds
	// flow 2 until then.
	res, _ := runQueue(context.Background(), queueRuns([2]int{2, 0}, 2, obs), flows, obs, nil)
	want := "Launch the shop passed\nLog in passed\nBrowse the catalog passed\nProduct page passed\n"
	if got := report(res); got != want {
		t.Fatalf("report:\n%s\nwant:\n%s", got, want)
	}
	if len(obs.requeued) != 1 || !strings.HasSuffix(obs.requeued[0], "from 1") {
		t.Errorf("want one flow given back by device 1, got %q", obs.requeued)
	}
	for _, f := range flows {
		if obs.finished[f.Name] != 1 {
			t.Errorf("flow %q was reported %d times", f.Name, obs.finished[f.Name])
		}
	}
	var onTwo int
	for _, r := range res {
		if r.Shard == 2 {
			onTwo++
		}
	}
	if onTwo != 3 {
		t.Errorf("device 2 should have run the three flows device 1 did not: %d", onTwo)
	}
}

// TestQueueEveryDeviceLost: a flow whose second device is lost too is
// reported failed, once; flows no device is left for are skipped with
// DEVICE_UNAVAILABLE, never lost from the report.
func TestQueueEveryDeviceLost(t *testing.T) {
	t.Parallel()
	flows := demoFlows(t)
	obs := newCountingObserver()
	// The devices take the first two flows (which takes which is the
	// scheduler's choice). Device 1 is lost at its first launch and gives
	// its flow back; device 2 (held until then) passes its own, takes the
	// given-back flow and is lost launching it.
	res, _ := runQueue(context.Background(), queueRuns([2]int{1, 2}, 1, obs), flows, obs, nil)
	got := report(res)
	first := "Launch the shop passed\nLog in failed DEVICE_UNAVAILABLE\n"
	if !strings.HasPrefix(got, first) {
		first = "Launch the shop failed DEVICE_UNAVAILABLE\nLog in passed\n"
	}
	if want := first + "Browse the catalog skipped DEVICE_UNAVAILABLE\nProduct page skipped DEVICE_UNAVAILABLE\n"; got != want {
		t.Fatalf("report:\n%s\nwant:\n%s", got, want)
	}
	if len(obs.requeued) != 1 {
		t.Errorf("one flow is given back, once: %q", obs.requeued)
	}
	for _, f := range flows {
		if obs.finished[f.Name] != 1 {
			t.Errorf("flow %q was reported %d times", f.Name, obs.finished[f.Name])
		}
	}
	// Both devices lost at their first launch, each holding a flow: both
	// flows were given back and no device is left, so they end failed as
	// their attempts did (a run must not pass on them), and the rest are
	// skipped.
	obs = newCountingObserver()
	res, _ = runQueue(context.Background(), queueRuns([2]int{1, 1}, 1, obs), flows, obs, nil)
	want := "Launch the shop failed DEVICE_UNAVAILABLE\nLog in failed DEVICE_UNAVAILABLE\n" +
		"Browse the catalog skipped DEVICE_UNAVAILABLE\nProduct page skipped DEVICE_UNAVAILABLE\n"
	if got := report(res); got != want {
		t.Fatalf("both devices lost: report:\n%s\nwant:\n%s", got, want)
	}
	for _, f := range flows {
		if obs.finished[f.Name] != 1 {
			t.Errorf("flow %q was reported %d times", f.Name, obs.finished[f.Name])
		}
	}
}

// TestRunParallelOption: Run with Parallel hands the flows to two sim
// devices from one queue and reports each once, in input order, with the
// device that ran it.
func TestRunParallelOption(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, f := range []string{"01-launch", "02-login", "03-browse"} {
		paths = append(paths, "flows/demo/"+f+".yaml")
	}
	res, err := Run(context.Background(), paths, RunOptions{Target: Target{Device: "sim"}, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := report(res.Flows), "Launch the shop passed\nLog in passed\nBrowse the catalog passed\n"; got != want {
		t.Fatalf("report:\n%s\nwant:\n%s", got, want)
	}
	for _, f := range res.Flows {
		if f.Shard != 1 && f.Shard != 2 {
			t.Errorf("%s ran on device %d of 2", f.Name, f.Shard)
		}
	}
}
