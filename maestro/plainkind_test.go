package maestro

import (
	"testing"
)

// plainKindByPatterns is javaScalar's typing of a plain scalar as it was
// before plainKind's shortcuts: every pattern in SnakeYAML's order.
func plainKindByPatterns(v string) javaKind {
	switch {
	case yaml11Null().MatchString(v):
		return javaNull
	case yaml11Bool().MatchString(v):
		return javaBool
	case yaml11Int().MatchString(v):
		return intKind(v)
	case yaml11Sexa().MatchString(v):
		return javaString
	case yaml11Float().MatchString(v):
		return javaFloat
	}
	return javaString
}

func TestPlainKindAgreesWithThePatterns(t *testing.T) {
	for _, v := range []string{
		"", " ", "~", "null", "Null", "NULL", "nULL", "yes", "Yes", "YES", "yEs", "on", "OFF", "Off", "oFF",
		"true", "True", "TRUE", "tRUE", "false", "n", "y", "Total", "Footer", "nav",
		"0", "00", "07", "08", "600", "1_000", "12a", "1e3", "1.5", "9223372036854775807",
		"9223372036854775808", "99999999999999999999999", "1:30", "-1", "+1", "0x1F", "0b101", ".5", ".inf", ".NaN",
		"Up", "UP", "Enter", "1 2", "1\n2",
	} {
		if got, want := plainKind(v), plainKindByPatterns(v); got != want {
			t.Errorf("plainKind(%q) = %v, the patterns say %v", v, got, want)
		}
	}
}

// TestPlainKindEveryShortScalar compares every scalar of up to four
// characters over the characters the patterns care about.
func TestPlainKindEveryShortScalar(t *testing.T) {
	const alphabet = "0179_:.e+-xbnNuUlLtTyYoOfF ~a"
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if got, want := plainKind(prefix), plainKindByPatterns(prefix); got != want {
			t.Fatalf("plainKind(%q) = %v, the patterns say %v", prefix, got, want)
		}
		if depth == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			walk(prefix+alphabet[i:i+1], depth-1)
		}
	}
	walk("", 4)
}

func FuzzPlainKind(f *testing.F) {
	for _, v := range []string{"600", "true", "Total", "0", "1_0", "1:2", "~", "On", ".5"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := plainKind(v), plainKindByPatterns(v); got != want {
			t.Fatalf("plainKind(%q) = %v, the patterns say %v", v, got, want)
		}
	})
}
