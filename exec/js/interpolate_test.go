package js

import (
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestInterpolate pins Maestro's ${...} rules (reference §3.5) and the
// value rendering of both engines: want is Rhino's (Maestro's default),
// graal GraalJS's where it differs.
func TestInterpolate(t *testing.T) {
	t.Parallel()
	ab := []Var{{"A", "1"}, {"B", "2"}}
	cases := []struct {
		name  string
		vars  []Var
		setup []string // templates evaluated first, for their side effects
		raw   string
		want  string
		graal string // GraalJS's result when it is not want
	}{
		{name: "plain text", raw: "Hello World", want: "Hello World"},
		{name: "dollar without brace", raw: "costs $5 {x}", want: "costs $5 {x}"},
		{name: "unclosed expression is text", raw: "${A", vars: ab, want: "${A"},
		{name: "brace only after the next dollar", raw: "${A $ }", vars: ab, want: "${A $ }"},

		// Case 063.
		{name: "063 variable", vars: ab, raw: "${A}", want: "1"},
		{name: "063 string concatenation", vars: ab, raw: "${A + B}", want: "12"},
		// IntegrationTest "Case 063 - Javascript injection" asserts "3.0".
		{name: "063 computed number is a Java double", vars: ab, raw: "${parseInt(A)+parseInt(B)}", want: "3.0", graal: "3"},
		{name: "063 escape", vars: ab, raw: `\${A}`, want: "${A}"},
		{name: "escape inside text", raw: `password: \${PASSWORD}!`, want: "password: ${PASSWORD}!"},
		{name: "escape next to expression", vars: ab, raw: `${A}-\${A}`, want: "1-${A}"},
		{name: "double backslash drops one", vars: ab, raw: `\\${A}`, want: `\${A}`},
		{name: "escape without closing brace keeps backslash", raw: `\${A`, want: `\${A`},
		{name: "escape pass applies to produced text", raw: `${'\\' + String.fromCharCode(36) + '{x}'}`, want: "${x}"},

		{name: "adjacent expressions", vars: ab, raw: "${A}${B}", want: "12"},
		{name: "expressions run left to right", raw: "${output.n = 1}-${output.n + 1}", want: "1.0-2.0", graal: "1-2"},
		{name: "greedy body to the last brace", raw: "${'}'}", want: "}"},
		{name: "greedy body stops at the next dollar", vars: ab, raw: `${"a}b"} and ${B}`, want: "a}b and 2"},
		{name: "body spans lines", vars: ab, raw: "${A +\n  B}", want: "12"},
		{name: "empty body", raw: "[${}]", want: "[]"},
		{name: "blank body", raw: "[${  \n\t }]", want: "[]"},

		{name: "undeclared is null (Rhino) or undefined (GraalJS)", raw: "${FOO}", want: "null", graal: "undefined"},
		{name: "093 default idiom", raw: "${FOO || 'com.example.default'}", want: "com.example.default"},
		{name: "093 default idiom with value", vars: []Var{{"FOO", "com.cli"}}, raw: "${FOO || 'com.example.default'}", want: "com.cli"},
		{name: "typeof undeclared", raw: "${typeof FOO}", want: "object", graal: "undefined"},
		{name: "undeclared is falsy", raw: "${!!foo}", want: "false"},
		{name: "null", raw: "${null}", want: "null"},
		{name: "undefined", raw: "${undefined}", want: "undefined"},
		{name: "boolean", raw: "${1 < 2}", want: "true"},

		{name: "integer", raw: "${1+1}", want: "2"},
		{name: "fraction", raw: "${10/4}", want: "2.5"},
		{name: "float noise", raw: "${0.1+0.2}", want: "0.30000000000000004"},
		{name: "large number", raw: "${1e21}", want: "1.0E21", graal: "1e+21"},
		{name: "2^53", raw: "${2**53}", want: "9.007199254740992E15", graal: "9007199254740992"},
		{name: "negative zero", raw: "${-0}", want: "-0.0", graal: "0"},
		{name: "infinity", raw: "${1/0}", want: "Infinity"},
		{name: "NaN", raw: "${0/0}", want: "NaN"},

		{name: "object as JSON", raw: "${({a: 1, b: [1, 'x']})}", want: `{"a":1,"b":[1,"x"]}`},
		{name: "empty array is not blank", raw: "${[]}", want: "[]"},
		{name: "array as JSON", raw: "${[1, 'two']}", want: `[1,"two"]`},
		{name: "065 object literal is a labelled block", raw: "${{field: 'value'}}", want: "value"},
		{name: "cyclic object falls back to String", raw: "${(function(){var o = {}; o.o = o; return o})()}", want: "[object Object]"},
		{name: "error object uses String", raw: "${new TypeError('bad')}", want: "TypeError: bad"},

		{name: "071 relativePoint", raw: "${relativePoint(0.25, 0.25)}", want: "25%,25%"},
		{name: "relativePoint rounds up like Maestro", raw: "${relativePoint(0.07, 1)}", want: "8%,100%"},
		{name: "json()", raw: `${json('{"a": [1, 2]}').a[1]}`, want: "2"},
		{name: "maestro.platform", raw: "${maestro.platform}", want: "android"},
		{name: "maestro.copiedText defaults to empty", raw: "[${maestro.copiedText}]", want: "[]"},

		{name: "070 evalScript result", setup: []string{"${output.number = 1 + 1}"}, raw: "Result is: ${output.number}", want: "Result is: 2"},
		{name: "var persists", setup: []string{"${var v = 5}"}, raw: "${v * 2}", want: "10.0", graal: "10"},
		{name: "const persists like Rhino", setup: []string{"${const c = 'k'}"}, raw: "${c}", want: "k"},
		{name: "const may be declared again", setup: []string{"${const c = 'k'}", "${const c = 'k2'}"}, raw: "${c}", want: "k2"},
		{name: "destructuring declaration persists", setup: []string{"${var {p, q: [r]} = {p: 1, q: [2]}}"}, raw: "${p + r}", want: "3.0", graal: "3"},
		{name: "function declaration stays local", setup: []string{"${function f() { return 1 }; f()}"}, raw: "${typeof f}", want: "object", graal: "undefined"},
		{name: "function works in its own expression", raw: "${function f() { return 'ok' } f()}", want: "ok"},
		{name: "var without value keeps the value", vars: ab, setup: []string{"${var A}"}, raw: "${A}", want: "1"},
		{name: "undeclared assignment", setup: []string{"${g = 7}"}, raw: "${g}", want: "7"},
		{name: "globalThis property", setup: []string{"${globalThis.gp = 'x'}"}, raw: "${gp}", want: "x"},
		{name: "optional chaining and nullish", raw: "${output.none?.x ?? 'dflt'}", want: "dflt"},
	}
	for _, tc := range cases {
		for _, d := range []Dialect{Rhino, GraalJS} {
			want := tc.want
			if d == GraalJS && tc.graal != "" {
				want = tc.graal
			}
			t.Run(string(d)+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				e := newEngine(t, Options{Dialect: d})
				if err := e.DefineVars(tc.vars); err != nil {
					t.Fatal(err)
				}
				for _, s := range tc.setup {
					interp(t, e, s)
				}
				if got := interp(t, e, tc.raw); got != want {
					t.Errorf("Interpolate(%q) = %q, want %q", tc.raw, got, want)
				}
			})
		}
	}
}

// TestInterpolateErrors pins what a failing expression reports: the
// expression, the JavaScript error and its line:col inside the expression,
// at the template's flow position.
func TestInterpolateErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		raw       string
		reason    string
		msg       string // the whole message
		expr      string // Details["expression"]
		line, col int
	}{
		{
			name: "syntax error", raw: "${a +}", reason: ReasonSyntax,
			msg:  "script ${a +} failed: SyntaxError: Unexpected end of input (at 1:4 in the expression)",
			expr: "a +", line: 1, col: 4,
		},
		{
			name: "greedy quirk makes one bad expression", raw: "${A} and {B}", reason: ReasonSyntax,
			msg:  "script ${A} and {B} failed: SyntaxError: Unexpected token } (at 1:2 in the expression)",
			expr: "A} and {B", line: 1, col: 2,
		},
		{
			name: "type error on a later line", raw: "${\n\n  output.missing.x}", reason: ReasonThrown,
			msg:  "script ${output.missing.x} failed: TypeError: Cannot read property 'x' of undefined (at 3:18 in the expression)",
			expr: "\n\n  output.missing.x", line: 3, col: 18,
		},
		{
			name: "thrown error", raw: "${throw new Error('boom')}", reason: ReasonThrown,
			msg:  "script ${throw new Error('boom')} failed: Error: boom (at 1:7 in the expression)",
			expr: "throw new Error('boom')", line: 1, col: 7,
		},
		{
			name: "json() of bad text", raw: "${json('nope')}", reason: ReasonThrown,
			msg:  "script ${json('nope')} failed: SyntaxError: invalid character 'o' in literal null (expecting 'u') (at 1:5 in the expression)",
			expr: "json('nope')", line: 1, col: 5,
		},
		{
			name: "stack overflow", raw: "${(function r() { return r() })()}", reason: ReasonStackOverflow,
			msg:  "script ${(function r() { return r() })()} failed: RangeError: Maximum call stack size exceeded (at 1:25 in the expression)",
			expr: "(function r() { return r() })()", line: 1, col: 25,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, Options{})
			ce := interpErr(t, e, tc.raw)
			if ce.Message != tc.msg {
				t.Errorf("message:\n got %s\nwant %s", ce.Message, tc.msg)
			}
			if ce.Reason() != tc.reason {
				t.Errorf("reason = %q, want %q", ce.Reason(), tc.reason)
			}
			if ce.Details["expression"] != tc.expr {
				t.Errorf("expression = %q, want %q", ce.Details["expression"], tc.expr)
			}
			if ce.Details["line"] != tc.line || ce.Details["col"] != tc.col {
				t.Errorf("line:col = %v:%v, want %d:%d", ce.Details["line"], ce.Details["col"], tc.line, tc.col)
			}
			// The engine stays usable.
			if got := interp(t, e, "${1+1}"); got != "2" {
				t.Errorf("after the error, ${1+1} = %q", got)
			}
		})
	}
}

// TestInterpolateStopsAtFirstError: expressions after a failing one do not
// run.
func TestInterpolateStopsAtFirstError(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	interpErr(t, e, "${output.a = 'set'}${null.x}${output.b = 'set'}")
	if got := interp(t, e, "${output.a}/${output.b}"); got != "set/undefined" {
		t.Errorf("got %q, want set/undefined", got)
	}
}

// TestEnvPrecedence follows the order the runtime defines variables in
// (reference §3.4): CLI, then the header env (which wins), then a subflow's
// env; an env block's values are interpolated before any is set.
func TestEnvPrecedence(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"MAESTRO_FILENAME", "login"}, {"PARAM", "cli"}, {"APP", "cli.app"}})

	// Header env: APP overrides -e; PARAM_INLINE reads the CLI PARAM (060);
	// DEFAULT uses the || idiom (093); all interpolated before any is set.
	header := map[string]string{
		"APP":          "header.app",
		"PARAM_INLINE": "${PARAM}",
		"DEFAULT":      "${MISSING || 'com.example.default'}",
		"SEES_BLOCK":   "${PARAM_INLINE == null}",
	}
	var vars []Var
	for _, k := range []string{"APP", "PARAM_INLINE", "DEFAULT", "SEES_BLOCK"} {
		vars = append(vars, Var{k, interp(t, e, header[k])})
	}
	e.DefineVars(vars)
	want := map[string]string{
		"${APP}": "header.app", "${PARAM_INLINE}": "cli", "${DEFAULT}": "com.example.default",
		"${SEES_BLOCK}": "true", "${MAESTRO_FILENAME}": "login",
	}
	for raw, w := range want {
		if got := interp(t, e, raw); got != w {
			t.Errorf("%s = %q, want %q", raw, got, w)
		}
	}

	// A subflow: runFlow env is defined before the scope is entered, so it
	// leaks to the caller; the subflow file's header env overrides it.
	e.DefineVars([]Var{{"SUB", "runFlow.env"}})
	e.EnterScope()
	e.DefineVars([]Var{{"SUB", "subflow header"}})
	if got := interp(t, e, "${SUB}"); got != "subflow header" {
		t.Errorf("in the subflow SUB = %q", got)
	}
	e.LeaveScope()
	if got := interp(t, e, "${SUB}"); got != "runFlow.env" {
		t.Errorf("after the subflow SUB = %q, want the leaked runFlow env", got)
	}
}

// TestScopes pins EnterScope/LeaveScope: declarations inside a subflow are
// local to it; assignments to outer variables are not.
func TestScopes(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"A", "outer"}})
	interp(t, e, "${var counter = 1}")
	interp(t, e, "${var s = 'outer'}")

	e.EnterScope()
	if got := interp(t, e, "${A}"); got != "outer" {
		t.Errorf("outer variable in the subflow = %q", got)
	}
	e.DefineVars([]Var{{"A", "inner"}, {"LOCAL_ENV", "x"}})
	interp(t, e, "${var local = 1}")
	interp(t, e, "${const lc = 2}")
	interp(t, e, "${var s = 'inner'}")
	interp(t, e, "${counter = counter + 1}")
	interp(t, e, "${created = 'made in subflow'}")
	if got := interp(t, e, "${A}-${s}-${local}-${lc}"); got != "inner-inner-1.0-2" { // Rhino: the literal 1 is a Double
		t.Errorf("inside the subflow = %q", got)
	}
	e.LeaveScope()

	checks := map[string]string{
		"${A}":                "outer",
		"${s}":                "outer",
		"${local}":            "null", // undeclared, Rhino
		"${lc}":               "null",
		"${LOCAL_ENV}":        "null",
		"${counter}":          "2.0", // computed: a Java double
		"${created}":          "made in subflow",
		"${output.shared}":    "undefined",
		"${maestro.platform}": "android",
	}
	for raw, want := range checks {
		if got := interp(t, e, raw); got != want {
			t.Errorf("after LeaveScope %s = %q, want %q", raw, got, want)
		}
	}

	// An unmatched LeaveScope keeps the flow scope.
	e.LeaveScope()
	e.LeaveScope()
	if got := interp(t, e, "${A}"); got != "outer" {
		t.Errorf("after extra LeaveScope A = %q", got)
	}
}

// TestOutputSharedAcrossScopes: output is one object for the whole flow,
// as test 106 needs.
func TestOutputSharedAcrossScopes(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.EnterScope()
	interp(t, e, "${output.fromSubflow = 'yes'}")
	e.EnterScope()
	interp(t, e, "${output.nested = [1, 2]}")
	e.LeaveScope()
	e.LeaveScope()
	if got := interp(t, e, "${output.fromSubflow} ${output.nested.length}"); got != "yes 2.0" { // an array's length is a double in Rhino
		t.Errorf("got %q", got)
	}
	out := e.Output()
	if out["fromSubflow"] != "yes" {
		t.Errorf("Output() = %v", out)
	}
	if n, ok := out["nested"].([]any); !ok || len(n) != 2 {
		t.Errorf("Output()[nested] = %#v", out["nested"])
	}
}

// TestFreshEnginePerFlow: nothing carries over between engines.
func TestFreshEnginePerFlow(t *testing.T) {
	t.Parallel()
	e1 := newEngine(t, Options{})
	if err := e1.DefineVars([]Var{{"A", "1"}}); err != nil {
		t.Fatal(err)
	}
	if err := e1.SetCopiedText("copied"); err != nil {
		t.Fatal(err)
	}
	interp(t, e1, "${output.x = 1}${var v = 1}${globalThis.gx = 1}")

	e2 := newEngine(t, Options{})
	got := interp(t, e2, "${A}|${v}|${gx}|${JSON.stringify(output)}|${maestro.copiedText}")
	if got != "null|null|null|{}|" {
		t.Errorf("second engine sees %q", got)
	}
	if len(e2.Output()) != 0 {
		t.Errorf("second engine output = %v", e2.Output())
	}
}

// TestCopiedText covers case 066 and how each engine binds the text:
// GraalJS verbatim; Rhino as the string literal Maestro builds reads it.
func TestCopiedText(t *testing.T) {
	t.Parallel()
	for _, d := range []Dialect{Rhino, GraalJS} {
		e := newEngine(t, Options{Dialect: d})
		if err := e.SetCopiedText("World"); err != nil {
			t.Fatal(err)
		}
		if got := interp(t, e, "${'Hello, ' + maestro.copiedText}"); got != "Hello, World" {
			t.Errorf("%s 066: got %q", d, got)
		}
		interp(t, e, "${maestro.copiedText = 'from js'}")
		if got := interp(t, e, "${maestro.copiedText}"); got != "from js" {
			t.Errorf("%s script assignment: got %q", d, got)
		}
	}
	g := newEngine(t, Options{Dialect: GraalJS})
	if err := g.SetCopiedText("a\\b'c\nd"); err != nil {
		t.Fatal(err)
	}
	if err := g.DefineVars([]Var{{"FOO", "\\\n"}}); err != nil {
		t.Fatal(err)
	}
	if got := interp(t, g, "${maestro.copiedText + FOO}"); got != "a\\b'c\nd\\\n" {
		t.Errorf("GraalJS verbatim values: got %q", got)
	}
}

// TestRhinoBindsLikeItsStringLiteral mirrors Maestro's RhinoJsEngineTest
// "Backslash and newline are not supported": a lone backslash makes
// setCopiedText and putEnv throw, a newline vanishes; and escapes are
// processed as a JavaScript string literal processes them.
func TestRhinoBindsLikeItsStringLiteral(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	if err := e.SetCopiedText("\\"); err == nil {
		t.Error("setCopiedText(\\) did not fail")
	}
	if err := e.DefineVars([]Var{{"FOO", "\\"}}); err == nil {
		t.Error("putEnv(FOO, \\) did not fail")
	} else if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeCommandFailed ||
		ce.Message != "variable FOO cannot be defined: the value ends with a backslash, which escapes the closing quote of the string literal Maestro builds" {
		t.Errorf("error %v", err)
	}
	if err := e.SetCopiedText("\n"); err != nil {
		t.Fatal(err)
	}
	if err := e.DefineVars([]Var{{"FOO", "\n"}}); err != nil {
		t.Fatal(err)
	}
	if got := interp(t, e, "${maestro.copiedText + FOO}"); got != "" {
		t.Errorf("newlines: got %q, want empty", got)
	}
	for _, c := range []struct{ value, want string }{
		{`it's`, "it's"},
		{`C:\temp\new`, "C:\temp\new"},       // \t and \n are escapes
		{`a\\b`, `a\b`},                      // an escaped backslash
		{`\d+\.\w`, `d+.w`},                  // unknown escapes stand for themselves
		{`\x41\u0042\101\0`, "AB" + "A\x00"}, // hex, unicode, octal
		{`\x4G\u12`, "x4Gu12"},               // incomplete escapes stay as text
		{"line\\\rnext", "linenext"},         // a backslash before a line end drops both
		{"a\u2028b", "a\u2028b"},
	} {
		if err := e.DefineVars([]Var{{"V", c.value}}); err != nil {
			t.Errorf("%q: %v", c.value, err)
			continue
		}
		if got := interp(t, e, "${V}"); got != c.want {
			t.Errorf("%q binds %q, want %q", c.value, got, c.want)
		}
	}
	for _, bad := range []Var{{"V", "a\\'b"}, {"V", "a\rb"}, {"MY-VAR", "x"}, {"class", "x"}, {"1A", "x"}} {
		if err := e.DefineVars([]Var{bad}); err == nil {
			t.Errorf("%v was defined; Rhino fails", bad)
		}
	}
	g := newEngine(t, Options{Dialect: GraalJS})
	if err := g.DefineVars([]Var{{"MY-VAR", "a\\'b"}}); err != nil {
		t.Errorf("GraalJS binds any name and value: %v", err)
	}
}

// TestRepeatWhileTrue082 drives the loop the runtime runs for `repeat:
// while: true: ${output.value < 3}` with an evalScript in the body.
func TestRepeatWhileTrue082(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	interp(t, e, "${output.value = 0}")
	taps := 0
	for Truthy(interp(t, e, "${output.value < 3}")) {
		interp(t, e, "${output.value = output.value + 1}")
		taps++
		if taps > 10 {
			t.Fatal("the condition never became false")
		}
	}
	if taps != 3 {
		t.Errorf("taps = %d, want 3", taps)
	}
}

// TestDeterministicDate: Options.Now drives Date.
func TestDeterministicDate(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEngine(t, Options{Now: func() time.Time { return at }})
	if got := interp(t, e, "${Date.now()}"); got != "1.735787045E12" { // a Java double in Rhino
		t.Errorf("Date.now() = %s", got)
	}
	g := newEngine(t, Options{Now: func() time.Time { return at }, Dialect: GraalJS})
	if got := interp(t, g, "${Date.now()}"); got != "1735787045000" {
		t.Errorf("GraalJS Date.now() = %s", got)
	}
	if got := interp(t, e, "${new Date().toISOString()}"); got != "2025-01-02T03:04:05.000Z" {
		t.Errorf("new Date() = %s", got)
	}
}

// TestShorten keeps long expressions readable in messages.
func TestShorten(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a + ", 30) + "b"
	e := newEngine(t, Options{})
	ce := interpErr(t, e, "${"+long+" +}")
	label := ce.Message[len("script ${"):strings.Index(ce.Message, "} failed")]
	if len([]rune(label)) != 60 || !strings.HasSuffix(label, "…") {
		t.Errorf("label %q is not shortened to 60 runes", label)
	}
	if ce.Details["expression"] != long+" +" {
		t.Errorf("details keep the whole expression, got %q", ce.Details["expression"])
	}
}

// TestPlatform: maestro.platform is lower-case, "unknown" when not given.
func TestPlatform(t *testing.T) {
	t.Parallel()
	if got := interp(t, New(Options{Platform: "iOS"}), "${maestro.platform}"); got != "ios" {
		t.Errorf("iOS gives %q", got)
	}
	if got := interp(t, New(Options{}), "${maestro.platform}"); got != "unknown" {
		t.Errorf("no platform gives %q", got)
	}
}
