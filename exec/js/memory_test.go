package js

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// testBudget is the default budget, written out so the messages below are
// literal.
const testBudget = 64 << 20

// heapPeak samples the heap every millisecond until stop is called and
// returns the highest growth over the heap at the start. These tests do not
// run in parallel, so the growth is the script's.
func heapPeak() (stop func() uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak uint64
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > base && v-base > peak {
				peak = v - base
			}
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(quit)
		wg.Wait()
		return peak
	}
}

// TestRunawayScriptsHitTheBudget: scripts that grow without bound fail with
// the budget error at their position, and the heap never grows by more than
// eight budgets on the way (the time limit is a minute here, so it is the
// budget that stops them). Each shape stops a different way: the watchdog
// (string doubling, push loop), or a native's own check before it
// allocates (repeat, fill over a huge length, stringify, apply, spread,
// typed arrays, parse).
func TestRunawayScriptsHitTheBudget(t *testing.T) {
	cases := []struct {
		name, code string
		script     bool   // run as a runScript file rather than ${...}
		native     string // the built-in that refused, "" for the watchdog
		where      string // the message's position
	}{
		{name: "string doubling", code: "var s = 'x'; while (true) s += s", where: "(at 1:"},
		{name: "string doubling in a script", script: true,
			code: "var s = 'x'\nwhile (true) {\n  s = s + s\n}\n", where: "(at big.js:"},
		{name: "array push loop", script: true,
			code: "var a = []\nfor (;;) a.push({n: a.length, s: 'row ' + a.length})\n", where: "(at big.js:2:"},
		{name: "repeat", code: "'x'.repeat(2**30)", native: "String.prototype.repeat", where: "(at 1:11 in the expression)"},
		{name: "fill over a huge length", code: "new Array(2**32-1).fill(0)", native: "Array.prototype.fill", where: "(at 1:24 in the expression)"},
		{name: "stringify", script: true,
			code:   "var s = 'x'.repeat(1 << 20)\nvar a = []\nfor (var i = 0; i < 1000; i++) a.push(s)\noutput.j = JSON.stringify(a)\n",
			native: "JSON.stringify", where: "(at big.js:4:"},
		{name: "apply with a huge array-like", code: "Math.max.apply(null, {length: 2**32})", native: "Function.prototype.apply", where: "(at 1:"},
		{name: "spread of a huge sparse array", code: "var a = []; a.length = 2**32 - 1; [...a]", native: "Array.prototype.values", where: "(at 1:"},
		{name: "typed array", code: "new Float64Array(2**28)", native: "new Float64Array", where: "(at 1:1 in the expression)"},
		{name: "parse", code: "JSON.parse('[' + '[],'.repeat(1e6) + '[]]')", native: "JSON.parse", where: "(at 1:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, Options{MemoryBudget: testBudget, Timeout: time.Minute})
			stop := heapPeak()
			var err error
			if c.script {
				err = e.RunScript(context.Background(), "big.js", c.code, nil, flowPos)
			} else {
				_, err = e.Interpolate(context.Background(), canonical.Text("${"+c.code+"}", flowPos))
			}
			peak := stop()
			if err == nil {
				t.Fatal("the script passed")
			}
			ce := codedErr(t, err)
			if ce.Reason() != ReasonMemory {
				t.Fatalf("failed with %s, want the memory budget error: %v", ce.Reason(), err)
			}
			if !strings.Contains(ce.Message, "exceeded its memory budget of 64 MiB") || !strings.Contains(ce.Message, c.where) {
				t.Errorf("message %q lacks the budget or the position %q", ce.Message, c.where)
			}
			if got, _ := ce.Details["native"].(string); got != c.native {
				t.Errorf("native %q, want %q (%s)", got, c.native, ce.Message)
			}
			// A native refuses before it allocates. The watchdog acts
			// between two instructions: a doubling string overshoots by
			// up to the allocation in progress when it samples, and by one
			// more when the watchdog wakes late on a busy machine.
			limit, what := uint64(testBudget), "one budget"
			if c.native == "" {
				limit, what = 8*testBudget, "8 budgets"
			}
			switch {
			case peak <= limit:
			case raceDetector && c.native == "":
				// The race run checks the stop and its message; the
				// overshoot of a late watchdog is measured without it.
				t.Logf("the heap grew by %d MiB under the race detector (more than %s; not asserted there)", peak>>20, what)
			default:
				t.Errorf("the heap grew by %d MiB, more than %s", peak>>20, what)
			}
			// The engine is usable afterwards, and the budget counts afresh.
			if got := interp(t, e, "${'x'.repeat(1000).length}"); got != "1000" {
				t.Errorf("after the failure: %q", got)
			}
		})
	}
}

// A script that uses a few MB passes: strings, arrays, objects, a JSON
// round trip, typed arrays, all well inside the budget.
func TestScriptWithinTheBudgetPasses(t *testing.T) {
	e := newEngine(t, Options{MemoryBudget: testBudget})
	runScript(t, e, "ok.js", `
var rows = []
for (var i = 0; i < 20000; i++) rows.push({id: i, name: 'user ' + i, tags: ['a', 'b']})
var text = JSON.stringify(rows)
var back = JSON.parse(text)
var big = 'x'.repeat(2 << 20).padEnd(3 << 20, 'y')
var bytes = new Uint8Array(1 << 20)
output.summary = [back.length, text.length > 8e5, big.length, bytes.length, rows.map(r => r.id).join(',').length].join(' ')
`)
	if got := interp(t, e, "${output.summary}"); got != "20000 true 3145728 1048576 108889" {
		t.Errorf("summary %q", got)
	}
}

// Garbage is not growth: a loop that allocates far more than the budget in
// total but keeps little of it runs until its time limit, which is what
// stops it; so does a loop that allocates nothing.
func TestTimeLimitStopsLoopsThatStayInBudget(t *testing.T) {
	for _, c := range []struct{ name, code string }{
		{"cpu only", "for (;;) {}"},
		{"allocating garbage", "var n = 0; for (;;) { var s = 'x'.repeat(1 << 16) + n++; var a = [s, s, {s: s}] }"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEngine(t, Options{MemoryBudget: testBudget, Timeout: 300 * time.Millisecond})
			ce := interpErr(t, e, "${"+c.code+"}")
			if ce.Reason() != ReasonTimeout {
				t.Fatalf("failed with %s, want the timeout error: %v", ce.Reason(), ce)
			}
			if !strings.Contains(ce.Message, "timed out after 300ms (at 1:") {
				t.Errorf("message %q", ce.Message)
			}
		})
	}
}

// Concurrent flows (shards) take turns, so a runaway script in one never
// makes the watchdog blame a script of another that allocates normally at
// the same time.
func TestConcurrentScriptsAreNotBlamedForEachOther(t *testing.T) {
	runaway := newEngine(t, Options{MemoryBudget: testBudget, Timeout: time.Minute})
	var wg sync.WaitGroup
	var bad error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, bad = runaway.Interpolate(context.Background(), canonical.Text("${var s = 'x'; while (true) s += s}", flowPos))
	}()
	innocent := newEngine(t, Options{MemoryBudget: testBudget, Timeout: time.Minute})
	for i := 0; i < 50; i++ {
		got := interp(t, innocent, "${var a = []; for (var i = 0; i < 20000; i++) a.push('item ' + i); a.length === 20000}")
		if got != "true" {
			t.Fatalf("innocent script: %q", got)
		}
	}
	wg.Wait()
	if ce := codedErr(t, bad); ce.Reason() != ReasonMemory {
		t.Errorf("runaway failed with %s: %v", ce.Reason(), bad)
	}
}

// A script waiting for its turn stops when its context ends, and it is
// reported as cancelled, not as timed out or out of memory.
func TestWaitingForTheTurnIsCancellable(t *testing.T) {
	release, err := takeTurn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	e := newEngine(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.Interpolate(ctx, canonical.Text("${1}", flowPos))
	if ce := codedErr(t, err); ce.Reason() != ReasonCancelled {
		t.Errorf("got %s: %v", ce.Reason(), err)
	}
}

// The guarded built-ins behave as the originals for every call that fits:
// names and lengths, results, their own exceptions (which scripts may
// catch), typed arrays with instanceof. A budget failure, unlike those,
// cannot be caught.
func TestGuardedBuiltinsStayTransparent(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	for _, c := range []struct{ code, want string }{
		{"[String.prototype.repeat.name, String.prototype.repeat.length, Array.prototype.fill.length, JSON.stringify.name].join()", "repeat,1,1,stringify"},
		{"'ab'.repeat(3) + 'x'.padStart(3, '-') + 'x'.padEnd(2) + '|' + 'a'.concat('b', 1)", "ababab--xx |ab1"},
		{"'a,b,,c'.split(',').length + ' ' + 'a-b-c'.replaceAll('-', '+') + ' ' + 'aXbX'.split(/X/).length", "4 a+b+c 3"},
		{"[3, 1, 2].sort().concat([4], 5).join('-') + ' ' + [1, [2, [3]]].flat(2).length + ' ' + Array.from('abc').length", "1-2-3-4-5 3 3"},
		{"[...[1, 2], ...new Set([3])].length + ' ' + Math.max.apply(null, [1, 7, 3]) + ' ' + Reflect.apply(Math.min, null, [4, 2])", "3 7 2"},
		{"JSON.stringify(JSON.parse('{\"a\":[1,{\"b\":null}]}')) + JSON.stringify({a: 1}, null, 2).length", `{"a":[1,{"b":null}]}12`},
		{"var u = new Uint8Array([1, 2, 300]); [u instanceof Uint8Array, u[2], new ArrayBuffer(8).byteLength, Uint8Array.from([5]).length, u.constructor === Uint8Array, Object.getPrototypeOf(Uint8Array) === Object.getPrototypeOf(Int8Array)].join()", "true,44,8,1,true,true"},
		{"try { 'x'.repeat(-1) } catch (e) { e.name }", "RangeError"},
		{"try { JSON.parse('{') } catch (e) { e.name }", "SyntaxError"},
	} {
		if got := interp(t, e, "${"+c.code+"}"); got != c.want {
			t.Errorf("%s = %q, want %q", c.code, got, c.want)
		}
	}
	ce := interpErr(t, e, "${try { 'x'.repeat(2**30) } catch (e) { 'caught' }}")
	if ce.Reason() != ReasonMemory {
		t.Errorf("a budget failure was caught: %v", ce)
	}
}

// The budget error in full: what, where, and what to do.
func TestMemoryBudgetErrorText(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	ce := interpErr(t, e, "${'x'.repeat(2**30)}")
	if want := "script ${'x'.repeat(2**30)} exceeded its memory budget of 64 MiB: String.prototype.repeat would need 1024 MiB (at 1:11 in the expression)"; ce.Message != want {
		t.Errorf("message\n\t%s\nwant\n\t%s", ce.Message, want)
	}
	if want := "one evaluation may grow the heap by at most 64 MiB; look for a loop that keeps growing a string or an array, or work on less data at a time"; ce.Hint != want {
		t.Errorf("hint %q", ce.Hint)
	}
	if ce.Details["memoryBudget"] != int64(64<<20) || ce.Details["needed"] != int64(1<<30) || ce.Details["line"] != 1 || ce.Details["col"] != 11 {
		t.Errorf("details %v", ce.Details)
	}
	err := e.RunScript(context.Background(), "dump.js", "var s = 'x'.repeat(1 << 20)\nvar a = []\nfor (var i = 0; i < 100; i++) a.push(s)\nvar j = JSON.stringify(a)\n", nil, flowPos)
	ce = codedErr(t, err)
	if want := "script dump.js exceeded its memory budget of 64 MiB: JSON.stringify would need more than 64 MiB (at dump.js:4:23)"; ce.Message != want {
		t.Errorf("message\n\t%s\nwant\n\t%s", ce.Message, want)
	}
}
