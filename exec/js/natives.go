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
// also reach a RegExp, so e.running says when a regexp is executing. The
// Symbol methods that list every match also check the budget first
// (regexps.go), and every one takes a step check (pulse).
func (e *Engine) trackRegexps() {
	proto := e.vm.Get("RegExp").ToObject(e.vm).Get("prototype").ToObject(e.vm)
	e.takeRegexpOriginals(proto)
	// exec itself is left alone: RegExp.prototype is a goja object that
	// watches its exec property, and redefining it sends every regexp
	// call down goja's generic path, which calls exec for each match and
	// keeps every result (ten times the memory, and a split that is
	// quadratic in the text). A script's direct exec call is thus not
	// named when it is stuck; test is, and so are the Symbol methods.
	e.guard(proto, "test", func(goja.FunctionCall) {})
	// matchAll's iterator calls exec once per step: its next takes the
	// step check, so a spread of it stops when the heap outgrows the
	// budget.
	if matchAll, ok := goja.AssertFunction(proto.GetSymbol(goja.SymMatchAll)); ok {
		if rx, err := e.vm.New(e.vm.Get("RegExp"), e.vm.ToValue("x"), e.vm.ToValue("g")); err == nil {
			if it, err := matchAll(rx, e.vm.ToValue("")); err == nil {
				if iterProto := it.ToObject(e.vm).Prototype(); iterProto != nil {
					e.guard(iterProto, "next", func(goja.FunctionCall) {})
				}
			}
		}
	}
	checks := e.regexpChecks()
	for _, sym := range []*goja.Symbol{goja.SymMatch, goja.SymMatchAll, goja.SymReplace, goja.SymSearch, goja.SymSplit} {
		orig, ok := goja.AssertFunction(proto.GetSymbol(sym))
		if !ok {
			continue
		}
		check := checks[sym]
		o := proto.GetSymbol(sym).ToObject(e.vm)
		fn := e.vm.ToValue(func(c goja.FunctionCall) goja.Value {
			e.pulse()
			if check != nil {
				check(c)
			}
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
