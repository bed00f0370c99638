package js

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRunScriptOutputAndEnv follows case 064: a script writes output.*,
// reads its runScript env and the flow's variables; its env and locals are
// gone afterwards, output stays.
func TestRunScriptOutputAndEnv(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"MAESTRO_FILENAME", "064_js_files"}, {"NAME", "flow"}})
	interp(t, e, "${output.fromFlow = 'f'}")

	runScript(t, e, "064_script.js", `
var local = 'script-local';
let lexical = 1;
function helper() { return SCRIPT_ENV + '/' + NAME + '/' + MAESTRO_FILENAME; }
output.script = helper();
output.seenFlowOutput = output.fromFlow;
output.name = NAME;
`, Var{"SCRIPT_ENV", "literal"}, Var{"NAME", "script"})

	checks := map[string]string{
		"${output.script}":         "literal/script/064_js_files",
		"${output.seenFlowOutput}": "f",
		"${output.name}":           "script",
		"${NAME}":                  "flow",
		"${SCRIPT_ENV}":            "null", // gone; undeclared names are null in Rhino
		"${local}":                 "null",
		"${lexical}":               "null",
		"${helper}":                "null",
	}
	for raw, want := range checks {
		if got := interp(t, e, raw); got != want {
			t.Errorf("%s = %q, want %q", raw, got, want)
		}
	}

	// A second script sees the first one's output, not its locals.
	runScript(t, e, "064_script2.js", "output.second = output.script + '!' + local")
	if got := interp(t, e, "${output.second}"); got != "literal/script/064_js_files!null" {
		t.Errorf("second script: %q", got)
	}
	if got := e.Output()["script"]; got != "literal/script/064_js_files" {
		t.Errorf("Output()[script] = %v", got)
	}
}

// TestRunScriptScoping: a script's var shadows a flow variable instead of
// overwriting it; assignments without a declaration reach the flow scope;
// the script may run twice (its const is fresh each time).
func TestRunScriptScoping(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"A", "flow"}})
	interp(t, e, "${var counter = 0}")
	src := `
const once = 1;
var A = 'script';
output.inScript = A;
counter = counter + once;
undeclared = 'leaks like a sloppy global';
`
	runScript(t, e, "s.js", src)
	runScript(t, e, "s.js", src)
	got := interp(t, e, "${A}|${output.inScript}|${counter}|${undeclared}")
	if got != "flow|script|2.0|leaks like a sloppy global" { // counter + once: a Java double in Rhino
		t.Errorf("got %q", got)
	}

	// Inside a subflow the script sees the subflow's variables.
	e.EnterScope()
	e.DefineVars([]Var{{"SUB", "sub"}})
	runScript(t, e, "sub.js", "output.sub = SUB")
	e.LeaveScope()
	if got := interp(t, e, "${output.sub}"); got != "sub" {
		t.Errorf("output.sub = %q", got)
	}

	// A top-level return ends the script.
	runScript(t, e, "ret.js", "output.before = 'b'\nreturn\noutput.after = 'a'")
	if got := interp(t, e, "${output.before}/${output.after}"); got != "b/undefined" {
		t.Errorf("return: %q", got)
	}
}

// TestConsoleLog follows case 092: console.log from ${} and from scripts
// reaches Options.Log in order, one message per call.
func TestConsoleLog(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var logs []string
	e := newEngine(t, Options{Log: func(line string) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, line)
	}})
	interp(t, e, "${console.log('Log from evalScript')}")
	runScript(t, e, "092_script.js", `
console.log('Log from runScript');
console.log('several', 1, true, null, undefined, [1, 2], {a: 1});
console.log();
console.log('two\nlines');
`)
	want := []string{
		"Log from evalScript",
		"Log from runScript",
		"several 1 true null undefined 1,2 [object Object]",
		"",
		"two\nlines",
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(logs, want) {
		t.Errorf("logs:\n got %q\nwant %q", logs, want)
	}
}

// TestJSONGlobal: json() is JSON.parse.
func TestJSONGlobal(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	runScript(t, e, "j.js", `output.v = json('{"k": [1, {"m": "x"}]}').k[1].m; output.n = json('3.5') * 2`)
	if got := interp(t, e, "${output.v} ${output.n}"); got != "x 7.0" { // computed: a Java double in Rhino
		t.Errorf("got %q", got)
	}
	err := e.RunScript(context.Background(), "bad.js", "json('{')", nil, flowPos)
	ce := codedErr(t, err)
	if ce.Reason() != ReasonThrown || !strings.Contains(ce.Message, "SyntaxError") || !strings.Contains(ce.Message, "(at bad.js:1:5)") {
		t.Errorf("json('{') error: %v", err)
	}
}

// TestRunScriptErrors pins the messages: script name, JavaScript error and
// line:col inside the script; the flow position is the error's Pos.
func TestRunScriptErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, script, src, reason, msg string
		line, col                      int
	}{
		{
			name: "syntax error", script: "setup.js", src: "var a = 1;\nvar b = ;\n", reason: ReasonSyntax,
			msg: "script setup.js failed: SyntaxError: Unexpected token ; (at setup.js:2:9)", line: 2, col: 9,
		},
		{
			name: "unclosed", script: "open.js", src: "if (x) {\n  y()\n", reason: ReasonSyntax,
			msg: "script open.js failed: SyntaxError: Unexpected end of input (at open.js:3:1)", line: 3, col: 1,
		},
		{
			name: "syntax error on line 1", script: "one.js", src: "output.x = )", reason: ReasonSyntax,
			msg: "script one.js failed: SyntaxError: Unexpected token ) (at one.js:1:12)", line: 1, col: 12,
		},
		{
			name: "type error in a function", script: "fn.js", src: "function g() {\n  return output.none.x\n}\ng()", reason: ReasonThrown,
			msg: "script fn.js failed: TypeError: Cannot read property 'x' of undefined (at fn.js:2:22)", line: 2, col: 22,
		},
		{
			name: "thrown on line 1", script: "t.js", src: "throw new RangeError('nope')", reason: ReasonThrown,
			msg: "script t.js failed: RangeError: nope (at t.js:1:7)", line: 1, col: 7,
		},
		{
			name: "thrown non-error", script: "s.js", src: "\nthrow 'plain'", reason: ReasonThrown,
			msg: "script s.js failed: plain (at s.js:2:1)", line: 2, col: 1,
		},
		{
			name: "stack overflow", script: "deep.js", src: "function f(n) { return f(n + 1) + 1 }\nf(0)", reason: ReasonStackOverflow,
			msg: "script deep.js failed: RangeError: Maximum call stack size exceeded (at deep.js:1:25)", line: 1, col: 25,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, Options{})
			err := e.RunScript(context.Background(), tc.script, tc.src, nil, flowPos)
			ce := codedErr(t, err)
			if ce.Message != tc.msg {
				t.Errorf("message:\n got %s\nwant %s", ce.Message, tc.msg)
			}
			if ce.Reason() != tc.reason {
				t.Errorf("reason = %s, want %s", ce.Reason(), tc.reason)
			}
			if ce.Details["script"] != tc.script || ce.Details["line"] != tc.line || ce.Details["col"] != tc.col {
				t.Errorf("details = %v", ce.Details)
			}
			if want := "flows/login.yaml:7:3: COMMAND_FAILED: " + tc.msg; err.Error() != want {
				t.Errorf("Error() = %s", err)
			}
			runScript(t, e, "after.js", "output.ok = true") // still usable
		})
	}
}

// TestErrorInsideAnotherScript: the position names the file the failing
// code came from.
func TestErrorInsideAnotherScript(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	runScript(t, e, "lib.js", "output.check = function (v) {\n  return v.length\n}")
	ce := interpErr(t, e, "${output.check(null)}")
	if !strings.HasSuffix(ce.Message, "(at lib.js:2:12)") || ce.Details["source"] != "lib.js" {
		t.Errorf("message %q details %v", ce.Message, ce.Details)
	}
}

// TestTimeouts: `for(;;){}` stops at Options.Timeout, in a ${} and in a
// script, and the engine is usable afterwards.
func TestTimeouts(t *testing.T) {
	t.Parallel()
	const limit = 200 * time.Millisecond
	e := newEngine(t, Options{Timeout: limit})

	start := time.Now()
	ce := interpErr(t, e, "${for(;;){}}")
	if d := time.Since(start); d < limit || d > limit+2*time.Second {
		t.Errorf("took %v", d)
	}
	if ce.Reason() != ReasonTimeout || !strings.HasPrefix(ce.Message, "script ${for(;;){}} timed out after 200ms") {
		t.Errorf("inline timeout: %s (%s)", ce.Message, ce.Reason())
	}
	if !errors.Is(ce, context.DeadlineExceeded) {
		t.Error("a timeout does not wrap context.DeadlineExceeded")
	}
	if got := interp(t, e, "${1+1}"); got != "2" {
		t.Errorf("after the timeout ${1+1} = %q", got)
	}

	err := e.RunScript(context.Background(), "loop.js", "var i = 0;\nwhile (true) {\n  i++\n}", nil, flowPos)
	ce = codedErr(t, err)
	if ce.Reason() != ReasonTimeout || !strings.HasPrefix(ce.Message, "script loop.js timed out after 200ms (at loop.js:") {
		t.Errorf("script timeout: %s", ce.Message)
	}
	if l, _ := ce.Details["line"].(int); l < 2 || l > 3 {
		t.Errorf("timeout line = %v, want inside the loop", ce.Details["line"])
	}
	runScript(t, e, "after.js", "output.after = 'ok'")
	if got := interp(t, e, "${output.after}"); got != "ok" {
		t.Errorf("after the script timeout: %q", got)
	}

	// An infinite loop inside a toString() called while rendering the
	// result is stopped too.
	ce = interpErr(t, e, "${({toString() { for(;;){} }, __proto__: Date.prototype})}")
	if ce.Reason() != ReasonTimeout {
		t.Errorf("rendering loop: %s", ce.Message)
	}
}

// TestCancellation: the caller's context interrupts a script.
func TestCancellation(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	err := e.RunScript(ctx, "spin.js", "for(;;){}", nil, flowPos)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	ce := codedErr(t, err)
	if ce.Reason() != ReasonCancelled || !errors.Is(err, context.Canceled) {
		t.Errorf("got %v (reason %s)", err, ce.Reason())
	}
	if !strings.HasPrefix(ce.Message, "script spin.js was cancelled: context canceled") {
		t.Errorf("message %s", ce.Message)
	}
	// Already cancelled: nothing runs.
	err = e.RunScript(ctx, "never.js", "output.ran = true", nil, flowPos)
	if codedErr(t, err).Reason() != ReasonCancelled {
		t.Errorf("pre-cancelled context: %v", err)
	}
	if got := interp(t, e, "${output.ran}"); got != "undefined" {
		t.Errorf("the script ran under a cancelled context: %q", got)
	}
}

// TestStackOverflowKeepsEngine: deep recursion is an error, not a crash,
// and a catchable one is not needed to recover.
func TestStackOverflowKeepsEngine(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	for range 3 {
		ce := interpErr(t, e, "${(function r(n) { return r(n + 1) })(0)}")
		if ce.Reason() != ReasonStackOverflow {
			t.Fatalf("got %s", ce.Message)
		}
	}
	// Recursion below the limit works.
	if got := interp(t, e, "${(function f(n) { return n ? n + f(n - 1) : 0 })(1000)}"); got != "500500" {
		t.Errorf("deep but finite recursion: %q", got)
	}
}

// TestCatastrophicRegexp: a backtracking regexp ignores Interrupt. The call
// still returns at the deadline (plus a grace period), the error says so,
// and the engine reports busy instead of racing the stuck goroutine.
func TestCatastrophicRegexp(t *testing.T) {
	t.Parallel()
	const limit = 200 * time.Millisecond
	e := newEngine(t, Options{Timeout: limit})
	start := time.Now()
	err := e.RunScript(context.Background(), "re.js", "output.r = /^(a+)+\\1b/.test('a'.repeat(40))", nil, flowPos)
	if d := time.Since(start); d > limit+interruptGrace+2*time.Second {
		t.Errorf("returned after %v", d)
	}
	ce := codedErr(t, err)
	if ce.Reason() != ReasonTimeout || !strings.HasSuffix(ce.Message, "timed out after 200ms and is still running native code; the engine refuses scripts until it returns") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(ce.Hint, "regular expression") {
		t.Errorf("hint %q does not name the regexp", ce.Hint)
	}
	ce = interpErr(t, e, "${1+1}")
	if ce.Reason() != ReasonBusy || !strings.Contains(ce.Message, "still stuck in native code") || !strings.Contains(ce.Hint, "regular expression") {
		t.Errorf("while the regexp runs: %v (%s)", ce, ce.Hint)
	}
	if e.Output() != nil {
		t.Error("Output() while busy must be nil")
	}
}

// TestLateInterruptIsCleared: when the deadline hits just as an evaluation
// finishes, its result stands and the interrupt must not leak into the
// next evaluation.
func TestLateInterruptIsCleared(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{Timeout: 50 * time.Millisecond})
	got, err := e.run(context.Background(), func() (string, error) {
		time.Sleep(150 * time.Millisecond) // Go code: the interrupt cannot stop it
		return "finished", nil
	})
	if err != nil || got != "finished" {
		t.Fatalf("run = %q, %v", got, err)
	}
	if got := interp(t, e, "${1+1}"); got != "2" {
		t.Errorf("next evaluation: %q", got)
	}
}

// TestStuckNativeIsNamed: a runaway evaluation's hint names the built-in
// that is stuck, and blames a regular expression only when one runs.
func TestStuckNativeIsNamed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ native, want, not string }{
		{"Array.prototype.sort", "Array.prototype.sort cannot be interrupted", "regular expression"},
		{"", "a built-in call cannot be interrupted", "regular expression"},
		{regexpNative, "regular expression with catastrophic backtracking", ""},
	} {
		e := newEngine(t, Options{Timeout: 20 * time.Millisecond})
		release := make(chan struct{})
		_, err := e.run(context.Background(), func() (string, error) {
			if tc.native != "" {
				defer e.enter(tc.native)()
			}
			<-release // Go code: the interrupt cannot stop it
			return "", nil
		})
		ce := codedErr(t, e.scriptError(subject{script: "s.js"}, err, flowPos))
		busy := interpErr(t, e, "${1}")
		close(release)
		for _, hint := range []string{ce.Hint, busy.Hint} {
			if !strings.Contains(hint, tc.want) || (tc.not != "" && strings.Contains(hint, tc.not)) {
				t.Errorf("%q: hint %q", tc.native, hint)
			}
		}
	}
}
