package canonical_test

import (
	"math"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// The expected values are what the JVM answers: kotlin-stdlib 1.8's
// String.toDoubleOrNull (its ScreenFloatValueRegEx screen, then
// java.lang.Double.parseDouble) and Double.toInt, run on OpenJDK 17 for
// every row below and for 200,000 random strings over digits, signs,
// points, exponents, hex letters, suffixes, whitespace, NUL, underscores,
// NaN/Infinity spellings and non-ASCII digits, with no difference.
func TestRepeatCount(t *testing.T) {
	t.Parallel()
	max, min := math.MaxInt32, math.MinInt32
	cases := []struct {
		in      string
		want    int
		numeric bool
	}{
		// plain counts
		{"3", 3, true}, {"+5", 5, true}, {"007", 7, true}, {"0", 0, true}, {"-0", 0, true},
		// fractions truncate toward zero
		{"3.9", 3, true}, {"-3.9", -3, true}, {"0.5", 0, true}, {".5d", 0, true}, {"1.", 1, true}, {"1.e1", 10, true},
		// trimmed: everything from U+0000 to U+0020, nothing beyond
		{" 3 ", 3, true}, {"\t3\n", 3, true}, {"\x005\x00", 5, true}, {"\v5", 5, true},
		{"\u00a05", max, false}, {"1 000", max, false},
		// Java's float-type suffixes
		{"5d", 5, true}, {"5F", 5, true}, {"5.f", 5, true}, {"3e0d", 3, true},
		// hexadecimal only with a binary exponent
		{"0x1p3", 8, true}, {"0x1.8p1", 3, true}, {"0x.8p1", 1, true}, {"0X1P-2F", 0, true}, {"0x1P+3d", 8, true},
		{"0x10", max, false}, {"0xp1", max, false}, {"00x1p1", max, false}, {"0b11", max, false}, {"0o7", max, false},
		// NaN is a number that converts to 0; only these spellings
		{"NaN", 0, true}, {"-NaN", 0, true}, {" NaN ", 0, true}, {"nan", max, false}, {"NaNd", max, false},
		// infinities and huge values saturate
		{"Infinity", max, true}, {"+Infinity", max, true}, {" Infinity\t", max, true}, {"-Infinity", min, true},
		{"inf", max, false}, {"Inf", max, false}, {"Infinityf", max, false},
		{"1e30", max, true}, {"1e309", max, true}, {"-1e309", min, true}, {"1e-400", 0, true},
		{"2147483647", max, true}, {"2147483647.5", max, true}, {"2147483648", max, true}, {"4294967296", max, true},
		{"9223372036854775808", max, true}, {"-2147483648", min, true}, {"-2147483649", min, true},
		// not numbers: no limit
		{"", max, false}, {" ", max, false}, {"1_000", max, false}, {"three", max, false}, {"${3}", max, false},
		{"100%", max, false}, {"1,5", max, false}, {"1.5.5", max, false}, {"--1", max, false}, {"+-1", max, false},
		{".", max, false}, {"e5", max, false}, {"1e", max, false}, {"1e+", max, false}, {"0x1p", max, false},
		{"١٢", max, false}, {"３", max, false},
	}
	for _, c := range cases {
		got, numeric := canonical.RepeatCount(c.in)
		if got != c.want || numeric != c.numeric {
			t.Errorf("RepeatCount(%q) = %d, %v; the JVM gives %d, %v", c.in, got, numeric, c.want, c.numeric)
		}
	}
}

func TestParseKotlinDouble(t *testing.T) {
	t.Parallel()
	cases := map[string]float64{"0x1.8p1": 3, "-2.5e-3": -0.0025, ".5": 0.5, "1e309": math.Inf(1), "-Infinity": math.Inf(-1),
		"1e-400": 0, "0x1p-1074": 5e-324, strings.Repeat("9", 400): math.Inf(1)}
	for in, want := range cases {
		if got, ok := canonical.ParseKotlinDouble(in); !ok || got != want {
			t.Errorf("ParseKotlinDouble(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	if got, ok := canonical.ParseKotlinDouble("NaN"); !ok || !math.IsNaN(got) {
		t.Errorf("ParseKotlinDouble(NaN) = %v, %v; want NaN", got, ok)
	}
	if got, ok := canonical.ParseKotlinDouble("-0"); !ok || got != 0 || !math.Signbit(got) {
		t.Errorf("ParseKotlinDouble(-0) = %v, %v; want -0", got, ok)
	}
}

func TestKotlinToInt(t *testing.T) {
	t.Parallel()
	cases := map[float64]int{math.NaN(): 0, math.Inf(1): math.MaxInt32, math.Inf(-1): math.MinInt32, 1e30: math.MaxInt32,
		-1e30: math.MinInt32, 2147483646.99: 2147483646, -2147483647.9: -2147483647, 0.999: 0, -0.999: 0, 42: 42}
	for in, want := range cases {
		if got := canonical.KotlinToInt(in); got != want {
			t.Errorf("KotlinToInt(%v) = %d, want %d", in, got, want)
		}
	}
}

// The JVM's answers for Kotlin 1.8's String.toIntOrNull; every BMP
// character alone was also compared with Character.digit(c, 10) on
// OpenJDK 17, with no difference.
func TestParseKotlinInt(t *testing.T) {
	t.Parallel()
	ok := map[string]int{"0": 0, "3": 3, "+3": 3, "-1": -1, "007": 7, "2147483647": 2147483647, "-2147483648": -2147483648,
		"٣": 3, "１２": 12, "-߂": -2}
	for in, want := range ok {
		if got, isInt := canonical.ParseKotlinInt(in); !isInt || got != want {
			t.Errorf("ParseKotlinInt(%q) = %d, %v; want %d", in, got, isInt, want)
		}
	}
	for _, in := range []string{"", "+", "-", " 3", "3 ", "3.0", "1e2", "0x1", "1_000", "2147483648", "-2147483649",
		"99999999999999999999", "NaN", "Infinity", "three", "+-1", "\U0001D7CE"} {
		if got, isInt := canonical.ParseKotlinInt(in); isInt {
			t.Errorf("ParseKotlinInt(%q) = %d; toIntOrNull gives null", in, got)
		}
	}
}

// FuzzRepeatCount: any text gives a count in the Int range without
// panicking; the count is the parsed number's Int value (MaxRepeat when it
// is no number); the characters Kotlin trims change nothing; and a whole
// number toIntOrNull accepts means the same to toDoubleOrNull.
func FuzzRepeatCount(f *testing.F) {
	for _, s := range []string{"3", " -2.5e1d ", "0x1.8p1", "NaN", "-Infinity", "1_000", "", "\x00", "٣", "2147483648"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		count, numeric := canonical.RepeatCount(s)
		if count < math.MinInt32 || count > math.MaxInt32 {
			t.Fatalf("RepeatCount(%q) = %d, outside the Int range", s, count)
		}
		v, ok := canonical.ParseKotlinDouble(s)
		if ok != numeric || (ok && canonical.KotlinToInt(v) != count) || (!ok && count != canonical.MaxRepeat) {
			t.Fatalf("RepeatCount(%q) = %d, %v; ParseKotlinDouble gives %v, %v", s, count, numeric, v, ok)
		}
		if c2, n2 := canonical.RepeatCount("\t\x00" + s + " \n"); c2 != count || n2 != numeric {
			t.Fatalf("padding %q changed its count from %d to %d", s, count, c2)
		}
		if n, isInt := canonical.ParseKotlinInt(s); isInt && strings.Trim(s, "0123456789+-") == "" {
			if count != n || !numeric {
				t.Fatalf("%q is %d to toIntOrNull but %d to RepeatCount", s, n, count)
			}
		}
	})
}

// TestParseMaestroPoint: Maestro trims each number and reads it with
// toInt; a % anywhere makes both percentages; a third part is ignored.
func TestParseMaestroPoint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in                 string
		x, y               int
		percent, extra, ok bool
	}{
		{"235, 681", 235, 681, false, false, true},
		{" 235 ,\t681 ", 235, 681, false, false, true},
		{"50%, 80%", 50, 80, true, false, true},
		{"50%,80", 50, 80, true, false, true},
		{"-5,+10", -5, 10, false, false, true},
		{"1,2,3", 1, 2, false, true, true},
		{"1.5,2", 0, 2, false, false, false},
		{"1", 0, 0, false, false, false},
		{"a,b", 0, 0, false, false, false},
		{"2147483648,1", 0, 1, false, false, false},
	} {
		x, y, percent, extra, ok := canonical.ParseMaestroPoint(c.in)
		if ok != c.ok || (ok && (x != c.x || y != c.y)) || percent != c.percent || extra != c.extra {
			t.Errorf("ParseMaestroPoint(%q) = %d, %d, %v, %v, %v", c.in, x, y, percent, extra, ok)
		}
	}
}
