package canonical_test

import (
	"math"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

func TestJSRound(t *testing.T) {
	t.Parallel()
	cases := map[float64]float64{2.5: 3, -2.5: -2, 0.49999999999999994: 0, -0.5: 0, 1.4999: 1, 46.875: 47, -7.5: -7}
	for in, want := range cases {
		if got := canonical.JSRound(in); got != want {
			t.Errorf("JSRound(%v) = %v, want %v", in, got, want)
		}
	}
	for _, in := range []float64{-0.3, -0.5, math.Copysign(0, -1)} {
		if got := canonical.JSRound(in); got != 0 || !math.Signbit(got) {
			t.Errorf("JSRound(%v) = %v, want -0 as Math.round gives", in, got)
		}
	}
	if got := canonical.JSRound(0.3); math.Signbit(got) {
		t.Errorf("JSRound(0.3) = -0, want +0")
	}
}

func TestParseNumber(t *testing.T) {
	t.Parallel()
	cases := map[string]float64{"12": 12, " 12 ": 12, "-80": -80, "1e3": 1000, ".5": 0.5, "5.": 5, "0x10": 16,
		"0b11": 3, "0o17": 15, "": 0, "Infinity": math.Inf(1), "-Infinity": math.Inf(-1), "1e400": math.Inf(1)}
	for in, want := range cases {
		if got := canonical.ParseNumber(in); got != want {
			t.Errorf("ParseNumber(%q) = %v, want %v", in, got, want)
		}
	}
	for _, bad := range []string{"abc", "1_000", "inf", "nan", "NaN", "0x", "-0x10", "1e", "12px", "${DUR}", "0x1p-2"} {
		if got := canonical.ParseNumber(bad); !math.IsNaN(got) {
			t.Errorf("ParseNumber(%q) = %v, want NaN", bad, got)
		}
	}
}

func TestFormatNumber(t *testing.T) {
	t.Parallel()
	cases := map[float64]string{200: "200", -80: "-80", 0.5: "0.5", 1e21: "1e+21", 1e-7: "1e-7", 123456789: "123456789",
		739.0799999999999: "739.0799999999999", math.Copysign(0, -1): "0", 1.5e-6: "0.0000015"}
	for in, want := range cases {
		if got := canonical.FormatNumber(in); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", in, got, want)
		}
	}
}
