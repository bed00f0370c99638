package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, printable, oneLine string }{
		{"plain", "Tap on \"Log in\" ✓ 日本", "Tap on \"Log in\" ✓ 日本", "Tap on \"Log in\" ✓ 日本"},
		{"escape sequence", "a\x1b[31mred\x1b]0;title\x07", `a\x1b[31mred\x1b]0;title\x07`, `a\x1b[31mred\x1b]0;title\x07`},
		{"carriage return overwrites", "ok\rFAILED", `ok\rFAILED`, `ok\rFAILED`},
		{"backspace and DEL", "ab\bc\x7f", `ab\x08c\x7f`, `ab\x08c\x7f`},
		{"NUL", "a\x00b", `a\x00b`, `a\x00b`},
		{"C1 controls", "a\u009b31mb\u0085", `a\u009b31mb\u0085`, `a\u009b31mb\u0085`},
		{"bytes that are not UTF-8", "a\x9b31m\xff", `a\x9b31m\xff`, `a\x9b31m\xff`},
		{"bidi overrides and isolates", "user\u202egnp.exe\u2066x\u2069", `user\u202egnp.exe\u2066x\u2069`, `user\u202egnp.exe\u2066x\u2069`},
		{"bidi embeddings and marks", "\u202a\u202b\u202c\u202d\u200e\u200f\u061c", `\u202a\u202b\u202c\u202d\u200e\u200f\u061c`, `\u202a\u202b\u202c\u202d\u200e\u200f\u061c`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"line breaks and tabs", "one\n\ttwo", "one\n\ttwo", `one\n\ttwo`},
		{"CRLF line ending", "one\r\ntwo\r", "one\ntwo\\r", `one\r\ntwo\r`},
		{"backslash stays", `C:\flows\a.yaml`, `C:\flows\a.yaml`, `C:\flows\a.yaml`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Printable(c.in); got != c.printable {
				t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.printable)
			}
			if got := OneLine(c.in); got != c.oneLine {
				t.Errorf("OneLine(%q) = %q, want %q", c.in, got, c.oneLine)
			}
		})
	}
}

// FuzzPrintable: whatever the input, the result is UTF-8 with no control
// character but line breaks and tabs (none at all for OneLine), no bidi
// control, and text that needed no escaping comes back unchanged.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "a\u202eb", "\xff\xfe", "x\r\n\ty", "\u0085\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, oneLine := range []bool{false, true} {
			out := visible(s, oneLine)
			if !utf8.ValidString(out) {
				t.Fatalf("%q: result %q is not UTF-8", s, out)
			}
			for _, r := range out {
				if r == '\n' || r == '\t' {
					if oneLine {
						t.Fatalf("%q: one-line result %q holds a line break or tab", s, out)
					}
					continue
				}
				if needsEscape(r, utf8.RuneLen(r), oneLine) {
					t.Fatalf("%q: result %q holds %U", s, out, r)
				}
			}
			clean := utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return needsEscape(r, utf8.RuneLen(r), oneLine) }) < 0
			if clean && out != s {
				t.Fatalf("%q changed to %q though it needed no escape", s, out)
			}
		}
	})
}
