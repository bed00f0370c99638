package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudioAppendsAdLines: .ad lines typed in the command box run, show
// the Maestro steps an append writes for them (or, for a line Maestro
// cannot express, the coded error and its hint), and append as those
// steps; flow check and flow test pass on the written file.
func TestStudioAppendsAdLines(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "login.yaml")
	vars := map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "state")}
	p := openStudioPage(t, startStudio(t, func(k string) string { return vars[k] }, "--app-id", "com.example.shop", file))
	result := func() string { return p.js(`return document.querySelector('[data-testid=result]').innerText`).(string) }
	if st := p.run("open com.example.shop --relaunch"); st != "passed" {
		t.Fatalf("open: %s\n%s", st, result())
	}
	if y := p.js(`const e = document.querySelector('[data-testid=ad-yaml]'); return e && e.textContent`); y != "appends as:\n- launchApp" {
		t.Fatalf("the page must show the YAML the line appends as, shows %v", y)
	}
	if st := p.run(`press text="Log in"`); st != "passed" {
		t.Fatalf("press: %s\n%s", st, result())
	}
	p.wait("the screen after the press", `return [...document.querySelectorAll('[data-testid=node]')].some(n => n.textContent.includes("Welcome back"))`)
	if st := p.run(`is visible text="Welcome back"`); st != "passed" {
		t.Fatalf("is visible: %s\n%s", st, result())
	}
	// A line with no Maestro form runs, and says it cannot be appended.
	p.run("swipe 540 1800 540 900")
	shown := p.wait("the append error", `const e = document.querySelector('[data-testid=append-error]'); return e && e.textContent`).(string)
	if !strings.Contains(shown, "UNSUPPORTED_OPERATION") || !strings.Contains(shown, "hint: ") {
		t.Fatalf("the page must show why the swipe cannot be appended, with a hint: %q", shown)
	}
	p.js(`document.querySelector('[data-testid=append]').click()`)
	appended := p.wait("the append", `const e = document.querySelector('[data-testid=appended]'); return e && e.textContent`).(string)
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "appId: \"com.example.shop\"\n---\n- launchApp\n- tapOn: Log in\n- extendedWaitUntil:\n    visible: Welcome back\n    timeout: 0\n"
	if string(text) != want || !strings.HasSuffix(want, appended+"\n") {
		t.Fatalf("the flow file:\n%s\nwant:\n%s\nthe page says appended:\n%s", text, want, appended)
	}
	if r := runFlow(t, "", "check", file); r.code != 0 {
		t.Fatalf("flow check on the written flow:\n%s", r)
	}
	env := testEnv(map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "replay")})
	if code := run(context.Background(), env, []string{"flow", "test", "--device", "sim", file}); code != 0 {
		t.Fatalf("flow test on the written flow: exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	// Undo drops the last append: here the file it created.
	p.js(`document.querySelector('[data-testid=undo-append]').click()`)
	p.wait("the undo", `return document.querySelector('[data-testid=append-result]').textContent.startsWith("undid")`)
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("undo must remove the file the append created: %v", err)
	}
}

// TestStudioEnvFlag: -e gives the commands run in studio their variables,
// as flow test gives them to flows (given after the flow file, too);
// without it the same command fails.
func TestStudioEnvFlag(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "login.yaml")
	os.WriteFile(file, []byte("appId: com.example.shop\n---\n- launchApp\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{file, "-e", "LABEL=Log in"}, "passed"},
		{[]string{"--env", "LABEL=Log in", file}, "passed"},
		{[]string{file}, "failed"},
	} {
		vars := map[string]string{"FLOW_STATE_DIR": filepath.Join(t.TempDir(), "state")}
		p := openStudioPage(t, startStudio(t, func(k string) string { return vars[k] }, c.args...))
		if st := p.run("launchApp"); st != "passed" {
			t.Fatalf("%v: launchApp %s", c.args, st)
		}
		if st := p.run("assertVisible: ${LABEL}"); st != c.want {
			t.Fatalf("%v: assertVisible ${LABEL} %s, want %s\n%v", c.args, st, c.want, p.js(`return document.querySelector('[data-testid=result]').innerText`))
		}
	}
	if r := runFlow(t, "", "studio", "-e", "NOEQUALS", file); r.code != 2 || !strings.Contains(r.stderr, "is not KEY=VALUE") {
		t.Fatalf("a bad -e must be refused as flow test refuses it:\n%s", r)
	}
}

// TestStudioEnvPrecedence: the flow file's header env: wins over -e, as
// in flow test (and Maestro, whose CLI variables are defined before the
// header's); a variable the header does not set still comes from -e; and
// flow test agrees on the file the steps were appended to.
func TestStudioEnvPrecedence(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "login.yaml")
	header := "appId: com.example.shop\nenv:\n  LABEL: Log in\n---\n- launchApp\n"
	os.WriteFile(file, []byte(header), 0o644)
	vars := map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "state")}
	p := openStudioPage(t, startStudio(t, func(k string) string { return vars[k] }, file, "-e", "LABEL=Nowhere", "-e", "OTHER=Log in"))
	result := func() string { return p.js(`return document.querySelector('[data-testid=result]').innerText`).(string) }
	if st := p.run("launchApp"); st != "passed" {
		t.Fatalf("launchApp %s", st)
	}
	if st := p.run("assertVisible: ${LABEL}"); st != "passed" {
		t.Fatalf("the header's LABEL must win over -e: %s\n%s", st, result())
	}
	if st := p.run("assertVisible: ${OTHER}"); st != "passed" {
		t.Fatalf("-e OTHER must reach the command: %s\n%s", st, result())
	}
	p.js(`document.querySelector('[data-testid=append]').click()`)
	p.wait("the append", `const e = document.querySelector('[data-testid=appended]'); return e && e.textContent`)
	env := testEnv(map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "replay")})
	if code := run(context.Background(), env, []string{"flow", "test", "-e", "LABEL=Nowhere", "-e", "OTHER=Log in", file}); code != 0 {
		t.Fatalf("flow test must agree with studio: exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
	// Without the header's value, -e decides: the same command now fails.
	text, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(text), "env:\n  LABEL: Log in\n", "", 1)), 0o644)
	if st := p.run("assertVisible: ${LABEL}"); st != "failed" {
		t.Fatalf("without the header, -e LABEL=Nowhere must decide: %s\n%s", st, result())
	}
}
