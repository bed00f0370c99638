package convert

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/ad"
	"github.com/flow-runner/flow/canonical"
)

// loadScript turns .ad text into a flow the way flow runs scripts: parse,
// resolve ${VAR} from the script's env, convert, one command per step.
func loadScript(file string, src []byte) (*canonical.Flow, error) {
	s, err := ad.ParseScript(file, src, ad.ParseOptions{})
	if err != nil {
		return nil, err
	}
	if err := ad.CheckSupported(s); err != nil {
		return nil, err
	}
	scope, err := ad.NewScope(ad.VarSources{File: s.ScriptVars()})
	if err != nil {
		return nil, err
	}
	f := &canonical.Flow{File: file}
	var conv ad.Converter
	for _, a := range s.Actions {
		r, err := ad.Resolve(a, scope)
		if err != nil {
			return nil, err
		}
		steps, err := conv.Steps(r)
		if err != nil {
			return nil, err
		}
		for _, st := range steps {
			c, err := ad.StepCommand(st, r)
			if err != nil {
				return nil, err
			}
			if c != nil {
				f.Commands = append(f.Commands, c)
			}
		}
	}
	return f, nil
}

func sameCommands(t *testing.T, what string, want, got []canonical.Command) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: %d commands became %d", what, len(want), len(got))
	}
	for i := range want {
		if !SameCommand(want[i], got[i]) {
			w, _ := canonical.EncodeCommand(want[i])
			g, _ := canonical.EncodeCommand(got[i])
			t.Fatalf("%s: command %d differs:\nwant %s\ngot  %s", what, i, w, g)
		}
	}
}

// TestToAdScripts: every .ad script flow runs converts to .ad and loads
// back as the same commands (.ad → canonical → .ad → canonical).
func TestToAdScripts(t *testing.T) {
	t.Parallel()
	// The sample scripts are the .ad codec's test data; each keeps the
	// name it has there, as the scripts' AD_FILENAME is part of what loads.
	files, _ := filepath.Glob("../ad/testdata/ad/*.ad")
	if len(files) == 0 {
		t.Fatal("no sample scripts in ../ad/testdata/ad")
	}
	scripts := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		scripts["testdata/ad/"+filepath.Base(f)] = data
	}
	scripts["every-form.ad"] = []byte(`env APP=com.example.shop
open "${APP}" --relaunch
open com.example.shop shop://cart
open shop://item/1
open --launch-url "shop://login"
click 10.5 20
press "text=\"Log in\"" --count 3 --interval-ms 50
press "id=\"a\" enabled=false selected focused" --double-tap
press 5 6 --hold-ms 1200 --interval-ms 0
longpress "label=\"Card\""
longpress 1 2 0
fill "value=\"Email\"" "a@b.c"
fill 1 2 "x"
type hello world
swipe 1 2 3 4 --count 3 --pause-ms 10 --pattern ping-pong
gesture pan 200 420 0 -80 --pointer-count 2
gesture pan 200 420 0 -80 500
gesture fling up 195 443 180
gesture swipe left-edge
gesture pinch 1.25 195 443
gesture rotate 35
gesture transform 1 2 3 4 1.5 30 400
gesture drag "id=\"src\"" "label=\"Dest\"" 800 500 0
gesture drag "id=\"src\"" "label=\"Dest\""
scroll up
scroll down 0.3 --duration-ms 200
scroll right --until "text=\"End\""
back
home
keyboard dismiss
keyboard enter
keyboard return
wait text "Ready" 100
wait "Ready"
wait "id=\"ready\"" 5
wait absent "id=\"spinner\""
wait stable
is visible "id=\"a\""
is exists "id=\"a\""
is hidden "id=\"a\""
is selected "id=\"a\""
is focused "id=\"a\""
is text "id=\"a\"" "Hello there"
screenshot
screenshot shot.PNG
screenshot "a b/c"
snapshot
close
close com.example.other
`)
	n := 0
	for name, src := range scripts {
		f, err := loadScript(name, src)
		if err != nil {
			continue // a script flow does not run (legacy forms, unsupported commands)
		}
		n++
		out, err := ToAd(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := loadScript(name, out)
		if err != nil {
			t.Fatalf("%s: the written script does not load: %v\n%s", name, err, out)
		}
		sameCommands(t, name, f.Commands, back.Commands)
		again, err := ToAd(back)
		if err != nil || string(again) != string(out) {
			t.Fatalf("%s: converting twice is not stable:\n%s\n---\n%s", name, out, again)
		}
		if name == "every-form.ad" {
			snaps.MatchSnapshot(t, string(out))
		}
	}
	if n < 3 {
		t.Fatalf("only %d scripts loaded", n)
	}
}

// TestToAdProblems: every command without an exact .ad form is reported,
// at its own position, with why and a hint.
func TestToAdProblems(t *testing.T) {
	t.Parallel()
	pos := func(line int) canonical.Pos { return canonical.Pos{File: "f.yaml", Line: line, Col: 3} }
	txt := func(s string, line int) *canonical.Template { v := canonical.Text(s, pos(line)); return &v }
	meta := func(name string, line int) canonical.Meta { return canonical.Meta{Name: name, Pos: pos(line)} }
	ok := canonical.Text(ad.TextPattern("OK"), canonical.Pos{})
	f := &canonical.Flow{File: "f.yaml",
		Env: []canonical.EnvVar{
			{Name: "GOOD", Value: canonical.Text("plain", canonical.Pos{})},
			{Name: "lower", Value: canonical.Text("x", canonical.Pos{})},
			{Name: "JS", Value: canonical.Text("${1 + 1}", canonical.Pos{})},
		},
		OnFlowStart: []canonical.Command{&canonical.Simple{Meta: meta("back", 2), Action: "back"}},
		Commands: []canonical.Command{
			&canonical.InputText{Meta: meta("inputText", 5), Text: canonical.Text("${GOOD}", pos(5))},
			&canonical.Tap{Meta: meta("tapOn", 6), Mode: canonical.TapSingle, Selector: &canonical.Selector{Text: txt("Log in", 6)}, Repeat: 1, DelayMs: 100, RetryIfNoChange: true},
			&canonical.Tap{Meta: canonical.Meta{Name: "tapOn", Pos: pos(7), Label: "Go", Optional: true}, Mode: canonical.TapSingle, Point: txt("50%,50%", 7), Repeat: 1, DelayMs: 100},
			&canonical.Assert{Meta: meta("assertVisible", 8), Visible: &canonical.Selector{Text: &ok, Index: txt("1", 8), Below: &canonical.Selector{Text: &ok}}},
			&canonical.InputText{Meta: meta("inputText", 9), Text: canonical.Text("${output.x}", pos(9))},
			&canonical.InputText{Meta: meta("inputText", 10), Text: canonical.Text("${UNDEFINED}", pos(10))},
			&canonical.InputText{Meta: meta("inputText", 11), Text: canonical.Text("${lower}", pos(11))},
			&canonical.InputText{Meta: meta("inputText", 12), Text: canonical.Text("${JS}", pos(12))},
			&canonical.RunFlow{Meta: meta("runFlow", 13), File: "sub.yaml"},
			&canonical.Repeat{Meta: meta("repeat", 14)},
			&canonical.LaunchApp{Meta: meta("launchApp", 15), AppID: canonical.Text("com.example.shop", pos(15)), StopApp: true,
				ClearState: true, Permissions: map[string]string{"all": "allow"}},
			&canonical.PressKey{Meta: meta("pressKey", 16), Key: "Back", AndroidCode: 4},
			&canonical.WaitForAnimation{Meta: meta("waitForAnimationToEnd", 17), TimeoutMs: 2000},
			&canonical.Swipe{Meta: meta("scroll", 18), Start: fraction(0.5, 0.5), End: fraction(0.5, 0.1), DurationMs: canonical.Same(400)},
		}}
	_, err := ToAd(f)
	var ce *ConvertError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *ConvertError, got %v", err)
	}
	if len(ce.Problems) != 13 || len(ce.Unwrap()) != 13 {
		t.Fatalf("want 13 problems (all but the first two commands: a plain text tap converts), got %d:\n%v", len(ce.Problems), err)
	}
	var lines []string
	for _, p := range ce.Problems {
		if p.Code != canonical.CodeUnsupportedOperation || p.Pos.Line == 0 || p.Hint == "" {
			t.Errorf("malformed problem: %v", p)
		}
		data, _ := json.Marshal(p)
		lines = append(lines, string(data))
	}
	snaps.MatchSnapshot(t, strings.Join(lines, "\n"))
}

func fraction(x, y float64) canonical.Anchor {
	v := canonical.Same(canonical.Point{X: x, Y: y})
	return canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &v}
}

// TestToAdEnv: plain env values and the ${NAME || 'default'} idiom become
// env lines; ${NAME} references carry over and load as the values.
func TestToAdEnv(t *testing.T) {
	t.Parallel()
	f := &canonical.Flow{File: "env.yaml", Name: "Env", Tags: []string{"a", "b"},
		Env: []canonical.EnvVar{
			{Name: "USER", Value: canonical.Text("${USER || 'ada@example.com'}", canonical.Pos{})},
			{Name: "HOST", Value: canonical.Text(`${HOST || "shop"}`, canonical.Pos{})},
			{Name: "PATH_PART", Value: canonical.Text("a b  c", canonical.Pos{})},
			{Name: "EMPTY", Value: canonical.Text("", canonical.Pos{})},
			{Name: "UNUSED_JS", Value: canonical.Text("${Date.now()}", canonical.Pos{})},
		},
		Commands: []canonical.Command{
			&canonical.OpenLink{Meta: canonical.Meta{Name: "openLink"}, Link: canonical.Text("${HOST}://cart/${PATH_PART}", canonical.Pos{})},
			&canonical.InputText{Meta: canonical.Meta{Name: "inputText"}, Text: canonical.Text("${ USER }${EMPTY}!", canonical.Pos{})},
			&canonical.InputText{Meta: canonical.Meta{Name: "inputText"}, Text: canonical.Text(`\${USER} stays`, canonical.Pos{})},
			&canonical.TakeScreenshot{Meta: canonical.Meta{Name: "takeScreenshot"}, Path: canonical.Text("shot-${HOST}", canonical.Pos{})},
		}}
	out, err := ToAd(f)
	if err != nil {
		t.Fatal(err)
	}
	snaps.MatchSnapshot(t, string(out))
	back, err := loadScript("env.ad", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []string{"shop://cart/a b  c", "ada@example.com!", `\${USER} stays`, "shot-shop"}
	got := []string{back.Commands[0].(*canonical.OpenLink).Link.Raw, back.Commands[1].(*canonical.InputText).Text.Raw,
		back.Commands[2].(*canonical.InputText).Text.Raw, back.Commands[3].(*canonical.TakeScreenshot).Path.Raw}
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("command %d: want %q, got %q", i, want[i], got[i])
		}
	}
}

// TestUntextPattern: the inverse of ad.TextPattern recovers the text up to
// what ad.TextPattern forgets (spacing), for every regex character.
func TestUntextPattern(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "Log in", "  spaced   out ", `\.+*?()|[]{}^$#`, "${X}", `a\b`, "ünï", "tab\tsep", "x\u2028y"} {
		p := ad.TextPattern(s)
		v, ok := untextPattern(p)
		if !ok || ad.TextPattern(v) != p {
			t.Errorf("%q: pattern %q inverted to %q (%v)", s, p, v, ok)
		}
	}
	for _, p := range []string{`Log\sin`, `\s*a`, `\s*a.b\s*`, `\s*a\s+\s*`, `\s*a b\s*`, `\s*\s+a\s*`} {
		if v, ok := untextPattern(p); ok {
			t.Errorf("%q is not a ad.TextPattern, got %q", p, v)
		}
	}
}

// TestToAdValue: templates without expressions keep every character,
// including ${ that the runtime reads as text.
func TestToAdValue(t *testing.T) {
	t.Parallel()
	w := &adWriter{vars: map[string]*adVar{"A": {name: "A", value: "1"}}}
	cases := map[string]string{
		"plain":      "plain",
		"${":         `\${`,
		"$${":        `$\${`,
		`\${X}`:      `\${X}`,
		"{a} ${b":    `{a} \${b`,
		"${A}":       "${A}",
		"x${A}y${A}": "x${A}y${A}",
	}
	for raw, want := range cases {
		got, why := w.value(canonical.Text(raw, canonical.Pos{}), "text")
		if why != "" || got != want {
			t.Errorf("%q: got %q (%s), want %q", raw, got, why, want)
		}
	}
	for _, raw := range []string{"${B}", "${A + 1}", "${a.b}", `\${A} ${A}`} {
		if _, why := w.value(canonical.Text(raw, canonical.Pos{}), "text"); why == "" {
			t.Errorf("%q: want a reason", raw)
		}
	}
}
