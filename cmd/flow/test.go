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
	cmd := &cli.Command{
		Name:      "test",
		Usage:     "run flows (files, folders or Maestro workspaces) on a device",
		ArgsUsage: "PATH...",
		Description: `Runs Maestro flows with Maestro's semantics. A folder with config.yaml is a Maestro
   workspace (flows globs, tags, executionOrder). --device sim needs no hardware: flow's built-in
   simulated device, with the demo app installed. Exit codes: 0 all passed, 1 a flow failed,
   2 invalid input, 3 device or infrastructure.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "device", Aliases: []string{"udid"}, Value: "sim", Usage: "sim, sim:android, sim:ios, web (headless Chromium through a local chromedriver), android (the one online device) or android:SERIAL, ios or ios:UDID, appium (a native Appium session at --webdriver-url); a Maestro device ID (an adb serial, a UDID); a comma list picks the devices of --shard-split/--shard-all in order; flow devices lists them"},
			&cli.StringFlag{Name: "platform", Aliases: []string{"p"}, Usage: "android, ios or web: without --device, flow's device of that platform; with --device sim, the simulated platform; with a device ID, how to read it"},
			&cli.StringFlag{Name: "host", Usage: "host of the adb server Android devices are reached through (default 127.0.0.1; also ADB_SERVER_SOCKET=tcp:HOST:PORT)"},
			&cli.IntFlag{Name: "port", Usage: "port of that adb server (default 5037; also ANDROID_ADB_SERVER_PORT)"},
			&cli.BoolFlag{Name: "continuous", Aliases: []string{"c"}, Usage: "run the flow again each time it or a file it uses is saved, until Ctrl-C (one flow file, no report)", DisableDefaultText: true},
			&cli.IntFlag{Name: "shards", Aliases: []string{"s"}, Usage: "deprecated (Maestro): --shard-split"},
			&cli.BoolFlag{Name: "headless", Usage: "web: run the browser headless (flow's web device always is)", DisableDefaultText: true},
			&cli.StringFlag{Name: "ios-runner-url", Usage: "attach to a flow iOS runner that is already running (http://HOST:PORT; ios-runner/PROTOCOL.md); implies --device ios", EnvVars: []string{"FLOW_IOS_RUNNER_URL"}},
			&cli.StringFlag{Name: "android-helper", Usage: "a helper APK to install on Android devices instead of the one flow embeds (default $FLOW_ANDROID_HELPER; flow android helper build makes one)"},
			&cli.StringFlag{Name: "webdriver-url", Usage: "run on a remote W3C WebDriver endpoint (Selenium Grid, Appium, a device farm); a native Appium session when --capabilities say so (docs/webdriver.md)", EnvVars: []string{"FLOW_WEBDRIVER_URL"}},
			&cli.StringFlag{Name: "capabilities", Usage: "JSON file of session capabilities for --webdriver-url (docs/webdriver.md)"},
			&cli.StringSliceFlag{Name: "app", Usage: "app model installed on sim (repeatable); the demo app is always installed"},
			&cli.StringSliceFlag{Name: "env", Aliases: []string{"e"}, Usage: "KEY=VALUE passed to flows (repeatable)"},
			&cli.StringFlag{Name: "include-tags", Usage: "run only flows with one of these tags (comma-separated)"},
			&cli.StringFlag{Name: "exclude-tags", Usage: "skip flows with one of these tags (comma-separated)"},
			&cli.StringFlag{Name: "config", Usage: "workspace config file (default: config.yaml in the first folder given)"},
			&cli.StringFlag{Name: "format", Usage: "report format: junit, json, html, or noop for none; as in Maestro the format of the one report (default: from the --output extension)"},
			&cli.GenericFlag{Name: "output", Value: &repeatedFlag{}, Usage: "report file (default report.xml, report.json or report.html); repeatable: each file's extension, .xml, .json or .html, picks its format"},
			&cli.StringFlag{Name: "debug-output", Usage: "write Maestro's debug output here: maestro.log, commands-(FLOW).json per flow, failure screenshots (in .maestro/tests/<date>_<time>/ unless --flatten-debug-output)"},
			&cli.BoolFlag{Name: "flatten-debug-output", Usage: "write the --debug-output files straight into its folder, without the .maestro/tests/<date>_<time> subfolder"},
			&cli.StringFlag{Name: "test-suite-name", Value: "Test Suite", Usage: "JUnit testsuite name"},
			&cli.StringFlag{Name: "artifacts", Usage: "folder for the screenshot and hierarchy of every failure"},
			&cli.StringFlag{Name: "events", Usage: "write every device action as JSON lines to this file"},
			&cli.IntFlag{Name: "shard-split", Usage: "split the flows across N devices run at once"},
			&cli.IntFlag{Name: "shard-all", Usage: "run every flow on each of N devices at once"},
			&cli.IntFlag{Name: "parallel", Usage: "run the flows on N devices from one queue: each device takes the next flow when it is free (with --device a,b,c the count may be left out: one per listed device)"},
			&cli.StringSliceFlag{Name: "app-file", Usage: "install this app on every device before the first flow (repeatable): an .apk on Android, an .app folder (simulator) or .ipa (iPhone) on iOS, a sim app model on sim; Appium gets it as its app capability"},
			&cli.StringFlag{Name: "record", Usage: "append every passed top-level step that has an exact .ad form to this .ad script"},
			maestroVersionFlag(),
		},
		Action: func(c *cli.Context) error { return runTest(c, env) },
	}
	cmd.Flags = append(cmd.Flags, outputFlags()...)
	return cmd
}

// testOptions are flow test's flags, read once.
type testOptions struct {
	paths  []string
	device string
	apps   []string
	env    []exec.Var
	plan   maestro.PlanOptions
	// reports are the --output reports (readReportOutputs).
	reports   []reportOutput
	suiteName string
	// debugOutput and flattenDebug are --debug-output and
	// --flatten-debug-output.
	debugOutput  string
	flattenDebug bool
	artifacts    string
	events       string
	record       string
	// webdriverURL and capabilities select the web device's endpoint.
	webdriverURL string
	capabilities string
	shards       int
	shardAll     bool
	// parallel is --parallel N: N devices take flows from one queue.
	parallel int
	// devices is --device a,b,c: the devices of a sharded or parallel
	// run, in order (device is the first); nil for one device.
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
	// maestroVersion is --maestro-version or FLOW_MAESTRO_VERSION; ""
	// lets the workspace config decide.
	maestroVersion canonical.MaestroVersion
	// sys is the process environment, where devices find their tools (adb,
	// the Android SDK, FLOW_ANDROID_HELPER).
	sys Env
	// continuous is -c: rerun the flow on every save.
	continuous bool
	// verbose prints every step, also of shards running at once.
	verbose bool
	// terminal colours the progress and redraws the running step.
	terminal bool
	// warnings are the flags' one-line warnings, printed before the run.
	warnings []string
	// shardGiven is true when --shard-split, --shard-all or -s was given.
	shardGiven bool
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
		suiteName: c.String("test-suite-name"), debugOutput: c.String("debug-output"), flattenDebug: c.Bool("flatten-debug-output"),
		artifacts: c.String("artifacts"), events: c.String("events"), record: c.String("record"),
		webdriverURL: c.String("webdriver-url"), capabilities: c.String("capabilities"), graalJS: flowapi.GraalFromEnv(env),
		androidHelper: c.String("android-helper"), iosRunnerURL: c.String("ios-runner-url"), sys: env,
		continuous: c.Bool("continuous"), verbose: c.Bool("verbose"), terminal: terminal(c, env)}
	var err error
	if o.maestroVersion, err = maestroVersion(c, env); err != nil {
		return o, err
	}
	choice, err := chooseDevice(o.device, c.IsSet("device"), c.String("platform"))
	if err != nil {
		return o, err
	}
	o.device, o.devices, o.warnings = choice.device, choice.list, choice.warnings
	socket, err := adbServer(c)
	if err != nil {
		return o, err
	}
	if socket != "" {
		if flowapi.IsAndroidDevice(o.device) {
			o.sys = withEnv(o.sys, "ADB_SERVER_SOCKET", socket)
		} else {
			o.warn("--host and --port reach an adb server, which --device %s does not use; ignored", o.device)
		}
	}
	if c.Bool("headless") && o.device != "web" {
		o.warn("--headless applies to the web device, not --device %s; ignored", o.device)
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
	var outputs []string
	if r, ok := c.Generic("output").(*repeatedFlag); ok {
		outputs = r.values
	}
	if strings.EqualFold(c.String("format"), "noop") && len(outputs) > 0 {
		// Maestro's NOOP writes no report, whatever --output says
		// (TestCommand.saveReport writes only formats with an extension).
		o.warn("--format noop writes no report; --output %s is ignored", strings.Join(outputs, ", "))
	}
	if o.reports, err = readReportOutputs(strings.ToLower(c.String("format")), outputs); err != nil {
		return o, err
	}
	if o.env, err = maestroVars(env, c.StringSlice("env")); err != nil {
		return o, err
	}
	split, all := c.Int("shard-split"), c.Int("shard-all")
	if c.IsSet("shards") {
		// Maestro's words (TestCommand.call), and its precedence: -s
		// replaces --shard-split.
		o.warn("--shards option is deprecated and will be removed in the next Maestro version. Use --shard-split or --shard-all instead.")
		split = c.Int("shards")
	}
	switch {
	case split > 0 && all > 0:
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--shard-split and --shard-all cannot be combined").
			WithHint("split the flows across devices (--shard-split N) or run all of them on each (--shard-all N)")
	case split < 0 || all < 0:
		return o, canonical.NewError(canonical.CodeInvalidArgs, "shard counts must be positive").WithHint("--shard-split 2")
	}
	o.shards, o.shardAll = max(split, all, 1), all > 0
	o.shardGiven = split > 0 || all > 0
	if err := readParallel(c, &o, o.shardGiven); err != nil {
		return o, err
	}
	if o.parallel == 0 {
		if err := o.checkDeviceList(split, all); err != nil {
			return o, err
		}
	}
	if o.continuous {
		if err := o.checkContinuous(); err != nil {
			return o, err
		}
	}
	if o.record != "" && (o.shards > 1 || o.parallel > 1) {
		return o, canonical.NewError(canonical.CodeInvalidArgs, "--record cannot be used with --shard-split, --shard-all or --parallel").
			WithHint("record on one device: one script is one sequence of steps")
	}
	if err := configExists(c.String("config")); err != nil {
		return o, err
	}
	o.plan = maestro.PlanOptions{ConfigFile: c.String("config"), KeepGoing: true,
		IncludeTags: splitTags(c.String("include-tags")), ExcludeTags: splitTags(c.String("exclude-tags"))}
	return o, nil
}

// warn adds a one-line warning, printed before the run.
func (o *testOptions) warn(format string, args ...any) {
	o.warnings = append(o.warnings, fmt.Sprintf(format, args...))
}

// checkDeviceList holds --device a,b against the shard flags: the list
// names the devices of the shards, so it needs one per shard (Maestro:
// "Not enough devices connected ... to run the requested number of
// shards", TestCommand.handleSessions); without a shard flag the run
// uses the first, as Maestro's does.
func (o *testOptions) checkDeviceList(split, all int) error {
	if len(o.devices) == 0 {
		return nil
	}
	asked := max(split, all)
	switch {
	case asked > len(o.devices):
		flag := "--shard-split"
		if all > 0 {
			flag = "--shard-all"
		}
		return canonical.Errorf(canonical.CodeInvalidArgs, "--device lists %d devices; %s %d needs %d", len(o.devices), flag, asked, asked).
			WithHint(fmt.Sprintf("list %d devices, or lower %s to %d", asked, flag, len(o.devices)))
	case asked <= 1:
		o.warn("--device lists %d devices; without --shard-split or --shard-all the run uses the first, %s", len(o.devices), o.device)
		o.devices = nil
	}
	return nil
}

// checkContinuous: -c reruns one flow file and writes no report, as
// Maestro's (TestCommand.runShardSuite refuses it for several flows, a
// report or a replicated run).
func (o *testOptions) checkContinuous() error {
	refuse := func(why string) error {
		return canonical.Errorf(canonical.CodeInvalidArgs, "--continuous runs one flow file; %s", why).
			WithHint("give one flow file: flow test -c flows/login.yaml")
	}
	switch {
	case len(o.paths) != 1:
		return refuse(fmt.Sprintf("%d paths were given", len(o.paths)))
	case len(o.reports) > 0:
		return refuse("it writes no report (drop --format/--output)")
	case o.shards > 1 || o.parallel > 1:
		return refuse("it runs on one device (drop --shard-split/--shard-all/--parallel)")
	case o.record != "":
		return refuse("--record cannot follow its reruns")
	}
	if info, err := os.Stat(o.paths[0]); err == nil && info.IsDir() {
		return refuse(o.paths[0] + " is a folder")
	}
	return nil
}

// readParallel reads --parallel: N devices, or with a --device list and
// no count (hoistArgs passes a bare --parallel as 0) one per listed
// device. A device list without --parallel is checkDeviceList's: the
// devices of the shards, or the first alone, as Maestro uses a list.
func readParallel(c *cli.Context, o *testOptions, sharded bool) error {
	n := c.Int("parallel")
	if !c.IsSet("parallel") {
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
	for _, w := range o.warnings {
		fmt.Fprintf(env.Stdout, "warning: %s\n", w)
	}
	if o.continuous {
		return runContinuous(c, env, o)
	}
	return runTestOnce(c, env, o)
}

// runTestOnce loads the flows and runs them once, as flow test does.
func runTestOnce(c *cli.Context, env Env, o testOptions) error {
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
	if (o.shards > 1 || o.parallel > 1) && len(plan.Sequence) > 0 {
		return canonical.NewError(canonical.CodeInvalidArgs, "executionOrder.flowsOrder cannot run on several shards").
			WithHint("drop --shard-split/--shard-all/--parallel, or remove executionOrder from the workspace config")
	}
	if err := flowapi.CheckAppFiles(o.target()); err != nil {
		return err
	}
	reportFiles, err := createReports(o.reports)
	if err != nil {
		return err
	}
	defer abortReports(reportFiles) // on early returns; after the commit it does nothing
	if o.flattenDebug && o.debugOutput == "" {
		fmt.Fprintln(env.Stdout, "warning: --flatten-debug-output does nothing without --debug-output DIR: flow writes no debug output unless asked")
	}
	// The reports and the debug output show a failed flow's screenshot:
	// without --artifacts the run still takes it, into a folder of its own
	// that is removed when the run ends.
	artifacts, tempArtifacts := o.artifacts, false
	if artifacts == "" && (o.debugOutput != "" || needsScreenshots(o.reports)) {
		if artifacts, err = os.MkdirTemp("", "flow-artifacts-"); err != nil {
			return canonical.Coded(err).WithHint("check the free space of the temporary folder ($TMPDIR)")
		}
		tempArtifacts = true
		defer os.RemoveAll(artifacts)
	}
	work := flowapi.ShardWork(plan, o.shards, o.shardAll)
	parallel := o.parallel > 1
	if parallel {
		work = flowapi.ShardWork(plan, 1, false)
	}
	if o.shardGiven {
		for _, line := range shardLines(o, len(plan.Flows), len(work)) {
			fmt.Fprintln(env.Stdout, line)
		}
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
	prog := newProgress(env.Stdout, o.terminal, flowapi.CountFlows(work)+len(plan.Broken))
	prog.onStep = env.OnStep
	prog.quietSteps = (len(work) > 1 || parallel) && !o.verbose
	wallStart := time.Now()
	var obs exec.Observer = prog
	var debug *debugOutput
	if o.debugOutput != "" {
		dir := debugFolder(o.debugOutput, o.flattenDebug, wallStart)
		if debug, err = newDebugOutput(prog, dir, o.singleFlowMode(), artifacts, tempArtifacts, flowVersion()); err != nil {
			return err
		}
		defer debug.close()
		obs = debug
	} else if tempArtifacts {
		obs = hiddenArtifacts{prog}
	}
	var rec *stepRecorder
	if o.record != "" {
		rec = newStepRecorder(obs, o.record, o.device, o.env, o.state.WriteOptions())
		obs = rec
	}
	ro := flowapi.RunOptions{Target: o.target(), Vars: o.env, Observer: obs, Events: events, Artifacts: artifacts, State: o.state}
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
	if debug != nil {
		if err := debug.close(); err != nil {
			if outputErr == nil {
				outputErr = canonical.Coded(err)
			} else {
				renderWithSnippet(env.Stderr, nil, canonical.Coded(err), "error: ")
			}
		}
	}
	in := reportInputs{suiteName: o.suiteName, artifacts: artifacts, temporary: tempArtifacts}
	in.attachments = attachments(o, artifacts, debug, &outputErr)
	if err := writeReports(reportFiles, result, in); err != nil {
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
	for _, r := range o.reports {
		fmt.Fprintf(env.Stdout, "report: %s\n", oneLine(r.path))
	}
	if debug != nil {
		fmt.Fprintf(env.Stdout, "debug output: %s\n", oneLine(debug.dir))
	}
	if c.Context.Err() != nil {
		if outputErr != nil {
			renderWithSnippet(env.Stderr, nil, outputErr, "error: ")
		}
		hint := "the flow that was running is reported as interrupted, the flows not started as skipped"
		if len(o.reports) == 1 {
			hint += "; the report was written"
		} else if len(o.reports) > 1 {
			hint += "; the reports were written"
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
