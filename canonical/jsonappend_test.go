package canonical_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// marshalFloat is the reference: encoding/json's own encoding of f, or its
// refusal.
func marshalFloat(f float64) (string, bool) {
	data, err := json.Marshal(f)
	return string(data), err == nil
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	want, ok := marshalFloat(f)
	got, err := canonical.AppendJSONFloat([]byte("prefix:"), f)
	if !ok {
		if !errors.Is(err, canonical.ErrNonFinite) {
			t.Fatalf("%v (bits %#x): encoding/json refuses it, AppendJSONFloat wrote %q, err %v", f, math.Float64bits(f), got, err)
		}
		return
	}
	if err != nil || string(got) != "prefix:"+want {
		t.Fatalf("%v (bits %#x): AppendJSONFloat wrote %q (err %v), encoding/json %q", f, math.Float64bits(f), got, err, want)
	}
}

// floatEdges are the values where a float formatter's rules change: the
// notation cut-offs, the integer fast path's limit, powers of two (whose
// lower neighbour is closer), powers of ten, subnormals and the extremes,
// each with its neighbours.
func floatEdges() []float64 {
	base := []float64{
		0, 1, 0.1, 0.5, 1.5, 100, 1e-6, 1e-7, 1e-5, 1e21, 1e20, 1e22, 1e15, 1e16, 1e17, 1 << 53, 1 << 52,
		1<<53 + 2, 9007199254740993, 5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-300, 1e300, 1e308, 1e-323,
		716.9306930693069, 739.0799999999999, 0.30000000000000004, 123456789012345678, 1.7976931348623157e308,
		9.999999999999999e20, 999999999999999868928, 1e23, 5e-7, 9.5e-7, 2.5e-6, 3.0e21, 1e100, 1e-100,
		0.000001, 0.0000009999999999999999, 12345.678, 1.25, 4.35, 2.675, 1023.9999999999999,
	}
	for e := -1074; e <= 1023; e++ {
		base = append(base, math.Ldexp(1, e))
	}
	for e := -325; e <= 308; e++ {
		base = append(base, math.Pow(10, float64(e)))
	}
	var out []float64
	for _, f := range base {
		for _, g := range []float64{f, math.Nextafter(f, math.Inf(1)), math.Nextafter(f, 0), math.Nextafter(math.Nextafter(f, 0), 0)} {
			out = append(out, g, -g)
		}
	}
	return append(out, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1))
}

// TestAppendJSONFloatAgrees compares AppendJSONFloat with encoding/json on
// the edge values and on a million random floats: random bit patterns (every
// exponent), and values shaped like plan coordinates.
func TestAppendJSONFloatAgrees(t *testing.T) {
	t.Parallel()
	for _, f := range floatEdges() {
		checkFloat(t, f)
	}
	// Every split of up to 17 significant digits into integer and fraction
	// digits, so each layout and buffer boundary of the writer is met.
	for intDigits := 0; intDigits <= 17; intDigits++ {
		for fracDigits := 0; intDigits+fracDigits <= 17; fracDigits++ {
			for _, digit := range "19" {
				s := strings.Repeat(string(digit), max(intDigits, 1)) + "." + strings.Repeat("0", fracDigits/2) + strings.Repeat(string(digit), fracDigits-fracDigits/2) + "7"
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				checkFloat(t, f)
				checkFloat(t, -f)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 400_000
	if testing.Short() {
		n = 40_000
	}
	for range n {
		checkFloat(t, math.Float64frombits(rng.Uint64()))
		checkFloat(t, (rng.Float64()-0.25)*3000)
		checkFloat(t, math.Round(rng.Float64()*1e6)/100)
	}
}

// FuzzAppendJSONFloat: for any float64, AppendJSONFloat writes exactly what
// encoding/json writes, or refuses what it refuses.
func FuzzAppendJSONFloat(f *testing.F) {
	for _, v := range []float64{0, 1e21, 1e-7, 716.9306930693069, 5e-324, math.MaxFloat64, math.Copysign(0, -1)} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkFloat(t, math.Float64frombits(bits))
	})
}

func checkString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := canonical.AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
		t.Fatalf("%q: AppendJSONString wrote %s, encoding/json %s", s, got[1:], want)
	}
}

func TestAppendJSONStringAgrees(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
		checkString(t, string([]byte{byte(c)}))
	}
	for _, s := range []string{
		"", all.String(), "<stdin>", "a&b", "\u2028\u2029", "é", "\xff", "\xe2\x80", "\xe2\x80\xa8x", "日本語",
		"\U0001F600", "\xed\xa0\x80", `"\/`, "\x7f", "tab\there",
	} {
		checkString(t, s)
	}
}

// FuzzAppendJSONString: any byte string is quoted exactly as encoding/json
// quotes it (HTML-safe escapes, \ufffd for invalid UTF-8, U+2028/U+2029).
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "<stdin>", "\u2028", "\xff\xfe", "a\"b\\c\nd\x01"} {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

// valueFrom builds a detail value from fuzz bytes: the shapes error details
// carry (nested maps and lists, strings, numbers of every magnitude, ints,
// booleans, nil, points, viewports, named strings) and a struct that only
// encoding/json knows.
func valueFrom(data []byte, depth int) (any, []byte) {
	if len(data) == 0 {
		return nil, data
	}
	tag, data := data[0], data[1:]
	take := func(n int) []byte {
		if len(data) < n {
			out := make([]byte, n)
			copy(out, data)
			data = data[:0]
			return out
		}
		out := data[:n]
		data = data[n:]
		return out
	}
	f64 := func() float64 { return math.Float64frombits(binary.LittleEndian.Uint64(take(8))) }
	str := func() string { n := int(take(1)[0] % 12); return string(take(n)) }
	switch tag % 12 {
	case 0:
		return nil, data
	case 1:
		return f64(), data
	case 2:
		return int(int32(binary.LittleEndian.Uint32(take(4)))), data
	case 3:
		return str(), data
	case 4:
		return take(1)[0]%2 == 0, data
	case 5:
		return canonical.Point{X: f64(), Y: f64()}, data
	case 6:
		return canonical.Viewport{X: f64(), Y: f64(), Width: f64(), Height: f64()}, data
	case 7:
		return canonical.Intent(str()), data
	case 8:
		return struct {
			A string `json:"a"`
			B int    `json:"b,omitempty"`
		}{str(), int(take(1)[0])}, data
	case 9:
		if depth > 3 {
			return nil, data
		}
		n := int(take(1)[0] % 4)
		m := map[string]any{}
		for range n {
			k := str()
			var v any
			v, data = valueFrom(data, depth+1)
			m[k] = v
		}
		return m, data
	case 10:
		if depth > 3 {
			return []any(nil), data
		}
		n := int(take(1)[0] % 4)
		a := []any{}
		for range n {
			var v any
			v, data = valueFrom(data, depth+1)
			a = append(a, v)
		}
		return a, data
	}
	p := &canonical.Point{X: f64(), Y: 1}
	if take(1)[0]%2 == 0 {
		p = nil
	}
	return p, data
}

// errorFrom builds a coded error from fuzz bytes, with or without hint,
// position parts and details.
func errorFrom(data []byte) *canonical.Error {
	str := func() string {
		if len(data) == 0 {
			return ""
		}
		n := min(int(data[0]%20), len(data)-1)
		s := string(data[1 : 1+n])
		data = data[1+n:]
		return s
	}
	num := func() int {
		if len(data) == 0 {
			return 0
		}
		v := int(int8(data[0]))
		data = data[1:]
		return v
	}
	e := canonical.NewError(canonical.Code(str()), str()).WithHint(str())
	e.Pos = canonical.Pos{File: str(), Line: num(), Col: num()}
	for range num() & 3 {
		k := str()
		var v any
		v, data = valueFrom(data, 0)
		e.With(k, v)
	}
	return e
}

func checkError(t *testing.T, e *canonical.Error) {
	t.Helper()
	want, wantErr := json.Marshal(map[string]any{"error": e})
	got, err := e.AppendJSON([]byte(`{"error":`))
	if wantErr != nil {
		if err == nil {
			t.Fatalf("encoding/json refuses %#v (%v); AppendJSON wrote %s", e, wantErr, got)
		}
		return
	}
	if err != nil {
		t.Fatalf("AppendJSON refused %#v: %v; encoding/json wrote %s", e, err, want)
	}
	if got = append(got, '}'); string(got) != string(want) {
		t.Fatalf("AppendJSON wrote\n  %s\nencoding/json\n  %s", got, want)
	}
}

// FuzzErrorAppendJSON: an error line written by AppendJSON equals
// encoding/json's {"error": e} byte for byte, for any code, message, hint,
// position and details; where encoding/json fails (a non-finite detail),
// AppendJSON fails too.
func FuzzErrorAppendJSON(f *testing.F) {
	f.Add([]byte("\x0cINVALID_ARGS\x05oops!\x03<b>\x07<stdin>\x04\x00\x02\x01k\x06\x00\x00\x00\x00\x00\x00\xf8\x7f"))
	f.Add([]byte("\x01X\x00\x00\x00\x01\x03\x03\x01a\x09\x02\x01b\x05\x01c\x0a\x02\x01\x04"))
	f.Fuzz(func(t *testing.T, data []byte) { checkError(t, errorFrom(data)) })
}

func TestErrorAppendJSONAgrees(t *testing.T) {
	t.Parallel()
	for _, e := range []*canonical.Error{
		canonical.NewError(canonical.CodeInvalidArgs, "invalid JSON: invalid character 'o'").
			WithHint(`each input must be one JSON object, for example {"kind":"pinch","scale":0.5}`).
			At(canonical.Pos{File: "<stdin>", Line: 4}),
		canonical.NewError(canonical.CodeInvalidArgs, "Gesture trajectory does not fit inside the viewport").
			With("intent", canonical.Intent("pinch")).With("pointerId", 1).With("reason", canonical.ReasonOutOfBounds).
			With("viewport", canonical.Viewport{Width: 390, Height: 844}).With("sample", map[string]any{"offsetMs": 0, "point": canonical.Point{X: -211, Y: 5}}),
		canonical.NewError(canonical.CodeInternal, "x").At(canonical.Pos{Line: 3, Col: 9}),
		canonical.NewError(canonical.CodeInternal, "x").At(canonical.Pos{File: "f", Col: 9}),
		canonical.NewError(canonical.CodeInternal, "x").At(canonical.Pos{File: "f", Line: -1}),
		canonical.NewError(canonical.CodeInternal, "x").At(canonical.Pos{Line: -1, Col: 2}),
		canonical.NewError(canonical.CodeInternal, "nan").With("v", math.NaN()),
		canonical.NewError(canonical.CodeInternal, "nan deep").With("v", []any{map[string]any{"p": canonical.Point{X: math.Inf(1)}}}),
		canonical.NewError(canonical.CodeInternal, "nil pointer").With("p", (*canonical.Point)(nil)).With("m", map[string]any(nil)),
		{Code: canonical.CodeInternal, Message: "empty details", Details: map[string]any{}},
	} {
		checkError(t, e)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 96)
	for range 20_000 {
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		checkError(t, errorFrom(buf))
	}
}

func checkInt(t *testing.T, v int) {
	t.Helper()
	want, _ := json.Marshal(v)
	if got := canonical.AppendJSONInt([]byte("x"), v); string(got) != "x"+string(want) {
		t.Fatalf("%d: AppendJSONInt wrote %s, encoding/json %s", v, got[1:], want)
	}
}

// TestAppendJSONIntAgrees: every int below a million, each power of ten and
// its neighbours, the extremes and random values, as encoding/json writes
// them.
func TestAppendJSONIntAgrees(t *testing.T) {
	t.Parallel()
	for v := -1000; v < 1_000_000; v++ {
		checkInt(t, v)
	}
	for p := 1; p > 0 && p <= math.MaxInt/10; p *= 10 {
		for _, v := range []int{p - 1, p, p + 1, 10*p - 1} {
			checkInt(t, v)
			checkInt(t, -v)
		}
	}
	for _, v := range []int{math.MaxInt, math.MinInt, math.MaxInt - 1, math.MinInt + 1, math.MaxInt32, math.MinInt32} {
		checkInt(t, v)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100_000 {
		checkInt(t, int(rng.Uint64()))
		checkInt(t, int(rng.Uint64()>>rng.IntN(64)))
	}
}

// FuzzAppendJSONInt: any int is written as encoding/json writes it.
func FuzzAppendJSONInt(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, v int64) { checkInt(t, int(v)) })
}
