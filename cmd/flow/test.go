package main

import (
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
			&cli.StringFlag{Name: "device", Value: "sim", Usage: "sim, sim:android, sim:ios, web (headless Chromium through a local chromedriver), android (the one online device) or android:SERIAL, ios or ios:UDID, appium (a native Appium session at --webdriver-url); flow devices lists them"},
			&cli.StringFlag{Name: "ios-runner-url", Usage: "attach to a flow iOS runner that is already running (http://HOST:PORT; ios-runner/PROTOCOL.md); implies --device ios", EnvVars: []string{"FLOW_IOS_RUNNER_URL"}},
			&cli.StringFlag{Name: "android-helper", Usage: "a helper APK to install on Android devices instead of the one flow embeds (default $FLOW_ANDROID_HELPER; flow android helper build makes one)"},
			&cli.StringFlag{Name: "webdriver-url", Usage: "run on a remote W3C WebDriver endpoint (Selenium Grid, Appium, a device farm); a native Appium session when --capabilities say so (docs/webdriver.md)", EnvVars: []string{"FLOW_WEBDRIVER_URL"}},
			&cli.StringFlag{Name: "capabilities", Usage: "JSON file of session capabilities for --webdriver-url (docs/webdriver.md)"},
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
			&cli.IntFlag{Name: "parallel", Usage: "run the flows on N devices from one queue: each device takes the next flow when it is free (with --device a,b,c the count may be left out: one per listed device)"},
			&cli.StringSliceFlag{Name: "app-file", Usage: "install this app on every device before the first flow (repeatable): an .apk on Android, an .app folder (simulator) or .ipa (iPhone) on iOS, a sim app model on sim; Appium gets it as its app capability"},
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
	// parallel is --parallel N: N devices take flows from one queue.
	parallel int
	// devices is --device a,b,c: the run's devices, in order (device is
	// the first).
	devices []string
	// appFiles are --app-file's apps, installed before the first flow.
	appFiles []string
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
	t := flowapi.Target{Device: o.device, Devices: o.devices, Apps: o.apps, AppFiles: o.appFiles, AndroidHelper: o.androidHelper, WebDriverURL: o.webdriverURL,
		Capabilities: o.capabilities, IOSRunnerURL: o.iosRunnerURL, ShardFlag: o.shardFlag(), Shards: o.shards, Env: o.sys}
	if o.parallel > 0 {
		t.Shards = o.parallel
	}
	return t
}

// shardFlag names the flag that asked for several devices, for messages.
func (o testOptions) shardFlag() string {
	if o.parallel > 0 {
		return flowapi.ParallelFlag
	}
	if o.shardAll {
		return "--shard-all"
	}
	return "--shard-split"
}

func readTestOptions(c *cli.Context, env Env) (testOptions, error) {
	o := testOptions{paths: toSlash(c.Args().Slice()), device: c.String("device"), apps: c.StringSlice("app"), appFiles: c.StringSlice("app-file"),
		format: strings.ToLower(c.String("format")), output: c.String("output"), suiteName: c.String("test-suite-name"),
		artifacts: c.String("artifacts"), events: c.String("events"), record: c.String("record"),
		webdriverURL: c.String("webdriver-url"), capabilities: c.String("capabilities"), graalJS: flowapi.GraalFromEnv(env),
		androidHelper: c.String("android-helper"), iosRunnerURL: c.String("ios-runner-url"), sys: env}
	if strings.Contains(o.device, ",") {
		// Parsed here, the narrowest place, for --parallel and the shard
		// flags alike.
		var err error
		if o.devices, err = deviceList(o.device); err != nil {
			return o, err
		}
		o.device = o.devices[0]
	}
	if o.iosRunnerURL != "" {
		if c.IsSet("device") && !flowapi.IsIOSDevice(o.device) {
			return o, canonical.Errorf(canonical.CodeInvalidArgs, "--ios-runner-url runs on an iOS device, not %q", o.device).
				WithHint("drop --device, or use --device ios")
		}
		if !c.IsSet("device") {
			o.device = "ios"
		}
	}
	if o.webdriverURL != "" && o.device != "appium" {
		if c.IsSet("device") && o.device != "web" {
			return o, canonical.Errorf(canonical.CodeInvalidArgs, "--webdriver-url runs on the web device or an Appium session, not %q", o.device).
				WithHint("drop --device, or use --device web or --device appium")
		}
		o.device = "web"
	}
	if o.capabilities != "" && o.device != "web" && o.device != "appium" {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--capabilities applies to WebDriver endpoints only (the web device, Appium)").
			WithHint("add --webdriver-url URL (or --device appium)")
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
	if err := readParallel(c, &o, split > 0 || all > 0); err != nil {
		return o, err
	}
	if o.record != "" && (o.shards > 1 || o.parallel > 1) {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--record cannot be used with --shard-split, --shard-all or --parallel").
			WithHint("record on one device: one script is one sequence of steps")
	}
	o.plan = maestro.PlanOptions{ConfigFile: c.String("config"), KeepGoing: true,
		IncludeTags: splitTags(c.String("include-tags")), ExcludeTags: splitTags(c.String("exclude-tags"))}
	return o, nil
}

// readParallel reads --parallel: N devices, or with a --device list and
// no count (hoistArgs passes a bare --parallel as 0) one per listed
// device. A device list without --parallel or a shard flag is a sharded
// run over the listed devices, as Maestro runs one.
func readParallel(c *cli.Context, o *testOptions, sharded bool) error {
	n := c.Int("parallel")
	if !c.IsSet("parallel") {
		if len(o.devices) > 1 && !sharded {
			o.shards = len(o.devices)
		}
		return nil
	}
	switch {
	case sharded:
		return canonical.NewError(canonical.CodeInvalidArgs, "--parallel cannot be combined with --shard-split or --shard-all").
			WithHint("hand flows to whichever device is free (--parallel N) or split them statically (--shard-split N)")
	case n < 0:
		return canonical.NewError(canonical.CodeInvalidArgs, "--parallel takes a positive number of devices").WithHint("--parallel 2")
	case n == 0 && len(o.devices) == 0:
		return canonical.NewError(canonical.CodeInvalidArgs, "--parallel needs a number of devices, or a device list to run on").
			WithHint("--parallel 2, or --device android:SERIAL1,android:SERIAL2 --parallel")
	case n == 0:
		n = len(o.devices)
	}
	o.parallel = n
	return nil
}

// deviceList reads --device a,b,c: names of one kind (android, ios, sim,
// web, appium), since the devices of one run share its clock and flags.
func deviceList(s string) ([]string, error) {
	var out []string
	kind := ""
	for _, d := range strings.Split(s, ",") {
		d = strings.TrimSpace(d)
		if d == "" {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device %q has an empty entry", s).
				WithHint("separate device names with single commas: --device android:SERIAL1,android:SERIAL2")
		}
		k, _, _ := strings.Cut(d, ":")
		if kind != "" && k != kind {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--device %q mixes %s and %s devices", s, kind, k).
				WithHint("list devices of one kind: one run has one platform")
		}
		kind = k
		out = append(out, d)
	}
	return out, nil
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
	loaded, err := flowapi.Load(c.Context, o.paths, flowapi.LoadOptions{Workspace: o.plan, Vars: o.env, Device: o.device, Env: env})
	if err != nil {
		return err
	}
	// Warnings of every file read are printed before anything runs.
	for _, w := range loaded.Warnings {
		renderWithSnippet(env.Stdout, loaded.Sources, w, "warning: ")
	}
	plan := loaded.Plan
	if err := checkOutputs(o, plan); err != nil {
		return err
	}
	if (o.shards > 1 || o.parallel > 1) && len(plan.Sequence) > 0 {
		return canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run on several shards").
			WithHint("drop --shard-split/--shard-all/--parallel, or remove executionOrder from the workspace config")
	}
	if err := flowapi.CheckAppFiles(o.target()); err != nil {
		return err
	}
	reportFile, err := createReport(o)
	if err != nil {
		return err
	}
	defer reportFile.Abort() // on early returns; after the commit it does nothing
	work := flowapi.ShardWork(plan, o.shards, o.shardAll)
	parallel := o.parallel > 1
	if parallel {
		work = flowapi.ShardWork(plan, 1, false)
	}
	if len(work) == 1 && !parallel && flowapi.IsSimDevice(o.device) {
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
	prog := newProgress(env.Stdout, env.IsTTY && env.Getenv("CI") == "" && env.Getenv("NO_COLOR") == "", flowapi.CountFlows(work)+len(plan.Broken))
	prog.onStep = env.OnStep
	prog.quietSteps = len(work) > 1 || parallel
	wallStart := time.Now()
	var obs exec.Observer = prog
	var rec *stepRecorder
	if o.record != "" {
		rec = newStepRecorder(prog, o.record, o.device, o.env, o.state.WriteOptions())
		obs = rec
	}
	ro := flowapi.RunOptions{Target: o.target(), Vars: o.env, Observer: obs, Events: events, Artifacts: o.artifacts, State: o.state}
	var result exec.RunResult
	if parallel {
		result, err = flowapi.RunParallel(c.Context, plan, o.parallel, ro)
	} else {
		result, err = flowapi.RunPlan(c.Context, plan, work, ro)
	}
	o.state.Release() // the state is saved: waiting commands may go on
	var failedOpen *flowapi.NotOpened
	if err != nil && !errors.As(err, &failedOpen) {
		return err
	}
	// The report comes first: an event log or a recording that could not
	// be written (a full disk) is reported after it, never instead of it.
	var outputErr *canonical.Error
	if eventLog != nil {
		if err := eventLog.Commit(); err != nil {
			outputErr = canonical.Coded(err).WithHint("check the --events path and the free space on its disk")
		}
	}
	if rec != nil && rec.err != nil {
		if outputErr == nil {
			outputErr = canonical.Coded(rec.err)
		} else {
			renderWithSnippet(env.Stderr, nil, canonical.Coded(rec.err), "error: ")
		}
	}
	if rec != nil && rec.err == nil {
		rec.summary(env.Stdout)
	}
	if err := writeReport(o, reportFile, result, o.artifacts != ""); err != nil {
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
		if outputErr != nil {
			renderWithSnippet(env.Stderr, nil, outputErr, "error: ")
		}
		hint := "the flow that was running is reported as interrupted, the flows not started as skipped"
		if o.format != "" {
			hint += "; the report was written"
		}
		return canonical.NewError(canonical.CodeInterrupted, "interrupted").WithHint(hint).Wrap(c.Context.Err())
	}
	verdict := runVerdict(result)
	if failedOpen != nil {
		verdict = failedOpen.Err
	}
	if outputErr != nil {
		if exitCode(canonical.CodeOf(verdict)) <= exitCode(outputErr.Code) {
			return outputErr
		}
		renderWithSnippet(env.Stderr, nil, outputErr, "error: ")
	}
	return verdict
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
