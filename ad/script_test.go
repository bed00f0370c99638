package ad

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
)

// TestHeaders pins the context header and env directives (§3.1, §3.2).
func TestHeaders(t *testing.T) {
	t.Parallel()
	s := mustParse(t, strings.Join([]string{
		`# a comment`,
		`context platform=ios device="iPhone 16 Pro" kind=simulator theme=unknown`,
		``,
		`context target=mobile timeout=60000 retries=0 loose-word`,
		`env APP_ID=com.example.app`,
		`env EMPTY=`,
		`env  SPACED= kept leading space`,
		`env QUOTED="Agent Device Tester"`,
		`env JSON="a\tb \"c\""`,
		`env RAW=a"b`,
		"env\tTAB=1",
		`home`,
	}, "\n"))
	snaps.MatchJSON(t, s)
}

// TestHeaderErrors pins every header and env message: agent-device's exact
// text where it has one, with flow's position and a hint.
func TestHeaderErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, msg string }{
		{"env", `Invalid env directive on line 1: expected "env KEY=VALUE".`},
		{"env =1", `Invalid env directive on line 1: expected "env KEY=VALUE".`},
		{"env APP", `Invalid env directive on line 1: expected "env KEY=VALUE".`},
		{"\nenv app_id=x", `Invalid env key "app_id" on line 2: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`},
		{"env 1A=x", `Invalid env key "1A" on line 1: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`},
		{"env A B=x", `Invalid env key "A B" on line 1: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`},
		{"env AD_SESSION=x", `Invalid env key "AD_SESSION" on line 1: the AD_* namespace is reserved for built-in variables. Rename AD_SESSION to avoid the AD_ prefix.`},
		{"env A=1\nenv B=2\nenv A=3", `Duplicate env directive "A" on line 3.`},
		{`env A="x`, `Invalid quoted env value on line 1.`},
		{`env A="x" y`, `Invalid quoted env value on line 1.`},
		{"home\nenv A=1", `env directives must precede all actions (line 2).`},
		{"context platform=ios\ncontext platform=ios", `Duplicate replay test metadata "platform" in context header.`},
		{"context platform=ios\ncontext platform=android", `Conflicting replay test metadata "platform" in context header: ios vs android.`},
		{"context platform=ios platform=android", `Conflicting replay test metadata "platform" in context header: ios vs android.`},
		{"context timeout=500\ncontext timeout=0500", `Duplicate replay test metadata "timeoutMs" in context header.`},
		{"context retries=1 retries=2", `Conflicting replay test metadata "retries" in context header: 1 vs 2.`},
		{"context target=tv target=desktop", `Conflicting replay test metadata "target" in context header: tv vs desktop.`},
		{"context platform=web", `unknown platform "web" in context header`},
		{"context target=watch", `unknown target "watch" in context header`},
		{"context timeout=0", `timeout=0 in context header is not a whole number of at least 1`},
		{"context timeout=5s", `timeout=5s in context header is not a whole number of at least 1`},
		{"context retries=-1", `retries=-1 in context header is not a whole number of at least 0`},
		{`context device="x`, `Invalid replay script line: context device="x`},
		{"home\ncontext platform=ios", `context lines must precede all actions (line 2)`},
	}
	for _, tc := range cases {
		_, err := parse(tc.src)
		ce := coded(t, err)
		if ce.Code != canonical.CodeInvalidArgs || ce.Message != tc.msg {
			t.Errorf("%q:\n got  %s %s\n want %s", tc.src, ce.Code, ce.Message, tc.msg)
		}
	}
}

// TestRemovedFormsFailAtParse: every removed gesture form fails when the
// script is parsed, with the exact §3.4 message including "(line N)", via
// the one arity table shared with the CLI — even when the line comes after
// valid ones, so no device action ever runs.
func TestRemovedFormsFailAtParse(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, msg string }{
		{"swipe 100 200 300 400 500", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3). The trailing durationMs positional was removed: use "gesture pan 100 200 200 200 500" for the same timed drag, or "swipe 100 200 300 400" for a default-duration swipe.`},
		{"swipe 100 200 300 400 ${DUR}", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3). The trailing durationMs positional was removed: use "gesture pan 100 200 200 200 ${DUR}" for the same timed drag, or "swipe 100 200 300 400" for a default-duration swipe.`},
		{"swipe 100 200 300 400 500 --count 2", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3). The trailing durationMs positional was removed: use "gesture pan 100 200 200 200 500" for the same timed drag, or "swipe 100 200 300 400" for a default-duration swipe.`},
		{"swipe ${X} 200 300 400 500", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3). The trailing durationMs positional was removed: use "gesture pan x1 y1 dx dy durationMs" for the same timed drag, or "swipe ${X} 200 300 400" for a default-duration swipe.`},
		{"swipe 100 200 300 400 500 600", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3).`},
		{"swipe 206 700 206 250 300", `swipe accepts 4 arguments: x1 y1 x2 y2 (line 3). The trailing durationMs positional was removed: use "gesture pan 206 700 0 -450 300" for the same timed drag, or "swipe 206 700 206 250" for a default-duration swipe.`},
		{"gesture fling up 200 400 180 300", `gesture fling accepts at most 4 arguments: direction x y [distance] (line 3). The trailing durationMs positional was removed: use "gesture fling up 200 400 180", or gesture pan for timed movement.`},
		{"gesture fling up 195 443 80 80", `gesture fling accepts at most 4 arguments: direction x y [distance] (line 3). The trailing durationMs positional was removed: use "gesture fling up 195 443 80", or gesture pan for timed movement.`},
		{`gesture "swipe" "left" 300`, `gesture swipe accepts 1 argument: preset (line 3). The trailing durationMs positional was removed: use "gesture swipe left", or gesture pan for timed movement.`},
		{"gesture swipe left fast", `gesture swipe accepts 1 argument: preset (line 3).`},
		{"gesture rotate 35 200 420 2", `gesture rotate accepts at most 3 arguments: degrees [x] [y] (line 3). The trailing velocity positional was removed: use "gesture rotate 35 200 420"; rotation pacing derives from degrees.`},
		{"gesture pan 200 420 0 -80 500 9", `gesture pan accepts at most 5 arguments: x y dx dy [durationMs] (line 3).`},
		{"gesture pinch 1 2 3 4", `gesture pinch accepts at most 3 arguments: scale [x] [y] (line 3).`},
		{"gesture transform 1 2 3 4 5 6 7 8", `gesture transform accepts at most 7 arguments: x y dx dy scale degrees [durationMs] (line 3).`},
		{"gesture drag a b 1 2 3 4", `gesture drag accepts at most 5 arguments: source destination [sourceHoldMs] [moveMs] [destinationHoldMs] (line 3).`},
	}
	for _, tc := range cases {
		src := "context platform=android\nopen com.example\n" + tc.line + "\nclick 1 2\n"
		s, err := parse(src)
		if s != nil {
			t.Errorf("%s: a script with a removed form must not parse", tc.line)
		}
		ce := coded(t, err)
		if ce.Code != canonical.CodeInvalidArgs || ce.Message != tc.msg {
			t.Errorf("%s:\n got  %s\n want %s", tc.line, ce.Message, tc.msg)
		}
		if ce.Pos.Line != 3 || ce.Pos.File != "t.ad" {
			t.Errorf("%s: pos %+v", tc.line, ce.Pos)
		}
	}
	// The error points at the first surplus token.
	_, err := parse("swipe 1 2 3 4 500")
	if p := coded(t, err).Pos; p.Col != 15 {
		t.Errorf("removed swipe duration: col %d, want 15", p.Col)
	}
	_, err = parse(`gesture "rotate" 35 200 420 2`)
	if p := coded(t, err).Pos; p.Col != 29 {
		t.Errorf("removed rotate velocity: col %d, want 29", p.Col)
	}
}

// TestActionLines pins how each command's line parses: positionals after
// joining and pin stripping, flags by long name.
func TestActionLines(t *testing.T) {
	t.Parallel()
	lines := []string{
		`open "Agent Device Tester" --relaunch --launch-url "${APP_URL}"`,
		`open com.example.app myapp://deep/link`,
		`open --platform ios --metro-host 127.0.0.1 --metro-port 08081 --bundle-url http://x --test-ime app`,
		`open`,
		`close`,
		`close com.example.app`,
		`click 100 200`,
		`press -10.5 0x20`,
		`click @e12~s3 "Log in"`,
		`click @e12`,
		`click id="login" || label="Log in"`,
		`click "label=\"Form\""`,
		`click label="First name"`,
		`click 100 label="x"`,
		`click 1 2 --count 3 --interval-ms 50 --hold-ms 0 --jitter-px 2 --double-tap --button secondary`,
		`click --button primary 1 2`,
		`longpress 300 500 800`,
		`longpress @e3~s9 1000`,
		`longpress "label=\"Save\"" --hold-ms 700`,
		`fill id="field-name" "Ada Lovelace"`,
		`fill 10 20 Ada Lovelace`,
		`fill 10 20`,
		`fill @e5 "Email" ada@example.com --delay-ms 20`,
		`fill @e5 ada@example.com`,
		`fill label="Name" Ada   Lovelace`,
		`type hello world`,
		`type "--not-a-flag" -5`,
		`swipe 320 500 40 500 --count 8 --pause-ms 30 --pattern ping-pong`,
		`swipe 1 2 3 4 --count ${N}`,
		`gesture "pan" 200 420 0 -80 500 --pointer-count 2`,
		`gesture drag "id=\"a\"" "label=\"B\"" 800 500 0`,
		`gesture rotate 35`,
		`scroll down 0.6`,
		`scroll down --until "text=\"Footer\""`,
		`scroll up --pixels 200 --duration-ms 500`,
		`back`,
		`back --system`,
		`home`,
		`keyboard dismiss`,
		`snapshot -i -c -d 3 -s "Sample App" --raw --force-full --backend xml`,
		`snapshot --depth 2 --scope Login`,
		`screenshot out.png`,
		`screenshot --fullscreen --crop-on "id=\"x\""`,
		`wait 500`,
		`wait "label=\"Form\"" 30000`,
		`wait text "Order summary" 5000`,
		`wait @e4~s2 1000`,
		`wait absent id="spinner"`,
		`wait stable`,
		`is visible label="Log in"`,
		`is text id="title" Welcome`,
	}
	type row struct {
		Line   string `json:"line"`
		Action Action `json:"action"`
	}
	var rows []row
	for _, l := range lines {
		s, err := parse(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		rows = append(rows, row{Line: l, Action: s.Actions[0]})
	}
	snaps.MatchJSON(t, rows)
}

// TestActionLineErrors pins the parse-time refusals of action lines.
func TestActionLineErrors(t *testing.T) {
	t.Parallel()
	type row struct {
		Line  string `json:"line"`
		Error any    `json:"error"`
	}
	lines := []string{
		`clik 1 2`,
		`tapOn "Login"`,
		`react-native dismiss-overlay`,
		`find text "General" exists`,
		`"hover" 1 2`,
		`click`,
		`click 1 2 3`,
		`click @e1 "Log in" extra`,
		`click 1 2 --cuont 3`,
		`click 1 2 --count=3`,
		`click 1 2 --count`,
		`click 1 2 --count 0`,
		`click 1 2 --count -1`,
		`click 1 2 --count 2.5`,
		`click 1 2 --count 2 --count 3`,
		`click 1 2 --button left`,
		`swipe 1 2 3 4 --count 201`,
		`swipe 1 2 3 4 --count 0`,
		`swipe 1 2 3 4 --pause-ms 10001`,
		`swipe 1 2 3 4 --pattern zigzag`,
		`swipe 1 2 3 4 --duration 300`,
		`gesture --pointer-count 2`,
		`gesture pan 1 2 3 4 --pointer-count two`,
		`home now`,
		`back 2`,
		`back --hard`,
		`type`,
		`fill sel`,
		`scroll`,
		`scroll down 0.5 extra`,
		`wait`,
		`wait text Order summary 5000`,
		`is visible`,
		`keyboard dismiss now`,
		`snapshot extra`,
		`snapshot -d`,
		`snapshot -d x`,
		`open a b c`,
		`open app --platform web`,
		`open app --metro-port 70000`,
		`screenshot a b`,
		`longpress 1 2 3 4`,
	}
	var rows []row
	for _, l := range lines {
		_, err := parse("context platform=ios\n" + l)
		rows = append(rows, row{Line: l, Error: errJSON(t, err)})
	}
	snaps.MatchJSON(t, rows)
}

// TestAnnotations pins target-v1 and targets-v1 parsing (§3.6): both
// spellings, normalization, versions other than 1 as comments.
func TestAnnotations(t *testing.T) {
	t.Parallel()
	src := strings.Join([]string{
		`context platform=ios device=iPhone`,
		`# agent-device:target-v1 {"id":"save","role":"button","label":"  Save \n  now ","ancestry":[{"role":"toolbar","label":"Editor"},{"role":"window"}],"sibling":0,"viewportOrder":0,"scrollRegion":{"role":"scrollview","id":"editor-scroll"},"verification":"verified","future":true}`,
		`click "id=\"save\" || label=\"Save now\""`,
		`# agent-device:targets-v1 {"source":{"id":"card-a","role":"button","label":"Card A","ancestry":[{"role":"list"}],"sibling":0,"viewportOrder":3,"rect":{"x":10,"y":100,"width":200,"height":60},"verification":"verified"},"destination":{"role":"other","label":"Done column","ancestry":[],"sibling":2,"viewportOrder":7,"verification":"verified"}}`,
		`gesture drag "id=\"card-a\" || label=\"Card A\"" "label=\"Done column\"" 800 500 0`,
		`#flow:target-v01   {"role":"","id":"","label":"   ","verification":"unverifiable","rect":{"x":1.5,"y":-0,"width":1e2,"height":0.1}}`,
		`wait "id=\"x\"" 100`,
		`# agent-device:target-v2 {"anything": "goes"}`,
		`# agent-device:target-v1x not an annotation`,
		`# target-v1 {"role":"x"} is an ordinary comment`,
		`home`,
	}, "\n")
	s := mustParse(t, src)
	snaps.MatchJSON(t, s.Actions)
}

// TestAnnotationErrors pins every annotation message.
func TestAnnotationErrors(t *testing.T) {
	t.Parallel()
	ok := `{"role":"button","verification":"verified"}`
	big := `{"role":"button","verification":"verified","pad":"` + strings.Repeat("x", 4096) + `"}`
	long := strings.Repeat("é", 129) // 258 bytes
	cases := []struct{ src, msg string }{
		{"# agent-device:target-v1 " + ok + "\n\nclick 1 2", `target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is blank).`},
		{"# agent-device:target-v1 " + ok + "\n# note\nclick 1 2", `target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is a comment).`},
		{"# agent-device:target-v1 " + ok + "\n# agent-device:target-v9 {}\nclick 1 2", `target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is a comment).`},
		{"# agent-device:target-v1 " + ok + "\n# agent-device:targets-v1 {}\nclick 1 2", `target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is another target annotation).`},
		{"# agent-device:targets-v1 {\"source\":" + ok + ",\"destination\":" + ok + "}\nenv A=1\nclick 1 2", `targets-v1 annotation on line 1 must be immediately followed by its action line (line 2 is an env directive).`},
		{"# agent-device:target-v1 " + ok + "\ncontext platform=ios\nclick 1 2", `target-v1 annotation on line 1 must be immediately followed by its action line (line 2 did not parse as an action).`},
		{"click 1 2\n# agent-device:target-v1 " + ok, `target-v1 annotation on line 2 must be immediately followed by its action line (end of script reached).`},
		{"click 1 2\n# agent-device:target-v1 " + ok + "\n", `target-v1 annotation on line 2 must be immediately followed by its action line (line 3 is blank).`},
		{"# agent-device:target-v1", `target-v1 annotation is not valid JSON.`},
		{"# agent-device:target-v1 {role:1}", `target-v1 annotation is not valid JSON.`},
		{"# agent-device:target-v1 {} {}", `target-v1 annotation is not valid JSON.`},
		{"# agent-device:target-v1 [1]", `target-v1 annotation must be a JSON object.`},
		{"# agent-device:target-v1 " + big, `target-v1 annotation exceeds the 4096-byte payload cap.`},
		{`# agent-device:target-v1 {"verification":"verified"}`, `target-v1 "role" is required.`},
		{`# agent-device:target-v1 {"role":1,"verification":"verified"}`, `target-v1 "role" must be a string.`},
		{`# agent-device:target-v1 {"role":"b","id":2,"verification":"verified"}`, `target-v1 "id" must be a string.`},
		{`# agent-device:target-v1 {"role":"b","label":"` + long + `","verification":"verified"}`, `target-v1 "label" exceeds the 256-byte field cap.`},
		{`# agent-device:target-v1 {"role":"b","ancestry":{},"verification":"verified"}`, `target-v1 "ancestry" must be an array.`},
		{`# agent-device:target-v1 {"role":"b","ancestry":[{},{},{},{},{},{},{},{},{}],"verification":"verified"}`, `target-v1 "ancestry" exceeds the 8-entry cap.`},
		{`# agent-device:target-v1 {"role":"b","ancestry":[1],"verification":"verified"}`, `target-v1 "ancestry[0]" must be an object.`},
		{`# agent-device:target-v1 {"role":"b","ancestry":[{"role":"a"},{"label":"x"}],"verification":"verified"}`, `target-v1 "ancestry[1].role" is required.`},
		{`# agent-device:target-v1 {"role":"b","ancestry":[{"role":"a","label":3}],"verification":"verified"}`, `target-v1 "ancestry[0].label" must be a string.`},
		{`# agent-device:target-v1 {"role":"b","sibling":-1,"verification":"verified"}`, `target-v1 "sibling" must be a non-negative integer.`},
		{`# agent-device:target-v1 {"role":"b","viewportOrder":1.5,"verification":"verified"}`, `target-v1 "viewportOrder" must be a non-negative integer.`},
		{`# agent-device:target-v1 {"role":"b","sibling":9007199254740992,"verification":"verified"}`, `target-v1 "sibling" must be a non-negative integer.`},
		{`# agent-device:target-v1 {"role":"b","scrollRegion":[],"verification":"verified"}`, `target-v1 "scrollRegion" must be an object.`},
		{`# agent-device:target-v1 {"role":"b","scrollRegion":{"id":"x"},"verification":"verified"}`, `target-v1 "scrollRegion.role" is required.`},
		{`# agent-device:target-v1 {"role":"b","rect":"0,0","verification":"verified"}`, `target-v1 "rect" must be an object.`},
		{`# agent-device:target-v1 {"role":"b","rect":{"x":0,"y":0,"width":1e999,"height":1},"verification":"verified"}`, `target-v1 "rect.width" must be a finite number.`},
		{`# agent-device:target-v1 {"role":"b","rect":{"x":0,"y":0,"width":1},"verification":"verified"}`, `target-v1 "rect.height" must be a finite number.`},
		{`# agent-device:target-v1 {"role":"b"}`, `target-v1 "verification" must be "verified" or "unverifiable".`},
		{`# agent-device:target-v1 {"role":"b","verification":"VERIFIED"}`, `target-v1 "verification" must be "verified" or "unverifiable".`},
		{`# agent-device:targets-v1 {"source":` + ok + `}`, `targets-v1 annotation requires source and destination evidence.`},
		{`# agent-device:targets-v1 nope`, `targets-v1 annotation is not valid JSON.`},
		{`# agent-device:targets-v1 "x"`, `targets-v1 annotation must be a JSON object.`},
		{`# agent-device:targets-v1 {"source":null,"destination":` + ok + `}`, `target-v1 annotation must be a JSON object.`},
		{`# agent-device:targets-v1 {"source":` + ok + `,"destination":{"verification":"verified"}}`, `target-v1 "role" is required.`},
		{`# agent-device:targets-v1 {"source":` + big + `,"destination":` + ok + `}`, `target-v1 annotation exceeds the 4096-byte payload cap.`},
		{`# agent-device:targets-v1 {"source":` + big + `,"destination":` + big + `}`, `targets-v1 annotation exceeds the 8320-byte payload cap.`},
	}
	for _, tc := range cases {
		_, err := parse(tc.src)
		ce := coded(t, err)
		if ce.Code != canonical.CodeInvalidArgs || ce.Message != tc.msg {
			t.Errorf("%.80q:\n got  %s\n want %s", tc.src, ce.Message, tc.msg)
		}
	}
}

// TestAnnotationNormalizer: a plugged-in NFC normalizer is applied to every
// string field.
func TestAnnotationNormalizer(t *testing.T) {
	t.Parallel()
	upper := Normalizer(strings.ToUpper)
	s, err := ParseScript("t.ad", []byte(`# agent-device:target-v1 {"id":"a","role":"b","label":"c  d","ancestry":[{"role":"e","label":"f"}],"scrollRegion":{"role":"g","id":"h","label":"i"},"verification":"verified"}`+"\nclick 1 2"), ParseOptions{NFC: upper})
	if err != nil {
		t.Fatal(err)
	}
	got := EncodeTarget(*s.Actions[0].Target)
	want := `{"id":"A","role":"B","label":"C D","ancestry":[{"role":"E","label":"F"}],"sibling":0,"viewportOrder":0,"scrollRegion":{"role":"G","id":"H","label":"I"},"verification":"verified"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestInvalidUTF8 refuses a script that is not UTF-8, at the bad byte.
func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	_, err := parse("home\ntype a\xffb")
	ce := coded(t, err)
	if ce.Pos != (canonical.Pos{File: "t.ad", Line: 2, Col: 7}) || ce.Message != "script is not valid UTF-8" {
		t.Errorf("got %v at %+v", ce, ce.Pos)
	}
}

// TestErrorPositions: errors point at the offending token.
func TestErrorPositions(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]canonical.Pos{
		"  clik 1 2":                   {File: "t.ad", Line: 1, Col: 3},
		"home\nclick 1 2 --count x":    {File: "t.ad", Line: 2, Col: 19},
		"click 1 2 --nope":             {File: "t.ad", Line: 1, Col: 11},
		"env A=1\nenv A=2":             {File: "t.ad", Line: 2, Col: 1},
		"# agent-device:target-v1 {x}": {File: "t.ad", Line: 1, Col: 26},
		"context  platform=x":          {File: "t.ad", Line: 1, Col: 10},
	} {
		_, err := parse(src)
		if got := coded(t, err).Pos; got != want {
			t.Errorf("%q: pos %+v, want %+v", src, got, want)
		}
	}
}

// TestSampleScripts parses the §3.8 samples (our copies in testdata/ad).
func TestSampleScripts(t *testing.T) {
	t.Parallel()
	type result struct {
		Actions []Action `json:"actions,omitempty"`
		Error   any      `json:"error,omitempty"`
		Check   any      `json:"check,omitempty"`
	}
	for _, name := range []string{"checkout-form.ad", "checkout-form-flow.ad", "gesture-lab.ad", "gesture-lab-legacy.ad", "swipe-legacy.ad", "recorded.ad"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := readTestdata(t, "ad/"+name)
			s, err := ParseScript("testdata/ad/"+name, src, ParseOptions{})
			var r result
			if err != nil {
				r.Error = errJSON(t, err)
			} else {
				r.Actions = s.Actions
				if err := CheckSupported(s); err != nil {
					r.Check = errJSON(t, err)
				}
			}
			snaps.MatchJSON(t, r)
		})
	}
}

func ExampleParseScript() {
	s, err := ParseScript("login.ad", []byte("context platform=ios\nenv USER=ada\nopen com.example.app --relaunch\nfill id=\"user\" ${USER}\nclick \"label=\\\"Log in\\\"\"\n"), ParseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Actions {
		fmt.Println(a.Line, a.Command, a.Positionals, a.Flags)
	}
	_, err = ParseScript("old.ad", []byte("open app\nswipe 1 2 3 4 500\n"), ParseOptions{})
	fmt.Println(err)
	// Output:
	// 3 open [com.example.app] map[relaunch:true]
	// 4 fill [id="user" ${USER}] map[]
	// 5 click [label="Log in"] map[]
	// old.ad:2:15: INVALID_ARGS: swipe accepts 4 arguments: x1 y1 x2 y2 (line 2). The trailing durationMs positional was removed: use "gesture pan 1 2 2 2 500" for the same timed drag, or "swipe 1 2 3 4" for a default-duration swipe.
}
