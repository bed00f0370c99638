package canonical

import (
	"regexp"
	"testing"
)

// The patterns ScanPair replaced (canonical's percent point, maestro's
// swipe percentages and coordinates), kept here as the oracle it must
// agree with byte for byte.
var pairOracles = []struct {
	shape PairShape
	re    *regexp.Regexp
}{
	{PairShape{Negative: true, Fraction: true, Percent: true}, regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)\s*%\s*,\s*(-?\d+(?:\.\d+)?)\s*%\s*$`)},
	{PairShape{Fraction: true, Percent: true}, regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*%\s*,\s*(\d+(?:\.\d+)?)\s*%\s*$`)},
	{PairShape{Negative: true}, regexp.MustCompile(`^\s*(-?\d+)\s*,\s*(-?\d+)\s*$`)},
}

func checkPair(t *testing.T, s string) {
	t.Helper()
	for _, o := range pairOracles {
		x, y, ok := ScanPair(s, o.shape)
		m := o.re.FindStringSubmatch(s)
		if ok != (m != nil) || (ok && (x != m[1] || y != m[2])) {
			t.Fatalf("ScanPair(%q, %+v) = %q, %q, %v; the pattern says %q", s, o.shape, x, y, ok, m)
		}
	}
}

func TestScanPairAgreesWithThePatterns(t *testing.T) {
	for _, s := range []string{
		"50%, 80%", " 50 % ,80% ", "50%,80%", "-5%, 10.25%", "5.%, 1%", "5.5.5%, 1%", "%, 1%",
		"10, 20", "-10,-20", " 1 ,\t2\n", "1, 2,", "1 2", "1,2%", "1%,2", "1.5, 2", "--1, 2",
		"1\v, 2", "\f1\r,\n2 ", "", ",", "0%,0%", "100%, 100%", "١٢, 3", "1, 2x", "+1, 2",
	} {
		checkPair(t, s)
	}
}

func FuzzScanPair(f *testing.F) {
	for _, s := range []string{"50%, 80%", "-5.5%,\t1%", "10, 20", " -1 , -2 ", "1.%, 2%", "1\v,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkPair(t, s) })
}
