package exec

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// Var is one variable handed to the script engine.
type Var struct {
	Name  string
	Value string
}

// Scripts is the JavaScript engine the runtime evaluates ${...}, scripts and
// conditions with. A fresh one is made for every top-level flow (Maestro
// does not carry output or variables across flows).
type Scripts interface {
	// Interpolate evaluates the ${...} parts of a template.
	Interpolate(ctx context.Context, t canonical.Template) (string, error)
	// Truthy applies Maestro's falsy rules to an interpolated string.
	Truthy(s string) bool
	// DefineVars makes variables visible to later evaluations. It fails
	// where Maestro's engine fails to define one (see js.Engine.DefineVars).
	DefineVars(vars []Var) error
	EnterScope()
	LeaveScope()
	RunScript(ctx context.Context, name, source string, env []Var, pos canonical.Pos) error
	// SetCopiedText sets maestro.copiedText; it fails where Maestro's
	// engine fails to store the text.
	SetCopiedText(s string) error
}

// EngineChooser is implemented by Scripts that follow the jsEngine key of
// a flow's header, as Maestro does (Orchestra.initJsEngine reads the
// top-level flow's only; a subflow's does not count). The runner calls it
// once per top-level flow, before any evaluation.
//
// v is the Maestro semantics the flow was loaded with: the current Maestro
// runs GraalJS unless the header says jsEngine: rhino (PR #2631), 1.39
// runs Rhino unless it says graaljs.
type EngineChooser interface {
	ChooseEngine(jsEngine string, v canonical.MaestroVersion)
}

// Files writes what flows ask for (takeScreenshot, startRecording) and the
// failure artifacts. Paths are slash-separated.
type Files interface {
	WriteFile(name string, data []byte) error
}

// Config is everything a run needs. Zero durations take Maestro's defaults.
type Config struct {
	Device   Device
	Clock    Clock
	Events   EventLog
	Observer Observer
	// NewScripts makes the script engine of one top-level flow.
	NewScripts func(platform string, log func(string)) Scripts
	// Env holds -e KEY=VALUE and MAESTRO_* shell variables, in order.
	Env []Var
	// Files receives takeScreenshot output, relative to the working folder.
	Files Files
	// Artifacts receives the screenshot and hierarchy of every failure; nil
	// writes none.
	Artifacts Files
	// LookupTimeout and OptionalLookupTimeout are Maestro's 17 s and 7 s.
	LookupTimeout         time.Duration
	OptionalLookupTimeout time.Duration
	// PollInterval is the pause between hierarchy polls (200 ms).
	PollInterval time.Duration
	// Seed makes inputRandom* reproducible.
	Seed uint64
	// Shard numbers the device this config runs on when a suite is split
	// across devices (1-based); 0 means unsharded.
	Shard int
}

func (c Config) withDefaults() Config {
	if c.Clock == nil {
		c.Clock = WallClock{}
	}
	if c.Events == nil {
		c.Events = NopLog{}
	}
	if c.Observer == nil {
		c.Observer = NopObserver{}
	}
	if c.LookupTimeout == 0 {
		c.LookupTimeout = 17 * time.Second
	}
	if c.OptionalLookupTimeout == 0 {
		c.OptionalLookupTimeout = 7 * time.Second
	}
	if c.PollInterval == 0 {
		c.PollInterval = 200 * time.Millisecond
	}
	return c
}

// run is the state of one top-level flow.
type run struct {
	cfg             Config
	dev             Device
	clock           Clock
	js              Scripts
	info            DeviceInfo
	top             *canonical.Flow
	appID           string
	lastInteraction time.Time
	// mutated says the command running now changed the device; step
	// turns it into lastInteraction when the command ends.
	mutated bool
	copied  string
	rand    *rand.Rand
	steps   []StepResult
	// logStack holds the console output of each running step, innermost
	// last (logs.go).
	logStack []*logBuffer
	// logLines counts the console lines printed so far (loops count what
	// their unlisted runs printed).
	logLines int
	// quiet counts the loops whose current run reaches no observer.
	quiet int
	// iteration is the loop run (or retry attempt) the next step belongs
	// to; iterations is the summary of the repeat that just ended.
	iteration       int
	iterations      *Iterations
	failedArtifacts []string
	// recording is the screen recording open now (recording.go).
	recording *recording
	// subflowRuns counts the runs of each runFlow and retry command
	// (subflow.go).
	subflowRuns map[canonical.Command]int
}

// RunFlow runs one top-level flow with Maestro's semantics (§3.3): env
// first, then onFlowStart, the commands (skipped if onFlowStart failed),
// and onFlowComplete always. The flow passes when the body and
// onFlowComplete both pass.
func RunFlow(ctx context.Context, cfg Config, flow *canonical.Flow) FlowResult {
	cfg = cfg.withDefaults()
	r := &run{cfg: cfg, dev: cfg.Device, clock: cfg.Clock, top: flow,
		rand: rand.New(rand.NewPCG(cfg.Seed, 0x5eed))}
	start := r.clock.Now()
	r.lastInteraction = start
	res := FlowResult{Name: flow.Name, File: flow.File, Status: StatusPassed, Shard: cfg.Shard}
	cfg.Observer.FlowStarted(flow, cfg.Shard)
	err := r.flow(ctx)
	res.Steps = r.steps
	res.DurationMs = r.clock.Now().Sub(start).Milliseconds()
	res.Artifacts = r.failedArtifacts
	if err != nil {
		res.Status = StatusFailed
		res.Error = CapError(canonical.Coded(err))
		if res.Error.Code == canonical.CodeInterrupted {
			res.Status = StatusInterrupted
		}
	}
	cfg.Observer.FlowFinished(res)
	return res
}

func (r *run) flow(ctx context.Context) error {
	err := r.flowBody(ctx)
	if err != nil && ctx.Err() != nil && len(r.steps) == 0 {
		// Stopped before the first command: whatever failed, the cause is
		// the interruption.
		if canonical.CodeOf(err) != canonical.CodeInterrupted {
			err = interrupted(err).WithHint("the flow stopped before its first command")
		}
	}
	return err
}

func (r *run) flowBody(ctx context.Context) error {
	info, err := r.dev.Info(ctx)
	if err != nil {
		return deviceErr(err, "read device information")
	}
	r.info = info
	r.js = r.cfg.NewScripts(info.Platform, r.log)
	if c, ok := r.js.(EngineChooser); ok {
		c.ChooseEngine(r.top.JSEngine, r.top.MaestroVersion)
	}
	vars := append([]Var{}, r.cfg.Env...)
	vars = append(vars, Var{Name: "MAESTRO_FILENAME", Value: stem(r.top.File)})
	if err := r.js.DefineVars(vars); err != nil {
		return err
	}
	if err := r.defineEnv(ctx, r.top.Env); err != nil {
		return err
	}
	appID, err := r.js.Interpolate(ctx, r.top.AppID)
	if err != nil {
		return err
	}
	r.appID = appID
	err = r.withHooks(ctx, r.top, 0, func() error {
		return both(r.commands(ctx, r.top.Commands, 0), r.closeRecording(ctx))
	})
	// A recording started in onFlowComplete is closed too, which Maestro
	// leaves open: its file would never be written.
	return both(err, r.closeRecording(ctx))
}

// both is errors.Join that leaves a single error as it is.
func both(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return errors.Join(a, b)
}

// withHooks runs a flow file's onFlowStart, body and onFlowComplete.
func (r *run) withHooks(ctx context.Context, f *canonical.Flow, depth int, body func() error) error {
	startErr := r.commands(ctx, f.OnFlowStart, depth)
	var bodyErr error
	if startErr == nil {
		bodyErr = body()
	}
	completeErr := r.commands(ctx, f.OnFlowComplete, depth)
	return errors.Join(firstErr(startErr, bodyErr), completeErr)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func stem(file string) string {
	base := path.Base(file)
	return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
}

// defineEnv interpolates every value of an env block before setting any of
// them, as Maestro does (keys in one block cannot see each other).
func (r *run) defineEnv(ctx context.Context, env []canonical.EnvVar) error {
	if len(env) == 0 {
		return nil
	}
	vars := make([]Var, len(env))
	for i, e := range env {
		v, err := r.js.Interpolate(ctx, e.Value)
		if err != nil {
			return err
		}
		vars[i] = Var{Name: e.Name, Value: v}
	}
	for i, v := range vars {
		if err := r.js.DefineVars([]Var{v}); err != nil {
			return canonical.AtIfNone(err, env[i].Value.Pos)
		}
	}
	return nil
}

// interrupted is the error of a run stopped by its context (Ctrl-C,
// SIGTERM): INTERRUPTED, which no optional: excuses and no retry repeats.
// cause is the context's error or the error the interruption caused.
func interrupted(cause error) *canonical.Error {
	e := canonical.Interrupted(stopCause{cause}).WithHint("the flow stopped during this command")
	e.Message = "the run was interrupted"
	return e
}

// stopCause marks the cause of an interrupted error, so enclosing steps
// pass it on as it is, with the position of the command it stopped.
type stopCause struct{ cause error }

func (s stopCause) Error() string { return s.cause.Error() }
func (s stopCause) Unwrap() error { return s.cause }

func isInterrupted(err error) bool {
	var s stopCause
	return errors.As(err, &s) || canonical.CodeOf(err) == canonical.CodeInterrupted
}

// skipped is returned by a command that did not run (a false when:, zero
// repeat iterations).
type skipped struct{ why string }

func (s skipped) Error() string { return s.why }

// commands runs a list in order and stops at the first failure.
func (r *run) commands(ctx context.Context, cmds []canonical.Command, depth int) error {
	for _, c := range cmds {
		if err := ctx.Err(); err != nil {
			return interrupted(err).WithHint("the flow stopped before this command").At(c.Base().Pos)
		}
		if err := r.step(ctx, c, depth); err != nil {
			return err
		}
	}
	return nil
}

// step runs one command and records it: failures of an optional command
// become warnings, except script errors, which always fail (Maestro §1.2).
func (r *run) step(ctx context.Context, c canonical.Command, depth int) error {
	meta := c.Base()
	desc := r.describe(ctx, c)
	if r.quiet == 0 {
		r.cfg.Observer.StepStarted(r.top, c, desc, depth)
	}
	r.pushLogs()
	start := r.clock.Now()
	index := len(r.steps)
	iteration := r.iteration
	r.steps = append(r.steps, StepResult{Command: meta.Name, Label: meta.Label, Description: desc, Pos: meta.Pos, Depth: depth,
		Iteration: iteration})
	outer := r.mutated
	r.mutated = false
	r.iteration, r.iterations = 0, nil
	err := r.exec(ctx, c, depth)
	// Only a repeat sets iterations; siblings keep the run number.
	iterations := r.iterations
	r.iteration, r.iterations = iteration, nil
	var skip skipped
	if err != nil && ctx.Err() != nil && !isInterrupted(err) && !errors.As(err, &skip) {
		// Ctrl-C is never a verdict: a step that ends in an error once
		// the run was stopped was stopped, whatever the error says. A
		// lookup whose budget ran out as the signal came reports a miss,
		// a script its cancellation as a script error, a device the
		// request it could not finish.
		err = interrupted(err)
	}
	// Maestro stamps the last interaction when a mutating command returns
	// (Orchestra.executeCommand), so the next lookup's budget counts from
	// the end of the command, settle included; a command that throws
	// stamps nothing. A composite command mutated if a child did.
	mutated := r.mutated && err == nil
	if mutated {
		r.lastInteraction = r.clock.Now()
	}
	r.mutated = outer || mutated
	step := StepResult{Command: meta.Name, Label: meta.Label, Description: desc, Pos: meta.Pos, Depth: depth, Status: StatusPassed,
		DurationMs: r.clock.Now().Sub(start).Milliseconds(), Iteration: iteration, Iterations: iterations}
	if step.Command == "" {
		step.Command = c.Kind()
	}
	switch {
	case err == nil:
	case errors.As(err, &skip):
		step.Status = StatusSkipped
		err = nil
	case isInterrupted(err):
		step.Status = StatusInterrupted
		err = canonical.AtIfNone(err, meta.Pos)
		step.Error = canonical.Coded(err)
	case meta.Optional && downgradable(err):
		step.Status = StatusWarned
		step.Error = canonical.Coded(canonical.AtIfNone(err, meta.Pos))
		err = nil
	default:
		step.Status = StatusFailed
		err = canonical.AtIfNone(err, meta.Pos)
		step.Error = canonical.Coded(err)
		r.captureFailure(ctx)
	}
	step.Logs = r.popLogs()
	step.Error = CapError(step.Error)
	r.steps[index] = step
	if r.quiet == 0 {
		r.cfg.Observer.StepFinished(r.top, step, desc)
	}
	return err
}

// downgradable: optional turns only Maestro's own failures into warnings;
// script errors and invalid input still fail the flow.
func downgradable(err error) bool {
	ce, ok := canonical.AsError(err)
	if !ok || ce.Details[ScriptErrorDetail] == true {
		return false
	}
	switch ce.Code {
	case canonical.CodeElementNotFound, canonical.CodeAssertionFailed, canonical.CodeTimeout,
		canonical.CodeCommandFailed, canonical.CodeUnsupportedOperation:
		return true
	}
	return false
}

// ScriptErrorDetail marks a JavaScript failure in an error's details; the
// Scripts implementation sets it, and optional does not excuse such errors.
const ScriptErrorDetail = "scriptError"

// captureFailure saves one screenshot and hierarchy per flow, at the first
// failure, as Maestro takes one debug screenshot.
func (r *run) captureFailure(ctx context.Context) {
	if r.cfg.Artifacts == nil || len(r.failedArtifacts) > 0 {
		return
	}
	base := artifactBase(r.top, r.cfg.Shard)
	if png, err := r.dev.Screenshot(ctx); err == nil {
		name := base + "-failure.png"
		if r.cfg.Artifacts.WriteFile(name, png) == nil {
			r.failedArtifacts = append(r.failedArtifacts, name)
		}
	}
	if h, err := r.dev.Hierarchy(ctx); err == nil {
		name := base + "-hierarchy.json"
		if data, err := jsonIndent(h); err == nil && r.cfg.Artifacts.WriteFile(name, data) == nil {
			r.failedArtifacts = append(r.failedArtifacts, name)
		}
	}
}

// maxArtifactStem bounds the readable part of an artifact name, so every
// name fits a file system's 255-byte limit whatever the flow's name.
const maxArtifactStem = 64

// artifactBase names a flow's failure artifacts: its name made file-safe
// and cut to a readable length, then a short hash of the flow's file (and
// the shard it ran on), so two flows never share artifacts even when they
// have the same name, names that sanitise alike, or files called alike in
// different folders.
func artifactBase(f *canonical.Flow, shard int) string {
	stem := safeName(f.Name)
	if len(stem) > maxArtifactStem {
		stem = stem[:maxArtifactStem]
	}
	sum := sha256.Sum256([]byte(path.Clean(f.File)))
	base := stem + "-" + hex.EncodeToString(sum[:4])
	if shard > 0 {
		base += fmt.Sprintf("-shard%d", shard)
	}
	return base
}

func safeName(s string) string {
	var b strings.Builder
	for _, c := range s {
		if b.Len() > maxArtifactStem {
			break
		}
		switch {
		case c == '.' && b.Len() == 0:
			b.WriteByte('_') // not a hidden file
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "flow"
	}
	return b.String()
}

func deviceErr(err error, what string) error {
	if err == nil {
		return nil
	}
	if _, ok := canonical.AsError(err); ok {
		return err
	}
	return canonical.Errorf(canonical.CodeDeviceUnavailable, "could not %s: %v", what, err).Wrap(err).
		WithHint("check that the device is connected and responding")
}

// interaction marks the running command as one that changed the device:
// when it ends, later lookups wait less by the time since (Maestro's
// adjustedToLatestInteraction).
func (r *run) interaction() { r.mutated = true }

// lookupTimeout is a lookup's budget: 17 s, or 7 s for optional commands,
// minus the time since the last interaction, never below zero.
func (r *run) lookupTimeout(optional bool) time.Duration {
	base := r.cfg.LookupTimeout
	if optional {
		base = r.cfg.OptionalLookupTimeout
	}
	return r.adjusted(base)
}

func (r *run) adjusted(d time.Duration) time.Duration {
	left := d - r.clock.Now().Sub(r.lastInteraction)
	if left < 0 {
		return 0
	}
	return left
}

func (r *run) event(typ string, fields map[string]any) { r.cfg.Events.Record(typ, fields) }

func (r *run) str(ctx context.Context, t canonical.Template) (string, error) {
	v, err := r.js.Interpolate(ctx, t)
	if err == nil {
		if o, ok := r.cfg.Observer.(TemplateObserver); ok {
			o.TemplateResolved(r.top, t, v)
		}
	}
	return v, err
}

func errorf(code canonical.Code, format string, args ...any) *canonical.Error {
	return canonical.Errorf(code, format, args...)
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }
