package ad

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// The lexical layer of the .ad format (agent-device.md §3.1). agent-device
// is JavaScript, so "whitespace" here is JavaScript's \s and String.trim
// set, not Go's unicode.IsSpace: the two differ on U+0085 (space only for
// Go) and U+FEFF (space only for JavaScript), and a script must split into
// the same tokens in both tools.

// isJSSpace reports whether r is in JavaScript's \s class.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// IsLineTerminator reports whether r ends a line for JavaScript's "." in a
// regular expression.
func IsLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// splitLines is script.split(/\r?\n/).
func splitLines(src string) []string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// srcLine is one line of a script being parsed, with what errors need to
// point into it.
type srcLine struct {
	file    string
	n       int    // 1-based line number
	raw     string // the line as written, without its line break
	trimmed string // jsTrim(raw)
	lead    int    // byte offset of trimmed within raw
	cols    *colCursor
}

// colCursor remembers the last byte offset pos turned into a column.
// Positions are asked for in the order tokens are written, so counting
// runes on from the last one keeps a line of a million tokens linear.
type colCursor struct {
	ascii      bool // every byte is a rune: the column is the offset
	off, runes int
}

func newSrcLine(file string, n int, raw string) srcLine {
	trimmed := jsTrim(raw)
	lead := 0
	if trimmed != "" {
		lead = len(raw) - len(strings.TrimLeftFunc(raw, isJSSpace))
	}
	return srcLine{file: file, n: n, raw: raw, trimmed: trimmed, lead: lead, cols: &colCursor{ascii: isASCII(raw)}}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pos is the position of byte offset off of the trimmed line; columns count
// runes, as the CLI's caret does.
func (l srcLine) pos(off int) canonical.Pos {
	end := min(max(l.lead+off, 0), len(l.raw))
	return canonical.Pos{File: l.file, Line: l.n, Col: l.column(end)}
}

func (l srcLine) column(end int) int {
	c := l.cols
	switch {
	case c == nil:
		return utf8.RuneCountInString(l.raw[:end]) + 1
	case c.ascii:
		return end + 1
	case end < c.off:
		c.off, c.runes = 0, 0
	}
	c.runes += utf8.RuneCountInString(l.raw[c.off:end])
	c.off = end
	return c.runes + 1
}

func (l srcLine) errorf(off int, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(l.pos(off))
}

// token is one word of an action line.
type token struct {
	text   string // the value: JSON-decoded when quoted
	quoted bool   // written as a JSON string; a quoted token is never a flag
	off    int    // byte offset in the trimmed line
}

// quotedValueHint is agent-device's hint for a bad quoted value.
const quotedValueHint = `Quoted replay values are JSON strings: escape backslashes, quotes, tabs, and newlines (\\, \", \t, \n).`

// tokenize splits a trimmed line into tokens (agent-device.md §3.1). A
// token starting with '"' runs to the matching unescaped '"' and is decoded
// as a JSON string; any other token runs to the next whitespace and keeps
// the quotes inside it, so id="field" is one token. A quoted token ends at
// its closing quote: the next token may follow without a space, as in
// agent-device.
func tokenize(l srcLine) ([]token, error) {
	s := l.trimmed
	var out []token
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if isJSSpace(r) {
			i += size
			continue
		}
		if s[i] != '"' {
			start := i
			for i < len(s) {
				r, size := utf8.DecodeRuneInString(s[i:])
				if isJSSpace(r) {
					break
				}
				i += size
			}
			out = append(out, token{text: s[start:i], off: start})
			continue
		}
		v, next, err := scanQuoted(l, i)
		if err != nil {
			return nil, err
		}
		out = append(out, token{text: v, quoted: true, off: i})
		i = next
	}
	return out, nil
}

// scanQuoted reads the JSON string token starting at l.trimmed[start]
// == '"': it runs to the matching unescaped '"' and is decoded with JSON's
// rules. It returns the value and the offset just past the closing quote.
func scanQuoted(l srcLine, start int) (string, int, error) {
	s := l.trimmed
	end := -1
	escaped := false
	for j := start + 1; j < len(s); j++ {
		c := s[j]
		if c == '"' && !escaped {
			end = j
			break
		}
		if escaped {
			escaped = false
			continue
		}
		escaped = c == '\\'
	}
	if end < 0 {
		return "", 0, l.errorf(start, "Invalid replay script line: %s", s).
			WithHint("close the quoted value with a \" on the same line; " + quotedValueHint)
	}
	lit := s[start : end+1]
	var v string
	if err := json.Unmarshal([]byte(lit), &v); err != nil {
		return "", 0, l.errorf(start, "Invalid quoted value %s in replay script line: %s", lit, s).
			WithHint(quotedValueHint)
	}
	return v, end + 1, nil
}

// QuoteJSON is JavaScript's JSON.stringify for a string: only '"', '\\' and
// control characters are escaped (\b \f \n \r \t, others as \u00xx), so
// non-ASCII text, '<', '&' and U+2028 stay as written. Invalid UTF-8 bytes
// become U+FFFD, as they do when agent-device reads such a file.
func QuoteJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				h := strconv.FormatInt(int64(r), 16)
				if len(h) < 2 {
					b.WriteByte('0')
				}
				b.WriteString(h)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// isNumericArg is the writer's /^-?\d+(\.\d+)?$/: a positional that stays
// bare because it reads as a number.
func isNumericArg(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	return allDigits(whole) && (!hasFrac || allDigits(frac))
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isBareWord is /^[^\s"'\\][^\s"\\]*$/: text that reads back as the same
// single token when written without quotes. A leading "'" is excluded
// because newer agent-device versions read it as a single-quoted literal.
func isBareWord(s string) bool {
	if s == "" || s[0] == '\'' {
		return false
	}
	for _, r := range s {
		if r == '"' || r == '\\' || isJSSpace(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// formatPositional writes a positional with the recorder's rule (§3.6):
// bare only when numeric or an @ref of non-space, non-quote,
// non-backslash characters; everything else JSON-quoted.
func formatPositional(s string) string {
	if isNumericArg(s) || (strings.HasPrefix(s, "@") && isBareWord(s)) {
		return s
	}
	return QuoteJSON(s)
}

// formatValue writes a flag or header value: bare when it reads back as
// itself, else JSON-quoted.
func formatValue(s string) string {
	if isBareWord(s) {
		return s
	}
	return QuoteJSON(s)
}
