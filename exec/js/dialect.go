package js

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/flow-runner/flow/canonical"
)

// Dialect is the JavaScript engine of Maestro's whose observable behaviour
// an Engine follows. Maestro 1.39 runs Rhino 1.7.14 unless the top-level
// flow's header says `jsEngine: graaljs` or the environment has
// MAESTRO_USE_GRAALJS=true (Orchestra.initJsEngine); then GraalJS 22.
// Both dialects run the same goja engine and accept the same modern syntax;
// they differ only where a flow can observe the engine (see the package
// documentation).
type Dialect string

const (
	Rhino   Dialect = "rhino"
	GraalJS Dialect = "graaljs"
)

// DialectFor is the dialect Maestro picks for a flow: GraalJS when the
// top-level flow's jsEngine header is exactly "graaljs" or the environment
// forces it, Rhino otherwise (any other header value is ignored, as Maestro
// ignores it).
func DialectFor(jsEngine string, forceGraalJS bool) Dialect {
	if forceGraalJS || jsEngine == "graaljs" {
		return GraalJS
	}
	return Rhino
}

// DialectOf is the dialect of a flow loaded with Maestro version v: the
// current Maestro runs GraalJS unless the top-level header says
// `jsEngine: rhino` (PR #2631, "Make Graal default JS engine"; its
// Orchestra.initJsEngine no longer reads MAESTRO_USE_GRAALJS for the
// choice), while 1.39 (and a flow not made by the loader, whose version is
// unset) follows DialectFor.
func DialectOf(v canonical.MaestroVersion, jsEngine string, forceGraalJS bool) Dialect {
	if v.GraalJSByDefault() {
		if jsEngine == "rhino" {
			return Rhino
		}
		return GraalJS
	}
	return DialectFor(jsEngine, forceGraalJS)
}

// rhinoString is what Maestro's Rhino engine binds for a string it defines
// through code (putEnv: `var NAME = '<value>'`, setCopiedText:
// `maestro.copiedText = '<value>'`): Js.sanitizeJs drops every "\n" and
// escapes every "'", and Rhino then reads the result as a single-quoted
// string literal (TokenStream.getToken in Rhino 1.7.14). So escape
// sequences are processed (\n, \t, \x41, \u0041, octal \101; any other
// escaped character stands for itself, \d is "d"; a backslash before a line
// end removes both), while a carriage return, a trailing backslash, or a
// "\'" (whose backslash escapes the inserted one, ending the literal early)
// make the literal invalid and Rhino throws. The result is UTF-16, as a
// \uD800 escape can make a lone surrogate.
func rhinoString(value string) ([]uint16, error) {
	s := []rune(strings.ReplaceAll(strings.ReplaceAll(value, "\n", ""), "'", `\'`))
	var out []uint16
	add := func(r rune) { out = utf16.AppendRune(out, r) }
	hex := func(r rune) int {
		switch {
		case r >= '0' && r <= '9':
			return int(r - '0')
		case r >= 'a' && r <= 'f':
			return int(r-'a') + 10
		case r >= 'A' && r <= 'F':
			return int(r-'A') + 10
		}
		return -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\'':
			return nil, fmt.Errorf("the value holds \\' whose backslash escapes the quote Maestro inserts, which ends the string early")
		case '\r':
			return nil, fmt.Errorf("the value holds a carriage return, which ends the string literal Maestro builds")
		case '\\':
		default:
			add(c)
			continue
		}
		i++
		if i == len(s) {
			return nil, fmt.Errorf("the value ends with a backslash, which escapes the closing quote of the string literal Maestro builds")
		}
		c = s[i]
		switch c {
		case 'b':
			add('\b')
		case 'f':
			add('\f')
		case 'n':
			add('\n')
		case 'r':
			add('\r')
		case 't':
			add('\t')
		case 'v':
			add('\v')
		case '\r', '\u2028', '\u2029':
			// A line continuation: both go.
		case 'u':
			v, n := 0, 0
			for n < 4 && i+1+n < len(s) && hex(s[i+1+n]) >= 0 {
				v = v<<4 | hex(s[i+1+n])
				n++
			}
			if n < 4 {
				// Not four hex digits: "u" and the digits read stay as
				// text, and reading goes on after them.
				add('u')
				for k := 0; k < n; k++ {
					add(s[i+1+k])
				}
			} else {
				out = append(out, uint16(v))
			}
			i += n
		case 'x':
			if i+2 < len(s)+0 && hex(s[i+1]) >= 0 && i+2 < len(s) && hex(s[i+2]) >= 0 {
				add(rune(hex(s[i+1])<<4 | hex(s[i+2])))
				i += 2
			} else {
				add('x')
				if i+1 < len(s) && hex(s[i+1]) >= 0 {
					add(s[i+1])
					i++
				}
			}
		default:
			if c >= '0' && c <= '7' {
				v := int(c - '0')
				if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
					i++
					v = v*8 + int(s[i]-'0')
					if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' && v <= 037 {
						i++
						v = v*8 + int(s[i]-'0')
					}
				}
				out = append(out, uint16(v))
				continue
			}
			add(c) // \\ \' \" and any other character: itself
		}
	}
	return out, nil
}

// rhinoReserved are the words Rhino refuses as a variable name in
// `var NAME = ...` (ES5's reserved words, null, true and false).
var rhinoReserved = map[string]bool{ //nolint:gochecknoglobals // a fixed table
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "false": true, "finally": true, "for": true, "function": true,
	"if": true, "import": true, "in": true, "instanceof": true, "new": true, "null": true,
	"return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
}

// isIdentifier reports whether name can follow `var ` in Rhino: a
// JavaScript identifier that is not a reserved word.
func isIdentifier(name string) bool {
	if name == "" || rhinoReserved[name] {
		return false
	}
	for i, r := range name {
		switch {
		case r == '$' || r == '_' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)):
		default:
			return false
		}
	}
	return true
}

// javaDoubleText is Java's Double.toString(d), which Kotlin's toString() of a
// number Rhino returns as a java.lang.Double prints: at least one digit
// after the point ("3.0"), and from 10^7 up or below 10^-3 computerized
// scientific notation ("1.712345678901E12", "1.0E-4"). The digits are the
// shortest that identify the double, as JDK 19 and later print them, with
// their rule that a one-digit result becomes the closest two-digit one
// (Double.MIN_VALUE is "4.9E-324", not "5.0E-324").
func javaDoubleText(d float64) string {
	switch {
	case math.IsNaN(d):
		return "NaN"
	case math.IsInf(d, 1):
		return "Infinity"
	case math.IsInf(d, -1):
		return "-Infinity"
	case d == 0:
		if math.Signbit(d) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(d); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(d, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(d, 'e', -1, 64), "e")
	if !strings.Contains(mant, ".") {
		mant, exp, _ = strings.Cut(strconv.FormatFloat(d, 'e', 1, 64), "e")
	}
	n, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(n)
}

// rhinoNumber renders a number as Kotlin's toString() of what Rhino
// returned for it: a java.lang.Double prints as javaDoubleText; an Integer
// (or Long) as its digits. double says the value is known to be a Double;
// otherwise it is one unless it is a whole number in int range.
func rhinoNumber(f float64, double bool) string {
	if !double && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 && !(f == 0 && math.Signbit(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return javaDoubleText(f)
}
