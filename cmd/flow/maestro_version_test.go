package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	flowapi "github.com/flow-runner/flow"
)

// The Maestro version a run follows (issue 21, Deliver 0): the current
// Maestro by default, 1.39 with --maestro-version 1.39,
// FLOW_MAESTRO_VERSION=1.39 or maestroVersion: 1.39 in the workspace
// config; flag > env > config > default.

// defaultEnv is an environment without FLOW_MAESTRO_VERSION (the tests of
// this package otherwise run under 1.39, see getenv139).
func defaultEnv() []string { return []string{"FLOW_MAESTRO_VERSION="} }

// The acceptance line: with no flag a static element is tapped once,
// ${parseInt(3)} types 3 and setPermissions / setOrientation run on sim;
// with --maestro-version 1.39 two taps, 3.0, and unknown commands.
func TestMaestroVersionAcceptance(t *testing.T) {
	t.Parallel()
	plain := []string{"tap 500,250", "observed plain tap"}
	taps := func(r semResult) []string { return r.eventLines("tap", "observed")[1:] } // after launchApp's navigate
	typed := func(r semResult) []string { return r.eventLines("inputText") }

	// Maestro PR #2489: no retry by default since 1.41.
	r := semRunWith(t, defaultEnv(), semApps, "tap_plain.yaml")
	if r.r.code != 0 {
		t.Fatalf("%s", r.r)
	}
	checkLines(t, "taps by default", taps(r), plain)
	checkSteps(t, r.rep.Flows[0], []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms"})
	r = semRunWith(t, defaultEnv(), semApps, "tap_plain.yaml", "--maestro-version", "1.39")
	checkLines(t, "taps under 1.39", taps(r), append(append([]string{}, plain...), plain...))

	// Maestro PR #2631: GraalJS by default; parseInt(3) is 3, not 3.0.
	r = semRunWith(t, defaultEnv(), semApps, "version_parseint.yaml")
	checkLines(t, "typed by default", typed(r), []string{`inputText "3"`})
	r = semRunWith(t, defaultEnv(), semApps, "version_parseint.yaml", "--maestro-version", "1.39")
	checkLines(t, "typed under 1.39", typed(r), []string{`inputText "3.0"`})

	// The current reference's commands run on sim.
	r = semRunWith(t, defaultEnv(), semApps, "version_new_commands.yaml")
	if r.r.code != 0 {
		t.Fatalf("new commands failed by default: %s", r.r)
	}
	checkLines(t, "new commands' events", r.eventLines("setPermissions", "setOrientation", "inputText"), []string{
		`setPermissions {"appId":"com.sem.form","permissions":{"camera":"allow","notifications":"deny"}}`,
		`setOrientation {"orientation":"LANDSCAPE_LEFT"}`,
		`inputText "pasted"`,
	})
	// Under 1.39 they are unknown commands: the flow does not load (exit 2).
	for _, env := range [][]string{nil, {"FLOW_MAESTRO_VERSION=1.39"}} {
		args := []string{"test", "--device", "sim", filepath.Join(semDir, "version_new_commands.yaml")}
		if env == nil {
			args = append(args[:1], append([]string{"--maestro-version", "1.39"}, args[1:]...)...)
		}
		res := runWithEnv(t, semGetenv(env), args...)
		if res.code != 2 || !strings.Contains(res.stdout+res.stderr, `unknown command "setPermissions"`) {
			t.Errorf("%v under 1.39: want exit 2 and unknown commands, got %s", env, res)
		}
	}
}

// jsEngine: rhino selects Rhino under the current Maestro, with Maestro's
// deprecation warning (PR #2631).
func TestMaestroVersionRhinoOnRequest(t *testing.T) {
	t.Parallel()
	r := semRunWith(t, defaultEnv(), semApps, "version_rhino.yaml")
	if r.r.code != 0 {
		t.Fatalf("%s", r.r)
	}
	checkLines(t, "typed", r.eventLines("inputText"), []string{`inputText "3.0"`})
	if !strings.Contains(r.r.stderr+r.r.stdout, "Rhino JS engine") {
		t.Errorf("no deprecation warning for jsEngine: rhino:\n%s", r.r)
	}
}

// Precedence: flag > FLOW_MAESTRO_VERSION > the workspace config's
// maestroVersion > the current Maestro. The tap count tells which won.
func TestMaestroVersionPrecedence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flow, err := os.ReadFile(filepath.Join(semDir, "tap_plain.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tap.yaml"), flow, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(ws, "config.yaml")
	tapCount := func(env []string, args ...string) int {
		t.Helper()
		args = append([]string{"test", "--device", "sim", "--app", filepath.Join(semDir, "apps", "taps.yaml"),
			"--events", filepath.Join(dir, "events.jsonl")}, args...)
		res := runWithEnv(t, semGetenv(env), append(args, ws)...)
		if res.code != 0 {
			t.Fatalf("%v %v: %s", env, args, res)
		}
		data, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), `"type":"tap"`)
	}
	for _, c := range []struct {
		name   string
		config string
		env    []string
		args   []string
		want   int
	}{
		{"default", "", defaultEnv(), nil, 1},
		{"config", "maestroVersion: 1.39\n", defaultEnv(), nil, 2},
		{"env over config", "maestroVersion: 1.39\n", []string{"FLOW_MAESTRO_VERSION=2.10"}, nil, 1},
		{"env over default", "", []string{"FLOW_MAESTRO_VERSION=1.39"}, nil, 2},
		{"flag over env", "", []string{"FLOW_MAESTRO_VERSION=1.39"}, []string{"--maestro-version", "latest"}, 1},
		{"flag over config", "maestroVersion: 2.10\n", defaultEnv(), []string{"--maestro-version", "1.39.10"}, 2},
	} {
		if err := os.WriteFile(config, []byte(c.config+"flows: ['*']\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := tapCount(c.env, c.args...); got != c.want {
			t.Errorf("%s: %d taps, want %d", c.name, got, c.want)
		}
	}
	res := runWithEnv(t, semGetenv([]string{"FLOW_MAESTRO_VERSION=1.5"}), "test", "--device", "sim", ws)
	if res.code != 2 || !strings.Contains(res.stderr, `FLOW_MAESTRO_VERSION "1.5"`) {
		t.Errorf("a bad FLOW_MAESTRO_VERSION: want exit 2 naming it, got %s", res)
	}
}

// flow check reads flows as flow test would: the current commands pass by
// default and are unknown under 1.39, by flag or environment.
func TestMaestroVersionCheck(t *testing.T) {
	t.Parallel()
	file := filepath.Join(semDir, "version_new_commands.yaml")
	if res := runWithEnv(t, semGetenv(defaultEnv()), "check", file); res.code != 0 {
		t.Errorf("check by default: %s", res)
	}
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{defaultEnv(), []string{"check", "--maestro-version", "1.39", file}},
		{[]string{"FLOW_MAESTRO_VERSION=1.39"}, []string{"check", file}},
	} {
		res := runWithEnv(t, semGetenv(c.env), c.args...)
		if res.code != 2 || !strings.Contains(res.stdout+res.stderr, `unknown command "setPermissions"`) ||
			!strings.Contains(res.stdout+res.stderr, `unknown command "setOrientation"`) {
			t.Errorf("%v %v: want exit 2 with unknown commands, got %s", c.env, c.args, res)
		}
	}
}

// runWithEnv runs the CLI with getenv as its environment.
func runWithEnv(t *testing.T, getenv func(string) string, args ...string) result {
	t.Helper()
	var out, errb strings.Builder
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}
	code := run(t.Context(), env, append([]string{"flow"}, args...))
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// The current Maestro's setPermissions and setOrientation lowered on
// Android (the fake phone through the real adb server): pm grant/revoke as
// launchApp's permissions, and settings put system user_rotation.
func TestMaestroVersionCommandsOnFakePhone(t *testing.T) {
	p, d, env, apk := fakeAndroid(t)
	env.Getenv = func(k string) string { // the phone's environment, no FLOW_MAESTRO_VERSION
		if k == flowapi.MaestroVersionEnv {
			return ""
		}
		return d.Getenv(k)
	}
	dir := t.TempDir()
	flow := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(flow, []byte("appId: com.example.shop\n---\n- launchApp:\n    permissions: {camera: deny}\n"+
		"- setPermissions:\n    permissions:\n      camera: allow\n- setOrientation: LANDSCAPE_RIGHT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := run(t.Context(), env, []string{"flow", "test", "--device", "android:" + d.Serial, "--android-helper", apk, flow})
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	if o, err := p.Device().Orientation(t.Context()); err != nil || o != "LANDSCAPE_RIGHT" {
		t.Errorf("the phone is %q %v, want LANDSCAPE_RIGHT", o, err)
	}
	var camera []string
	for _, g := range p.Grants() {
		if g.Package == "com.example.shop" && g.Permission == "android.permission.CAMERA" {
			camera = append(camera, g.Verb)
		}
	}
	if strings.Join(camera, ",") != "revoke,grant" {
		t.Errorf("camera: %v, want launchApp's revoke then setPermissions' grant", camera)
	}
}

// flow convert writes for the version chosen: an .ad press (always
// retried) becomes a tapOn that today's Maestro retries too, and reads back
// as a retried tap under the same version.
func TestMaestroVersionConvert(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "s.ad")
	if err := os.WriteFile(script, []byte("open com.example.shop --relaunch\npress \"text=\\\"Buy\\\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		want bool // retryTapIfNoChange: true written
	}{{defaultEnv(), true}, {[]string{"FLOW_MAESTRO_VERSION=1.39"}, false}} {
		out := filepath.Join(dir, "out.yaml")
		res := runWithEnv(t, semGetenv(c.env), "convert", script, "--to", "maestro", "--output", out)
		if res.code != 0 {
			t.Fatalf("%v: %s", c.env, res)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(data), "retryTapIfNoChange: true"); got != c.want {
			t.Errorf("%v: retryTapIfNoChange: true written = %v, want %v:\n%s", c.env, got, c.want, data)
		}
		res = runWithEnv(t, semGetenv(c.env), "plan", out)
		if res.code != 0 || !strings.Contains(res.stdout, `"retryIfNoChange":true`) {
			t.Errorf("%v: the written flow does not read back as a retried tap: %s", c.env, res)
		}
	}
}

// flow schema prints today's schema by default and 1.39's on request.
func TestMaestroVersionSchema(t *testing.T) {
	t.Parallel()
	cur := runWithEnv(t, semGetenv(defaultEnv()), "schema")
	old := runWithEnv(t, semGetenv(defaultEnv()), "schema", "--maestro-version", "1.39")
	if cur.code != 0 || old.code != 0 {
		t.Fatalf("%s\n%s", cur, old)
	}
	for _, name := range []string{`"setPermissions"`, `"setOrientation"`, `"setClipboard"`} {
		if !strings.Contains(cur.stdout, name) || strings.Contains(old.stdout, name) {
			t.Errorf("%s: in today's schema %v, in 1.39's %v", name, strings.Contains(cur.stdout, name), strings.Contains(old.stdout, name))
		}
	}
	if !strings.Contains(old.stdout, `"toggleAirplaneMode"`) {
		t.Error("1.39's schema lost a 1.39 command")
	}
}
