package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/maestro"
)

func testCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run flows (files, folders or Maestro workspaces) on a device",
		ArgsUsage: "PATH...",
		Description: `Runs Maestro flows with Maestro's semantics. A folder with config.yaml is a Maestro
   workspace (flows globs, tags, executionOrder). --device sim needs no hardware: flow's built-in
   simulated device, with the demo app installed. Exit codes: 0 all passed, 1 a flow failed,
   2 invalid input, 3 device or infrastructure.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Value: "sim", Usage: "sim, sim:android, sim:ios, web (headless Chromium through a local chromedriver), android (the one online device) or android:SERIAL; flow devices lists them"},
			&cli.StringFlag{Name: "ios-runner-url", Usage: "attach to a flow iOS runner that is already running (http://HOST:PORT; ios-runner/PROTOCOL.md); implies --device ios", EnvVars: []string{"FLOW_IOS_RUNNER_URL"}},
			&cli.StringFlag{Name: "android-helper", Usage: "the helper APK to install on Android devices (default $FLOW_ANDROID_HELPER, else built with the SDK of $ANDROID_HOME)"},
			&cli.StringFlag{Name: "webdriver-url", Usage: "run on a remote W3C WebDriver endpoint (Selenium Grid, Appium, a device cloud); implies --device web", EnvVars: []string{"FLOW_WEBDRIVER_URL"}},
			&cli.StringFlag{Name: "capabilities", Usage: "JSON file of session capabilities for the web device (docs/webdriver.md)"},
			&cli.StringSliceFlag{Name: "app", Usage: "app model installed on sim (repeatable); the demo app is always installed"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "KEY=VALUE passed to flows (repeatable)"},
			&cli.StringFlag{Name: "include-tags", Usage: "run only flows with one of these tags (comma-separated)"},
			&cli.StringFlag{Name: "exclude-tags", Usage: "skip flows with one of these tags (comma-separated)"},
			&cli.StringFlag{Name: "config", Usage: "workspace config file (default: config.yaml in the first folder given)"},
			&cli.StringFlag{Name: "format", Usage: "report format: junit, json or html (default: from the --output extension)"},
			&cli.StringFlag{Name: "output", Usage: "report file (default report.xml, report.json or report.html); .xml, .json or .html alone picks the format"},
			&cli.StringFlag{Name: "test-suite-name", Value: "Test Suite", Usage: "JUnit testsuite name"},
			&cli.StringFlag{Name: "artifacts", Usage: "folder for the screenshot and hierarchy of every failure"},
			&cli.StringFlag{Name: "events", Usage: "write every device action as JSON lines to this file"},
			&cli.IntFlag{Name: "shard-split", Usage: "split the flows across N devices run at once"},
			&cli.IntFlag{Name: "shard-all", Usage: "run every flow on each of N devices at once"},
			&cli.StringFlag{Name: "record", Usage: "append every passed top-level step that has an exact .ad form to this .ad script"},
		},
		Action: func(c *cli.Context) error { return runTest(c, env) },
	}
}

// testOptions are flow test's flags, read once.
type testOptions struct {
	paths     []string
	device    string
	apps      []string
	env       []exec.Var
	plan      maestro.PlanOptions
	format    string
	output    string
	suiteName string
	artifacts string
	events    string
	record    string
	// webdriverURL and capabilities select the web device's endpoint.
	webdriverURL string
	capabilities string
	shards       int
	shardAll     bool
	// graalJS is MAESTRO_USE_GRAALJS=true: every flow's scripts follow
	// GraalJS, as in Maestro.
	graalJS bool
	// state keeps a single sim device's state between invocations; nil
	// when the run keeps none (sharded, not sim).
	state *flowapi.SimState
	// androidHelper is --android-helper.
	androidHelper string
	// iosRunnerURL is --ios-runner-url.
	iosRunnerURL string
	// sys is the process environment, where devices find their tools (adb,
	// the Android SDK, FLOW_ANDROID_HELPER).
	sys Env
}

// target is the device part of the options, as flow opens devices.
func (o testOptions) target() flowapi.Target {
	return flowapi.Target{Device: o.device, Apps: o.apps, AndroidHelper: o.androidHelper, WebDriverURL: o.webdriverURL,
		Capabilities: o.capabilities, IOSRunnerURL: o.iosRunnerURL, ShardFlag: o.shardFlag(), Env: o.sys}
}

// shardFlag names the flag that asked for several devices, for messages.
func (o testOptions) shardFlag() string {
	if o.shardAll {
		return "--shard-all"
	}
	return "--shard-split"
}

func readTestOptions(c *cli.Context, env Env) (testOptions, error) {
	o := testOptions{paths: toSlash(c.Args().Slice()), device: c.String("device"), apps: c.StringSlice("app"),
		format: strings.ToLower(c.String("format")), output: c.String("output"), suiteName: c.String("test-suite-name"),
		artifacts: c.String("artifacts"), events: c.String("events"), record: c.String("record"),
		webdriverURL: c.String("webdriver-url"), capabilities: c.String("capabilities"), graalJS: flowapi.GraalFromEnv(env),
		androidHelper: c.String("android-helper"), iosRunnerURL: c.String("ios-runner-url"), sys: env}
	if o.iosRunnerURL != "" {
		if c.IsSet("device") && !flowapi.IsIOSDevice(o.device) {
			return o, canonical.Errorf(canonical.CodeInvalidArgs, "--ios-runner-url runs on an iOS device, not %q", o.device).
				WithHint("drop --device, or use --device ios")
		}
		if !c.IsSet("device") {
			o.device = "ios"
		}
	}
	if o.webdriverURL != "" {
		if c.IsSet("device") && o.device != "web" {
			return o, canonical.Errorf(canonical.CodeInvalidArgs, "--webdriver-url runs on the web device, not %q", o.device).
				WithHint("drop --device, or use --device web")
		}
		o.device = "web"
	}
	if o.capabilities != "" && o.device != "web" {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--capabilities applies to the web device only").
			WithHint("add --device web or --webdriver-url URL")
	}
	if o.androidHelper != "" && !flowapi.IsAndroidDevice(o.device) {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--android-helper applies to Android devices only").
			WithHint("add --device android (or android:SERIAL), or drop --android-helper")
	}
	if len(o.paths) == 0 {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "nothing to run").
			WithHint("give flow files or folders: flow test --device sim flows/demo")
	}
	switch o.format {
	case "", "junit", "json", "html":
	default:
		return o, canonical.Errorf(canonical.CodeInvalidArgs, "unknown report format %q", o.format).
			WithHint("use --format junit, --format json or --format html")
	}
	switch {
	case o.format != "" && o.output == "":
		o.output = map[string]string{"junit": "report.xml", "json": "report.json", "html": "report.html"}[o.format]
	case o.format == "" && o.output != "":
		var err error
		if o.format, err = reportFormatOf(o.output); err != nil {
			return o, err
		}
	}
	for _, kv := range c.StringSlice("env") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return o, canonical.Errorf(canonical.CodeInvalidArgs, "-e %q is not KEY=VALUE", kv).WithHint("write -e USER=ada")
		}
		o.env = append(o.env, exec.Var{Name: k, Value: v})
	}
	o.env = append(shellVars(env, o.env), o.env...)
	split, all := c.Int("shard-split"), c.Int("shard-all")
	switch {
	case split > 0 && all > 0:
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--shard-split and --shard-all cannot be combined").
			WithHint("split the flows across devices (--shard-split N) or run all of them on each (--shard-all N)")
	case split < 0 || all < 0:
		return o, canonical.NewError(canonical.CodeInvalidArgs, "shard counts must be positive").WithHint("--shard-split 2")
	}
	o.shards, o.shardAll = max(split, all, 1), all > 0
	if o.record != "" && o.shards > 1 {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--record cannot be used with --shard-split or --shard-all").
			WithHint("record on one device: one script is one sequence of steps")
	}
	o.plan = maestro.PlanOptions{ConfigFile: c.String("config"), KeepGoing: true,
		IncludeTags: splitTags(c.String("include-tags")), ExcludeTags: splitTags(c.String("exclude-tags"))}
	return o, nil
}

func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// shellVars are MAESTRO_* variables of the environment not already given
// with -e (maestro-reference §3.4).
func shellVars(env Env, given []exec.Var) []exec.Var {
	if env.Environ == nil {
		return nil
	}
	have := map[string]bool{}
	for _, v := range given {
		have[v.Name] = true
	}
	var out []exec.Var
	for _, kv := range env.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "MAESTRO_") && v != "" && !have[k] {
			out = append(out, exec.Var{Name: k, Value: v})
		}
	}
	return out
}

func runTest(c *cli.Context, env Env) error {
	o, err := readTestOptions(c, env)
	if err != nil {
		return err
	}
	plan, err := planInputs(c.Context, o, env)
	if err != nil {
		return err
	}
	if err := checkOutputs(o, plan); err != nil {
		return err
	}
	if o.shards > 1 && len(plan.Sequence) > 0 {
		return canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run on several shards").
			WithHint("drop --shard-split/--shard-all, or remove executionOrder from the workspace config")
	}
	work := shardWork(plan, o.shards, o.shardAll)
	if len(work) == 1 && flowapi.IsSimDevice(o.device) {
		// The run reads the saved device when it starts and writes it when
		// it ends: it holds the state dir's lock all the while, so device
		// commands started meanwhile wait for it (and it for them) instead
		// of one overwriting the other's changes. Taken after the flows
		// loaded, so invalid input never waits.
		if o.state, err = flowapi.LockSimState(c.Context, env); err != nil {
			return err
		}
		defer o.state.Release()
	}
	var events io.Writer
	var eventLog *fsext.File
	if o.events != "" {
		// The log streams into a replacement that takes the file's place
		// when the run ends, however it ends (a device failure, Ctrl-C):
		// until then, and if flow is killed, the previous log stays whole.
		if dir := filepath.Dir(o.events); dir != "." {
			_ = os.MkdirAll(dir, 0o755)
		}
		if eventLog, err = fsext.Create(o.events, fsext.WriteOptions{}); err != nil {
			return canonical.Coded(err).WithHint("check the --events path")
		}
		defer eventLog.Commit() // on early returns; the run's end commits and reports failure
		events = &lockedWriter{w: eventLog}
	}
	prog := newProgress(env.Stdout, env.IsTTY && env.Getenv("CI") == "" && env.Getenv("NO_COLOR") == "", countWork(work)+len(plan.Broken))
	prog.onStep = env.OnStep
	prog.quietSteps = len(work) > 1
	wallStart := time.Now()
	var obs exec.Observer = prog
	var rec *stepRecorder
	if o.record != "" {
		rec = newStepRecorder(prog, o.record, o.device, o.env, o.state.WriteOptions())
		obs = rec
	}
	result, err := runShards(c.Context, o, plan, work, events, prog, obs)
	o.state.Release() // the state is saved: waiting commands may go on
	var failedOpen unopened
	if err != nil && !errors.As(err, &failedOpen) {
		return err
	}
	if eventLog != nil {
		if err := eventLog.Commit(); err != nil {
			return canonical.Coded(err).WithHint("check the --events path")
		}
	}
	if rec != nil && rec.err != nil {
		return rec.err
	}
	if rec != nil {
		rec.summary(env.Stdout)
	}
	if err := writeReport(o, result, o.artifacts != ""); err != nil {
		return err
	}
	tally := result.Tally()
	fmt.Fprintf(env.Stdout, "\n%d passed, %d failed", tally.Passed, tally.Failed)
	if tally.Interrupted > 0 {
		fmt.Fprintf(env.Stdout, ", %d interrupted", tally.Interrupted)
	}
	if tally.Skipped > 0 {
		fmt.Fprintf(env.Stdout, ", %d skipped", tally.Skipped)
	}
	fmt.Fprintf(env.Stdout, " in %s (device time; %s wall)\n", duration(result.DurationMs), time.Since(wallStart).Round(time.Millisecond))
	if o.format != "" {
		fmt.Fprintf(env.Stdout, "report: %s\n", oneLine(o.output))
	}
	if c.Context.Err() != nil {
		hint := "the flow that was running is reported as interrupted, the flows not started as skipped"
		if o.format != "" {
			hint += "; the report was written"
		}
		return canonical.NewError(canonical.CodeInterrupted, "interrupted").WithHint(hint).Wrap(c.Context.Err())
	}
	if failedOpen.err != nil {
		return failedOpen.err
	}
	return runVerdict(result)
}

// planInputs plans the inputs as a workspace (the discovery flow check
// shares) and loads the .ad scripts it selects, which run after the
// Maestro flows. A script that cannot load is reported like a broken flow.
// Warnings of every file read are printed before anything runs.
func planInputs(ctx context.Context, o testOptions, env Env) (*maestro.ExecutionPlan, error) {
	sources := flowapi.Sources{Loader: maestro.NewLoader(flowapi.OSSource{}).WithContext(ctx)}
	plan, err := sources.Loader.Plan(o.paths, flowapi.WorkspaceOptions(flowapi.OSSource{}, o.plan))
	if err != nil {
		return nil, err
	}
	warnings := plan.Warnings
	var environ []string
	if env.Environ != nil {
		environ = env.Environ()
	}
	platform := strings.TrimPrefix(strings.TrimPrefix(o.device, "sim"), ":")
	for _, p := range plan.Scripts {
		if ctx.Err() != nil {
			return nil, canonical.Interrupted(ctx.Err())
		}
		f, text, err := flowapi.LoadAdFile(p, o.env, environ, platform)
		sources.AddScript(p, text)
		if err != nil {
			plan.Broken = append(plan.Broken, maestro.BrokenFlow{File: p, Problems: []*canonical.Error{canonical.Coded(err)}})
			continue
		}
		warnings = append(warnings, f.Warnings...)
		plan.Flows = append(plan.Flows, f)
	}
	canonical.SortByPos(warnings)
	for _, w := range warnings {
		renderWithSnippet(env.Stdout, sources, w, "warning: ")
	}
	return plan, nil
}

// shardWork splits the flows for each device: round-robin for
// --shard-split (never more shards than flows), every flow on each device
// for --shard-all. Unsharded, one device gets the sequence and the rest.
func shardWork(plan *maestro.ExecutionPlan, shards int, all bool) []*maestro.ExecutionPlan {
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

func countWork(work []*maestro.ExecutionPlan) int {
	n := 0
	for _, w := range work {
		n += len(w.Sequence) + len(w.Flows)
	}
	return n
}

// runShards opens one device per shard and runs the shards at once; the
// results merge into one report, shard by shard, so a failing shard never
// hides another's results. Flows that could not load are reported first.
func runShards(ctx context.Context, o testOptions, plan *maestro.ExecutionPlan, work []*maestro.ExecutionPlan,
	events io.Writer, prog *progress, obs exec.Observer) (exec.RunResult, error) {
	clocks := make([]exec.Clock, len(work))
	logs := make([]exec.EventLog, len(work))
	for i := range work {
		clocks[i] = flowapi.ClockFor(o.device)
		logs[i] = exec.NopLog{}
		if events != nil {
			l := exec.NewJSONLog(events, clocks[i])
			logs[i] = l
			if len(work) > 1 {
				logs[i] = shardLog{log: l, shard: i + 1}
			}
		}
	}
	devs, err := flowapi.OpenDevices(ctx, o.target(), clocks, logs)
	if err != nil {
		return notOpened(plan, work, prog, err)
	}
	runs := make([]*shardRun, 0, len(work))
	for i := range work {
		var state *flowapi.SimState
		if len(work) == 1 {
			state = o.state // shards each get a fresh device
		}
		dev := devs[i]
		if dev == nil {
			if dev, err = flowapi.OpenDevice(ctx, o.target(), state, clocks[i], logs[i]); err != nil {
				closeAll(ctx, runs)
				return notOpened(plan, work, prog, err)
			}
		}
		runs = append(runs, &shardRun{dev: dev})
		cfg := exec.Config{Device: dev, Clock: clocks[i], Events: logs[i], Observer: obs, Env: o.env,
			NewScripts: flowapi.ScriptsFor(o.graalJS), Files: flowapi.DirFiles{Dir: "."}}
		if len(work) > 1 {
			cfg.Shard = i + 1
		}
		if o.artifacts != "" {
			cfg.Artifacts = flowapi.DirFiles{Dir: o.artifacts}
		}
		runs[i].cfg = cfg
	}
	defer closeAll(ctx, runs)
	refused, err := preplan(ctx, runs[0].dev, plan)
	if err != nil {
		return exec.RunResult{}, err
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
		if err := o.state.SaveSim(runs[0].dev); err != nil {
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

// unopened is a run whose device could not be opened (no device, a
// helper that will not start, an unreachable endpoint): the flows were not
// run, and the report still says so.
type unopened struct{ err error }

func (u unopened) Error() string { return u.err.Error() }
func (u unopened) Unwrap() error { return u.err }

// notOpened answers a device that could not be opened. A device or
// infrastructure failure still yields a result, every flow skipped with
// the reason, so the report is written (no report is lost); invalid input
// (a bad --app file) stops the run before anything, as before.
func notOpened(plan *maestro.ExecutionPlan, work []*maestro.ExecutionPlan, prog *progress, err error) (exec.RunResult, error) {
	ce := canonical.Coded(err)
	if exitCode(ce.Code) != exitDevice {
		return exec.RunResult{}, err
	}
	out := exec.RunResult{Flows: brokenFlows(plan, prog)}
	why := &canonical.Error{Code: ce.Code, Message: "not run: " + ce.Message, Details: ce.Details}
	for i, w := range work {
		shard := 0
		if len(work) > 1 {
			shard = i + 1
		}
		for _, f := range append(append([]*canonical.Flow(nil), w.Sequence...), w.Flows...) {
			out.Flows = append(out.Flows, skippedFlow(f, prog, shard, why))
		}
	}
	return out, unopened{err: err}
}

// brokenFlows reports the flows that could not load, as failed.
func brokenFlows(plan *maestro.ExecutionPlan, prog *progress) []exec.FlowResult {
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

// lockedWriter serialises event lines from concurrent shards.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
func runPlan(ctx context.Context, cfg exec.Config, plan *maestro.ExecutionPlan, obs *progress,
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
func skippedFlow(f *canonical.Flow, obs *progress, shard int, why *canonical.Error) exec.FlowResult {
	r := exec.FlowResult{Name: f.Name, File: f.File, Status: exec.StatusSkipped, Shard: shard, Error: why}
	obs.FlowStarted(f, shard)
	obs.FlowFinished(r)
	return r
}
