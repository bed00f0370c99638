package canonical

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The Append* functions write JSON byte for byte as encoding/json's Marshal
// does (HTML-safe string escaping, its float format, sorted map keys), but by
// appending to a caller's buffer instead of reflecting: `flow plan --jsonl`
// writes millions of coordinates, and reflection, not planning, was its cost.
// Equivalence with encoding/json is a fuzz test, not a hope.

// ErrNonFinite is what the Append* functions return for NaN or ±Inf, which
// JSON cannot carry; encoding/json refuses the same values.
var ErrNonFinite = errors.New("json: unsupported value: a non-finite number")

// AppendJSONFloat appends f as encoding/json writes a float64. Its rules:
// the shortest decimal that reads back as f, in plain notation when
// 1e-6 <= |f| < 1e21 (and for ±0, which keeps its sign), otherwise in
// exponent notation with at least one exponent digit ("1e-7", "1e+21").
func AppendJSONFloat(b []byte, f float64) ([]byte, error) {
	abs := math.Abs(f)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return b, ErrNonFinite
	case abs < 1e15 && float64(int64(f)) == f:
		// Below 2^53 every integer is exact and is its own shortest
		// decimal; -0 is integral but prints with its sign.
		if f == 0 && math.Signbit(f) {
			return append(b, '-', '0'), nil
		}
		return appendInt(b, int64(f)), nil
	case abs >= 0x1p-1022:
		return appendJSONFloatNormal(b, f), nil
	}
	// Subnormals are rare enough for strconv; their exponents (-308 to
	// -324) have three digits, so its form is already JSON's.
	return strconv.AppendFloat(b, f, 'e', -1, 64), nil
}

// AppendJSONInt appends v as encoding/json writes an int.
func AppendJSONInt(b []byte, v int) []byte { return appendInt(b, int64(v)) }

// AppendJSONString appends s as a JSON string the way encoding/json's
// Marshal quotes it: ", \ and the control characters \b \f \n \r \t as
// two-character escapes, other control characters and the HTML-sensitive
// < > & as \u00XX, U+2028 and U+2029 as \u2028 and \u2029, and every byte of
// invalid UTF-8 as \ufffd. Everything else is copied.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// JSONAppender is a value that appends its own JSON, byte-identical to what
// encoding/json's Marshal writes for it. AppendJSONValue uses it for values
// nested in error details.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AppendJSON appends p as encoding/json writes a Point.
func (p Point) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"x":`...)
	if b, err = AppendJSONFloat(b, p.X); err != nil {
		return b, err
	}
	b = append(b, `,"y":`...)
	if b, err = AppendJSONFloat(b, p.Y); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

// AppendJSON appends v as encoding/json writes a Viewport.
func (v Viewport) AppendJSON(b []byte) ([]byte, error) {
	fields := [4]struct {
		key string
		f   float64
	}{{`{"x":`, v.X}, {`,"y":`, v.Y}, {`,"width":`, v.Width}, {`,"height":`, v.Height}}
	var err error
	for _, field := range fields {
		b = append(b, field.key...)
		if b, err = AppendJSONFloat(b, field.f); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// AppendJSONValue appends v as encoding/json's Marshal would. The shapes that
// error details and plans are made of are written directly; any other value
// goes through encoding/json itself, so the result is the same either way.
func AppendJSONValue(b []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return AppendJSONString(b, t), nil
	case float64:
		return AppendJSONFloat(b, t)
	case int:
		return AppendJSONInt(b, t), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case Intent:
		return AppendJSONString(b, string(t)), nil
	case JSONAppender:
		// encoding/json writes a nil pointer as null; a method with a
		// value receiver cannot be called through one.
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return append(b, "null"...), nil
		}
		return t.AppendJSON(b)
	case map[string]any:
		if t == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		var err error
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, k)
			b = append(b, ':')
			if b, err = AppendJSONValue(b, t[k]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []any:
		if t == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		var err error
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendJSONValue(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, data...), nil
}

// AppendJSON appends the contracts §2 error object, byte-identical to
// MarshalJSON: code and message always; hint, pos and details only when
// known.
func (e *Error) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"code":`...)
	b = AppendJSONString(b, string(e.Code))
	b = append(b, `,"message":`...)
	b = AppendJSONString(b, e.Message)
	if e.Hint != "" {
		b = append(b, `,"hint":`...)
		b = AppendJSONString(b, e.Hint)
	}
	if e.Pos.Known() {
		b = append(b, `,"pos":{`...)
		sep := ""
		if e.Pos.File != "" {
			b = append(b, `"file":`...)
			b = AppendJSONString(b, e.Pos.File)
			sep = ","
		}
		if e.Pos.Line != 0 {
			b = append(b, sep...)
			b = append(b, `"line":`...)
			b = AppendJSONInt(b, e.Pos.Line)
			sep = ","
		}
		if e.Pos.Col != 0 {
			b = append(b, sep...)
			b = append(b, `"col":`...)
			b = AppendJSONInt(b, e.Pos.Col)
		}
		b = append(b, '}')
	}
	if len(e.Details) > 0 {
		b = append(b, `,"details":`...)
		var err error
		if b, err = AppendJSONValue(b, e.Details); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}
