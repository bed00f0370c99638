package flow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/planner"
)

// Session is one device that actions run on, one at a time: the CLI's
// device commands open one per command, flow mcp keeps one between tool
// calls, a Go program keeps it as long as it likes. Each action is an .ad
// action line run through the same codec, canonical commands and runtime
// as scripts and YAML, so every surface performs and records it alike.
// A Session is not safe for concurrent use.
type Session struct {
	env    Env
	o      SessionOptions
	state  *SimState
	dev    exec.Device
	clock  exec.Clock
	rec    *gestureRecorder
	events bytes.Buffer
}

// deviceAction is a parsed action: its .ad line, the flow it normalizes
// to, and the script a recording appends.
type deviceAction struct {
	command  string
	line     string
	flow     *canonical.Flow
	script   *ad.Script
	warnings []string
}

// Outcome is what an action did: the runtime's result (a failed action
// is a result with an Error, not an error), the plans of the gestures it
// performed, and what normalizing its line warned about.
type Outcome struct {
	Result   exec.FlowResult
	Plans    []planner.Plan
	Warnings []string
}

// Snapshot is the screen read with refs: each element with an id, text or
// label is numbered @e1, @e2… in Lines, and Refs maps a ref to a portable
// selector that later actions may use in its place.
type Snapshot struct {
	Root  *exec.Node
	Refs  map[string]string
	Lines []string
}

// OpenSession prepares a session on o.Device (sim, web, android[:SERIAL],
// ios[:UDID], appium; web is a headless Chromium, or WebDriverURL's
// endpoint, and appium a phone through WebDriverURL's Appium server or
// farm, for as long as the session lasts). The device itself opens with
// the first action that parses, so a mistyped action costs no device
// start. On sim the session holds the state folder's lock (Env.StateDir)
// until Close: sim's screen carries over between sessions, as between CLI
// commands, and two sessions never write over each other.
func OpenSession(ctx context.Context, o SessionOptions) (*Session, error) {
	if o.Device == "" {
		o.Device = "sim"
	}
	var state *SimState
	if IsSimDevice(o.Device) {
		var err error
		if state, err = LockSimState(ctx, o.Env); err != nil {
			return nil, err
		}
	}
	s := &Session{env: o.Env, o: o, state: state, clock: ClockFor(o.Device), rec: &gestureRecorder{next: exec.NopLog{}}}
	if o.Events != "" {
		s.rec.next = exec.NewJSONLog(&s.events, s.clock)
	}
	return s, nil
}

// Do runs one action given as the CLI's device command and its arguments
// (`press text="Log in"`, `swipe 540 1800 540 900 --count 2`); @eN refs
// of the last Snapshot are swapped for their selectors first.
func (s *Session) Do(ctx context.Context, command string, args ...string) (Outcome, error) {
	args, err := resolveRefs(s.state, args)
	if err != nil {
		return Outcome{}, err
	}
	return s.DoLine(ctx, command, actionLine(command, args))
}

// DoLine runs one .ad action line whose command is command.
func (s *Session) DoLine(ctx context.Context, command, line string) (Outcome, error) {
	act, err := s.parse(command, line)
	if err != nil {
		return Outcome{}, err
	}
	if err := s.open(ctx); err != nil {
		return Outcome{}, err
	}
	return s.run(ctx, act)
}

// parse normalizes one .ad action line.
func (s *Session) parse(command, line string) (*deviceAction, error) {
	flow, script, err := LoadAdSource("<command line>", []byte(line+"\n"), s.o.Vars, s.env.Environment(), strings.TrimPrefix(strings.TrimPrefix(s.o.Device, "sim"), ":"))
	if err != nil {
		// The command line is not a file: drop the script position.
		if ce, ok := canonical.AsError(err); ok {
			ce.Message = strings.Replace(ce.Message, " (line 1)", "", 1)
			ce.Pos = canonical.Pos{}
		}
		return nil, err
	}
	act := &deviceAction{command: command, line: line, flow: flow, script: script}
	for _, w := range flow.Warnings {
		act.warnings = append(act.warnings, w.Message)
	}
	return act, nil
}

func (s *Session) open(ctx context.Context) error {
	if s.dev != nil {
		return nil
	}
	t := s.o.Target
	t.Env = s.env
	dev, err := OpenDevice(ctx, t, s.state, s.clock, s.rec)
	if err != nil {
		return err
	}
	s.dev = dev
	return nil
}

// Device is the open device, opening it if no action has yet.
func (s *Session) Device(ctx context.Context) (exec.Device, error) {
	if err := s.open(ctx); err != nil {
		return nil, err
	}
	return s.dev, nil
}

// run performs one action and keeps what it changed: the sim state, the
// event log and the recording are written before run returns, so a
// session that ends abruptly has lost nothing it answered for.
func (s *Session) run(ctx context.Context, act *deviceAction) (Outcome, error) {
	s.rec.plans, s.rec.targets = nil, nil
	act.flow.Name = act.line
	res := exec.RunFlow(ctx, exec.Config{Device: s.dev, Clock: s.clock, Events: s.rec, NewScripts: ScriptsFor(GraalFromEnv(s.env)),
		Files: DirFiles{Dir: "."}, Env: s.o.Vars}, act.flow)
	out := Outcome{Result: res, Plans: s.rec.plans, Warnings: act.warnings}
	if err := s.flushEvents(); err != nil {
		return out, err
	}
	if err := s.state.SaveSim(s.dev); err != nil {
		return out, err
	}
	if res.Status != exec.StatusFailed && s.o.Record != "" && act.script != nil {
		if s.rec.targets != nil && len(act.script.Actions) == 1 {
			src, _ := s.rec.targets["source"].(canonical.Identity)
			dst, _ := s.rec.targets["destination"].(canonical.Identity)
			act.script.Actions[0].Targets = &ad.TargetPair{Source: ad.IdentityEvidence(src), Destination: ad.IdentityEvidence(dst)}
		}
		if err := appendRecording(s.o.Record, act.script, s.o.Device, s.state.WriteOptions()); err != nil {
			return out, err
		}
	}
	return out, nil
}

// flushEvents appends the events so far to --events: appended, so a
// pipeline of commands builds one log; atomically, so a command that dies
// midway never tears the log's last line.
func (s *Session) flushEvents() error {
	if s.o.Events == "" || s.events.Len() == 0 {
		return nil
	}
	if dir := filepath.Dir(s.o.Events); dir != "." {
		_ = os.MkdirAll(dir, 0o755)
	}
	if err := fsext.AppendFile(s.o.Events, s.events.Bytes(), s.state.WriteOptions()); err != nil {
		return canonical.Coded(err).WithHint("check the --events path")
	}
	s.events.Reset()
	return nil
}

// Snapshot reads the screen and numbers its elements with an id or text
// @e1, @e2…; later actions may name an element by its ref, which is
// swapped for a portable selector (id=… or text=…), so recordings never
// hold session-local refs.
func (s *Session) Snapshot(ctx context.Context) (Snapshot, error) {
	if err := s.open(ctx); err != nil {
		return Snapshot{}, err
	}
	root, err := s.dev.Hierarchy(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Root: root, Refs: map[string]string{}}
	n := 0
	var walk func(node *exec.Node, depth int)
	walk = func(node *exec.Node, depth int) {
		var parts []string
		if chain := selectorChain(node); chain != "" {
			n++
			ref := fmt.Sprintf("@e%d", n)
			snap.Refs[ref] = chain
			parts = append(parts, ref)
		}
		for _, kv := range [][2]string{{"id", node.ID}, {"text", node.Text}, {"label", node.Label}, {"hint", node.Hint}} {
			if kv[1] != "" {
				parts = append(parts, fmt.Sprintf("%s=%q", kv[0], kv[1]))
			}
		}
		if node.Bounds != nil {
			parts = append(parts, fmt.Sprintf("[%d,%d %dx%d]", node.Bounds.X, node.Bounds.Y, node.Bounds.W, node.Bounds.H))
		}
		if node.Checked {
			parts = append(parts, "checked")
		}
		if !node.Enabled {
			parts = append(parts, "disabled")
		}
		if len(parts) > 0 {
			snap.Lines = append(snap.Lines, strings.Repeat("  ", depth)+strings.Join(parts, " "))
			depth++
		}
		for _, c := range node.Children {
			walk(c, depth)
		}
	}
	walk(root, 0)
	if err := s.state.writeRefs(snap.Refs); err != nil {
		return Snapshot{}, err
	}
	return snap, nil
}

// Close ends the device (a helper session, a runner), writes what is left
// of the event log and lets go of sim's state folder. A second Close does
// nothing.
func (s *Session) Close(ctx context.Context) error {
	if s.dev != nil {
		if c, ok := s.dev.(exec.Closer); ok {
			_ = c.Close(context.WithoutCancel(ctx))
		}
		s.dev = nil
	}
	err := s.flushEvents()
	s.state.Release()
	s.state = nil
	return err
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

// Answer is the action's answer as `flow COMMAND --json` prints it and
// flow mcp returns it: success, then for gestures kind, durationMs,
// pointerCount, from and to (centroids), the execution profile and
// timing, the backend; for other commands their name and duration.
func (o Outcome) Answer(command string) map[string]any {
	res, plans := o.Result, o.Plans
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
func appendRecording(file string, script *ad.Script, device string, opts fsext.WriteOptions) error {
	lines := make([]string, len(script.Actions))
	for i, a := range script.Actions {
		lines[i] = ad.EncodeAction(a)
	}
	return AppendScriptLines(file, device, lines, opts)
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
func resolveRefs(state *SimState, args []string) ([]string, error) {
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

// AppendScriptLines appends lines to an .ad script, starting a new or
// empty script with its context header. Each append replaces the script
// atomically (fsext.Append), so flow dying midway leaves the script as
// it was before the step, never a torn line a replay cannot parse; and
// under the script's lock, so commands recording to one script from
// separate processes lose no line and write the header once.
func AppendScriptLines(file, device string, lines []string, opts fsext.WriteOptions) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	if dir := filepath.Dir(file); dir != "." {
		_ = os.MkdirAll(dir, 0o755)
	}
	err := fsext.Append(file, opts, func(empty bool) []byte {
		if empty {
			return []byte(fmt.Sprintf("context platform=%s device=%s\n", recordPlatform(device), device) + b.String())
		}
		return []byte(b.String())
	})
	if err != nil {
		return canonical.Coded(err).WithHint("check the --record path")
	}
	return nil
}

func recordPlatform(device string) string {
	if strings.HasSuffix(device, ":ios") {
		return "ios"
	}
	return "android"
}
