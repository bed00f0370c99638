package main

import (
	"context"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/js"
)

// scripts adapts the goja engine to the runtime's Scripts interface and
// marks every script failure so optional: true does not excuse it (Maestro
// never downgrades JavaScript errors).
type scripts struct{ e *js.Engine }

func newScripts(platform string, log func(string)) exec.Scripts {
	return scripts{e: js.New(js.Options{Platform: platform, Log: log})}
}

func markScript(err error) error {
	if ce, ok := canonical.AsError(err); ok {
		ce.With(exec.ScriptErrorDetail, true)
	}
	return err
}

func (s scripts) Interpolate(ctx context.Context, t canonical.Template) (string, error) {
	v, err := s.e.Interpolate(ctx, t)
	return v, markScript(err)
}

func (s scripts) Truthy(v string) bool { return js.Truthy(v) }

func (s scripts) DefineVars(vars []exec.Var) { s.e.DefineVars(toJS(vars)) }

func (s scripts) EnterScope() { s.e.EnterScope() }

func (s scripts) LeaveScope() { s.e.LeaveScope() }

func (s scripts) RunScript(ctx context.Context, name, source string, env []exec.Var, pos canonical.Pos) error {
	return markScript(s.e.RunScript(ctx, name, source, toJS(env), pos))
}

func (s scripts) SetCopiedText(v string) { s.e.SetCopiedText(v) }

func toJS(vars []exec.Var) []js.Var {
	out := make([]js.Var, len(vars))
	for i, v := range vars {
		out[i] = js.Var{Name: v.Name, Value: v.Value}
	}
	return out
}
