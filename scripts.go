package flow

import (
	"context"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/js"
)

// scripts adapts the goja engine to the runtime's Scripts interface and
// marks every script failure so optional: true does not excuse it (Maestro
// never downgrades JavaScript errors). It follows Maestro's choice of
// engine: under 1.39 Rhino unless the flow's header says jsEngine: graaljs
// or the environment has MAESTRO_USE_GRAALJS=true; under the current
// Maestro GraalJS unless it says jsEngine: rhino.
type scripts struct {
	e     *js.Engine
	opts  js.Options
	graal bool // MAESTRO_USE_GRAALJS=true
}

// NewScripts makes the engine of one top-level flow, Rhino by default.
func NewScripts(platform string, log func(string)) exec.Scripts {
	return ScriptsFor(false)(platform, log)
}

// ScriptsFor is NewScripts with MAESTRO_USE_GRAALJS read from env, as
// Maestro reads it from the process environment (a -e variable of that
// name does not switch the engine).
func ScriptsFor(graal bool) func(platform string, log func(string)) exec.Scripts {
	return func(platform string, log func(string)) exec.Scripts {
		opts := js.Options{Platform: platform, Log: log, Dialect: js.DialectFor("", graal)}
		return &scripts{e: js.New(opts), opts: opts, graal: graal}
	}
}

// GraalFromEnv reads MAESTRO_USE_GRAALJS from the process environment
// (the same view of it the MAESTRO_* flow variables come from).
func GraalFromEnv(env Env) bool {
	if env.Environ == nil {
		return false
	}
	for _, kv := range env.Environ() {
		if k, v, _ := strings.Cut(kv, "="); k == "MAESTRO_USE_GRAALJS" {
			return v == "true"
		}
	}
	return false
}

// ChooseEngine follows the top-level flow's jsEngine header and the
// Maestro version it was loaded with (GraalJS by default in the current
// Maestro, Rhino in 1.39). The runner calls it before any evaluation, so a
// fresh engine loses nothing.
func (s *scripts) ChooseEngine(jsEngine string, v canonical.MaestroVersion) {
	if d := js.DialectOf(v, jsEngine, s.graal); d != s.opts.Dialect {
		s.opts.Dialect = d
		s.e = js.New(s.opts)
	}
}

func markScript(err error) error {
	if ce, ok := canonical.AsError(err); ok {
		ce.With(exec.ScriptErrorDetail, true)
	}
	return err
}

func (s *scripts) Interpolate(ctx context.Context, t canonical.Template) (string, error) {
	v, err := s.e.Interpolate(ctx, t)
	return v, markScript(err)
}

func (s *scripts) Truthy(v string) bool { return js.Truthy(v) }

func (s *scripts) DefineVars(vars []exec.Var) error { return markScript(s.e.DefineVars(toJS(vars))) }

func (s *scripts) EnterScope() { s.e.EnterScope() }

func (s *scripts) LeaveScope() { s.e.LeaveScope() }

func (s *scripts) RunScript(ctx context.Context, name, source string, env []exec.Var, pos canonical.Pos) error {
	return markScript(s.e.RunScript(ctx, name, source, toJS(env), pos))
}

func (s *scripts) SetCopiedText(v string) error { return markScript(s.e.SetCopiedText(v)) }

func toJS(vars []exec.Var) []js.Var {
	out := make([]js.Var, len(vars))
	for i, v := range vars {
		out[i] = js.Var{Name: v.Name, Value: v.Value}
	}
	return out
}
