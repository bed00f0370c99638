package js

import (
	"context"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// flowPos is the flow position the tests hand to the engine.
var flowPos = canonical.Pos{File: "flows/login.yaml", Line: 7, Col: 3} //nolint:gochecknoglobals // test fixture

func newEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	if opts.Platform == "" {
		opts.Platform = "android"
	}
	return New(opts)
}

// interp interpolates raw and fails the test on error.
func interp(t *testing.T, e *Engine, raw string) string {
	t.Helper()
	got, err := e.Interpolate(context.Background(), canonical.Text(raw, flowPos))
	if err != nil {
		t.Fatalf("Interpolate(%q): %v", raw, err)
	}
	return got
}

// interpErr interpolates raw, which must fail, and returns the coded error.
func interpErr(t *testing.T, e *Engine, raw string) *canonical.Error {
	t.Helper()
	got, err := e.Interpolate(context.Background(), canonical.Text(raw, flowPos))
	if err == nil {
		t.Fatalf("Interpolate(%q) = %q, want an error", raw, got)
	}
	return codedErr(t, err)
}

// runScript runs a script, which must succeed.
func runScript(t *testing.T, e *Engine, name, src string, env ...Var) {
	t.Helper()
	if err := e.RunScript(context.Background(), name, src, env, flowPos); err != nil {
		t.Fatalf("RunScript(%s): %v", name, err)
	}
}

// codedErr checks the error shape every failure of this package has.
func codedErr(t *testing.T, err error) *canonical.Error {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok {
		t.Fatalf("error %v (%T) is not a *canonical.Error", err, err)
	}
	if ce.Code != canonical.CodeCommandFailed {
		t.Errorf("code = %s, want COMMAND_FAILED (%v)", ce.Code, err)
	}
	if ce.Pos != flowPos {
		t.Errorf("pos = %+v, want the flow position %+v", ce.Pos, flowPos)
	}
	if ce.Hint == "" && ce.Reason() != ReasonCancelled {
		t.Errorf("no hint on %v", err)
	}
	return ce
}
