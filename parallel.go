package flow

import (
	"context"
	"sync"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/maestro"
)

// ParallelFlag is the flag named in messages about a parallel run.
const ParallelFlag = "--parallel"

// Requeuer is an Observer that hears a flow given back to the queue: the
// device running it was lost, the flow will start again on another one,
// and its first attempt is not reported.
type Requeuer interface {
	FlowRequeued(flow *canonical.Flow, shard int, why *canonical.Error)
}

// RunParallel runs a loaded plan's flows on n devices from one queue
// (--parallel N): each device takes the next flow as soon as it is free,
// so a long flow never leaves another device idle as a static split
// (--shard-split, ShardWork) does. The report is one, in input order (the
// order the flows were selected in, whichever device ran them), with
// every flow once. A device lost mid-flow (DEVICE_UNAVAILABLE) gives that
// flow back to the queue once and takes no more; a flow whose second
// device is lost too, or that no device is left to run again, is reported
// failed as its lost attempt was. Flows that could not load come first,
// as in RunPlan.
func RunParallel(ctx context.Context, plan *maestro.ExecutionPlan, n int, o RunOptions) (exec.RunResult, error) {
	if len(plan.Sequence) > 0 {
		return exec.RunResult{}, canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run in parallel").
			WithHint("drop --parallel, or remove executionOrder from the workspace config")
	}
	if err := CheckAppFiles(o.Target); err != nil {
		return exec.RunResult{}, err
	}
	obs := o.Observer
	if obs == nil {
		obs = exec.NopObserver{}
	}
	n = min(n, max(len(plan.Flows), 1))
	whole := []*maestro.ExecutionPlan{{Flows: plan.Flows, ContinueOnFailure: plan.ContinueOnFailure}}
	runs, err := openRuns(ctx, n, o, obs)
	if err != nil {
		return notOpened(ctx, plan, whole, obs, err)
	}
	defer closeAll(ctx, runs)
	refused, err := preplan(ctx, runs[0].dev, plan)
	if err != nil {
		return notOpened(ctx, plan, whole, obs, err)
	}
	results, durationMs := runQueue(ctx, runs, plan.Flows, obs, refused)
	out := exec.RunResult{Flows: brokenFlows(plan, obs), DurationMs: durationMs}
	out.Flows = append(out.Flows, results...)
	out.Device, _ = runs[0].dev.Info(context.WithoutCancel(ctx))
	return out, nil
}

// runQueue runs flows on the opened runs, one worker per device taking
// the next flow when it is free; the results are in input order and the
// duration is the longest worker's.
func runQueue(ctx context.Context, runs []*shardRun, flows []*canonical.Flow, obs exec.Observer,
	refused map[*canonical.Flow]*canonical.Error) ([]exec.FlowResult, int64) {
	q := newFlowQueue(len(flows))
	results := make([]exec.FlowResult, len(flows))
	// lost holds a given-back flow's attempt, its result should no device
	// be left to run it again.
	lost := make([]*exec.FlowResult, len(flows))
	var wg sync.WaitGroup
	durations := make([]int64, len(runs))
	for w, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := r.cfg.Clock.Now()
			defer func() { durations[w] = r.cfg.Clock.Now().Sub(start).Milliseconds() }()
			for {
				i, ok := q.take()
				if !ok {
					return
				}
				f := flows[i]
				var res exec.FlowResult
				switch {
				case ctx.Err() != nil:
					res = skippedFlow(f, obs, r.cfg.Shard,
						canonical.NewError(canonical.CodeInterrupted, "not run: the run was interrupted before this flow started"))
				case refused[f] != nil:
					res = refusedFlow(f, obs, r.cfg.Shard, refused[f])
				default:
					again := q.mayRetry(i)
					cfg := r.cfg
					if again {
						cfg.Observer = &requeueObserver{Observer: obs}
					}
					res = exec.RunFlow(ctx, cfg, f)
					if lostDevice(res) && again {
						// This device takes no more flows; the flow
						// goes back for another one.
						lost[i] = &res
						q.giveBack(i)
						if rq, ok := obs.(Requeuer); ok {
							rq.FlowRequeued(f, r.cfg.Shard, res.Error)
						}
						return
					}
					if again {
						obs.FlowFinished(res)
					}
					if lostDevice(res) {
						results[i] = res
						q.done()
						return
					}
				}
				results[i] = res
				q.done()
			}
		}()
	}
	wg.Wait()
	// Flows no device was left to run: one given back ends as its lost
	// attempt did (the run must not pass on flows it could not run), the
	// others are skipped with the reason.
	for _, i := range q.left() {
		if r := lost[i]; r != nil {
			obs.FlowStarted(flows[i], r.Shard)
			obs.FlowFinished(*r)
			results[i] = *r
			continue
		}
		results[i] = skippedFlow(flows[i], obs, 0,
			canonical.NewError(canonical.CodeDeviceUnavailable, "not run: every device of the run was lost"))
	}
	var longest int64
	for _, d := range durations {
		longest = max(longest, d)
	}
	return results, longest
}

// lostDevice reports a flow that failed because its device was lost.
func lostDevice(r exec.FlowResult) bool {
	return r.Status == exec.StatusFailed && r.Error != nil && r.Error.Code == canonical.CodeDeviceUnavailable
}

// requeueObserver holds a flow's end back from the observer until the
// runner knows whether it is the flow's result or an attempt on a lost
// device that goes back to the queue.
type requeueObserver struct{ exec.Observer }

func (requeueObserver) FlowFinished(exec.FlowResult) {}

// TemplateResolved passes --record's templates on when the observer
// hears them.
func (o *requeueObserver) TemplateResolved(f *canonical.Flow, t canonical.Template, v string) {
	if to, ok := o.Observer.(exec.TemplateObserver); ok {
		to.TemplateResolved(f, t, v)
	}
}

// flowQueue hands out flow indexes in input order to whichever worker
// asks first. A flow given back goes to the front, so it runs next. A
// worker finding the queue empty waits while flows are still running,
// since one of them may come back.
type flowQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []int
	running int
	retried map[int]bool
}

func newFlowQueue(n int) *flowQueue {
	q := &flowQueue{retried: map[int]bool{}}
	q.cond = sync.NewCond(&q.mu)
	for i := range n {
		q.pending = append(q.pending, i)
	}
	return q
}

// take is the next flow for a free worker; ok is false when there is
// none left and none running that could come back.
func (q *flowQueue) take() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.pending) == 0 && q.running > 0 {
		q.cond.Wait()
	}
	if len(q.pending) == 0 {
		return 0, false
	}
	i := q.pending[0]
	q.pending = q.pending[1:]
	q.running++
	return i, true
}

// mayRetry says whether flow i still has its one retry.
func (q *flowQueue) mayRetry(i int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return !q.retried[i]
}

// giveBack puts flow i, whose device was lost, at the front of the queue
// for its one retry (mayRetry said it has it).
func (q *flowQueue) giveBack(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.retried[i] = true
	q.pending = append([]int{i}, q.pending...)
	q.running--
	q.cond.Broadcast()
}

// done marks a running flow finished.
func (q *flowQueue) done() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.running--
	q.cond.Broadcast()
}

// left are the flows still queued when every worker has gone.
func (q *flowQueue) left() []int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]int(nil), q.pending...)
}
