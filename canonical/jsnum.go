package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Plans must agree with agent-device point for point, and its numbers follow
// JavaScript's rules. These helpers give Go the three JavaScript behaviours
// that differ from Go's defaults: Math.round, Number(string) and
// Number.prototype.toString.

// JSRound is JavaScript's Math.round: halves round towards +Inf, unlike
// math.Round which rounds them away from zero.
func JSRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	f := math.Floor(x)
	if x-f >= 0.5 {
		f++
	}
	if f == 0 && math.Signbit(x) {
		// Math.round keeps the sign of a negative that rounds to zero.
		return math.Copysign(0, -1)
	}
	return f
}

// IsInteger is JavaScript's Number.isInteger.
func IsInteger(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0) && x == math.Trunc(x)
}

// IsFinite is JavaScript's Number.isFinite for a number.
func IsFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func decimalLiteral() *regexp.Regexp {
	return decimalRe()
}

func radixLiteral() *regexp.Regexp {
	return radixRe()
}

// ParseNumber is JavaScript's Number(token) for a positional argument: blank
// is 0, malformed text is NaN, hex/octal/binary literals and Infinity are
// accepted. Positional gesture arguments go through this so that "abc" fails
// validation as a non-finite number exactly as it does in agent-device.
func ParseNumber(token string) float64 {
	s := strings.TrimSpace(token)
	switch s {
	case "":
		return 0
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if radixLiteral().MatchString(s) {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		v, err := strconv.ParseUint(s[2:], base, 64)
		if err != nil {
			// Beyond uint64: fall back to float accumulation, as JS does.
			f := 0.0
			for _, c := range s[2:] {
				d, _ := strconv.ParseUint(string(c), base, 8)
				f = f*float64(base) + float64(d)
			}
			return f
		}
		return float64(v)
	}
	if !decimalLiteral().MatchString(s) {
		return math.NaN()
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// ParseFloat reports range errors with ±Inf or 0, which is JS's answer.
		if errors.Is(err, strconv.ErrRange) {
			return v
		}
		return math.NaN()
	}
	return v
}

// FormatNumber is JavaScript's String(number): messages and rewrites embed
// numbers the way agent-device prints them ("0.5", "200", "1e-7", never
// "200.0").
func FormatNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	}
	abs := math.Abs(x)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	digits := strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + digits
}

// jsonMarshalNoEscape encodes v as JSON without HTML escaping, so snapshots
// and reports show "<" and "&" as written.
func jsonMarshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
