package js

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxGlobals: only ECMAScript built-ins and Maestro's globals
// exist; nothing reaches files, processes, timers or the host language.
func TestSandboxGlobals(t *testing.T) {
	t.Parallel()
	absent := []string{
		"require", "process", "module", "exports", "__dirname", "__filename",
		"setTimeout", "setInterval", "setImmediate", "queueMicrotask",
		"fetch", "XMLHttpRequest", "WebSocket",
		"Deno", "Bun", "java", "Packages", "importClass", "load", "readFile", "print", "quit",
	}
	// Absent names read as null in Rhino and undefined in GraalJS.
	for _, d := range []Dialect{Rhino, GraalJS} {
		e := newEngine(t, Options{Dialect: d})
		for _, name := range absent {
			if got := interp(t, e, "${"+name+" == null}"); got != "true" {
				t.Errorf("%s: %s is defined", d, name)
			}
		}
	}
	e := newEngine(t, Options{})
	present := map[string]string{
		"output": "object", "maestro": "object", "json": "function", "relativePoint": "function",
		"http": "object", "console": "object", "JSON": "object", "Math": "object",
	}
	for name, want := range present {
		if got := interp(t, e, "${typeof "+name+"}"); got != want {
			t.Errorf("typeof %s = %q, want %q", name, got, want)
		}
	}
	if got := interp(t, e, "${['get', 'post', 'put', 'delete', 'request'].map(function (m) { return typeof http[m] }).join()}"); got != "function,function,function,function,function" {
		t.Errorf("http methods: %s", got)
	}
}

// TestSourceMapsNotLoaded: goja's parser would read the file a
// sourceMappingURL comment names; flow turns that off for scripts, ${} and
// eval().
func TestSourceMapsNotLoaded(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	// A real, readable file that is not a source map: if the parser loaded
	// it, parsing would fail with "Could not parse source map".
	notAMap := filepath.Join(t.TempDir(), "x.map")
	if err := os.WriteFile(notAMap, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	comment := "\n//# sourceMappingURL=" + notAMap
	runScript(t, e, "/abs/s.js", "output.script = 5"+comment)
	runScript(t, e, "ev.js", "output.eval = eval('2"+strings.ReplaceAll(comment, "\n", "\\n")+"')")
	runScript(t, e, "fn.js", "output.fn = Function('return 3"+strings.ReplaceAll(comment, "\n", "\\n")+"')()")
	if got := interp(t, e, "${output.script}${output.eval}${output.fn}${4"+comment+"\n}"); got != "5234" {
		t.Errorf("got %q", got)
	}
}

// TestInternalsCannotBeBroken: scripts that reassign the globals flow
// relies on do not break later evaluations.
func TestInternalsCannotBeBroken(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	interp(t, e, "${__flowScope = null; String = null; JSON = null; globalThis.__flowScope = 1}")
	if got := interp(t, e, "${[1, 2]} ${1+1} ${({a: 1})}"); got != `[1,2] 2 {"a":1}` {
		t.Errorf("got %q", got)
	}
	runScript(t, e, "s.js", "output.ok = typeof output")
	if got := interp(t, e, "${output.ok}"); got != "object" {
		t.Errorf("got %q", got)
	}
}

// TestCodeCannotEscapeTheWrapper: text that closes the wrapper's block
// early parses only because of the wrapper; it is a syntax error, as it is
// in Maestro, and none of it runs.
func TestCodeCannotEscapeTheWrapper(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	ce := interpErr(t, e, "${output.a = 1} ; output.b = 2; {x}")
	if ce.Reason() != ReasonSyntax || !strings.Contains(ce.Message, "SyntaxError: Unexpected token }") {
		t.Errorf("inline: %s", ce.Message)
	}
	err := e.RunScript(context.Background(), "esc.js", "output.c = 1 }}) ; output.d = 2; ((function(){{", nil, flowPos)
	if ce := codedErr(t, err); ce.Reason() != ReasonSyntax || !strings.Contains(ce.Message, "(at esc.js:1:14)") {
		t.Errorf("script: %s", ce.Message)
	}
	if got := interp(t, e, "${[output.a, output.b, output.c, output.d].join()}"); got != ",,," {
		t.Errorf("escaped code ran: %q", got)
	}
}

// TestEvalAndFunction pins the documented scoping of dynamic code: direct
// eval runs in the caller's scope, Function() sees only real globals.
func TestEvalAndFunction(t *testing.T) {
	t.Parallel()
	e := newEngine(t, Options{})
	e.DefineVars([]Var{{"A", "flow var"}})
	got := interp(t, e, "${eval('A')}|${Function('return typeof A')()}|${Function('return typeof output')()}")
	if got != "flow var|undefined|object" {
		t.Errorf("got %q", got)
	}
}
