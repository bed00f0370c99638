package ad

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// checkCoded fails unless err is a coded error whose position has a line
// within the script.
func checkCoded(t *testing.T, err error, lines int) {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok {
		t.Fatalf("uncoded error: %v", err)
	}
	if ce.Pos.Line <= 0 || ce.Pos.Line > lines {
		t.Fatalf("error line %d outside 1..%d: %v", ce.Pos.Line, lines, ce)
	}
	if ce.Hint == "" {
		t.Fatalf("error without a hint: %v", ce)
	}
}

// FuzzParseScript: any input parses or fails with a coded error placed on
// a line of the script, never a panic; a parsed script re-encodes to text
// that parses to the same script and encodes to the same bytes; checking
// and converting it never panics either.
func FuzzParseScript(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "ad", "*.ad"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"click 1 2 --count 3\n# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"}\nclick \"id=\\\"a\\\"\"",
		"env A=\"x\\ty\"\ncontext platform=ios device=\"a b\"\ntype ${A:-b\\}c} \\${x}",
		"fill @e1~s2 \"label\" a b\nwait text \"x\" 5\nis text id=a b",
		"snapshot -i -d 3 -s \"x y\" --raw\nscroll down --until \"text=\\\"F\\\"\"",
		"gesture drag \"id=\\\"a\\\"\" \"id=\\\"b\\\"\" 800 500 0\nswipe 1 2 3 4 --pattern ping-pong",
		"open \"${APP}\" --relaunch --launch-url \"\"\nclose",
		"\ufeffcontext platform=ios\r\nhome\r\n",
		"click \"a\u2028b\" \"\\u0000\"",
	} {
		f.Add(s)
	}
	scope, _ := NewScope(VarSources{File: map[string]string{"APP": "com.x", "A": "1"}})
	f.Fuzz(func(t *testing.T, src string) {
		lines := len(splitLines(src))
		s1, err := ParseScript("f.ad", []byte(src), ParseOptions{})
		if err != nil {
			checkCoded(t, err, lines)
			return
		}
		enc := Encode(s1)
		s2, err := ParseScript("f.ad", enc, ParseOptions{})
		if err != nil {
			t.Fatalf("re-parse failed: %v\nsource: %q\nencoded: %q", err, src, enc)
		}
		if !sameScripts(s1, s2) {
			t.Fatalf("parse → encode → parse differs\nsource: %q\nencoded: %q", src, enc)
		}
		if enc2 := Encode(s2); string(enc2) != string(enc) {
			t.Fatalf("encode is not stable:\n%q\n%q", enc, enc2)
		}
		if err := CheckSupported(s1); err != nil {
			checkCoded(t, err, lines)
		}
		var c Converter
		for _, a := range s1.Actions {
			r, err := Resolve(a, scope)
			if err != nil {
				checkCoded(t, err, lines)
				continue
			}
			if _, err := c.Steps(r); err != nil {
				checkCoded(t, err, lines)
			}
		}
	})
}

// FuzzEncodeQuoting: any string, written as a positional, a flag value, an
// env value or a context value, reads back unchanged. Scripts are UTF-8
// (the parser refuses anything else), so only valid UTF-8 strings are
// representable.
func FuzzEncodeQuoting(f *testing.F) {
	for _, s := range []string{"", " ", "plain", "Ada Lovelace", `id="a" || label="B"`, `a\"b`, "\t\n\r", "--count",
		"-5", "1.50", "0x10", "@e1", "@e1 x", "'q'", "${X}", `\${X}`, "#", "# agent-device:target-v1 {}",
		"\u2028", "\u00a0x\u00a0", "\ufeff", "\x00", "日本語", `"`, `\`, "env A=1", "context"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("scripts are UTF-8")
		}
		script := &Script{
			Context: Context{Fields: []ContextField{{Key: "device", Value: s}, {Key: "note", Value: s}}},
			Env:     []EnvVar{{Key: "V", Value: s}},
			Actions: []Action{
				{Command: "type", Positionals: []string{s, s}},
				{Command: "open", Positionals: []string{s}, Flags: map[string]string{"launch-url": s}},
				{Command: "snapshot", Flags: map[string]string{"scope": s}},
			},
		}
		enc := Encode(script)
		got, err := ParseScript("q.ad", enc, ParseOptions{})
		if err != nil {
			t.Fatalf("%q: encoded script does not parse: %v\n%s", s, err, enc)
		}
		check := func(what, v string) {
			if v != s {
				t.Fatalf("%s: %q came back as %q\n%s", what, s, v, enc)
			}
		}
		check("context device", got.Context.Fields[0].Value)
		check("context value", got.Context.Fields[1].Value)
		check("env value", got.Env[0].Value)
		check("positional", got.Actions[0].Positionals[0])
		check("second positional", got.Actions[0].Positionals[1])
		check("open positional", got.Actions[1].Positionals[0])
		check("flag value", got.Actions[1].Flags["launch-url"])
		check("snapshot scope", got.Actions[2].Flags["scope"])
		if strings.Count(string(enc), "\n") != 5 {
			t.Fatalf("%q: encoded into more lines than written:\n%s", s, enc)
		}
	})
}
