package ad

import (
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"
)

// TestWriterOutputs pins the recorder's verified lines (§3.6): positionals
// bare only when numeric or an @ref, the gesture kind quoted, flags in the
// recorder's order.
func TestWriterOutputs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a    Action
		want string
	}{
		{Action{Command: "gesture", Positionals: []string{"pan", "200", "420", "0", "-80", "500"}, Flags: map[string]string{"pointer-count": "2"}},
			`gesture "pan" 200 420 0 -80 500 --pointer-count 2`},
		{Action{Command: "gesture", Positionals: []string{"drag", `id="a"`, `label="B"`, "800", "500", "0"}},
			`gesture "drag" "id=\"a\"" "label=\"B\"" 800 500 0`},
		{Action{Command: "gesture", Positionals: []string{"rotate", "35"}}, `gesture "rotate" 35`},
		{Action{Command: "gesture", Positionals: []string{"swipe", "left-edge"}}, `gesture "swipe" "left-edge"`},
		{Action{Command: "swipe", Positionals: []string{"320", "500", "40", "500"}, Flags: map[string]string{"pattern": "ping-pong", "pause-ms": "30", "count": "8"}},
			`swipe 320 500 40 500 --count 8 --pause-ms 30 --pattern ping-pong`},
		{Action{Command: "longpress", Positionals: []string{"300", "500", "800"}}, `longpress 300 500 800`},
		{Action{Command: "click", Positionals: []string{"@e3"}, RefLabel: "Log in", Flags: map[string]string{"button": "secondary", "double-tap": "true", "count": "2", "jitter-px": "1", "hold-ms": "5", "interval-ms": "9"}},
			`click @e3 "Log in" --count 2 --interval-ms 9 --hold-ms 5 --jitter-px 1 --double-tap --button secondary`},
		{Action{Command: "fill", Positionals: []string{"@e5", "ada@example.com"}, RefLabel: "Email", Flags: map[string]string{"delay-ms": "20"}},
			`fill @e5 "Email" "ada@example.com" --delay-ms 20`},
		// A selector and text that both read as numbers would parse back as
		// a point: the text is split so its first word is no number.
		{Action{Command: "fill", Positionals: []string{"0", " 0"}}, `fill 0 "" 0`},
		{Action{Command: "fill", Positionals: []string{"7", "x 1 2"}}, `fill 7 "x 1 2"`},
		{Action{Command: "fill", Positionals: []string{"0", "0", ""}}, `fill 0 0 ""`},
		{Action{Command: "open", Positionals: []string{"Agent Device Tester"}, Flags: map[string]string{"launch-url": "${APP_URL}", "relaunch": "true", "platform": "ios", "metro-host": "localhost"}},
			`open "Agent Device Tester" --relaunch --platform ios --metro-host localhost --launch-url ${APP_URL}`},
		{Action{Command: "snapshot", Flags: map[string]string{"scope": "Sample App", "interactive": "true", "depth": "3", "raw": "true"}},
			`snapshot -i -d 3 -s "Sample App" --raw`},
		{Action{Command: "scroll", Positionals: []string{"down"}, Flags: map[string]string{"until": `text="Footer"`}},
			`scroll "down" --until "text=\"Footer\""`},
		{Action{Command: "click", Positionals: []string{`id="save" || label="Save"`},
			Target: &TargetEvidence{ID: "save", Role: "button", Label: "Save", Ancestry: []AncestryEntry{{Role: "toolbar", Label: "Editor"}, {Role: "window"}}, ScrollRegion: &ScrollRegion{Role: "scrollview", ID: "editor-scroll"}, Verification: Verified}},
			`# agent-device:target-v1 {"id":"save","role":"button","label":"Save","ancestry":[{"role":"toolbar","label":"Editor"},{"role":"window"}],"sibling":0,"viewportOrder":0,"scrollRegion":{"role":"scrollview","id":"editor-scroll"},"verification":"verified"}` + "\n" +
				`click "id=\"save\" || label=\"Save\""`},
		{Action{Command: "gesture", Positionals: []string{"drag", `id="card-a" || label="Card A"`, `label="Done column"`, "800", "500", "0"},
			Targets: &TargetPair{
				Source:      TargetEvidence{ID: "card-a", Role: "button", Label: "Card A", Ancestry: []AncestryEntry{{Role: "list"}}, ViewportOrder: 3, Rect: &Rect{X: 10, Y: 100, Width: 200, Height: 60}, Verification: Verified},
				Destination: TargetEvidence{Role: "other", Label: "Done column", Ancestry: []AncestryEntry{}, Sibling: 2, ViewportOrder: 7, Verification: Verified},
			}},
			`# agent-device:targets-v1 {"source":{"id":"card-a","role":"button","label":"Card A","ancestry":[{"role":"list"}],"sibling":0,"viewportOrder":3,"rect":{"x":10,"y":100,"width":200,"height":60},"verification":"verified"},"destination":{"role":"other","label":"Done column","ancestry":[],"sibling":2,"viewportOrder":7,"verification":"verified"}}` + "\n" +
				`gesture "drag" "id=\"card-a\" || label=\"Card A\"" "label=\"Done column\"" 800 500 0`},
	}
	for _, tc := range cases {
		if got := EncodeAction(tc.a); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// TestEncodeHeader pins the header lines.
func TestEncodeHeader(t *testing.T) {
	t.Parallel()
	retries := 2
	s := &Script{
		Context: Context{Fields: []ContextField{{Key: "platform", Value: "ios"}, {Key: "device", Value: "iPhone"}, {Key: "kind", Value: "simulator"}, {Key: "theme", Value: "unknown"}}},
		Env: []EnvVar{{Key: "A", Value: "plain text"}, {Key: "B", Value: ""}, {Key: "C", Value: `"quoted"`}, {Key: "D", Value: " lead"},
			{Key: "E", Value: "tab\there"}, {Key: "F", Value: `a"b\c`}},
		Actions: []Action{{Command: "home"}},
	}
	want := `context platform=ios device="iPhone" kind=simulator theme=unknown
env A=plain text
env B=
env C="\"quoted\""
env D=" lead"
env E="tab\there"
env F=a"b\c
home
`
	if got := string(Encode(s)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	typed := &Script{Context: Context{Platform: "android", Target: "tv", TimeoutMs: 500, Retries: &retries}}
	if got := string(Encode(typed)); got != "context platform=android target=tv timeout=500 retries=2\n" {
		t.Errorf("typed context: %q", got)
	}
	if got := string(Encode(&Script{})); got != "" {
		t.Errorf("empty script: %q", got)
	}
}

// roundTrip checks parse → encode → parse gives the same script and
// encode → parse → encode the same bytes.
func roundTrip(t *testing.T, src string) []byte {
	t.Helper()
	s1, err := parse(src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	enc1 := Encode(s1)
	s2, err := parse(string(enc1))
	if err != nil {
		t.Fatalf("re-parse: %v\nsource:\n%s\nencoded:\n%s", err, src, enc1)
	}
	if !sameScripts(s1, s2) {
		t.Fatalf("parse → encode → parse differs\nsource:\n%s\nencoded:\n%s", src, enc1)
	}
	if enc2 := Encode(s2); string(enc2) != string(enc1) {
		t.Fatalf("encode → parse → encode differs:\n%s\n%s", enc1, enc2)
	}
	return enc1
}

// TestEncodeRoundTrip round-trips every sample and a corpus of lines; the
// recorder's own output is reproduced byte for byte.
func TestEncodeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"checkout-form-flow.ad", "gesture-lab.ad", "recorded.ad"} {
		src := readTestdata(t, "ad/"+name)
		enc := roundTrip(t, string(src))
		if name == "recorded.ad" && string(enc) != string(src) {
			t.Errorf("recorded.ad is not reproduced:\n%s", enc)
		}
	}
	corpus := []string{
		`open "Agent Device Tester" --relaunch --launch-url ""`,
		`open --platform ios --metro-host 127.0.0.1 --metro-port 8081 --bundle-url "http://x y" --test-ime --no-test-ime app`,
		`click @e12~s3 ""`,
		`click 0x10 1e3`,
		`click "@e1 x"`,
		`click "5"`,
		`click " "`,
		`click label="a b" || id=c --count 2`,
		`fill 1 2 ""`,
		`fill " 1" abc`,
		`fill @e1 "" "text"`,
		`fill @e1 "--count" "-- x"`,
		`fill "'quoted'" "x"`,
		`type "--not-a-flag" -5 "a\u0000b" "\u2028" "日本"`,
		`type "${A}" "\\${B}" ${C:-d}`,
		`longpress @e1~s2~s3 5`,
		`wait text "x" 10`,
		`snapshot -s "--raw" -d 01`,
		`screenshot "a b.png" --crop-on "id=\"x\"" --fullscreen`,
		`scroll down --until "label=\"A\" || text=\"B\"" --duration-ms 0`,
		`swipe 1 2 3 4 --count ${N} --pattern ${P}`,
		`gesture pan 1 2 3 4 --pointer-count ${PC}`,
		`is text id="a" "x y"`,
		"context platform=ios device=\"a \\\"b\\\"\" x=\"\" y= theme=unknown\ncontext retries=0\nenv A= b \nhome",
	}
	for _, src := range corpus {
		roundTrip(t, src)
	}
}

// TestEncodeCanonicalForm snapshots what a hand-written script becomes
// when flow writes it back.
func TestEncodeCanonicalForm(t *testing.T) {
	t.Parallel()
	src := strings.Join([]string{
		"# hand-written",
		"context platform=ios timeout=60000",
		"context device=iPhone",
		`env APP_TARGET="Agent Device Tester"`,
		"",
		`open "${APP_TARGET}" --launch-url "" --relaunch`,
		`click label="First name"`,
		`fill 10 20 Ada   Lovelace`,
		`gesture pan 195 443 -80 0 --pointer-count 2`,
		`snapshot -c -i --backend xml`,
		`click --button primary @e3~s4 Save`,
	}, "\n")
	snaps.MatchSnapshot(t, string(Encode(mustParse(t, src))))
}
