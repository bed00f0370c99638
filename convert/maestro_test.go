package convert

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/compat"
)

// TestYAMLString pins the scalar writer's choices. That each reads back as
// written is checked through the Maestro loader in cmd/flow
// (TestConvertScalars); here the point is which style each gets.
func TestYAMLString(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Log in":           "Log in",
		"shop://cart":      "shop://cart",
		`\s*Log\s+in\s*`:   `\s*Log\s+in\s*`,
		"You've arrived":   "You've arrived",
		"1 Market Street":  "1 Market Street",
		"":                 `""`,
		"42":               `"42"`,
		"540, 2000":        "540, 2000",
		"3.5":              `"3.5"`,
		"yes":              `"yes"`,
		"Off":              `"Off"`,
		"null":             `"null"`,
		"~":                `"~"`,
		"<<":               `"<<"`,
		"2001-12-14 21:59": `"2001-12-14 21:59"`,
		"- item":           `"- item"`,
		"a: b":             `"a: b"`,
		"ends:":            `"ends:"`,
		"a #b":             `"a #b"`,
		" lead":            `" lead"`,
		"${X}":             "${X}",
		"@ref":             `"@ref"`,
		`4\d`:              `'4\d'`,
		`say "hi"`:         `say "hi"`,
		`"quoted"`:         `'"quoted"'`,
		`'it''s'`:          `"'it''s'"`,
		"line\nbreak":      `"line\nbreak"`,
		"tab\tx":           `"tab\tx"`,
		"nbsp\u00a0x":      `"nbsp\xA0x"`,
		"ls\u2028":         `"ls\u2028"`,
		"bom\ufeff":        `"bom\uFEFF"`,
		"back\\\n":         `"back\\\n"`,
	}
	for s, want := range cases {
		if got := yamlString(s, false); got != want {
			t.Errorf("yamlString(%q) = %s, want %s", s, got, want)
		}
	}
	for s, want := range map[string]string{"smoke": "smoke", "a, b": `"a, b"`, "[x]": `"[x]"`, "k:v": `"k:v"`, "x}": `"x}"`} {
		if got := yamlString(s, true); got != want {
			t.Errorf("yamlString(%q, inFlow) = %s, want %s", s, got, want)
		}
	}
}

// TestToMaestroWriter pins the YAML layout: header, hooks, nested
// commands and selectors, short forms where they exist.
func TestToMaestroWriter(t *testing.T) {
	t.Parallel()
	tx := func(s string) canonical.Template { return canonical.Text(s, canonical.Pos{}) }
	tp := func(s string) *canonical.Template { v := tx(s); return &v }
	m := func(name string) canonical.Meta { return canonical.Meta{Name: name} }
	tr := true
	f := &canonical.Flow{File: "w.yaml", Name: "Writer", AppID: tx("com.example.shop"), Tags: []string{"smoke", "a, b"},
		Env:         []canonical.EnvVar{{Name: "USER", Value: tx("${USER || 'ada'}")}},
		OnFlowStart: []canonical.Command{&canonical.LaunchApp{Meta: m("launchApp"), AppID: tx("com.example.shop"), StopApp: true, Permissions: map[string]string{"all": "allow"}}},
		Commands: []canonical.Command{
			&canonical.LaunchApp{Meta: m("launchApp"), AppID: tx("com.other"), StopApp: false, ClearState: true,
				Permissions: map[string]string{"all": "deny", "camera": "allow"},
				Arguments:   []canonical.LaunchArgument{{Key: tx("n"), Value: int64(3)}, {Key: tx("f"), Value: 1.0}, {Key: tx("b"), Value: true}, {Key: tx("s"), Value: tx("42")}}},
			&canonical.Tap{Meta: canonical.Meta{Name: "tapOn", Label: "Tap it", Optional: true}, Mode: canonical.TapSingle, Selector: &canonical.Selector{Text: tp("Go"),
				Below: &canonical.Selector{ID: tp("title")}, ContainsDescendants: []*canonical.Selector{{Text: tp("a")}, {ID: tp("b"), Checked: &tr}}},
				Repeat: 3, DelayMs: 50, RetryIfNoChange: true},
			&canonical.RunFlow{Meta: m("runFlow"), When: &canonical.Condition{Platform: "ios", True: tp("${x}")}, Commands: []canonical.Command{
				&canonical.Simple{Meta: m("back"), Action: "back"},
				&canonical.Repeat{Meta: m("repeat"), Times: tp("2"), Commands: []canonical.Command{&canonical.EraseText{Meta: m("eraseText"), Count: 3}}},
			}},
			&canonical.StopApp{Meta: m("killApp"), AppID: tx("com.example.shop"), Kill: true},
			&canonical.Swipe{Meta: m("swipe"), Start: fraction(0.1, 0.5), End: fraction(0.9, 0.5), DurationMs: canonical.Same(250)},
			&canonical.Swipe{Meta: m("scroll"), Start: func() canonical.Anchor {
				s, _, _ := compat.Scroll()
				return canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &s}
			}(),
				End: func() canonical.Anchor {
					_, e, _ := compat.Scroll()
					return canonical.Anchor{Kind: canonical.AnchorFraction, Fraction: &e}
				}(), DurationMs: func() canonical.PlatformValue[int] { _, _, d := compat.Scroll(); return d }()},
			&canonical.Travel{Meta: m("travel"), Points: []canonical.Point{{X: 52.5, Y: 13.4}, {X: 52.51, Y: 13.41}}, SpeedMPS: 4},
			&canonical.AI{Meta: canonical.Meta{Name: "assertWithAI", Optional: true}, Action: "assertWithAI", Prompt: tx("no errors")},
		}}
	out, err := ToMaestro(f, "")
	if err != nil {
		t.Fatal(err)
	}
	snaps.MatchSnapshot(t, string(out))
}

// TestToMaestroProblems: what Maestro cannot express is reported per
// command, all of them, with the nearest form in the hint when there is one.
func TestToMaestroProblems(t *testing.T) {
	t.Parallel()
	pos := func(line int) canonical.Pos { return canonical.Pos{File: "s.ad", Line: line, Col: 1} }
	meta := func(name string, line int) canonical.Meta { return canonical.Meta{Name: name, Pos: pos(line)} }
	src := "open com.example.shop --relaunch\npress 1 2\nlongpress 1 2\nswipe 1 2 3 4 --count 2 --pattern ping-pong\nswipe 1 2 3 4\n" +
		"gesture pinch 0.5\ngesture pan 1 2 3 4 --pointer-count 2\ngesture drag \"id=\\\"a\\\"\" \"id=\\\"b\\\"\"\nscroll down\n"
	f, err := loadScript("s.ad", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f.Commands = append(f.Commands,
		&canonical.AddMedia{Meta: meta("addMedia", 20), Files: []string{"/abs/cat.png"}},
		&canonical.Tap{Meta: meta("tapOn", 21), Mode: canonical.TapLong, Point: ptr(canonical.Text("1,2", canonical.Pos{})), Repeat: 1, HoldMs: 3000})
	_, err = ToMaestro(f, "")
	var ce *ConvertError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *ConvertError, got %v", err)
	}
	var lines []string
	for _, p := range ce.Problems {
		if p.Pos.Line == 0 || p.Hint == "" || p.Code != canonical.CodeUnsupportedOperation {
			t.Errorf("malformed problem: %v", p)
		}
		data, _ := json.Marshal(p)
		lines = append(lines, string(data))
	}
	// open, press and the last tap convert; the other eight do not.
	if len(lines) != 8 {
		t.Fatalf("want 8 problems, got %d:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	snaps.MatchSnapshot(t, strings.Join(lines, "\n"))
}

func ptr[T any](v T) *T { return &v }

// TestToMaestroAppID: the header's appId is the argument, the flow's, or
// the first app a command names; without any it is a problem.
func TestToMaestroAppID(t *testing.T) {
	t.Parallel()
	stop := &canonical.StopApp{Meta: canonical.Meta{Name: "close"}, AppID: canonical.Text("com.a", canonical.Pos{})}
	f := &canonical.Flow{File: "x.ad", Name: "x", Commands: []canonical.Command{stop}}
	out, err := ToMaestro(f, "")
	if err != nil || !strings.Contains(string(out), "appId: com.a\n---\n- stopApp\n") {
		t.Fatalf("appId from close:\n%s %v", out, err)
	}
	out, err = ToMaestro(f, "com.b")
	if err != nil || !strings.Contains(string(out), "appId: com.b\n---\n- stopApp: com.a\n") {
		t.Fatalf("appId from the argument:\n%s %v", out, err)
	}
	f.Commands = []canonical.Command{&canonical.Simple{Meta: canonical.Meta{Name: "back"}, Action: "back"}}
	_, err = ToMaestro(f, "")
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeInvalidArgs || !strings.Contains(ce.Hint, "--app-id") {
		t.Fatalf("want an INVALID_ARGS problem asking for --app-id, got %v", err)
	}
}
