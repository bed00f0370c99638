package ad

import (
	"reflect"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestTokenize pins the .ad tokenizer (agent-device.md §3.1): JSON-quoted
// tokens, bare tokens that keep inner quotes, JavaScript whitespace, and
// the two error messages with the token's column.
func TestTokenize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		line   string
		want   []string
		quoted []bool
		err    string
		col    int
	}{
		{name: "bare words", line: "click 10 20", want: []string{"click", "10", "20"}, quoted: []bool{false, false, false}},
		{name: "inner quotes stay", line: `fill id="field-name" "Ada Lovelace"`, want: []string{"fill", `id="field-name"`, "Ada Lovelace"}, quoted: []bool{false, false, true}},
		{name: "json escapes", line: `type "a\"b\\c\td\ne\u00e9"`, want: []string{"type", "a\"b\\c\td\ne\u00e9"}, quoted: []bool{false, true}},
		{name: "surrounding and inner whitespace", line: "  \tclick\t\t 1   2  ", want: []string{"click", "1", "2"}, quoted: []bool{false, false, false}},
		{name: "javascript spaces split", line: "type a\u00a0b\u2003c\ufeffd", want: []string{"type", "a", "b", "c", "d"}, quoted: []bool{false, false, false, false, false}},
		{name: "U+0085 is not a JavaScript space", line: "type a\u0085b", want: []string{"type", "a\u0085b"}, quoted: []bool{false, false}},
		{name: "lone CR is a space", line: "type a\rb", want: []string{"type", "a", "b"}, quoted: []bool{false, false, false}},
		{name: "quoted token ends at its quote", line: `type "a"b`, want: []string{"type", "a", "b"}, quoted: []bool{false, true, false}},
		{name: "empty quoted", line: `type ""`, want: []string{"type", ""}, quoted: []bool{false, true}},
		{name: "quote inside bare token", line: `type a"b c"`, want: []string{"type", `a"b`, `c"`}, quoted: []bool{false, false, false}},
		{name: "escaped quote does not end", line: `type "say \"hi\""`, want: []string{"type", `say "hi"`}, quoted: []bool{false, true}},
		{name: "escaped backslash before quote ends", line: `type "a\\" b`, want: []string{"type", `a\`, "b"}, quoted: []bool{false, true, false}},
		{name: "non-ascii kept", line: `type "日本語 ✓" naïve`, want: []string{"type", "日本語 ✓", "naïve"}, quoted: []bool{false, true, false}},
		{name: "unterminated", line: `type "abc`, err: `Invalid replay script line: type "abc`, col: 6},
		{name: "unterminated after escape", line: `type "abc\"`, err: `Invalid replay script line: type "abc\"`, col: 6},
		{name: "bad escape", line: `type "a\qb"`, err: `Invalid quoted value "a\qb" in replay script line: type "a\qb"`, col: 6},
		{name: "raw tab in quotes", line: "type \"a\tb\"", err: "Invalid quoted value \"a\tb\" in replay script line: type \"a\tb\"", col: 6},
		{name: "short unicode escape", line: `type x "\u12"`, err: `Invalid quoted value "\u12" in replay script line: type x "\u12"`, col: 8},
		{name: "column counts runes and leading space", line: `  type é "\x"`, err: `Invalid quoted value "\x" in replay script line: type é "\x"`, col: 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			toks, err := tokenize(newSrcLine("s.ad", 3, tc.line))
			if tc.err != "" {
				ce, ok := canonical.AsError(err)
				if !ok {
					t.Fatalf("want error %q, got %v", tc.err, err)
				}
				if ce.Code != canonical.CodeInvalidArgs || ce.Message != tc.err {
					t.Fatalf("got %s %q\nwant %q", ce.Code, ce.Message, tc.err)
				}
				if ce.Pos != (canonical.Pos{File: "s.ad", Line: 3, Col: tc.col}) {
					t.Errorf("pos %+v, want col %d", ce.Pos, tc.col)
				}
				if ce.Hint == "" {
					t.Error("no hint")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var quoted []bool
			for _, tk := range toks {
				got = append(got, tk.text)
				quoted = append(quoted, tk.quoted)
			}
			if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(quoted, tc.quoted) {
				t.Errorf("got %q %v\nwant %q %v", got, quoted, tc.want, tc.quoted)
			}
		})
	}
}

// TestQuotedValueHint pins agent-device's hint text.
func TestQuotedValueHint(t *testing.T) {
	t.Parallel()
	want := `Quoted replay values are JSON strings: escape backslashes, quotes, tabs, and newlines (\\, \", \t, \n).`
	if quotedValueHint != want {
		t.Errorf("hint %q", quotedValueHint)
	}
}

// TestQuoteJSON pins the writer's JSON.stringify for strings.
func TestQuoteJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain":         `"plain"`,
		`a"b\c`:         `"a\"b\\c"`,
		"\b\f\n\r\t":    `"\b\f\n\r\t"`,
		"\x00\x1f\x7f":  "\"\\u0000\\u001f\x7f\"",
		"<&> é \u2028":  "\"<&> é \u2028\"",
		"id=\"x\" || y": `"id=\"x\" || y"`,
		"\xff":          "\"\ufffd\"",
	} {
		if got := QuoteJSON(in); got != want {
			t.Errorf("quoteJSON(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestFormatPositional pins the recorder's bare/quoted rule (§3.6).
func TestFormatPositional(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"200":       "200",
		"-80":       "-80",
		"1.25":      "1.25",
		"1.":        `"1."`,
		".5":        `".5"`,
		"1e3":       `"1e3"`,
		"0x10":      `"0x10"`,
		"@e12":      "@e12",
		"@e1 x":     `"@e1 x"`,
		`@a"b`:      `"@a\"b"`,
		"pan":       `"pan"`,
		"left-edge": `"left-edge"`,
		"":          `""`,
		`id="a"`:    `"id=\"a\""`,
		"--count":   `"--count"`,
		"${X}":      `"${X}"`,
		"٣":         `"٣"`,
	} {
		if got := formatPositional(in); got != want {
			t.Errorf("formatPositional(%q) = %s, want %s", in, got, want)
		}
	}
}
