package main

import "testing"

// TestSemanticsJSEngines: numbers and undeclared names print as the engine
// Maestro would use for the flow prints them: Rhino by default, GraalJS
// when the top-level flow's header says jsEngine: graaljs or the
// environment has MAESTRO_USE_GRAALJS=true (Orchestra.initJsEngine). A
// subflow's header does not switch the engine (IntegrationTest "Case 102 -
// GraalJs config").
func TestSemanticsJSEngines(t *testing.T) {
	t.Parallel()
	typed := func(r semResult) []string { return r.eventLines("inputText") }
	rhino := []string{`inputText "1"`, `inputText "2"`, `inputText "12"`, `inputText "3.0"`,
		`inputText "${A} ${B} 1 2"`, `inputText "1.0"`}
	r := semRun(t, "js_rhino_063.yaml")
	if r.r.code != 0 {
		t.Fatalf("%s", r.r)
	}
	checkLines(t, "Rhino (default)", typed(r), rhino)

	r = semRunWith(t, []string{"MAESTRO_USE_GRAALJS=true"}, semApps, "js_rhino_063.yaml")
	checkLines(t, "MAESTRO_USE_GRAALJS=true", typed(r), []string{`inputText "1"`, `inputText "2"`, `inputText "12"`,
		`inputText "3"`, `inputText "${A} ${B} 1 2"`, `inputText "1"`})

	// Only the process environment switches, as Maestro reads it with
	// System.getenv: a -e variable of that name does not.
	r = semRun(t, "js_rhino_063.yaml", "-e", "MAESTRO_USE_GRAALJS=true")
	checkLines(t, "-e MAESTRO_USE_GRAALJS=true", typed(r), rhino)

	r = semRun(t, "js_graaljs.yaml")
	if r.r.code != 0 {
		t.Fatalf("%s", r.r)
	}
	checkLines(t, "jsEngine: graaljs", typed(r), []string{`inputText "3"`, `inputText "foo"`, `inputText "1"`, `inputText "undefined"`})
}
