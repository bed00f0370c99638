package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestRecordUndeclaredVars: a step that typed a -e variable the flow's
// env does not declare is recorded with the value it typed, a declared
// plain value wins over -e as it did in the run, and the replay of the
// recording performs the same device actions as the run. Values .ad has
// no variable for (a lower-case name, a JavaScript expression) and values
// holding ${ are recorded as the text the step typed.
func TestTestRecordUndeclaredVars(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	flow := filepath.Join(dir, "login.yaml")
	os.WriteFile(flow, []byte(`appId: com.example.shop
env:
  PASSWORD: fixed-pass
---
- launchApp
- tapOn: Log in
- tapOn:
    id: email
- inputText: ${EMAIL}
- tapOn: Password
- inputText: ${PASSWORD}
- inputText: " ${MAESTRO_SUFFIX}"
- inputText: " ${user}/${1+2}"
- hideKeyboard
`), 0o644)
	script := filepath.Join(dir, "login.ad")
	live, replay := filepath.Join(dir, "live.jsonl"), filepath.Join(dir, "replay.jsonl")
	call := func(state string, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139,
			Environ: func() []string { return []string{"MAESTRO_SUFFIX=from-shell"} }, StateDir: filepath.Join(dir, state)}
		if code := run(context.Background(), env, append([]string{"flow"}, args...)); code != 0 {
			t.Fatalf("flow %v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
		return out.String()
	}
	stdout := call("live", "test", flow, "--record", script, "--events", live, "-e", "EMAIL=undeclared@example.com", "-e", "PASSWORD=cli-pass", "-e", "user=lower ${HOME}")
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`type "undeclared@example.com"`, `type "fixed-pass"`, `type " from-shell"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the recording lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "not recorded") || strings.Contains(stdout, "not recorded") {
		t.Errorf("every step has an exact .ad form here:\n%s\n%s", data, stdout)
	}
	events, _ := os.ReadFile(live)
	if !strings.Contains(string(events), `"text":" lower ${HOME}/3"`) {
		t.Fatalf("the run must type the lower-case variable and the expression's value:\n%s", events)
	}
	if !strings.Contains(string(events), `"text":"fixed-pass"`) {
		t.Fatalf("the run must type the flow's own PASSWORD (its env wins over -e):\n%s", events)
	}
	call("replay", "test", script, "--events", replay)
	if a, b := untimedEvents(t, live), untimedEvents(t, replay); a != b {
		t.Fatalf("replay differs from the recorded run:\nlive:\n%s\nreplay:\n%s", a, b)
	}
}

// TestTestRecordSaysWhatItLeftOut: steps with no exact .ad form are
// comments in the script, and the run says so at the end, so nobody
// replays a recording believing it complete.
func TestTestRecordSaysWhatItLeftOut(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "login.ad")
	r := runFlow(t, "", "test", "../../flows/demo/02-login.yaml", "--record", script)
	if r.code != 0 {
		t.Fatalf("%s", r)
	}
	want := "warning: 2 passed steps have no exact .ad form and were not recorded (see the # not recorded lines in " + script + ")"
	if !strings.Contains(r.stdout, want) {
		t.Fatalf("stdout lacks %q:\n%s", want, r.stdout)
	}
}
