package ad

import (
	"strconv"
	"strings"
)

// The .ad writer: the inverse of [ParseScript] with agent-device's
// recording rules (agent-device.md §3.6), so what flow records replays in
// agent-device and the reverse. Encoding is deterministic: encoding a
// parsed script and parsing it again gives the same script, and encoding
// that gives the same bytes. Comments other than target annotations are
// not kept, and several context lines merge into one.

// Encode writes a whole script: the context header, the env directives,
// then each action with its annotation on the line above. Every line ends
// with "\n".
func Encode(s *Script) []byte {
	var b strings.Builder
	if line := encodeContext(s.Context); line != "" {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	for _, e := range s.Env {
		b.WriteString(EncodeEnv(e))
		b.WriteByte('\n')
	}
	for _, a := range s.Actions {
		b.WriteString(EncodeAction(a))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// encodeContext writes the context line, or "" without one. The recorder
// writes device= as a JSON string always; other values stay bare when
// they read back as themselves.
func encodeContext(c Context) string {
	fields := c.Fields
	if len(fields) == 0 {
		if c.Platform != "" {
			fields = append(fields, ContextField{Key: "platform", Value: c.Platform})
		}
		if c.Target != "" {
			fields = append(fields, ContextField{Key: "target", Value: c.Target})
		}
		if c.TimeoutMs > 0 {
			fields = append(fields, ContextField{Key: "timeout", Value: strconv.Itoa(c.TimeoutMs)})
		}
		if c.Retries != nil {
			fields = append(fields, ContextField{Key: "retries", Value: strconv.Itoa(*c.Retries)})
		}
	}
	if len(fields) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("context")
	for _, f := range fields {
		b.WriteByte(' ')
		b.WriteString(f.Key)
		b.WriteByte('=')
		if f.Key == "device" {
			b.WriteString(QuoteJSON(f.Value))
		} else {
			b.WriteString(formatValue(f.Value))
		}
	}
	return b.String()
}

// EncodeEnv writes one env directive. The value stays raw unless reading
// it back raw would change it (leading quote, surrounding whitespace,
// control characters); then it is a JSON string.
func EncodeEnv(e EnvVar) string {
	v := e.Value
	raw := !strings.HasPrefix(v, `"`) && jsTrim(v) == v &&
		strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || IsLineTerminator(r) }) < 0
	if !raw {
		v = QuoteJSON(v)
	}
	return "env " + e.Key + "=" + v
}

// EncodeAction writes one action line, preceded by its target annotation
// line when it has one. Positionals follow the recorder's rule — bare
// only when numeric or an @ref, otherwise JSON-quoted (the gesture kind
// included) — and flags follow in the recorder's order.
func EncodeAction(a Action) string {
	var b strings.Builder
	switch {
	case a.Targets != nil:
		b.WriteString("# " + annotationPrefixes()[0] + "targets-v1 " + EncodeTargets(*a.Targets) + "\n")
	case a.Target != nil:
		b.WriteString("# " + annotationPrefixes()[0] + "target-v1 " + EncodeTarget(*a.Target) + "\n")
	}
	b.WriteString(a.Command)
	pos := a.Positionals
	if a.RefLabel != "" && len(pos) > 0 {
		// The recorded label sits right after the ref.
		pos = append([]string{pos[0], a.RefLabel}, pos[1:]...)
	}
	if head, rest, ok := fillTextSplit(a.Command, pos); ok {
		b.WriteString(" " + formatPositional(pos[0]) + " " + QuoteJSON(head) + " " + formatPositional(rest))
		pos = nil
	}
	for _, p := range pos {
		b.WriteByte(' ')
		b.WriteString(formatPositional(p))
	}
	spec, ok := commandSpecs()[a.Command]
	if !ok {
		return b.String()
	}
	for _, f := range spec.flags {
		v, present := a.Flags[f.name]
		if !present {
			continue
		}
		switch f.kind {
		case flagDrop, flagDropWord:
			continue
		case flagSwitch:
			b.WriteString(" " + f.spell[0])
		default:
			b.WriteString(" " + f.spell[0] + " " + formatValue(v))
		}
	}
	return b.String()
}

// fillTextSplit keeps a fill on a selector unambiguous. The parser reads
// "fill A B ..." as a point when A and B both read as numbers, so a
// selector that reads as one, followed by text that reads as one too
// (fill 0 "" 0 types " 0" into the element "0"), must not be written as
// two tokens: the text is split at a space into a first word that is no
// number and the rest, which the parser joins back with a space.
func fillTextSplit(cmd string, pos []string) (head, rest string, ok bool) {
	if cmd != "fill" || len(pos) != 2 || strings.HasPrefix(pos[0], "@") || !isNumericToken(pos[0]) || !isNumericToken(pos[1]) {
		return "", "", false
	}
	t := pos[1]
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' && !isNumericToken(t[:i]) {
			return t[:i], t[i+1:], true
		}
	}
	return "", "", false
}
