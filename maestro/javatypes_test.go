package maestro

import (
	"regexp"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestJavaDouble pins Double.toString's forms: plain from 10^-3 up to
// 10^7, else d.dddE±n, shortest digits, a digit after the point always.
func TestJavaDouble(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{
		1.5: "1.5", 100: "100.0", 1e7: "1.0E7", 9999999: "9999999.0", 0.001: "0.001", 0.0001: "1.0E-4",
		123456789: "1.23456789E8", -2.5e-5: "-2.5E-5", 0.30000000000000004: "0.30000000000000004", 1e21: "1.0E21",
		4.12: "4.12", -0.5: "-0.5", 1234567.125: "1234567.125", 0: "0.0",
	} {
		if got := javaDouble(f); got != want {
			t.Errorf("javaDouble(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestJavaScalar pins how Maestro's reader types a scalar where it takes
// a value of any type: SnakeYAML's YAML 1.1 resolver, then Jackson.
func TestJavaScalar(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]javaKind{
		"hello": javaString, `"123"`: javaString, "'yes'": javaString, "!!str 5": javaString, "|\n  5": javaString,
		"12:30": javaString, "08": javaString, "1.2.3": javaString, "0x": javaString,
		"~": javaNull, "null": javaNull, "NULL": javaNull, "": javaNull,
		"yes": javaBool, "Off": javaBool, "TRUE": javaBool, "y": javaString, "n": javaString,
		"5": javaInt, "-0x1F": javaInt, "0b101": javaInt, "017": javaInt, "1_000": javaInt, "9223372036854775807": javaInt,
		"9223372036854775808": javaBigInt, "-9223372036854775809": javaBigInt,
		"1.5": javaFloat, "1e3": javaFloat, ".5": javaFloat, "-.inf": javaFloat, ".NaN": javaFloat, "1.": javaFloat,
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+text+"\n"), &doc); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := javaScalar(doc.Content[0].Content[1]); got != want {
			t.Errorf("javaScalar(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestMayBeTyped: javaScalar skips the YAML 1.1 patterns for a plain
// scalar whose first byte mayBeTyped refuses, so no pattern may match a
// scalar starting with such a byte. Every first byte is tried with
// suffixes that complete each pattern's forms.
func TestMayBeTyped(t *testing.T) {
	t.Parallel()
	patterns := map[string]func() *regexp.Regexp{"bool": yaml11Bool, "null": yaml11Null, "int": yaml11Int,
		"sexagesimal": yaml11Sexa, "float": yaml11Float}
	suffixes := []string{"", "1", "0", ".5", "e3", "_1", ":30", "x1F", "b101", "es", "ES", "o", "O", "ull", "ULL", "ff",
		"FF", "rue", "RUE", "alse", "ALSE", "n", "N", "inf", "nan", "NaN", ".inf"}
	for c := 0; c < 256; c++ {
		if mayBeTyped(byte(c)) {
			continue
		}
		for _, suffix := range suffixes {
			v := string([]byte{byte(c)}) + suffix
			for name, re := range patterns {
				if re().MatchString(v) {
					t.Errorf("%q matches the %s pattern, but mayBeTyped(%q) is false", v, name, byte(c))
				}
			}
		}
	}
}
