package js

import "testing"

// TestTruthy pins Orchestra.evaluateCondition's falsy rules.
func TestTruthy(t *testing.T) {
	t.Parallel()
	falsy := []string{
		"", " ", "\n\t", "\u00a0\u2003\u001f",
		"false", "FALSE", "False",
		"undefined", "null",
		"0", "0.0", "-0", "+0", "00", "-0.0e-5", "0e10", ".0", "0.", "0f", "0D",
		"0x0p0", "0X0.0P5", " 0 ", "\t0\n", "1e-400",
	}
	truthy := []string{
		"true", "1", "0.1", "-1", "123", "String", "[]", "{}", `{"a":1}`, "[object Object]",
		"NaN", "Infinity", "-Infinity", "1e400",
		"Undefined", "NULL", "null ", " false", "False!", "no",
		"0x0", "0,0", "0_0", "0e", "--0", "0ff", "0.0.0", "\u0085",
	}
	for _, s := range falsy {
		if Truthy(s) {
			t.Errorf("Truthy(%q) = true, want false", s)
		}
	}
	for _, s := range truthy {
		if !Truthy(s) {
			t.Errorf("Truthy(%q) = false, want true", s)
		}
	}
}

// TestConditionCases065And067 runs the `when: true:` values of case 065
// and the assertTrue values of case 067 through Interpolate and Truthy.
func TestConditionCases065And067(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"${true}":             true,
		"${false}":            false,
		"${'String'}":         true,
		"${undefined}":        false,
		"${}":                 false,
		"${null}":             false,
		"${0}":                false,
		"${123}":              true,
		"${{field: 'value'}}": true,
		"${[]}":               true,
		"${({})}":             true,
		"${1+1}":              true,
		"${1-1}":              false,
		"${0.5-0.5}":          false,
		"${NOT_DEFINED}":      false,
		"false":               false, // text outside ${} is used literally
		"${'fal' + 'se'}":     false,
		"${output.missing}":   false,
		"${!!output.missing}": false,
		"${[0]}":              true, // Maestro prints arrays non-blank
		"${String([0])}":      false,
	}
	e := newEngine(t, Options{})
	for raw, want := range cases {
		if got := Truthy(interp(t, e, raw)); got != want {
			t.Errorf("%s is %v, want %v", raw, got, want)
		}
	}
}
