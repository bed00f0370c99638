package flow

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/maestro"
)

// LoadOptions say how Load selects and reads flows.
type LoadOptions struct {
	// Workspace selects flows as a workspace config and tags do.
	Workspace maestro.PlanOptions
	// Vars are flow variables (-e KEY=VALUE) for .ad scripts' ${VAR}.
	Vars []exec.Var
	// Device is the device the flows run on; .ad scripts are read for its
	// platform.
	Device string
	Env    Env
	// MaestroVersion is the Maestro semantics flows are read with; ""
	// lets the workspace config's maestroVersion decide, else the current
	// Maestro (ResolveMaestroVersion reads the flag and env rules).
	MaestroVersion canonical.MaestroVersion
}

// Loaded is a run's input: the plan, what reading it warned about (in
// source order), and the text of the files read, to quote a line.
type Loaded struct {
	Plan     *maestro.ExecutionPlan
	Warnings []*canonical.Error
	Sources  Sources
}

// Load selects the flows of paths as a workspace (the discovery flow check
// shares) and loads the .ad scripts it selects, which run after the
// Maestro flows. A script that cannot load is a broken flow of the plan.
func Load(ctx context.Context, paths []string, o LoadOptions) (Loaded, error) {
	sources := Sources{Loader: maestro.NewLoader(OSSource{}).WithContext(ctx).WithMaestroVersion(o.MaestroVersion)}
	plan, err := sources.Loader.Plan(paths, WorkspaceOptions(OSSource{}, o.Workspace))
	if err != nil {
		return Loaded{}, err
	}
	warnings := plan.Warnings
	platform := strings.TrimPrefix(strings.TrimPrefix(o.Device, "sim"), ":")
	for _, p := range plan.Scripts {
		if ctx.Err() != nil {
			return Loaded{}, canonical.Interrupted(ctx.Err())
		}
		f, text, err := LoadAdFile(p, o.Vars, o.Env.Environment(), platform)
		sources.AddScript(p, text)
		if err != nil {
			plan.Broken = append(plan.Broken, maestro.BrokenFlow{File: p, Problems: []*canonical.Error{canonical.Coded(err)}})
			continue
		}
		warnings = append(warnings, f.Warnings...)
		plan.Flows = append(plan.Flows, f)
	}
	canonical.SortByPos(warnings)
	return Loaded{Plan: plan, Warnings: warnings, Sources: sources}, nil
}

// RunOptions say where and how flows run.
type RunOptions struct {
	// Target is the device; Target.Env is where it finds its tools and sim
	// its saved state (Env.StateDir).
	Target
	// Workspace selects flows (Run only).
	Workspace maestro.PlanOptions
	// MaestroVersion is the Maestro semantics flows are read with (Run
	// only; see LoadOptions.MaestroVersion).
	MaestroVersion canonical.MaestroVersion
	// Vars are flow variables, as -e KEY=VALUE.
	Vars []exec.Var
	// Shards runs the flows on this many devices at once (ShardAll: every
	// flow on each).
	Shards   int
	ShardAll bool
	// Parallel runs the flows on this many devices from one queue (Run
	// only; RunParallel): each takes the next flow when it is free.
	Parallel int
	// Observer hears flows and steps as they run; nil hears nothing.
	Observer exec.Observer
	// Events receives the device event log (contracts §8) as JSON lines.
	Events io.Writer
	// Artifacts is a folder for the screenshot and hierarchy of every
	// failure.
	Artifacts string
	// State is sim's state folder the run reads its device from and saves
	// it to (one shard only); nil keeps none. Run takes it itself.
	State *SimState
}

// Run runs flow files, folders or a workspace, as flow test does, and
// returns the report value (exec/report renders it as JUnit, JSON or
// HTML). On sim with Env.StateDir set it runs on the saved device and
// saves it, holding the state folder's lock meanwhile. A device that
// cannot be opened returns the result, every flow skipped, and a
// *NotOpened error.
func Run(ctx context.Context, paths []string, o RunOptions) (exec.RunResult, error) {
	loaded, err := Load(ctx, paths, LoadOptions{Workspace: o.Workspace, Vars: o.Vars, Device: o.Device, Env: o.Env,
		MaestroVersion: o.MaestroVersion})
	if err != nil {
		return exec.RunResult{}, err
	}
	if o.Shards > 1 && len(loaded.Plan.Sequence) > 0 {
		return exec.RunResult{}, canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run on several shards").
			WithHint("run on one device, or remove executionOrder from the workspace config")
	}
	if o.Parallel > 1 {
		return RunParallel(ctx, loaded.Plan, o.Parallel, o)
	}
	work := ShardWork(loaded.Plan, o.Shards, o.ShardAll)
	if len(work) == 1 && IsSimDevice(o.Device) && o.State == nil {
		if o.State, err = LockSimState(ctx, o.Env); err != nil {
			return exec.RunResult{}, err
		}
		defer o.State.Release()
	}
	return RunPlan(ctx, loaded.Plan, work, o)
}

// ShardWork splits the flows for each device: round-robin for
// --shard-split (never more shards than flows), every flow on each device
// for --shard-all. Unsharded, one device gets the sequence and the rest.
func ShardWork(plan *maestro.ExecutionPlan, shards int, all bool) []*maestro.ExecutionPlan {
	if shards <= 1 {
		return []*maestro.ExecutionPlan{plan}
	}
	if all {
		out := make([]*maestro.ExecutionPlan, shards)
		for i := range out {
			out[i] = &maestro.ExecutionPlan{Flows: plan.Flows, ContinueOnFailure: plan.ContinueOnFailure}
		}
		return out
	}
	n := min(shards, max(len(plan.Flows), 1))
	out := make([]*maestro.ExecutionPlan, n)
	for i := range out {
		out[i] = &maestro.ExecutionPlan{ContinueOnFailure: plan.ContinueOnFailure}
	}
	for i, f := range plan.Flows {
		out[i%n].Flows = append(out[i%n].Flows, f)
	}
	return out
}

// CountFlows is how many flows the shards run in all.
func CountFlows(work []*maestro.ExecutionPlan) int {
	n := 0
	for _, w := range work {
		n += len(w.Sequence) + len(w.Flows)
	}
	return n
}

// RunPlan runs a loaded plan split into work (ShardWork): it opens one
// device per shard and runs the shards at once; the results merge into
// one report, shard by shard, so a failing shard never hides another's
// results. Flows that could not load are reported first. Every
// statically known gesture is planned before the device acts (a flow
// whose gesture cannot fit is refused and never starts). A device that
// cannot be opened, or fails while its viewport is read for that, still
// yields a result, every flow skipped with the reason, and a *NotOpened
// error.
func RunPlan(ctx context.Context, plan *maestro.ExecutionPlan, work []*maestro.ExecutionPlan, o RunOptions) (exec.RunResult, error) {
	if err := CheckAppFiles(o.Target); err != nil {
		return exec.RunResult{}, err
	}
	obs := o.Observer
	if obs == nil {
		obs = exec.NopObserver{}
	}
	prog := obs
	runs, err := openRuns(ctx, len(work), o, obs)
	if err != nil {
		return notOpened(ctx, plan, work, prog, err)
	}
	defer closeAll(ctx, runs)
	refused, err := preplan(ctx, runs[0].dev, plan)
	if err != nil {
		// The viewport read for planning failed: the device broke before
		// any flow ran, and the report still says so.
		return notOpened(ctx, plan, work, prog, err)
	}
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.res = runPlan(ctx, r.cfg, work[i], prog, refused)
		}()
	}
	wg.Wait()
	if len(runs) == 1 {
		if err := o.State.SaveSim(runs[0].dev); err != nil {
			return exec.RunResult{}, err
		}
	}
	out := exec.RunResult{Flows: brokenFlows(plan, prog)}
	for _, r := range runs {
		out.Flows = append(out.Flows, r.res.Flows...)
		out.DurationMs = max(out.DurationMs, r.res.DurationMs)
	}
	out.Device, _ = runs[0].dev.Info(context.WithoutCancel(ctx))
	return out, nil
}

// openRuns opens the run's n devices (one per shard or parallel worker)
// and gives each its run configuration; with one device it runs on
// o.State. Every --app-file is installed on every device before it
// returns. On failure nothing stays open.
func openRuns(ctx context.Context, n int, o RunOptions, obs exec.Observer) ([]*shardRun, error) {
	clocks := make([]exec.Clock, n)
	logs := make([]exec.EventLog, n)
	for i := range n {
		clocks[i] = ClockFor(o.Device)
		logs[i] = exec.NopLog{}
		if o.Events != nil {
			l := exec.NewJSONLog(o.Events, clocks[i])
			logs[i] = l
			if n > 1 {
				logs[i] = shardLog{log: l, shard: i + 1}
			}
		}
	}
	devs, err := OpenDevices(ctx, o.Target, clocks, logs)
	if err != nil {
		return nil, err
	}
	runs := make([]*shardRun, 0, n)
	for i := range n {
		var state *SimState
		if n == 1 {
			state = o.State // shards each get a fresh device
		}
		dev := devs[i]
		if dev == nil {
			if dev, err = OpenDevice(ctx, o.Target, state, clocks[i], logs[i]); err != nil {
				closeAll(ctx, runs)
				CloseDevices(ctx, devs[i+1:])
				return nil, err
			}
		}
		runs = append(runs, &shardRun{dev: dev})
		cfg := exec.Config{Device: dev, Clock: clocks[i], Events: logs[i], Observer: obs, Env: o.Vars,
			NewScripts: ScriptsFor(GraalFromEnv(o.Env)), Files: DirFiles{Dir: "."}}
		if n > 1 {
			cfg.Shard = i + 1
		}
		if o.Artifacts != "" {
			cfg.Artifacts = DirFiles{Dir: o.Artifacts}
		}
		runs[i].cfg = cfg
	}
	opened := make([]exec.Device, len(runs))
	for i, r := range runs {
		opened[i] = r.dev
	}
	if err := installApps(ctx, o.AppFiles, opened); err != nil {
		closeAll(ctx, runs)
		return nil, err
	}
	return runs, nil
}

// NotOpened is a run whose device could not be opened (no device, a
// helper that will not start, an unreachable endpoint): the flows were not
// run, and the result still says so.
type NotOpened struct{ Err error }

func (u *NotOpened) Error() string { return u.Err.Error() }
func (u *NotOpened) Unwrap() error { return u.Err }

// notOpened answers a device that could not be opened. A device or
// infrastructure failure still yields a result, every flow skipped with
// the reason, so the report is written (no report is lost); invalid input
// (a bad --app file) stops the run before anything, as before. A run
// interrupted while its device opened (whatever error the opening met
// then) skips every flow as interrupted, never as a device failure or the
// bare "context canceled".
func notOpened(ctx context.Context, plan *maestro.ExecutionPlan, work []*maestro.ExecutionPlan, prog exec.Observer, err error) (exec.RunResult, error) {
	ce := canonical.Coded(err)
	var why *canonical.Error
	switch {
	case ctx.Err() != nil || ce.Code == canonical.CodeInterrupted:
		why = canonical.NewError(canonical.CodeInterrupted, "not run: the run was interrupted before this flow started")
		if ce.Code != canonical.CodeInterrupted {
			err = canonical.Interrupted(err)
		}
	case ce.Code == canonical.CodeDeviceUnavailable, ce.Code == canonical.CodeUnsupportedOperation, ce.Code == canonical.CodeInternal:
		why = &canonical.Error{Code: ce.Code, Message: "not run: " + ce.Message, Details: ce.Details}
	default:
		return exec.RunResult{}, err
	}
	out := exec.RunResult{Flows: brokenFlows(plan, prog)}
	for i, w := range work {
		shard := 0
		if len(work) > 1 {
			shard = i + 1
		}
		for _, f := range append(append([]*canonical.Flow(nil), w.Sequence...), w.Flows...) {
			out.Flows = append(out.Flows, skippedFlow(f, prog, shard, why))
		}
	}
	return out, &NotOpened{Err: err}
}

// brokenFlows reports the flows that could not load, as failed.
func brokenFlows(plan *maestro.ExecutionPlan, prog exec.Observer) []exec.FlowResult {
	var out []exec.FlowResult
	for _, b := range plan.Broken {
		f := exec.FlowResult{Name: brokenName(b.File), File: b.File, Status: exec.StatusFailed, Error: exec.CapError(b.Problems[0])}
		prog.FlowStarted(&canonical.Flow{Name: f.Name, File: f.File}, 0)
		prog.FlowFinished(f)
		out = append(out, f)
	}
	return out
}

// shardRun is one device's share of a run.
type shardRun struct {
	cfg exec.Config
	dev exec.Device
	res exec.RunResult
}

// closeAll releases every device, even after Ctrl-C, so no pointer stays
// down.
func closeAll(ctx context.Context, runs []*shardRun) {
	for _, r := range runs {
		if c, ok := r.dev.(exec.Closer); ok {
			_ = c.Close(context.WithoutCancel(ctx))
		}
	}
}

// shardLog tags each event with its shard when a run is sharded.
type shardLog struct {
	log   exec.EventLog
	shard int
}

func (s shardLog) Record(typ string, fields map[string]any) {
	f := map[string]any{"shard": s.shard}
	for k, v := range fields {
		f[k] = v
	}
	s.log.Record(typ, f)
}

// runPlan runs the executionOrder sequence first (stopping it at the first
// failure unless continueOnFailure), then every other flow; flows that
// could not load are reported as failed with their load error.
func runPlan(ctx context.Context, cfg exec.Config, plan *maestro.ExecutionPlan, obs exec.Observer,
	refused map[*canonical.Flow]*canonical.Error) exec.RunResult {
	start := cfg.Clock.Now()
	var res exec.RunResult
	// lost is the device failure that ended this device: the flows after
	// it cannot run on it and are skipped with the reason, instead of each
	// failing the same way.
	var lost *exec.FlowResult
	one := func(f *canonical.Flow) exec.FlowResult {
		switch {
		case ctx.Err() != nil:
			return skippedFlow(f, obs, cfg.Shard,
				canonical.NewError(canonical.CodeInterrupted, "not run: the run was interrupted before this flow started"))
		case lost != nil:
			return skippedFlow(f, obs, cfg.Shard,
				canonical.Errorf(canonical.CodeDeviceUnavailable, "not run: the device was lost during flow %q", lost.Name))
		case refused[f] != nil:
			return refusedFlow(f, obs, cfg.Shard, refused[f])
		}
		r := exec.RunFlow(ctx, cfg, f)
		if r.Status == exec.StatusFailed && r.Error != nil && r.Error.Code == canonical.CodeDeviceUnavailable {
			lost = &r
		}
		return r
	}
	stopSequence := false
	for _, f := range plan.Sequence {
		if stopSequence {
			res.Flows = append(res.Flows, skippedFlow(f, obs, cfg.Shard, nil))
			continue
		}
		r := one(f)
		res.Flows = append(res.Flows, r)
		if r.Status == exec.StatusFailed && !plan.ContinueOnFailure {
			stopSequence = true
		}
	}
	for _, f := range plan.Flows {
		res.Flows = append(res.Flows, one(f))
	}
	res.DurationMs = cfg.Clock.Now().Sub(start).Milliseconds()
	return res
}

func brokenName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// skippedFlow is a flow that did not start; why, when set, says why.
func skippedFlow(f *canonical.Flow, obs exec.Observer, shard int, why *canonical.Error) exec.FlowResult {
	r := exec.FlowResult{Name: f.Name, File: f.File, Status: exec.StatusSkipped, Shard: shard, Error: why}
	obs.FlowStarted(f, shard)
	obs.FlowFinished(r)
	return r
}
