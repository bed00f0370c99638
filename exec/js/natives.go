package js

import (
	"github.com/dop251/goja"
)

// goja cannot interrupt native code. When an evaluation ignores its
// deadline, the error should name what is stuck instead of guessing: the
// engine notes which built-in is running (e.running) around every guarded
// native and every entry point of the regular expression engine, the one
// native that can run for minutes on a short input.

// regexpNative is the name recorded while a regular expression runs.
const regexpNative = "a regular expression"

// trackRegexps wraps RegExp.prototype's matching methods, through which
// String.prototype.match, matchAll, replace, replaceAll, search and split
// also reach a RegExp, so e.running says when a regexp is executing.
func (e *Engine) trackRegexps() {
	proto := e.vm.Get("RegExp").ToObject(e.vm).Get("prototype").ToObject(e.vm)
	for _, name := range []string{"exec", "test"} {
		e.guard(proto, name, func(goja.FunctionCall) {})
	}
	for _, sym := range []*goja.Symbol{goja.SymMatch, goja.SymMatchAll, goja.SymReplace, goja.SymSearch, goja.SymSplit} {
		orig, ok := goja.AssertFunction(proto.GetSymbol(sym))
		if !ok {
			continue
		}
		o := proto.GetSymbol(sym).ToObject(e.vm)
		fn := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
			defer e.enter(regexpNative)()
			v, err := orig(c.This, c.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}).ToObject(e.vm)
		for _, p := range []string{"name", "length"} {
			if err := fn.DefineDataProperty(p, o.Get(p), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
				panic(err)
			}
		}
		if err := proto.DefineDataPropertySymbol(sym, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
}

// enter records that the named built-in runs, until the returned function
// is called; calls nest (a regexp inside a guarded split keeps its name).
func (e *Engine) enter(name string) func() {
	prev := e.running.Swap(&name)
	return func() { e.running.Store(prev) }
}

// runningNative is the built-in running now, or "".
func (e *Engine) runningNative() string {
	if p := e.running.Load(); p != nil {
		return *p
	}
	return ""
}

// stuckHint is the hint for an evaluation stuck in native code.
func stuckHint(native string) string {
	switch native {
	case regexpNative:
		return "a regular expression with catastrophic backtracking cannot be interrupted; simplify it"
	case "":
		return "a built-in call cannot be interrupted while it runs; look for one call over a very large value, and work on less data at a time"
	}
	return native + " cannot be interrupted while it runs; call it on less data at a time"
}
