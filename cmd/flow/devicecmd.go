package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	flowapi "github.com/flow-runner/flow"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// deviceCommands are the CLI commands that act on the selected device one at
// a time. Each is one .ad action line: the CLI builds the line from its
// arguments and runs it through the same codec, arity table, canonical
// commands and runtime as scripts and YAML, so the CLI and .ad cannot drift.
func deviceCommands(env Env) []*cli.Command {
	usage := map[string]string{
		"open":       "open APP [URL]: launch an app (or open a link in it)",
		"close":      "close [APP]: stop an app",
		"press":      "press SELECTOR | X Y: tap an element or a point",
		"click":      "click SELECTOR | X Y: same as press",
		"longpress":  "longpress SELECTOR | X Y [MS]: long-press",
		"fill":       "fill SELECTOR TEXT: tap a field and type",
		"type":       "type TEXT: type into the focused field",
		"swipe":      "swipe X1 Y1 X2 Y2 [--count N --pause-ms MS --pattern one-way|ping-pong]",
		"scroll":     "scroll up|down|left|right [AMOUNT] [--until SELECTOR]",
		"gesture":    "gesture pan|fling|swipe|pinch|rotate|transform|drag ARGS... [--pointer-count 2]",
		"back":       "back: press back",
		"home":       "home: leave the app",
		"snapshot":   "snapshot: print the screen's elements",
		"screenshot": "screenshot [PATH]: save a PNG",
		"wait":       "wait SELECTOR [TIMEOUT_MS] | wait text TEXT: wait for an element",
		"is":         "is visible|hidden|exists|absent SELECTOR: check an element",
	}
	var out []*cli.Command
	for _, name := range []string{"open", "close", "press", "click", "longpress", "fill", "type", "swipe", "scroll",
		"gesture", "back", "home", "snapshot", "screenshot", "wait", "is"} {
		out = append(out, &cli.Command{
			Name:            name,
			Usage:           usage[name],
			Category:        "device",
			SkipFlagParsing: true,
			Description: `Acts on the selected device (--device sim by default; sim keeps its state between
   commands). --json prints a machine-readable response; --record FILE.ad appends the command to a
   script that flow test FILE.ad replays; --events FILE appends the device event log. Arguments follow the .ad syntax (selectors like
   text="Log in" or id=email).`,
			Action: func(c *cli.Context) error {
				// The arguments are an action line, not parsed as flags,
				// so help is recognised only as the sole argument.
				if a := c.Args().Slice(); len(a) == 1 && (a[0] == "--help" || a[0] == "-h") {
					return cli.ShowSubcommandHelp(c)
				}
				return runDeviceCommand(c.Context, env, name, c.Args().Slice())
			},
		})
	}
	return out
}

// cliOptions are the flags every device command takes; the rest of the
// arguments belong to the action line.
type cliOptions struct {
	device string
	json   bool
	record string
	events string
	apps   []string
	env    []exec.Var
	// androidHelper is --android-helper.
	androidHelper string
	// webdriverURL and capabilities reach an Appium session (flow mcp's
	// open_device).
	webdriverURL, capabilities string
}

func splitCLIArgs(args []string) (cliOptions, []string, error) {
	o := cliOptions{device: "sim"}
	var rest []string
	value := func(i int, name string) (string, error) {
		if i+1 >= len(args) {
			return "", canonical.Errorf(canonical.CodeInvalidArgs, "%s needs a value", name).WithHint(name + " VALUE")
		}
		return args[i+1], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, inline, hasInline := strings.Cut(a, "=")
		get := func() (string, error) {
			if hasInline {
				return inline, nil
			}
			v, err := value(i, name)
			i++
			return v, err
		}
		var err error
		switch name {
		case "--device":
			o.device, err = get()
		case "--json":
			o.json = true
		case "--record":
			o.record, err = get()
		case "--events":
			o.events, err = get()
		case "--android-helper":
			o.androidHelper, err = get()
		case "--app":
			var v string
			v, err = get()
			o.apps = append(o.apps, v)
		case "-e", "--env":
			var v string
			if v, err = get(); err == nil {
				var fv exec.Var
				if fv, err = flowVar(v); err == nil {
					o.env = append(o.env, fv)
				}
			}
		default:
			rest = append(rest, a)
		}
		if err != nil {
			return o, nil, err
		}
	}
	return o, rest, nil
}

func runDeviceCommand(ctx context.Context, env Env, command string, args []string) error {
	o, rest, err := splitCLIArgs(args)
	if err != nil {
		return err
	}
	if err := checkCommandOutputs(o.record, o.events); err != nil {
		return err
	}
	if o.device == "web" || o.device == "appium" {
		// A browser session does not outlive the process, so a pipeline of
		// separate commands would start each on a fresh page.
		return canonical.NewError(canonical.CodeUnsupportedOperation, "device commands cannot run on the web device or Appium: a WebDriver session ends with each command").
			WithHint("put the steps in a flow or an .ad script and run it with flow test --device web, or keep one session open with flow mcp")
	}
	// The session holds sim's state lock from the first read of the state
	// dir (the refs) to the last write (state, refs, the --record and
	// --events appends): commands run at once queue there, so each one
	// applies to the state the previous one left. The device opens only
	// once the command parsed, so a typo costs no device start.
	s, err := flowapi.OpenSession(ctx, o.session(env))
	if err != nil {
		return err
	}
	defer s.Close(ctx)
	if command == "snapshot" {
		snap, err := s.Snapshot(ctx)
		if err != nil {
			return err
		}
		printSnapshot(env, snap, o.json)
		return s.Close(ctx)
	}
	out, runErr := s.Do(ctx, command, rest...)
	for _, w := range out.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s\n", indentLines(printable(w), "  "))
	}
	if err := s.Close(ctx); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	res := out.Result
	if o.json {
		b, _ := json.Marshal(out.Answer(command))
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		for _, s := range res.Steps {
			symbol := map[exec.Status]string{exec.StatusPassed: "✓", exec.StatusFailed: "✗", exec.StatusWarned: "!", exec.StatusSkipped: "-"}[s.Status]
			fmt.Fprintf(env.Stdout, "%s %s %s\n", symbol, oneLine(s.Command), duration(s.DurationMs))
		}
	}
	if res.Error != nil {
		if o.json {
			return reported{err: res.Error}
		}
		return res.Error
	}
	return nil
}

// session is the flags as the session they open.
func (o cliOptions) session(env Env) flowapi.SessionOptions {
	return flowapi.SessionOptions{Target: flowapi.Target{Device: o.device, Apps: o.apps, AndroidHelper: o.androidHelper,
		WebDriverURL: o.webdriverURL, Capabilities: o.capabilities, Env: env},
		Record: o.record, Events: o.events, Vars: o.env}
}

// printSnapshot prints a snapshot: one line per element, indented, each
// element with an id or text numbered @e1, @e2…; --json prints the refs
// and the hierarchy.
func printSnapshot(env Env, snap flowapi.Snapshot, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"success": true, "data": map[string]any{"refs": snap.Refs, "hierarchy": snap.Root}})
		fmt.Fprintln(env.Stdout, string(b))
		return
	}
	for _, l := range snap.Lines {
		fmt.Fprintln(env.Stdout, l)
	}
}
