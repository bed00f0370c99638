package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// evilFlow carries control characters, escape sequences and bidi
// overrides in its name, a step label, script output and the text of a
// failing assertion (which the error message and hint repeat).
const evilFlow = `appId: com.example.shop
name: "evil\e]0;pwned\a\u202eflow\rX"
---
- launchApp
- tapOn:
    text: Log in
    label: "press\b\b\b\bDONE\e[2J"
- evalScript: ${console.log('log\x1b]0;t\x07 \u202eline\x9b31m\nsecond')}
- assertVisible: "Nowhere\e[31m\u2066"
`

// ours matches the escape sequences flow itself writes on a terminal: SGR
// colours and the clear-line before a finished step.
var ours = regexp.MustCompile(`\x1b\[[0-9;]*m|\r\x1b\[K`)

// checkNeutral fails when out holds a control character (but line breaks),
// a C1 control, a bidi control or a byte that is not UTF-8, after taking
// away flow's own colour codes when it painted.
func checkNeutral(t *testing.T, what, out string, painted bool) {
	t.Helper()
	if painted {
		out = ours.ReplaceAllString(out, "")
	}
	for i, r := range out {
		bad := r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f || r == 0xfffd ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if bad {
			t.Fatalf("%s holds %U at byte %d:\n%q", what, r, i, out)
		}
	}
}

// TestTerminalNeutralisesInput: what flows, paths and scripts say reaches
// the terminal as visible escapes (\x1b, \r, \u202e), never as control
// characters; flow's own colours still work on a terminal.
func TestTerminalNeutralisesInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := "flow.yaml"
	if runtime.GOOS != "windows" {
		name = "e\x1b]0;x\x07vil\u202e.yaml"
	}
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(evilFlow), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tty := range []bool{false, true} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, IsTTY: tty}
		code := run(context.Background(), env, []string{"flow", "test", file})
		if code != 1 {
			t.Fatalf("tty %v: want exit 1, got %d\n%s%s", tty, code, out.String(), errb.String())
		}
		checkNeutral(t, "stdout", out.String(), tty)
		checkNeutral(t, "stderr", errb.String(), tty)
		for _, want := range []string{`evil\x1b]0;pwned\x07\u202eflow\rX`, `press\x08\x08\x08\x08DONE\x1b[2J`,
			`log: log\x1b]0;t\x07 \u202eline\u009b31m`, "log: second", `Nowhere\x1b[31m\u2066`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("tty %v: stdout lacks %q:\n%s", tty, want, out.String())
			}
		}
		if runtime.GOOS != "windows" && !strings.Contains(out.String(), `e\x1b]0;x\x07vil\u202e.yaml`) {
			t.Errorf("tty %v: the file name is not shown escaped:\n%s", tty, out.String())
		}
		if painted := ours.MatchString(out.String()); painted != tty {
			t.Errorf("flow's own colours: painted %v on tty %v", painted, tty)
		}
	}
}

// TestErrorsNeutraliseInput: errors rendered on stderr (a path that does
// not exist) and flow check's snippets show escapes, with the caret still
// under the right character.
func TestErrorsNeutraliseInput(t *testing.T) {
	t.Parallel()
	r := runFlow(t, "", "test", "missing\x1b[2J\u202e.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, `missing\x1b[2J\u202e.yaml`) {
		t.Fatalf("want the path shown escaped:\n%s", r)
	}
	checkNeutral(t, "stderr", r.stderr, false)

	file := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(file, []byte("appId: a\n---\n- tapOn: \"\\e[2J\\u202e\"\n  bogus\u202e: 1\n"), 0o644)
	r = runFlow(t, "", "check", file)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%s", r)
	}
	checkNeutral(t, "stdout", r.stdout, false)
	lines := strings.Split(r.stdout, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "     4 | ") && i+1 < len(lines) {
			src, caret := strings.TrimPrefix(l, "     4 | "), strings.TrimPrefix(lines[i+1], "       | ")
			if src != `  bogus\u202e: 1` || caret != "  ^" {
				t.Fatalf("snippet %q, caret %q:\n%s", src, caret, r.stdout)
			}
			return
		}
	}
	t.Fatalf("no snippet for line 4:\n%s", r.stdout)
}

// TestScriptOutputAndErrorsCapped: a script printing 100,000 lines, one
// 100,000-character line and a megabyte-long error leaves a bounded step
// on screen and in the report: the first and last lines with the count
// left out, lines and messages cut with the number of characters left out.
func TestScriptOutputAndErrorsCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "noisy.yaml")
	os.WriteFile(file, []byte(`appId: com.example.shop
---
- evalScript: ${(function(){ for (var i = 0; i < 100000; i++) console.log('line ' + i); return 1 })()}
- evalScript: ${console.log('y'.repeat(100000) + '\nnext')}
- evalScript: ${(function(){ throw new Error('boom ' + 'z'.repeat(1000000)) })()}
`), 0o644)
	out := filepath.Join(dir, "report.json")
	r := runFlow(t, "", "test", file, "--output", out)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%.3000s", r)
	}
	var rep struct {
		Flows []struct {
			Error *struct{ Message string }
			Steps []struct {
				Logs  []string
				Error *struct{ Message string }
			}
		}
	}
	data, _ := os.ReadFile(out)
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Flows) != 1 || len(rep.Flows[0].Steps) != 3 {
		t.Fatalf("report: %v\n%.2000s", err, data)
	}
	steps := rep.Flows[0].Steps
	logs := steps[0].Logs
	if len(logs) != 201 || logs[0] != "line 0" || logs[99] != "line 99" || logs[100] != "… 99800 lines omitted" ||
		logs[101] != "line 99900" || logs[200] != "line 99999" {
		t.Errorf("want the first and last 100 lines around a count; got %d lines: %q … %q", len(logs), logs[:min(3, len(logs))], logs[max(0, len(logs)-3):])
	}
	if got := steps[1].Logs; len(got) != 2 || got[0] != strings.Repeat("y", 2000)+"… [98000 more characters]" || got[1] != "next" {
		t.Errorf("want the long line cut and the message split: %d lines, %.60q", len(got), got)
	}
	for what, e := range map[string]*struct{ Message string }{"step": steps[2].Error, "flow": rep.Flows[0].Error} {
		if e == nil || len(e.Message) > 4100 || !strings.HasSuffix(e.Message, "more characters]") || !strings.Contains(e.Message, "boom zzz") {
			t.Errorf("%s error not capped: %.200v", what, e)
		}
	}
	if n := strings.Count(r.stdout, "    log: "); n != 203 {
		t.Errorf("the console shows %d log lines, want 203", n)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if len(l) > 4300 {
			t.Fatalf("a console line of %d bytes: %.100s…", len(l), l)
		}
	}
}

// TestLongSourceLinesAndErrorsBounded: a snippet of a very long line shows
// a window around the column, caret under it; a load error holding a
// 10,000-character key is cut on screen and in the report.
func TestLongSourceLinesAndErrorsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "long.yaml")
	os.WriteFile(file, []byte("appId: a\n---\n- tapOn: {text: \""+strings.Repeat("a", 5000)+"\", bogus: 1}\n"), 0o644)
	r := runFlow(t, "", "check", file)
	if r.code != 2 {
		t.Fatalf("want exit 2:\n%.2000s", r)
	}
	lines := strings.Split(r.stdout, "\n")
	found := false
	for i, l := range lines {
		if src, ok := strings.CutPrefix(l, "     3 | "); ok && i+1 < len(lines) {
			found = true
			caret := strings.TrimPrefix(lines[i+1], "       | ")
			if n := len([]rune(src)); n > 170 || !strings.HasPrefix(src, "…") {
				t.Errorf("snippet of %d characters: %q", n, src)
			}
			if at := len([]rune(caret)) - 1; at < 0 || !strings.HasPrefix(string([]rune(src)[at:]), "bogus") {
				t.Errorf("the caret is not under the key:\n%s\n%s", src, caret)
			}
		}
	}
	if !found {
		t.Fatalf("no snippet:\n%.3000s", r.stdout)
	}

	key := strings.Repeat("k", 10000)
	os.WriteFile(file, []byte("appId: a\n---\n- tapOn:\n    text: a\n    ? "+key+"\n    : 1\n"), 0o644)
	out := filepath.Join(dir, "r.json")
	r = runFlow(t, "", "test", file, "--output", out)
	if r.code != 2 || strings.Contains(r.stdout, key) || !strings.Contains(r.stdout, "more characters]") {
		t.Fatalf("want the error cut on screen:\n%.5000s", r)
	}
	data, _ := os.ReadFile(out)
	if strings.Contains(string(data), key) || !strings.Contains(string(data), "more characters]") {
		t.Fatalf("want the error cut in the report:\n%.5000s", data)
	}
}
