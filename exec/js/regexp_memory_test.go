package js

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestRegexpNativesHitTheBudget: the regular expression natives build their
// whole result in one call (goja first lists every match, then builds the
// string or the array), so the watchdog cannot stop them; each checks what
// the call will need first and fails with the budget error at the script's
// position, before it allocates. The sizes are a tenth of the issue's
// (TestRegexpBombsAtFullSize has those): large enough that the original
// natives grow the heap by hundreds of MB, small enough to run everywhere.
func TestRegexpNativesHitTheBudget(t *testing.T) {
	cases := []struct {
		name, code string
		script     bool   // run as a runScript file (${...} cannot hold a '$')
		native     string // "" when the step check stops it (a loop of natives)
		call       string // the call whose position the error names
	}{
		{name: "replace with a string", code: "'a'.repeat(3e6).replace(/a/g, 'bbbbbbbbbb')", native: "String.prototype.replace", call: ".replace("},
		{name: "replace with a function", code: "'a'.repeat(3e6).replace(/a/g, () => 'b')", native: "String.prototype.replace", call: ".replace("},
		{name: "replace with $&", script: true, code: "'a'.repeat(3e6).replace(/a/g, '[$&]')", native: "String.prototype.replace", call: ".replace("},
		{name: "replace with $' once", script: true, code: "'a'.repeat(1e5).replace(/a/, \"$'\".repeat(1000))", native: "String.prototype.replace", call: ".replace("},
		{name: "replace of a string with $' once", script: true, code: "'a'.repeat(1e5).replace('a', \"$'\".repeat(1000))", native: "String.prototype.replace", call: ".replace("},
		{name: "replaceAll with a regexp", code: "'a'.repeat(3e6).replaceAll(/a/g, 'b')", native: "String.prototype.replaceAll", call: ".replaceAll("},
		{name: "replaceAll with a string", code: "'a'.repeat(3e6).replaceAll('a', 'b')", native: "String.prototype.replaceAll", call: ".replaceAll("},
		{name: "match", code: "'a'.repeat(3e6).match(/a/g)", native: "String.prototype.match", call: ".match("},
		{name: "split", code: "'a'.repeat(3e6).split(/a/)", native: "String.prototype.split", call: ".split("},
		{name: "split with captures", code: "'a'.repeat(2e6).split(/(a)/)", native: "String.prototype.split", call: ".split("},
		{name: "Symbol.replace", code: "/a/g[Symbol.replace]('a'.repeat(3e6), 'b')", native: "RegExp.prototype[Symbol.replace]", call: "]("},
		{name: "Symbol.split", code: "RegExp.prototype[Symbol.split].call(/a/, 'a'.repeat(3e6))", native: "RegExp.prototype[Symbol.split]", call: ".call("},
		{name: "lookbehind (the backtracking engine)", code: "'a'.repeat(3e6).replace(/(?<=a)a/g, 'b')", native: "String.prototype.replace", call: ".replace("},
		{name: "text that is not ASCII", code: "'é'.repeat(3e6).replace(/é/g, 'e')", native: "String.prototype.replace", call: ".replace("},
		{name: "a subclass (goja's generic path)", code: "'a'.repeat(3e5).replace(new (class extends RegExp {})('a', 'g'), 'b')", native: "String.prototype.replace", call: ".replace("},
		{name: "matchAll spread into an array", code: "[...'a'.repeat(2e6).matchAll(/a/g)]", call: ".matchAll("},
		{name: "matchAll into Array.from", code: "Array.from('a'.repeat(2e6).matchAll(/a/g))", call: ".from("},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, Options{MemoryBudget: testBudget, Timeout: time.Minute})
			stop := heapPeak()
			var err error
			if c.script {
				err = e.RunScript(context.Background(), "big.js", "var r = "+c.code+"\n", nil, flowPos)
			} else {
				_, err = e.Interpolate(context.Background(), canonical.Text("${"+c.code+"}", flowPos))
			}
			peak := stop()
			if err == nil {
				t.Fatalf("the script passed (the heap grew by %d MiB)", peak>>20)
			}
			ce := codedErr(t, err)
			if ce.Reason() != ReasonMemory {
				t.Fatalf("failed with %s, want the memory budget error: %v", ce.Reason(), err)
			}
			where := strings.Index(c.code, c.call) + len(c.call)
			if c.script {
				where += len("var r = ")
			}
			if got, _ := ce.Details["native"].(string); got != c.native {
				t.Errorf("native %q, want %q (%s)", got, c.native, ce.Message)
			}
			if ce.Details["line"] != 1 || ce.Details["col"] != where {
				t.Errorf("position %v:%v, want 1:%d (%s)", ce.Details["line"], ce.Details["col"], where, ce.Message)
			}
			// A native refuses before it allocates: the heap holds the
			// input and what the estimate costs. A loop of natives stops
			// at the next step once the heap is over the watchdog's
			// limits, in the race run too (the step checks the heap
			// itself, so a late watchdog does not matter).
			limit, what := uint64(testBudget), "one budget"
			if c.native == "" {
				limit, what = 4*testBudget, "4 budgets"
			}
			t.Logf("the heap grew by %d MiB", peak>>20)
			if peak > limit {
				t.Errorf("the heap grew by %d MiB, more than %s", peak>>20, what)
			}
			if got := interp(t, e, "${'x'.repeat(1000).replace(/x/g, 'y').length}"); got != "1000" {
				t.Errorf("after the failure: %q", got)
			}
		})
	}
}

// TestRegexpBombsAtFullSize: the two reproductions, which reached
// 7.3 GB (replace) and killed the process under a 6 GB ulimit (match). Each
// now fails with the budget error at the call before the match list is
// built; the heap holds the text (30 MB) and the count's garbage.
func TestRegexpBombsAtFullSize(t *testing.T) {
	for _, c := range []struct{ code, native, call string }{
		{"'a'.repeat(3e7).replace(/a/g,'bbbbbbbbbb')", "String.prototype.replace", ".replace("},
		{"'a'.repeat(2e7).match(/a/g)", "String.prototype.match", ".match("},
	} {
		t.Run(c.native, func(t *testing.T) {
			e := newEngine(t, Options{MemoryBudget: testBudget, Timeout: time.Minute})
			stop := heapPeak()
			_, err := e.Interpolate(context.Background(), canonical.Text("${"+c.code+"}", flowPos))
			peak := stop()
			if err == nil {
				t.Fatal("the script passed")
			}
			ce := codedErr(t, err)
			if ce.Reason() != ReasonMemory || ce.Details["native"] != c.native {
				t.Fatalf("got %s (native %v): %v", ce.Reason(), ce.Details["native"], err)
			}
			if want := strings.Index(c.code, c.call) + len(c.call); ce.Details["col"] != want {
				t.Errorf("column %v, want %d: %s", ce.Details["col"], want, ce.Message)
			}
			if peak > testBudget {
				t.Errorf("the heap grew by %d MiB, more than one budget", peak>>20)
			}
		})
	}
}

// The regexp natives behave as the originals for every call that fits,
// counted or not: results, lastIndex, names and lengths, their own
// exceptions; a script that redefines a RegExp's flag accessors or exec
// cannot make a call look smaller than it is.
func TestRegexpNativesStayTransparent(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	for _, c := range []struct{ code, want string }{
		{"'a-b_c'.replace(/[-_]/g, '+') + ' ' + 'abc'.replace(/b/, (m, i, s) => m + i + s)", "a+b+c ab1abcc"},
		{"'aXbXc'.split(/X/).join() + ' ' + 'aXbXc'.split(/(X)/, 3).join() + ' ' + 'a1b2'.match(/\\d/g).join() + ' ' + 'a1b2'.match(/(\\d)/)[1]", "a,b,c a,X,b 1,2 1"},
		{"[...'a1b2'.matchAll(/\\d/g)].map(m => m[0] + m.index).join() + ' ' + Array.from('xyx'.matchAll(/x/g)).length", "11,23 2"},
		{"var r = /a/y; r.lastIndex = 1; ['baa'.replace(r, 'X'), r.lastIndex].join()", "bXa,2"},
		{"var g = /a/g; g.lastIndex = 2; ['aaa'.replace(g, 'b'), g.lastIndex].join()", "bbb,0"},
		{"[RegExp.prototype[Symbol.replace].name, RegExp.prototype[Symbol.split].length, String.prototype.replace.name, String.prototype.match.length].join()", "[Symbol.replace],2,replace,1"},
		{"class R extends RegExp {}; 'a.b'.replace(new R('\\\\.', 'g'), '!') + 'aa'.replaceAll(/a/g, 'b')", "a!bbb"},
		{"try { 'aa'.replaceAll(/a/, 'b') } catch (e) { e.name }", "TypeError"},
		{"'é-é'.replace(/é/g, 'e') + 'ab'.replace(/(?<=a)b/g, 'c')", "e-eac"},
		// Long texts with few matches are counted and pass; the engine
		// that counts is the one goja uses (Go's here: (a+)+b would
		// backtrack for ever in regexp2).
		{"var s = 'a'.repeat(5e6) + 'b'; [s.replace(/b/g, 'c').length, s.split(/b/).length, s.match(/b/g).length, s.replace(/(a+)+b/g, 'x').length].join()", "5000001,2,1,1"},
		{"var u = 'é'.repeat(1e6) + 'x'; [u.replace(/x/g, 'y').length, u.replace(/(?<=é)x/g, 'y').slice(-1)].join()", "1000001,y"},
	} {
		if got := interp(t, e, "${"+c.code+"}"); got != c.want {
			t.Errorf("%s = %q, want %q", c.code, got, c.want)
		}
	}
	// $ patterns (a ${...} cannot hold a '$').
	runScript(t, e, "subst.js", "output.s = ['x1y22'.replace(/(\\d+)/g, '<$1>'), 'abc'.replace(/b/, \"[$`$&$']\"), 'aa'.replace('a', '$$'), 'ab'.replaceAll('b', '$&$&')].join()")
	if got := interp(t, e, "${output.s}"); got != "x<1>y<22>,a[abc]c,$a,abb" {
		t.Errorf("substitutions: %q", got)
	}
	// Redefined accessors and exec do not hide a global regexp.
	for _, code := range []string{
		"Object.defineProperty(RegExp.prototype, 'global', {get() { return false }}); Object.defineProperty(RegExp.prototype, 'flags', {get() { return '' }}); 'a'.repeat(3e6).replace(/a/g, 'b')",
		"RegExp.prototype.exec = function () { return null }; 'a'.repeat(3e6).match(/a/g)",
	} {
		e := newEngine(t, Options{})
		if ce := interpErr(t, e, "${"+code+"}"); ce.Reason() != ReasonMemory {
			t.Errorf("%s: %v", code, ce)
		}
	}
	ce := interpErr(t, e, "${try { 'a'.repeat(3e6).replace(/a/g, 'b') } catch (e) { 'caught' }}")
	if ce.Reason() != ReasonMemory {
		t.Errorf("a budget failure was caught: %v", ce)
	}
}
