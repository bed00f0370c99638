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
			&cli.StringFlag{Name: "record", Usage: "append every passed top-level step that has an exact .ad form to this .ad script"},
			maestroVersionFlag(),
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
	// maestroVersion is --maestro-version or FLOW_MAESTRO_VERSION; ""
	// lets the workspace config decide.
	maestroVersion canonical.MaestroVersion
	// sys is the process environment, where devices find their tools (adb,
	// the Android SDK, FLOW_ANDROID_HELPER).
	sys Env
}

// target is the device part of the options, as flow opens devices.
func (o testOptions) target() flowapi.Target {
	return flowapi.Target{Device: o.device, Apps: o.apps, AndroidHelper: o.androidHelper, WebDriverURL: o.webdriverURL,
		Capabilities: o.capabilities, IOSRunnerURL: o.iosRunnerURL, ShardFlag: o.shardFlag(), Shards: o.shards, Env: o.sys}
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
	var err error
	if o.maestroVersion, err = maestroVersion(c, env); err != nil {
		return o, err
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
	loaded, err := flowapi.Load(c.Context, o.paths, flowapi.LoadOptions{Workspace: o.plan, Vars: o.env, Device: o.device, Env: env,
		MaestroVersion: o.maestroVersion})
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
	if o.shards > 1 && len(plan.Sequence) > 0 {
		return canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run on several shards").
			WithHint("drop --shard-split/--shard-all, or remove executionOrder from the workspace config")
	}
	reportFile, err := createReport(o)
	if err != nil {
		return err
	}
	defer reportFile.Abort() // on early returns; after the commit it does nothing
	work := flowapi.ShardWork(plan, o.shards, o.shardAll)
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
	prog := newProgress(env.Stdout, env.IsTTY && env.Getenv("CI") == "" && env.Getenv("NO_COLOR") == "", flowapi.CountFlows(work)+len(plan.Broken))
	prog.onStep = env.OnStep
	prog.quietSteps = len(work) > 1
	wallStart := time.Now()
	var obs exec.Observer = prog
	var rec *stepRecorder
	if o.record != "" {
		rec = newStepRecorder(prog, o.record, o.device, o.env, o.state.WriteOptions())
		obs = rec
	}
	result, err := flowapi.RunPlan(c.Context, plan, work, flowapi.RunOptions{Target: o.target(), Vars: o.env,
		Observer: obs, Events: events, Artifacts: o.artifacts, State: o.state})
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
