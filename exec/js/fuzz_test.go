package js

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// evalWith runs src as a ${...} body compiled for dialect d, on a fresh
// Rhino engine, and returns String() of its value (JavaScript's, not a
// dialect's rendering) or its error text. Programs compiled for GraalJS are
// not instrumented, so the two runs differ only by the instrumentation.
func evalWith(src string, d Dialect) (string, bool) {
	e := New(Options{Timeout: 200 * time.Millisecond, MemoryBudget: 16 << 20})
	p, err := compileInline(src, d)
	if err != nil {
		return "syntax: " + err.Error(), true
	}
	s, err := e.run(context.Background(), func() (string, error) {
		e.declare(p.vars)
		v, err := e.vm.RunProgram(p.prg)
		if err != nil {
			return "", e.classify(err)
		}
		if v == nil {
			return "undefined", nil
		}
		r, err := e.toString(goja.Undefined(), v)
		if err != nil {
			return "", e.classify(err)
		}
		return r.String(), nil
	})
	if err != nil {
		var f *failure
		if ok := asFailure(err, &f); ok && f.reason == ReasonThrown {
			return fmt.Sprintf("threw: %s at %d:%d", f.text, f.line, f.col), true
		}
		return "", false // stopped (time, memory): not comparable
	}
	return s, true
}

func asFailure(err error, f **failure) bool {
	ff, ok := err.(*failure)
	*f = ff
	return ok
}

// FuzzInstrumentationIsInvisible: the code flow adds under Rhino to record
// numbers' Java types never changes what a program computes, or what it
// throws and where.
func FuzzInstrumentationIsInvisible(f *testing.F) {
	for _, s := range []string{
		"var x = 1; x += 2; x++; x",
		"a = b = 5; a + b",
		"output.n = [1, 2].length; output.n",
		"var s = 'ab'; s.length + s.length",
		"let q = 0; q ||= 4; q &&= q + 1; q",
		"var f = function () { return 1 }; f.name",
		"var o = {get v() { return 3 }}; o.v++",
		"for (var i = 0, t = 0; i < 5; i++) t += i; t",
		"undefined.length",
		"var n = null; n.length",
		"x = 'a'; x += 1; x",
		"output['k'] = 2 ** 10; output.k--",
		"var [a, b] = [1, 2]; a + b",
		"(function g(n) { return n < 2 ? n : g(n - 1) + g(n - 2) })(10)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "$") || strings.ContainsAny(src, "`") {
			t.Skip() // not a ${...} body; templates may run for long
		}
		plain, ok1 := evalWith(src, GraalJS)
		instr, ok2 := evalWith(src, Rhino)
		if ok1 && ok2 && plain != instr {
			t.Errorf("%q: %q uninstrumented, %q instrumented", src, plain, instr)
		}
	})
}

// FuzzRhinoString: Rhino's reading of a defined value never panics, and a
// value without backslashes, quotes or carriage returns is bound as it is,
// less its newlines.
func FuzzRhinoString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb", `\`, `\x4`, `\u12`, `\'`, "\r", `\0\08\377\400`, "é\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip()
		}
		u, err := rhinoString(s)
		if strings.ContainsAny(s, "\\\r") {
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got, want := string(utf16.Decode(u)), strings.ReplaceAll(s, "\n", ""); got != want {
			t.Errorf("%q binds %q, want %q", s, got, want)
		}
	})
}
