package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
	"github.com/flow-runner/flow/planner"
)

// deviceSession is one open device that device commands act on. The CLI
// opens one per command; flow mcp keeps one between tool calls. Either
// way each action is an .ad line run through the same codec, canonical
// commands and runtime as scripts and YAML.
type deviceSession struct {
	env    Env
	o      cliOptions
	state  *heldState
	dev    exec.Device
	clock  exec.Clock
	rec    *gestureRecorder
	events bytes.Buffer
}

// deviceAction is a parsed device command: its .ad line, the flow it
// normalizes to, and the script a recording appends.
type deviceAction struct {
	command  string
	line     string
	flow     *canonical.Flow
	script   *compat.Script
	warnings []string
}

// actionOutcome is what an action did: the runtime's result and the plans
// of the gestures it performed.
type actionOutcome struct {
	result exec.FlowResult
	plans  []planner.Plan
	// warnings are what the action line's normalization warned about.
	warnings []string
}

// deviceSnapshot is the screen with refs: @eN → portable selector.
type deviceSnapshot struct {
	root  *exec.Node
	refs  map[string]string
	lines []string
}

// lockSim takes the sim state lock for a sim device (nil otherwise: only
// sim keeps state between processes).
func lockSim(ctx context.Context, env Env, device string) (*heldState, error) {
	if !isSimDevice(device) {
		return nil, nil
	}
	return lockState(ctx, env)
}

// parseAction resolves @refs and normalizes a device command's arguments.
func parseAction(env Env, o cliOptions, state *heldState, command string, args []string) (*deviceAction, error) {
	args, err := resolveRefs(state, args)
	if err != nil {
		return nil, err
	}
	return parseLine(env, o, command, actionLine(command, args))
}

// parseLine normalizes one .ad action line.
func parseLine(env Env, o cliOptions, command, line string) (*deviceAction, error) {
	flow, script, err := loadAdSource("<command line>", []byte(line+"\n"), o.env, environ(env), strings.TrimPrefix(strings.TrimPrefix(o.device, "sim"), ":"))
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
		fmt.Fprintf(env.Stderr, "warning: %s\n", indentLines(printable(w.Message), "  "))
	}
	return act, nil
}

// openSession opens o.device; state is the sim lock the caller holds.
func openSession(ctx context.Context, env Env, o cliOptions, state *heldState) (*deviceSession, error) {
	if o.device == "web" {
		// A browser session does not outlive the process, so a pipeline of
		// separate commands would start each on a fresh page.
		return nil, canonical.NewError(canonical.CodeUnsupportedOperation, "device commands cannot run on the web device: its browser session ends with each command").
			WithHint("put the steps in a flow or an .ad script and run it with flow test --device web")
	}
	s := &deviceSession{env: env, o: o, state: state, clock: clockFor(o.device), rec: &gestureRecorder{next: exec.NopLog{}}}
	if o.events != "" {
		s.rec.next = exec.NewJSONLog(&s.events, s.clock)
	}
	to := testOptions{device: o.device, apps: o.apps, androidHelper: o.androidHelper, sys: env}
	dev, err := openDeviceState(ctx, to, state, s.clock, s.rec)
	if err != nil {
		return nil, err
	}
	s.dev = dev
	return s, nil
}

// run performs one action and keeps what it changed: the sim state, the
// event log and the recording are written before run returns, so a
// session that ends abruptly has lost nothing it answered for.
func (s *deviceSession) run(ctx context.Context, act *deviceAction) (actionOutcome, error) {
	s.rec.plans, s.rec.targets = nil, nil
	act.flow.Name = act.line
	res := exec.RunFlow(ctx, exec.Config{Device: s.dev, Clock: s.clock, Events: s.rec, NewScripts: scriptsFor(graalFromEnv(s.env)),
		Files: dirFiles{dir: "."}, Env: s.o.env}, act.flow)
	out := actionOutcome{result: res, plans: s.rec.plans, warnings: act.warnings}
	if err := s.flushEvents(); err != nil {
		return out, err
	}
	if err := s.state.saveSim(s.dev); err != nil {
		return out, err
	}
	if res.Status != exec.StatusFailed && s.o.record != "" && act.script != nil {
		if s.rec.targets != nil && len(act.script.Actions) == 1 {
			src, _ := s.rec.targets["source"].(canonical.Identity)
			dst, _ := s.rec.targets["destination"].(canonical.Identity)
			act.script.Actions[0].Targets = &compat.TargetPair{Source: compat.IdentityEvidence(src), Destination: compat.IdentityEvidence(dst)}
		}
		if err := appendRecording(s.o.record, act.script, s.o.device, s.state.writeOptions()); err != nil {
			return out, err
		}
	}
	return out, nil
}

// flushEvents appends the events so far to --events: appended, so a
// pipeline of commands builds one log; atomically, so a command that dies
// midway never tears the log's last line.
func (s *deviceSession) flushEvents() error {
	if s.o.events == "" || s.events.Len() == 0 {
		return nil
	}
	if dir := filepath.Dir(s.o.events); dir != "." {
		_ = os.MkdirAll(dir, 0o755)
	}
	if err := fsext.AppendFile(s.o.events, s.events.Bytes(), s.state.writeOptions()); err != nil {
		return canonical.Coded(err).WithHint("check the --events path")
	}
	s.events.Reset()
	return nil
}

// snapshot reads the screen and numbers its elements with an id or text
// @e1, @e2…; later actions may name an element by its ref, which is
// swapped for a portable selector (id=… or text=…), so recordings never
// hold session-local refs.
func (s *deviceSession) snapshot(ctx context.Context) (deviceSnapshot, error) {
	root, err := s.dev.Hierarchy(ctx)
	if err != nil {
		return deviceSnapshot{}, err
	}
	snap := deviceSnapshot{root: root, refs: map[string]string{}}
	n := 0
	var walk func(node *exec.Node, depth int)
	walk = func(node *exec.Node, depth int) {
		var parts []string
		if chain := selectorChain(node); chain != "" {
			n++
			ref := fmt.Sprintf("@e%d", n)
			snap.refs[ref] = chain
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
			snap.lines = append(snap.lines, strings.Repeat("  ", depth)+strings.Join(parts, " "))
			depth++
		}
		for _, c := range node.Children {
			walk(c, depth)
		}
	}
	walk(root, 0)
	if err := s.state.writeRefs(snap.refs); err != nil {
		return deviceSnapshot{}, err
	}
	return snap, nil
}

// close ends the device (a helper session, a runner) and writes what is
// left of the event log; the sim lock stays with the caller.
func (s *deviceSession) close(ctx context.Context) error {
	if c, ok := s.dev.(exec.Closer); ok {
		_ = c.Close(context.WithoutCancel(ctx))
	}
	return s.flushEvents()
}
