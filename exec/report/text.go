package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable returns s made safe to show a person, on a terminal or in a
// report. Flow names, file paths, step labels, error messages and script
// output are input, and a terminal obeys what they hold: ESC starts an
// escape sequence (colours, cursor moves, a new window title, a rewritten
// screen), CR and backspace overwrite what was printed, BEL rings, C1
// controls are escape sequences of their own, and the bidirectional
// overrides make text read differently from what it is. Each such
// character, and each byte that is not UTF-8, becomes a visible escape:
// \x1b, \r, \x9b, \u202e. Line breaks (LF, or CRLF, which becomes LF) and
// tabs are kept; [OneLine] escapes them too. Everything else, including a backslash, is left as it is.
func Printable(s string) string { return visible(s, false) }

// OneLine is [Printable] for a field that must stay on one line (a flow
// name in a progress line, a log line): line breaks and tabs become \n,
// \r and \t as well.
func OneLine(s string) string { return visible(s, true) }

func visible(s string, oneLine bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n, oneLine) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !needsEscape(r, n, oneLine):
			b.WriteString(s[i : i+n])
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r' && !oneLine && strings.HasPrefix(s[i+1:], "\n"):
			// A CRLF line ending is a line break, kept as one.
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// needsEscape reports whether a decoded rune (n bytes of input) must not
// reach a reader as it is.
func needsEscape(r rune, n int, oneLine bool) bool {
	switch {
	case r == utf8.RuneError && n <= 1:
		return true // not UTF-8: a terminal may read the byte as a C1 control
	case r == '\n' || r == '\t':
		return oneLine
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true // C0 (CR, ESC, BEL, backspace…), DEL, C1
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional marks, embeddings, overrides, isolates
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators break a line unseen
	}
	return false
}
