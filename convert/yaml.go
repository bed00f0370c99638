package convert

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// A small block-style YAML writer for Maestro flows. convert does not use a
// YAML library, and flows only need mappings, lists and scalars; every
// scalar is written so that any YAML 1.1 or 1.2 reader (yaml.v3 here,
// SnakeYAML in Maestro) reads back the exact text: plain when nothing in
// it could be read differently, quoted otherwise.

// yNode is a YAML value: yScalar, yFlowSeq, ySeq or yMap.
type yNode interface{ yaml() }

// yScalar is a scalar written out already (plain or quoted).
type yScalar string

// ySeq is a block list.
type ySeq []yNode

// yMap is a block mapping, in order.
type yMap []yKV

// yFlowSeq is a list of strings written on one line: [a, b].
type yFlowSeq []string

type yKV struct {
	key string
	val yNode
}

func (yScalar) yaml()  {}
func (ySeq) yaml()     {}
func (yMap) yaml()     {}
func (yFlowSeq) yaml() {}

// yStr is s as a YAML string scalar.
func yStr(s string) yScalar { return yScalar(yamlString(s, false)) }

func yInt(n int) yScalar { return yScalar(strconv.Itoa(n)) }

func yBool(b bool) yScalar { return yScalar(strconv.FormatBool(b)) }

// yNumText is text that Maestro reads as a number when it is one: written
// plain when it is a plain decimal, so that timeout: 10000 reads as
// written, else as a string.
func yNumText(s string) yScalar {
	if plainDecimalRe().MatchString(s) {
		return yScalar(s)
	}
	return yStr(s)
}

var plainDecimalRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$`) })

func (m *yMap) add(key string, v yNode) { *m = append(*m, yKV{key, v}) }

// writeMap writes a block mapping's entries at indent.
func writeMap(b *strings.Builder, m yMap, indent int) {
	for _, kv := range m {
		b.WriteString(strings.Repeat(" ", indent))
		writeEntry(b, kv, indent)
	}
}

// writeEntry writes "key: value" from the current column; the value's
// nested lines are indented under the key.
func writeEntry(b *strings.Builder, kv yKV, indent int) {
	b.WriteString(yamlString(kv.key, false))
	b.WriteByte(':')
	writeValue(b, kv.val, indent)
}

func writeValue(b *strings.Builder, v yNode, indent int) {
	switch t := v.(type) {
	case yScalar:
		b.WriteString(" " + string(t) + "\n")
	case yFlowSeq:
		parts := make([]string, len(t))
		for i, s := range t {
			parts[i] = yamlString(s, true)
		}
		b.WriteString(" [" + strings.Join(parts, ", ") + "]\n")
	case yMap:
		if len(t) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteByte('\n')
		writeMap(b, t, indent+2)
	case ySeq:
		if len(t) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteByte('\n')
		writeSeq(b, t, indent+2)
	}
}

// writeSeq writes a block list's items at indent; a mapping item starts
// on the dash line and continues two columns in.
func writeSeq(b *strings.Builder, s ySeq, indent int) {
	for _, item := range s {
		b.WriteString(strings.Repeat(" ", indent) + "-")
		switch t := item.(type) {
		case yMap:
			if len(t) == 0 {
				b.WriteString(" {}\n")
				continue
			}
			b.WriteByte(' ')
			writeEntry(b, t[0], indent+2)
			writeMap(b, t[1:], indent+2)
		case ySeq:
			if len(t) == 0 {
				b.WriteString(" []\n")
				continue
			}
			b.WriteByte('\n')
			writeSeq(b, t, indent+2)
		default:
			writeValue(b, item, indent)
		}
	}
}

// yamlString writes s as a scalar that reads back as exactly s, as a
// string: plain when safe, in double quotes when that needs no escapes
// or when only escapes can write s, in single quotes otherwise (regular
// expressions keep their backslashes readable). inFlow is for items of a
// [a, b] list, where ,[]{} are special.
func yamlString(s string, inFlow bool) string {
	switch {
	case plainOK(s, inFlow):
		return s
	case needsEscapes(s):
		return doubleQuoted(s)
	case strings.ContainsAny(s, `\"`):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return `"` + s + `"`
}

// needsEscapes reports whether s holds a character only an escape can
// write: control characters, line breaks, tabs and other non-printing
// characters (non-breaking spaces, BOM, U+2028, ...).
func needsEscapes(s string) bool {
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		default:
			switch {
			case r == ' ' || unicode.IsPrint(r):
				b.WriteRune(r)
			case r <= 0xff:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlReserved are plain scalars YAML 1.1 or 1.2 reads as something other
// than a string (compared in lower case), plus the merge key.
func yamlReserved() []string {
	return []string{"", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n", "<<", "="}
}

var timestampRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}`) })

// plainOK reports whether s can be written without quotes and read back
// as the same string. It is deliberately conservative: anything that
// could start another token, resolve to a number, boolean, null or
// timestamp, or end the scalar early is quoted.
func plainOK(s string, inFlow bool) bool {
	if s != strings.TrimSpace(s) || needsEscapes(s) || oneOf(strings.ToLower(s), yamlReserved()) {
		return false
	}
	switch c := s[0]; {
	case strings.IndexByte("-?:,[]{}#&*!|>'\"%@`.+~=<", c) >= 0:
		return false
	case c >= '0' && c <= '9':
		// Numbers, sexagesimals and dates start with a digit and hold no
		// space; a timestamp may, after its date.
		if !strings.Contains(s, " ") || timestampRe().MatchString(s) {
			return false
		}
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.Contains(s, " #") {
		return false
	}
	if inFlow && strings.ContainsAny(s, ",[]{}:#") {
		return false
	}
	return true
}
