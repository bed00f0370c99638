package canonical

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Maestro reads a repeat's times, after interpolation, as
// times.toDoubleOrNull()?.toInt() ?: Int.MAX_VALUE (Orchestra.kt
// repeatCommand): Kotlin's parse, then the JVM's double-to-int cast. Go's
// strconv and int() differ from both (ParseFloat takes "inf" and
// underscores, int(NaN) is undefined), so these spell the JVM rules out.

// MaxRepeat is Kotlin's Int.MAX_VALUE: the most times a repeat body runs.
// A repeat without times, or whose times is not a number, runs up to this
// many times, as in Maestro; there is no unlimited count.
const MaxRepeat = math.MaxInt32

// ParseKotlinDouble is Kotlin 1.8's String.toDoubleOrNull on the JVM. It
// accepts what java.lang.Double.valueOf documents: surrounding characters
// U+0000–U+0020, an optional sign, NaN, Infinity, decimal numbers (1, 1.,
// .5, 1e3) and hexadecimal ones with a binary exponent (0x1p3, 0x1.8p1),
// each optionally ending in f, F, d or D. It refuses underscores, "inf",
// "nan" and any other spelling, hex without p, and non-ASCII digits. Values
// beyond the double range become ±Inf, as parseDouble makes them.
func ParseKotlinDouble(s string) (float64, bool) {
	if !kotlinDoubleRe().MatchString(s) {
		return 0, false
	}
	t := strings.Trim(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"+
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20")
	neg := false
	if t[0] == '+' || t[0] == '-' {
		neg = t[0] == '-'
		t = t[1:]
	}
	var v float64
	switch t {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		v = math.Inf(1)
	default:
		// The screen guarantees a number ends in a digit or a point, so a
		// final letter here is the float-type suffix.
		if c := t[len(t)-1]; c == 'f' || c == 'F' || c == 'd' || c == 'D' {
			t = t[:len(t)-1]
		}
		var err error
		// ParseFloat takes every form the screen lets through and, like
		// parseDouble, rounds to nearest; out of range it returns ±Inf or 0
		// with ErrRange, which is parseDouble's answer too.
		v, err = strconv.ParseFloat(t, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

// KotlinToInt is Kotlin's Double.toInt on the JVM: NaN is 0, values beyond
// the Int range saturate at Int.MIN_VALUE and Int.MAX_VALUE, and the rest
// truncate toward zero.
func KotlinToInt(f float64) int {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// RepeatCount is how many times Maestro runs a repeat body at most, given
// its interpolated times text: a number truncated and saturated to the Int
// range, where zero or less means the body never runs; text that is not a
// number means MaxRepeat. The second result says whether times was a
// number.
func RepeatCount(times string) (int, bool) {
	f, ok := ParseKotlinDouble(times)
	if !ok {
		return MaxRepeat, false
	}
	return KotlinToInt(f), true
}

// RepeatCountWarning says what is wrong with a repeat's times when Maestro
// reads its text (literal, or what ${...} came to) as a loop that never
// runs or, in practice, never ends; hasWhile says the repeat also has a
// while condition. ok is false when times is an ordinary count. The
// loader warns with it about literals, the runtime about interpolated
// values that Maestro reads as unbounded.
func RepeatCountWarning(times string, hasWhile bool) (msg, hint string, ok bool) {
	count, numeric := RepeatCount(times)
	until := "runs until the flow is stopped"
	if hasWhile {
		until = "ends only when its while condition is false"
	}
	switch {
	case !numeric:
		hint = "write a plain number, such as times: 3"
		if fixed := strings.ReplaceAll(times, "_", ""); fixed != times {
			if _, ok := RepeatCount(fixed); ok {
				hint = "write times: " + fixed + " (Maestro reads numbers without _ separators)"
			}
		}
		return fmt.Sprintf("repeat times %q is not a number to Maestro, so the repeat has no count limit and %s", times, until), hint, true
	case count <= 0:
		return fmt.Sprintf("repeat times %q never runs the commands: Maestro reads it as %d and skips the repeat", times, count),
			"write a count of 1 or more, or remove the repeat", true
	case count == MaxRepeat:
		return fmt.Sprintf("repeat times %q is at Maestro's limit of 2147483647 runs, so the repeat in practice %s", times, until),
			"write the number of runs you need, such as times: 100", true
	}
	return "", "", false
}

// MaxRetries is Maestro's MAX_RETRIES_ALLOWED: retry runs its commands at
// most 1+MaxRetries times.
const MaxRetries = 3

// ParseKotlinInt is Kotlin's String.toIntOrNull on the JVM, which reads a
// retry's maxRetries: an optional sign and decimal digits (any Unicode
// decimal digit of the Basic Multilingual Plane, as Character.digit
// reads them), nothing around them, within the Int range.
func ParseKotlinInt(s string) (int, bool) {
	digits := s
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg, digits = s[0] == '-', s[1:]
	}
	if digits == "" {
		return 0, false
	}
	v := 0
	for _, c := range digits {
		d := decimalDigit(c)
		if d < 0 {
			return 0, false
		}
		v = v*10 + d
		if v > math.MaxInt32+1 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > math.MaxInt32 || v < math.MinInt32 {
		return 0, false
	}
	return v, true
}

// decimalDigit is Character.digit(c, 10) for a UTF-16 code unit: the value
// of a decimal digit (Unicode category Nd, whose digits come in runs from
// 0 to 9), else -1. Characters beyond the BMP are two code units to Java,
// neither a digit.
func decimalDigit(c rune) int {
	if c >= '0' && c <= '9' {
		return int(c - '0')
	}
	if c > 0xFFFF || !unicode.Is(unicode.Nd, c) {
		return -1
	}
	d := 0
	for d < 9 && unicode.Is(unicode.Nd, c-rune(d)-1) {
		d++
	}
	return d
}

// ParseMaestroPoint reads a tap point as Maestro's TapOnPointV2 does
// (Orchestra.kt): a point holding a % anywhere is a percentage point, with
// every % dropped; the text is split at commas and the first two parts,
// trimmed of white space (Kotlin's trim), are read with toInt. Parts after
// the second are ignored (extra reports them); anything else fails, as a
// decimal does in Maestro.
func ParseMaestroPoint(s string) (x, y int, percent, extra, ok bool) {
	percent = strings.Contains(s, "%")
	if percent {
		s = strings.ReplaceAll(s, "%", "")
	}
	parts := strings.Split(s, ",")
	if len(parts) < 2 {
		return 0, 0, percent, false, false
	}
	x, okX := ParseKotlinInt(strings.TrimFunc(parts[0], unicode.IsSpace))
	y, okY := ParseKotlinInt(strings.TrimFunc(parts[1], unicode.IsSpace))
	return x, y, percent, len(parts) > 2, okX && okY
}
