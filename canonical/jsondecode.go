package canonical

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// decodeJSONPlain is DecodeJSON's fast path for the JSON that gesture input
// actually is: one object or array of objects, numbers, literals and strings
// without escapes. It returns ok=false for anything else (escapes, invalid
// UTF-8, deep nesting, trailing data, any syntax error), and DecodeJSON
// then takes encoding/json's path, which decides and words every error. So
// where this succeeds it must build exactly the value that path builds:
// float64 numbers as ParseNumber reads them, map[string]any with the last
// duplicate key winning, non-nil empty arrays.
func decodeJSONPlain(data []byte) (v any, ok bool) {
	d := plainDecoder{data: data}
	d.space()
	if v, ok = d.value(0); !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.data)
}

// maxPlainDepth bounds the fast path's recursion; deeper input is left to
// encoding/json, which has its own limit and message.
const maxPlainDepth = 32

type plainDecoder struct {
	data []byte
	i    int
}

func (d *plainDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *plainDecoder) value(depth int) (any, bool) {
	if d.i >= len(d.data) || depth > maxPlainDepth {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, ok := d.str()
		return s, ok
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, false
}

func (d *plainDecoder) literal(word string) bool {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return false
	}
	d.i += len(word)
	return true
}

func (d *plainDecoder) object(depth int) (any, bool) {
	d.i++ // {
	m := make(map[string]any)
	d.space()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.space()
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			d.space()
		case '}':
			d.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (d *plainDecoder) array(depth int) (any, bool) {
	d.i++ // [
	a := make([]any, 0)
	d.space()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return a, true
	}
	for {
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			d.space()
		case ']':
			d.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// str reads a string without escapes or control characters; non-ASCII text
// must be valid UTF-8 (encoding/json would replace invalid bytes).
func (d *plainDecoder) str() (string, bool) {
	d.i++ // "
	start, ascii := d.i, true
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			s := d.data[start:d.i]
			d.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return internJSONString(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.i++
	}
	return "", false
}

// number reads a JSON number token: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *plainDecoder) number() (any, bool) {
	start := d.i
	neg := d.data[d.i] == '-'
	if neg {
		d.i++
	}
	intStart := d.i
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
			d.i++
		}
	default:
		return nil, false
	}
	intEnd := d.i
	simple := true
	if d.i < len(d.data) && d.data[d.i] == '.' {
		simple = false
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		simple = false
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	if simple && intEnd-intStart <= 15 {
		// Up to 15 digits an integer is exact in a float64, so this is
		// ParseFloat's answer (including -0) without the parse.
		var u uint64
		for _, c := range d.data[intStart:intEnd] {
			u = u*10 + uint64(c-'0')
		}
		f := float64(u)
		if neg {
			f = -f
		}
		return f, true
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.i]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	return f, true
}

func (d *plainDecoder) digits() bool {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// internJSONString is string(b) without an allocation for the keys and words
// every gesture line repeats.
func internJSONString(b []byte) string {
	switch string(b) {
	case "input":
		return "input"
	case "viewport":
		return "viewport"
	case "platform":
		return "platform"
	case "kind":
		return "kind"
	case "intent":
		return "intent"
	case "origin":
		return "origin"
	case "delta":
		return "delta"
	case "x":
		return "x"
	case "y":
		return "y"
	case "width":
		return "width"
	case "height":
		return "height"
	case "scale":
		return "scale"
	case "degrees":
		return "degrees"
	case "durationMs":
		return "durationMs"
	case "pointerCount":
		return "pointerCount"
	case "direction":
		return "direction"
	case "distance":
		return "distance"
	case "from":
		return "from"
	case "to":
		return "to"
	case "pan":
		return "pan"
	case "pinch":
		return "pinch"
	case "rotate":
		return "rotate"
	case "transform":
		return "transform"
	case "fling":
		return "fling"
	case "android":
		return "android"
	case "ios":
		return "ios"
	case "web":
		return "web"
	}
	return string(b)
}
