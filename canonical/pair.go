package canonical

// PairShape says what a point written as text ("x, y", "x%, y%") may hold:
// a minus sign, a fraction, a % after each number.
type PairShape struct {
	Negative, Fraction, Percent bool
}

// ScanPair reads a point written as text: a number, optional %, a comma, a
// number, optional %, with spaces, tabs and line breaks allowed around each
// part. It returns the two numbers' text. It accepts exactly what the
// pattern ^\s*(-?\d+(?:\.\d+)?)\s*%\s*,\s*(…)\s*%\s*$ (less what the shape
// leaves out) accepts: a scanner because the regular expression was a
// tenth of a workspace check, run for every swipe point.
func ScanPair(s string, shape PairShape) (x, y string, ok bool) {
	i := skipSpace(s, 0)
	x, i, ok = scanNumber(s, i, shape)
	if !ok {
		return "", "", false
	}
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != ',' {
		return "", "", false
	}
	i = skipSpace(s, i+1)
	y, i, ok = scanNumber(s, i, shape)
	if !ok {
		return "", "", false
	}
	if skipSpace(s, i) != len(s) {
		return "", "", false
	}
	return x, y, true
}

// scanNumber reads one number at i and, for a percent shape, the spaces
// and % after it.
func scanNumber(s string, i int, shape PairShape) (string, int, bool) {
	start := i
	if shape.Negative && i < len(s) && s[i] == '-' {
		i++
	}
	d := digits(s, i)
	if d == i {
		return "", 0, false
	}
	i = d
	if shape.Fraction && i < len(s) && s[i] == '.' {
		if f := digits(s, i+1); f > i+1 {
			i = f
		}
	}
	num := s[start:i]
	if shape.Percent {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] != '%' {
			return "", 0, false
		}
		i++
	}
	return num, i, true
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// skipSpace skips what \s matches in Go's regexp: tab, line feed, form
// feed, carriage return and space (not vertical tab).
func skipSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\t', '\n', '\f', '\r', ' ':
			i++
		default:
			return i
		}
	}
	return i
}
