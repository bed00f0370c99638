package main

import (
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// flowVar reads one -e KEY=VALUE. Every command that takes -e reads it
// here, so a value is refused, and explained, the same way everywhere.
func flowVar(kv string) (exec.Var, error) {
	k, v, ok := strings.Cut(kv, "=")
	if !ok || k == "" {
		return exec.Var{}, canonical.Errorf(canonical.CodeInvalidArgs, "-e %q is not KEY=VALUE", kv).WithHint("write -e USER=ada")
	}
	return exec.Var{Name: k, Value: v}, nil
}

// flowVars reads repeated -e flags, in order.
func flowVars(kvs []string) ([]exec.Var, error) {
	var out []exec.Var
	for _, kv := range kvs {
		v, err := flowVar(kv)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// maestroVars are the variables a Maestro flow runs with: the MAESTRO_*
// shell variables -e does not give, then -e. flow test and flow studio
// both use it, so a flow sees the same values in either; the runtime
// defines these first and the flow's header env: after them, so the
// header wins over -e, as in Maestro (maestro-reference §3.3).
func maestroVars(env Env, kvs []string) ([]exec.Var, error) {
	vars, err := flowVars(kvs)
	if err != nil {
		return nil, err
	}
	return append(shellVars(env, vars), vars...), nil
}
