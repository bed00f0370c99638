package ad

import (
	"reflect"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

func testScope(t *testing.T) Scope {
	t.Helper()
	s, err := NewScope(VarSources{
		Builtins: Builtins{Platform: "ios", ShardIndex: 1, ShardCount: 3, Filename: "flows/a.ad"}.Vars(),
		File:     map[string]string{"APP": "com.example", "NAME": "Ada Lovelace", "EMPTY": "", "DOLLAR": "${APP}", "a.b": "dotted"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResolveString pins the ${VAR} grammar of §3.5.
func TestResolveString(t *testing.T) {
	t.Parallel()
	scope := testScope(t)
	cases := []struct{ in, want, err string }{
		{in: "plain", want: "plain"},
		{in: "${APP}", want: "com.example"},
		{in: "id=${APP}.login", want: "id=com.example.login"},
		{in: "${APP}${APP}", want: "com.examplecom.example"},
		{in: "${NAME}", want: "Ada Lovelace"},
		{in: "${EMPTY}", want: ""},
		{in: "${EMPTY:-fallback}", want: ""},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${MISSING:-}", want: ""},
		{in: "${MISSING:-a b  c}", want: "a b  c"},
		{in: `${MISSING:-a\}b}`, want: "a}b"},
		{in: `${MISSING:-a\\b}`, want: `a\b`},
		{in: `${MISSING:-\x\:\-}`, want: "x:-"},
		{in: "${MISSING:-${APP}}", want: "${APP}"},
		{in: "${MISSING:-x}}", want: "x}"},
		{in: "${MISSING:-line\nbreak}", want: "line\nbreak"},
		{in: "${MISSING:-a\\\nb}", want: "${MISSING:-a\\\nb}"},
		{in: "${MISSING:-a\\", want: "${MISSING:-a\\"},
		{in: `\${APP}`, want: "${APP}"},
		{in: `\\${APP}`, want: `\${APP}`},
		{in: `\${MISSING}`, want: "${MISSING}"},
		{in: `a\$b`, want: `a\$b`},
		{in: "${DOLLAR}", want: "${APP}"},
		{in: "${AD_PLATFORM}-${AD_SHARD_INDEX}/${AD_SHARD_COUNT}", want: "ios-1/3"},
		{in: "${a.b}", want: "dotted"},
		{in: "${", want: "${"},
		{in: "${APP", want: "${APP"},
		{in: "${1X}", want: "${1X}"},
		{in: "${A-B}", want: "${A-B}"},
		{in: "${ APP}", want: "${ APP}"},
		{in: "$APP {APP}", want: "$APP {APP}"},
		{in: "${MISSING}", err: "Unresolved variable ${MISSING} at t.ad:7."},
		{in: "ok ${APP} then ${NOPE:-x} then ${GONE}", err: "Unresolved variable ${GONE} at t.ad:7."},
	}
	for _, tc := range cases {
		got, err := ResolveString(tc.in, scope, canonical.Pos{File: "t.ad", Line: 7, Col: 3})
		if tc.err != "" {
			ce := coded(t, err)
			if ce.Code != canonical.CodeInvalidArgs || ce.Message != tc.err || ce.Pos.Col != 3 {
				t.Errorf("%q: got %v at %+v, want %s", tc.in, ce, ce.Pos, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if HasVars(tc.in) != (tc.in != got && tc.in != `\${APP}` && tc.in != `\${MISSING}` && tc.in != `\\${APP}`) {
			t.Errorf("%q: HasVars = %v", tc.in, HasVars(tc.in))
		}
	}
}

// TestResolveNeverSplits: a value with spaces stays one argument, and every
// positional and flag resolves on its own, at the token's position.
func TestResolveNeverSplits(t *testing.T) {
	t.Parallel()
	s := mustParse(t, "env NAME=\"Ada  Lovelace\"\nenv N=3\ntype ${NAME} \"${MISSING:-x y}\"\nclick ${NAME} --count ${N}\ngesture pinch ${NAME}\n")
	scope, err := NewScope(VarSources{File: s.ScriptVars()})
	if err != nil {
		t.Fatal(err)
	}
	typ, err := Resolve(s.Actions[0], scope)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(typ.Positionals, []string{"Ada  Lovelace", "x y"}) {
		t.Errorf("type: %q", typ.Positionals)
	}
	click, err := Resolve(s.Actions[1], scope)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(click.Positionals, []string{"Ada  Lovelace"}) || click.Flags["count"] != "3" {
		t.Errorf("click: %q %v", click.Positionals, click.Flags)
	}
	if s.Actions[1].Positionals[0] != "${NAME}" || s.Actions[1].Flags["count"] != "${N}" {
		t.Error("Resolve changed the parsed action")
	}
	// The arity check counted tokens before resolution: a value with spaces
	// is still one positional afterwards.
	pinch, err := Resolve(s.Actions[2], scope)
	if err != nil {
		t.Fatal(err)
	}
	if len(pinch.Positionals) != 2 || pinch.Positionals[1] != "Ada  Lovelace" {
		t.Errorf("gesture: %q", pinch.Positionals)
	}
	_, err = Resolve(mustParse(t, "home\ntype a \"${GONE}\"").Actions[1], scope)
	ce := coded(t, err)
	if ce.Pos != (canonical.Pos{File: "t.ad", Line: 2, Col: 8}) || ce.Message != "Unresolved variable ${GONE} at t.ad:2." {
		t.Errorf("got %v at %+v", ce, ce.Pos)
	}
	_, err = Resolve(mustParse(t, "click 1 2 --count ${GONE}").Actions[0], scope)
	if ce := coded(t, err); ce.Pos.Col != 19 {
		t.Errorf("flag position: %+v", ce.Pos)
	}
}

// TestScopePrecedence: built-ins < script env < shell AD_VAR_* < CLI -e,
// and AD_* is reserved in every user source.
func TestScopePrecedence(t *testing.T) {
	t.Parallel()
	cli, err := ParseCLIVars([]string{"C=cli", "EQ=a=b", "EMPTY="})
	if err != nil {
		t.Fatal(err)
	}
	shell := ShellVars([]string{"AD_VAR_B=shell", "AD_VAR_C=shell", "AD_VAR_AD_SESSION=evil", "AD_VAR_lower=x", "AD_VAR_=x", "PATH=/bin", "AD_VAR_NOEQ"})
	if !reflect.DeepEqual(shell, map[string]string{"B": "shell", "C": "shell"}) {
		t.Errorf("shell vars: %v", shell)
	}
	scope, err := NewScope(VarSources{
		Builtins: map[string]string{"AD_SESSION": "s1", "A": "builtin", "B": "builtin", "C": "builtin"},
		File:     map[string]string{"A": "file", "B": "file", "C": "file"},
		Shell:    shell,
		CLI:      cli,
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"AD_SESSION": "s1", "A": "file", "B": "shell", "C": "cli", "EQ": "a=b", "EMPTY": ""} {
		if v, ok := scope.Lookup(k); !ok || v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	for _, src := range []VarSources{
		{File: map[string]string{"AD_X": "1"}},
		{Shell: map[string]string{"AD_X": "1"}},
		{CLI: map[string]string{"AD_X": "1"}},
	} {
		_, err := NewScope(src)
		ce, ok := canonical.AsError(err)
		if !ok || ce.Message != "The AD_* namespace is reserved for built-in variables. Rename AD_X to avoid the AD_ prefix." {
			t.Errorf("AD_ key: %v", err)
		}
	}
	for entry, msg := range map[string]string{
		"NOEQ":     `Invalid -e entry "NOEQ": expected KEY=VALUE.`,
		"=x":       `Invalid -e entry "=x": expected KEY=VALUE.`,
		"lower=x":  `Invalid -e key "lower": keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`,
		"AD_PLAT=": "The AD_* namespace is reserved for built-in variables. Rename AD_PLAT to avoid the AD_ prefix.",
	} {
		_, err := ParseCLIVars([]string{entry})
		ce, ok := canonical.AsError(err)
		if !ok || ce.Message != msg || ce.Hint == "" {
			t.Errorf("-e %s: %v", entry, err)
		}
	}
}

// TestBuiltins pins the built-in names.
func TestBuiltins(t *testing.T) {
	t.Parallel()
	vars := Builtins{Session: "s", Filename: "a.ad", Platform: "android", Target: "mobile", Device: "Pixel",
		DeviceID: "emulator-5554", ShardIndex: 0, ShardCount: 1, Artifacts: "out"}.Vars()
	if len(vars) != len(BuiltinVarNames()) {
		t.Fatalf("%d built-ins, %d names", len(vars), len(BuiltinVarNames()))
	}
	for _, n := range BuiltinVarNames() {
		if _, ok := vars[n]; !ok {
			t.Errorf("no value for %s", n)
		}
	}
	if vars[VarDeviceID] != "emulator-5554" || vars[VarShardCount] != "1" {
		t.Errorf("%v", vars)
	}
}
