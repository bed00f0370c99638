package canonical

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sameJSONValue compares decoded values exactly: same shapes, same keys, and
// floats bit for bit (so -0 and 0 differ), nil and empty slices apart.
func sameJSONValue(a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return fmt.Sprintf("object %v vs %#v", x, b)
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				return fmt.Sprintf("key %q missing", k)
			}
			if d := sameJSONValue(v, w); d != "" {
				return k + ": " + d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return fmt.Sprintf("array %#v vs %#v", x, b)
		}
		for i := range x {
			if d := sameJSONValue(x[i], y[i]); d != "" {
				return fmt.Sprintf("[%d]: %s", i, d)
			}
		}
		return ""
	case float64:
		y, ok := b.(float64)
		if !ok || math.Float64bits(x) != math.Float64bits(y) {
			return fmt.Sprintf("number %v (%#x) vs %#v", x, math.Float64bits(x), b)
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%#v vs %#v", a, b)
	}
	return ""
}

// checkDecode: DecodeJSON answers exactly as encoding/json's path does, value
// or error; and where the fast path takes an input, it builds the same value.
func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	want, wantErr := decodeJSONStd(data)
	got, err := DecodeJSON(data)
	switch {
	case wantErr != nil:
		if err == nil || err.Error() != wantErr.Error() {
			t.Fatalf("%q: DecodeJSON err %v, encoding/json path %v", data, err, wantErr)
		}
		if _, ok := decodeJSONPlain(data); ok {
			t.Fatalf("%q: the fast path accepts what encoding/json refuses (%v)", data, wantErr)
		}
	case err != nil:
		t.Fatalf("%q: DecodeJSON refuses (%v) what encoding/json takes", data, err)
	default:
		if d := sameJSONValue(want, got); d != "" {
			t.Fatalf("%q: DecodeJSON and encoding/json differ: %s", data, d)
		}
	}
}

func decodeSeeds() []string {
	return []string{
		`{"input":{"kind":"pinch","scale":2.02,"origin":{"x":610,"y":1600}},"viewport":{"x":0,"y":0,"width":1080,"height":2340},"platform":"android"}`,
		`{"input":{"kind":"pan","origin":{"x":-0,"y":1e999},"delta":{"x":1e-400,"y":-1e-400}}}`,
		`{"a":1,"a":{"b":2},"a":[1,2,]}`, `{"a":1,"a":2}`, `{"a":{"x":1},"a":{"y":2}}`,
		`[]`, `{}`, `[[]]`, `[{}]`, ` {"a" : [ 1 , 2 ] } `, `{"a":[]}`,
		`{"s":"caf\u00e9"}`, `{"s":"café"}`, "{\"s\":\"\xff\"}", "{\"s\":\"a\tb\"}", `{"s":"\""}`,
		`{"n":0}`, `{"n":-0}`, `{"n":-0.0}`, `{"n":01}`, `{"n":1.}`, `{"n":.5}`, `{"n":1e5}`, `{"n":1E+5}`,
		`{"n":-}`, `{"n":+1}`, `{"n":123456789012345}`, `{"n":1234567890123456}`, `{"n":12345678901234567890}`,
		`{"n":9007199254740993}`, `{"n":0.1e-2}`, `{"n":1e-7}`, `{"n":NaN}`, `{"n":Infinity}`,
		`true`, `false`, `null`, `nul`, `nulll`, `"x"`, `1`, `-`, ``, ` `, `{`, `}`, `{}}`, `{}]`, `{} {}`, `{}x`,
		`{"a":true,"b":false,"c":null}`, `{"a":tru}`, `{a:1}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[,1]`,
		strings.Repeat("[", 40) + strings.Repeat("]", 40), strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40),
		"\ufeff{}", "{\"a\":1}\x00", `{"\u0000":1}`, `{"":""}`,
	}
}

func TestDecodeJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range decodeSeeds() {
		checkDecode(t, []byte(s))
	}
	// The fast path must actually take plain gesture lines, or this test
	// would compare encoding/json with itself.
	for _, s := range decodeSeeds()[:2] {
		if _, ok := decodeJSONPlain([]byte(s)); !ok {
			t.Fatalf("the fast path declines a plain line: %s", s)
		}
	}
	// Mutations of a real line: every single-byte deletion and a few
	// thousand random byte replacements.
	line := []byte(decodeSeeds()[0])
	for i := range line {
		checkDecode(t, append(append([]byte{}, line[:i]...), line[i+1:]...))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte(`{}[]":,.-+eE0123456789 tfnulrsa` + "\t\n\x00\xff\\")
	for range 5000 {
		m := append([]byte{}, line...)
		for range 1 + rng.IntN(3) {
			m[rng.IntN(len(m))] = alphabet[rng.IntN(len(alphabet))]
		}
		checkDecode(t, m)
	}
}

// FuzzDecodeJSON: for any bytes, DecodeJSON returns what encoding/json's path
// returns (the same value with the same float bits, or the same error).
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range decodeSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecode)
}
