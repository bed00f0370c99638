package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/planner"
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
				k, val, ok := strings.Cut(v, "=")
				if !ok {
					err = canonical.Errorf(canonical.CodeInvalidArgs, "-e %q is not KEY=VALUE", v).WithHint("-e USER=ada")
				}
				o.env = append(o.env, exec.Var{Name: k, Value: val})
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

// actionLine writes CLI arguments as one .ad line: flags stay bare, other
// arguments are quoted when they hold spaces, quotes or backslashes.
func actionLine(command string, args []string) string {
	parts := []string{command}
	for _, a := range args {
		// The shell ate the quotes of text="Log in": put them back so the
		// selector reads as one key=value term.
		if k, v, ok := strings.Cut(a, "="); ok && isSelectorKey(k) && strings.ContainsAny(v, " \t") && !strings.HasPrefix(v, "\"") {
			q, _ := json.Marshal(v)
			a = k + "=" + string(q)
		}
		if strings.HasPrefix(a, "--") || (a != "" && !strings.ContainsAny(a, " \t\n\"\\") && !strings.HasPrefix(a, "#")) {
			parts = append(parts, a)
			continue
		}
		q, _ := json.Marshal(a)
		parts = append(parts, string(q))
	}
	return strings.Join(parts, " ")
}

// gestureRecorder keeps the plans a command performed, for --json.
type gestureRecorder struct {
	next    exec.EventLog
	plans   []planner.Plan
	targets map[string]any // a drag's resolved endpoints
}

func (g *gestureRecorder) Record(typ string, fields map[string]any) {
	if p, ok := fields["plan"].(planner.Plan); ok && typ == "gesture" {
		g.plans = append(g.plans, p)
		if t, ok := fields["targets"].(map[string]any); ok {
			g.targets = t
		}
	}
	g.next.Record(typ, fields)
}

func runDeviceCommand(ctx context.Context, env Env, command string, args []string) error {
	o, rest, err := splitCLIArgs(args)
	if err != nil {
		return err
	}
	if err := checkCommandOutputs(o.record, o.events); err != nil {
		return err
	}
	// One lock from the first read of the state dir (the refs) to the last
	// write (state, refs, the --record and --events appends): commands run
	// at once queue here, so each one applies to the state the previous
	// one left.
	state, err := lockSim(ctx, env, o.device)
	if err != nil {
		return err
	}
	defer state.release()
	var act *deviceAction
	if command != "snapshot" {
		// Parsed before the device opens: a typo costs no device start.
		if act, err = parseAction(env, o, state, command, rest); err != nil {
			return err
		}
	}
	s, err := openSession(ctx, env, o, state)
	if err != nil {
		return err
	}
	if command == "snapshot" {
		snap, err := s.snapshot(ctx)
		s.close(ctx)
		if err != nil {
			return err
		}
		printSnapshot(env, snap, o.json)
		return nil
	}
	out, runErr := s.run(ctx, act)
	if err := s.close(ctx); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	res := out.result
	if o.json {
		writeCommandJSON(env, command, res, out.plans)
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

// writeCommandJSON prints agent-device's response shape (§9) for gestures:
// kind, durationMs, pointerCount, from and to (centroids), the execution
// profile and timing, the backend; other commands get their status.
func writeCommandJSON(env Env, command string, res exec.FlowResult, plans []planner.Plan) {
	b, _ := json.Marshal(commandJSON(command, res, plans))
	fmt.Fprintln(env.Stdout, string(b))
}

// commandJSON is a device command's answer, shared by --json and flow mcp.
func commandJSON(command string, res exec.FlowResult, plans []planner.Plan) map[string]any {
	out := map[string]any{"success": res.Status != exec.StatusFailed}
	if res.Error != nil {
		out["error"] = res.Error
	}
	data := map[string]any{"command": command, "durationMs": res.DurationMs}
	if len(plans) > 0 {
		p := plans[len(plans)-1]
		from, to := p.Centroids()
		data = map[string]any{"kind": string(p.Intent), "durationMs": p.DurationMs, "pointerCount": len(p.Pointers),
			"from": from, "to": to, "backend": "sim"}
		if p.ExecutionProfile != "" {
			data["executionProfile"] = p.ExecutionProfile
			data["timing"] = map[string]any{"executionProfile": p.ExecutionProfile, "gestureDurationMs": p.DurationMs}
		}
		if len(plans) > 1 {
			data["count"] = len(plans)
		}
	}
	out["data"] = data
	return out
}

// appendRecording appends the executed action to an .ad script, starting
// it with a context header when the file is new.
func appendRecording(file string, script *compat.Script, device string, opts fsext.WriteOptions) error {
	lines := make([]string, len(script.Actions))
	for i, a := range script.Actions {
		lines[i] = compat.EncodeAction(a)
	}
	return appendScriptLines(file, device, lines, opts)
}

// printSnapshot prints a snapshot: one line per element, indented, each
// element with an id or text numbered @e1, @e2…; --json prints the refs
// and the hierarchy.
func printSnapshot(env Env, snap deviceSnapshot, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"success": true, "data": map[string]any{"refs": snap.refs, "hierarchy": snap.root}})
		fmt.Fprintln(env.Stdout, string(b))
		return
	}
	for _, l := range snap.lines {
		fmt.Fprintln(env.Stdout, l)
	}
}

// selectorChain is the portable selector a ref stands for: the id when the
// element has one, else its text or label.
func selectorChain(n *exec.Node) string {
	q := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	switch {
	case n.ID != "":
		return "id=" + q(n.ID)
	case n.Text != "":
		return "text=" + q(n.Text)
	case n.Label != "":
		return "label=" + q(n.Label)
	}
	return ""
}

// resolveRefs swaps @eN refs (from the last snapshot) for their selectors.
func resolveRefs(state *heldState, args []string) ([]string, error) {
	var chains map[string]string
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if !strings.HasPrefix(a, "@e") {
			continue
		}
		ref, _, _ := strings.Cut(a, "~")
		if chains == nil {
			var err error
			if chains, err = state.readRefs(); err != nil {
				return nil, err
			}
			if chains == nil {
				return nil, canonical.Errorf(canonical.CodeInvalidArgs, "ref %s needs a snapshot first", a).
					WithHint("run flow snapshot to number the elements on screen, then use their @e refs")
			}
		}
		chain, ok := chains[ref]
		if !ok {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "ref %s is not in the last snapshot", a).
				WithHint("run flow snapshot again: refs number the elements of the screen it saw")
		}
		out[i] = chain
	}
	return out, nil
}

func isSelectorKey(k string) bool {
	switch k {
	case "id", "text", "label", "value", "role", "appname", "windowtitle":
		return true
	}
	return false
}
