package js

import (
	"context"
	"errors"

	"github.com/dop251/goja"

	"github.com/flow-runner/flow/canonical"
)

// RunScript runs a runScript file: source is the file's text and name the
// name errors and stack frames use for it (the path as the flow wrote it,
// normally). The script runs in a scope of its own that holds env (values
// bound verbatim, see DefineVars), so its variables and its env are gone
// afterwards, while output, maestro and the enclosing scopes' variables are
// shared. Its completion value is ignored, and a top-level return simply
// ends it.
//
// A failure is a COMMAND_FAILED *canonical.Error at pos (the runScript
// command in the flow) whose message names the script and the line:col in
// it, e.g. "script setup.js failed: TypeError: ... (at setup.js:3:5)".
func (e *Engine) RunScript(ctx context.Context, name, source string, env []Var, pos canonical.Pos) error {
	subj := subject{code: source, script: name}
	if e.busy() {
		return e.scriptError(subj, busyError{}, pos)
	}
	p, err := compileScript(name, source, e.dialect)
	if err != nil {
		return e.scriptError(subj, err, pos)
	}
	depth := e.push(env)
	defer e.truncate(depth)
	_, err = e.run(ctx, func() (string, error) {
		e.declare(p.vars)
		if _, err := e.vm.RunProgram(p.prg); err != nil {
			return "", e.classify(err)
		}
		return "", nil
	})
	if err != nil {
		return e.scriptError(subj, err, pos)
	}
	return nil
}

// evalInline evaluates one ${...} body in the current scope and renders
// its value as a string.
func (e *Engine) evalInline(ctx context.Context, code string) (string, error) {
	if e.busy() {
		return "", busyError{}
	}
	p, err := compileInline(code, e.dialect)
	if err != nil {
		return "", err
	}
	return e.run(ctx, func() (string, error) {
		e.declare(p.vars)
		e.lengthOfArray = false
		v, err := e.vm.RunProgram(p.prg)
		if err != nil {
			return "", e.classify(err)
		}
		return e.render(v, p.kind)
	})
}

// render converts a ${...} result to text as Interpolate documents. JSON
// is the most useful non-blank text for objects; it runs the intrinsic
// JSON.stringify and String, so scripts that replace theirs change nothing.
// Under Rhino a number prints as the Java object Rhino would have returned
// for it (k says what is known of that, see kinds.go).
func (e *Engine) render(v goja.Value, k kindOf) (string, error) {
	if v == nil {
		return "undefined", nil
	}
	if e.dialect == Rhino && isNumber(v) {
		return rhinoNumber(v.ToFloat(), e.isDouble(v.ToFloat(), k)), nil
	}
	if obj, ok := v.(*goja.Object); ok {
		if c := obj.ClassName(); c == "Object" || c == "Array" {
			if j, err := e.jsonStringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(j) {
				return j.String(), nil
			} else if err != nil && !isThrown(err) {
				return "", e.classify(err) // interrupted while encoding
			}
		}
	}
	s, err := e.toString(goja.Undefined(), v)
	if err != nil {
		return "", e.classify(err)
	}
	return s.String(), nil
}

// isDouble says whether Rhino would have returned the number f, of kind k,
// as a java.lang.Double.
func (e *Engine) isDouble(f float64, k kindOf) bool {
	switch k.k {
	case kindDouble:
		return true
	case kindRef:
		return e.recordedDouble(k.key, f, false)
	case kindLength:
		return e.lengthOfArray
	}
	return !wholeInt(f)
}

// isThrown reports an ordinary exception (one a script could catch), as
// opposed to an interrupt or a stack overflow.
func isThrown(err error) bool {
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		return false
	}
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	return !errors.As(err, &ie) && !errors.As(err, &so)
}

// push adds a scope holding vars and returns the depth to truncate back to.
func (e *Engine) push(vars []Var) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	depth := len(e.scopes)
	s := make(map[string]goja.Value, len(vars))
	for _, v := range vars {
		s[v.Name] = e.vm.ToValue(v.Value)
	}
	e.scopes = append(e.scopes, s)
	return depth
}

func (e *Engine) truncate(depth int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if depth >= 1 && depth < len(e.scopes) {
		e.scopes = e.scopes[:depth]
	}
}
