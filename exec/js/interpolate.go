package js

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/flow-runner/flow/canonical"
)

// Interpolate evaluates the ${...} expressions of t the way Maestro 1.39's
// String.evaluateScripts does, and returns the text with each replaced by
// its value, printed as:
//   - "undefined" and "null" for those values;
//   - numbers as the engine Maestro would use prints them (Options.Dialect):
//     under Rhino, Maestro's default, as Java objects, so ${1+2} is "3" but
//     ${parseInt('1') + 2} is "3.0" and ${Date.now()} "1.7123456789E12";
//     under GraalJS with JavaScript's ToString;
//   - plain objects and arrays as JSON ({"a":1}, []): Maestro prints them
//     with a non-empty Java toString, so they must never come out blank or
//     falsy; one JSON cannot encode (a cycle) prints as String() does;
//   - everything else as String(v): strings as they are, "true"/"false",
//     functions as their source, errors as "TypeError: ...".
//
// Grammar, as Maestro's regex (?<!\\)\$\{([^$]*)}:
//   - an expression starts at a "${" not preceded by a backslash;
//   - its body may span lines and may not contain '$'; it ends at the LAST
//     '}' before the next '$' (or the end of the text), so "${a} and {b}"
//     is the single expression `a} and {b`;
//   - a "${" with no '}' before the next '$' is plain text;
//   - an empty or blank body gives "";
//   - expressions run left to right, each seeing the effects of the one
//     before, each under its own Options.Timeout.
//
// Afterwards every "\${...}" (same body rule) in the result loses its
// backslash: `\${PASSWORD}` gives the literal `${PASSWORD}`. Like Maestro,
// this also applies to text an expression produced, and a "\${" without a
// closing '}' keeps its backslash.
//
// Identifiers that nothing defines read as null (Rhino) or undefined
// (GraalJS) rather than throwing: ${FOO} is "null" or "undefined" and
// ${FOO || 'x'} is "x".
//
// A failing expression stops the interpolation with a COMMAND_FAILED
// *canonical.Error at t.Pos naming the expression and the JavaScript error,
// with its line:col inside the expression.
func (e *Engine) Interpolate(ctx context.Context, t canonical.Template) (string, error) {
	raw := t.Raw
	var b strings.Builder
	last := 0
	for _, m := range findExprs(raw) {
		b.WriteString(raw[last:m.start])
		last = m.end
		code := raw[m.bodyStart:m.bodyEnd]
		if isBlank(code) {
			continue
		}
		s, err := e.evalInline(ctx, code)
		if err != nil {
			return "", e.scriptError(subject{inline: true, code: code}, err, t.Pos)
		}
		b.WriteString(s)
	}
	b.WriteString(raw[last:])
	return unescape(b.String()), nil
}

// span locates one expression: text[start:end] is the whole "${...}" and
// text[bodyStart:bodyEnd] its body.
type span struct{ start, bodyStart, bodyEnd, end int }

// findExprs finds the expressions of text left to right, as successive
// regex finds over the original text would.
func findExprs(text string) []span {
	var out []span
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '$' || text[i+1] != '{' || (i > 0 && text[i-1] == '\\') {
			continue
		}
		if sp, ok := exprAt(text, i, i+2); ok {
			out = append(out, sp)
			i = sp.end - 1
		}
	}
	return out
}

// exprAt matches `[^$]*}` greedily at bodyStart: the body runs to the last
// '}' before the next '$'.
func exprAt(text string, start, bodyStart int) (span, bool) {
	limit := len(text)
	if j := strings.IndexByte(text[bodyStart:], '$'); j >= 0 {
		limit = bodyStart + j
	}
	k := strings.LastIndexByte(text[bodyStart:limit], '}')
	if k < 0 {
		return span{}, false
	}
	k += bodyStart
	return span{start: start, bodyStart: bodyStart, bodyEnd: k, end: k + 1}, true
}

// unescape drops the backslash of each `\${...}` (Maestro's second pass,
// regex \\\$\{([^$]*)}).
func unescape(text string) string {
	if !strings.Contains(text, `\${`) {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i+2 < len(text); i++ {
		if text[i] != '\\' || text[i+1] != '$' || text[i+2] != '{' {
			continue
		}
		if sp, ok := exprAt(text, i, i+3); ok {
			b.WriteString(text[last:i])
			b.WriteString(text[i+1 : sp.end])
			last = sp.end
			i = sp.end - 1
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// isBlank is Kotlin's String.isBlank: empty or only whitespace.
func isBlank(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !kotlinSpace(r) }) < 0
}

// kotlinSpace is Kotlin's Char.isWhitespace: Java's isWhitespace (which
// includes the separators U+001C..U+001F) or any Unicode space separator.
func kotlinSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r >= 0x1C && r <= 0x1F:
		return true
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// Truthy is Maestro's truth test for an interpolated condition (assertTrue,
// `when: true:`, `repeat: while: true:`; Orchestra.evaluateCondition): false
// for a blank string, "false" in any case, exactly "undefined" or "null",
// and any text Kotlin's toDoubleOrNull() reads as zero ("0", "0.0", "-0",
// "+0e5", "0x0p0", " 0 ", "0f", "1e-400"); true for everything else,
// including "[object Object]", "NaN" and "False!".
func Truthy(s string) bool {
	switch {
	case isBlank(s), strings.EqualFold(s, "false"), s == "undefined", s == "null":
		return false
	}
	return !javaZero(s)
}

// javaDouble() is the grammar of Java's Double.valueOf, which Kotlin's
// toDoubleOrNull accepts (surrounding control characters and spaces are
// trimmed first).
var javaDouble = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[+-]?(NaN|Infinity|(` + //nolint:gochecknoglobals // compiled once
		`(\d+\.?\d*([eE][+-]?\d+)?` +
		`|\.\d+([eE][+-]?\d+)?` +
		`|(0[xX][0-9a-fA-F]+\.?|0[xX][0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?\d+` +
		`)[fFdD]?))$`)
})

// javaZero reports whether Kotlin's s.toDoubleOrNull() == 0.0.
func javaZero(s string) bool {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if !javaDouble().MatchString(s) {
		return false
	}
	if strings.HasSuffix(s, "NaN") || strings.HasSuffix(s, "Infinity") {
		return false
	}
	s = strings.TrimRight(s, "fFdD")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return false
	}
	// On ErrRange f is still the rounded value: ±Inf (not zero) on overflow,
	// ±0 on underflow, as in Java.
	return f == 0
}
