package ad

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/flow-runner/flow/canonical"
)

// agent-device selectors, as .ad scripts write them:
//
//	chain    := selector ( '||' selector )*      alternatives, tried in order
//	selector := term ( WS term )*                every term must hold
//	term     := key '=' value | boolean-key      a bare boolean key means =true
//	value    := '"' ... '"' | "'" ... "'" | word
//	key      := id | role | text | label | value | appname | windowtitle
//	          | visible | hidden | editable | selected | focused | enabled | hittable
//
// Keys are case-insensitive. Quoted values take \" \' \\ \/ \b \f \n \r
// \t and \uXXXX escapes; any other backslash stays as written. Text keys
// match agent-device's way: trimmed, whitespace runs collapsed,
// case-insensitive equality.

// SelectorTerm is one key=value of a selector.
type SelectorTerm struct {
	Key   string `json:"key"`
	Value string `json:"value,omitempty"` // text keys
	Bool  *bool  `json:"bool,omitempty"`  // boolean keys
}

// SelectorChain is a parsed selector expression: alternatives, each a list
// of terms that must all hold.
type SelectorChain struct {
	Raw          string           `json:"raw"`
	Alternatives [][]SelectorTerm `json:"alternatives"`
}

func selectorTextKeys() []string {
	return []string{"id", "role", "text", "label", "value", "appname", "windowtitle"}
}

func selectorBoolKeys() []string {
	return []string{"visible", "hidden", "editable", "selected", "focused", "enabled", "hittable"}
}

func selectorErr(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).
		WithHint(`selectors are key=value terms joined by spaces, alternatives joined by " || ", e.g. id="login" || label="Log in"`)
}

// ParseSelectorChain parses an agent-device selector expression with its
// messages.
func ParseSelectorChain(expr string) (SelectorChain, error) {
	raw := jsTrim(expr)
	if raw == "" {
		return SelectorChain{}, selectorErr("Selector expression cannot be empty")
	}
	segments, err := splitAlternatives(raw)
	if err != nil {
		return SelectorChain{}, err
	}
	c := SelectorChain{Raw: raw}
	for _, seg := range segments {
		words, err := selectorWords(seg)
		if err != nil {
			return SelectorChain{}, err
		}
		if len(words) == 0 {
			return SelectorChain{}, selectorErr("Invalid selector segment: %s", seg)
		}
		terms := make([]SelectorTerm, 0, len(words))
		for _, w := range words {
			t, err := parseSelectorTerm(w)
			if err != nil {
				return SelectorChain{}, err
			}
			terms = append(terms, t)
		}
		c.Alternatives = append(c.Alternatives, terms)
	}
	return c, nil
}

// isEscapedAt reports whether s[i] follows an odd run of backslashes.
func isEscapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// splitAlternatives splits on "||" outside quotes.
func splitAlternatives(expr string) ([]string, error) {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if (c == '"' || c == '\'') && !isEscapedAt(expr, i) {
			switch quote {
			case 0:
				quote = c
			case c:
				quote = 0
			}
			continue
		}
		if quote == 0 && c == '|' && i+1 < len(expr) && expr[i+1] == '|' {
			seg := jsTrim(expr[start:i])
			if seg == "" {
				return nil, selectorErr("Invalid selector fallback expression: %s", expr)
			}
			out = append(out, seg)
			i++
			start = i + 1
		}
	}
	seg := jsTrim(expr[start:])
	if seg == "" {
		return nil, selectorErr("Invalid selector fallback expression: %s", expr)
	}
	return append(out, seg), nil
}

// selectorWords splits one alternative on whitespace outside quotes.
func selectorWords(seg string) ([]string, error) {
	var out []string
	var quote byte
	var cur strings.Builder
	flush := func() {
		if w := jsTrim(cur.String()); w != "" {
			out = append(out, w)
		}
		cur.Reset()
	}
	for i, r := range seg {
		if (r == '"' || r == '\'') && !isEscapedAt(seg, i) {
			switch quote {
			case 0:
				quote = byte(r)
			case byte(r):
				quote = 0
			}
			cur.WriteRune(r)
			continue
		}
		if quote == 0 && isJSSpace(r) {
			flush()
			continue
		}
		cur.WriteRune(r)
	}
	if quote != 0 {
		return nil, selectorErr("Unclosed quote in selector: %s", seg)
	}
	flush()
	return out, nil
}

func parseSelectorTerm(word string) (SelectorTerm, error) {
	eq := strings.IndexByte(word, '=')
	if eq < 0 {
		key := strings.ToLower(word)
		if !oneOf(key, selectorBoolKeys()) {
			return SelectorTerm{}, selectorErr("Invalid selector term %q, expected key=value", word)
		}
		t := true
		return SelectorTerm{Key: key, Bool: &t}, nil
	}
	key := strings.ToLower(jsTrim(word[:eq]))
	valueRaw := jsTrim(word[eq+1:])
	isText, isBool := oneOf(key, selectorTextKeys()), oneOf(key, selectorBoolKeys())
	if !isText && !isBool {
		e := selectorErr("Unknown selector key: %s", key)
		if s := canonical.Closest(key, append(selectorTextKeys(), selectorBoolKeys()...)); s != "" {
			e.Hint = "did you mean " + s + "=?"
		} else if oneOf(key, []string{"button", "link", "cell", "textfield", "switch", "image", "checkbox"}) {
			e.Hint = `that is a role: write role=` + key + ` (or label="..." for its text)`
		}
		return SelectorTerm{}, e
	}
	if valueRaw == "" {
		return SelectorTerm{}, selectorErr("Missing selector value for key: %s", key)
	}
	if isBool {
		switch strings.ToLower(unquoteSelectorValue(valueRaw)) {
		case "true":
			t := true
			return SelectorTerm{Key: key, Bool: &t}, nil
		case "false":
			f := false
			return SelectorTerm{Key: key, Bool: &f}, nil
		}
		return SelectorTerm{}, selectorErr("Invalid boolean value for %s: %s", key, valueRaw)
	}
	return SelectorTerm{Key: key, Value: unquoteSelectorValue(valueRaw)}, nil
}

func unquoteSelectorValue(v string) string {
	v = jsTrim(v)
	if len(v) >= 1 && ((v[0] == '"' && v[len(v)-1] == '"') || (v[0] == '\'' && v[len(v)-1] == '\'')) {
		if len(v) == 1 {
			return ""
		}
		return decodeSelectorEscapes(v[1 : len(v)-1])
	}
	return v
}

// decodeSelectorEscapes decodes agent-device's hand-written escapes;
// malformed ones stay literal. \u escapes are UTF-16 units, so a
// surrogate pair composes and a lone surrogate becomes U+FFFD.
func decodeSelectorEscapes(v string) string {
	var units []uint16
	flush := func(b *strings.Builder) {
		if len(units) > 0 {
			b.WriteString(string(utf16.Decode(units)))
			units = units[:0]
		}
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			flush(&b)
			b.WriteByte(c)
			i++
			continue
		}
		e := v[i+1]
		if r, ok := map[byte]byte{'"': '"', '\'': '\'', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[e]; ok {
			flush(&b)
			b.WriteByte(r)
			i += 2
			continue
		}
		if e == 'u' && i+6 <= len(v) {
			if n, err := strconv.ParseUint(v[i+2:i+6], 16, 16); err == nil && !strings.ContainsAny(v[i+2:i+6], "+-") {
				units = append(units, uint16(n))
				i += 6
				continue
			}
		}
		flush(&b)
		b.WriteByte(c)
		i++
	}
	flush(&b)
	return b.String()
}

// looksLikeSelector is agent-device's test that a wait argument is a
// selector rather than text: it parses as a selector chain.
func looksLikeSelector(s string) bool {
	_, err := ParseSelectorChain(s)
	return err == nil
}

// RegexMeta are the characters escaped to match text literally in flow's
// patterns (Java-style regular expressions, matched in full,
// case-insensitively).
const RegexMeta = `\.+*?()|[]{}^$#`

// TextPattern is a flow pattern that matches what agent-device's text
// equality matches: the value trimmed, whitespace runs collapsed,
// case-insensitive (the pattern itself is matched case-insensitively).
// A value that is already trimmed and single-spaced becomes the escaped
// literal itself, which Maestro's full, case-insensitive match treats the
// same way; so `text="Log in"` and Maestro's `tapOn: Log in` are one
// canonical selector and convert into each other exactly.
func TextPattern(v string) string {
	words := strings.FieldsFunc(v, isJSSpace)
	if strings.Join(words, " ") == v && v != "" {
		var lit strings.Builder
		for _, r := range v {
			if r < 0x80 && strings.ContainsRune(RegexMeta, r) {
				lit.WriteByte('\\')
			}
			lit.WriteRune(r)
		}
		return lit.String()
	}
	var b strings.Builder
	b.WriteString(`\s*`)
	for i, w := range words {
		if i > 0 {
			b.WriteString(`\s+`)
		}
		for _, r := range w {
			if r < 0x80 && strings.ContainsRune(RegexMeta, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	b.WriteString(`\s*`)
	return b.String()
}

// canonicalSelectors maps a chain to flow selectors, one per alternative
// flow can express. An alternative using a key flow has no equivalent for
// is left out and named in dropped; when none is left the chain is
// unsupported.
func canonicalSelectors(c SelectorChain, pos canonical.Pos) (sels []canonical.Selector, dropped []string, err error) {
	var reasons []string
	for _, alt := range c.Alternatives {
		s, why := canonicalSelector(alt, pos)
		if why != "" {
			dropped = append(dropped, altText(alt))
			reasons = append(reasons, why)
			continue
		}
		sels = append(sels, s)
	}
	if len(sels) == 0 {
		return nil, nil, canonical.Errorf(canonical.CodeUnsupportedOperation,
			"selector %s has no flow equivalent: %s", c.Raw, strings.Join(uniq(reasons), "; ")).At(pos).
			WithHint(`flow matches id=, text=, label=, value= and enabled/selected/focused; add an alternative such as || label="..."`)
	}
	return sels, dropped, nil
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func altText(terms []SelectorTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		if t.Bool != nil {
			parts[i] = t.Key + "=" + strconv.FormatBool(*t.Bool)
		} else {
			parts[i] = t.Key + "=" + QuoteJSON(t.Value)
		}
	}
	return strings.Join(parts, " ")
}

// canonicalSelector maps one alternative, or says why it cannot.
// text=, label= and value= all become flow's text, which matches an
// element's text, hint and accessibility label.
func canonicalSelector(terms []SelectorTerm, pos canonical.Pos) (canonical.Selector, string) {
	s := canonical.Selector{Pos: pos}
	textFrom := ""
	for _, t := range terms {
		switch t.Key {
		case "id":
			if s.ID != nil {
				return s, "id is given twice"
			}
			p := canonical.Text(TextPattern(t.Value), pos)
			s.ID = &p
		case "text", "label", "value":
			if s.Text != nil {
				return s, t.Key + "= and " + textFrom + "= both match flow's text"
			}
			textFrom = t.Key
			p := canonical.Text(TextPattern(t.Value), pos)
			s.Text = &p
		case "enabled":
			s.Enabled = boolCopy(t.Bool)
		case "selected":
			s.Selected = boolCopy(t.Bool)
		case "focused":
			s.Focused = boolCopy(t.Bool)
		case "visible":
			if !*t.Bool {
				return s, "flow finds visible elements only (visible=false)"
			}
		case "hidden":
			if *t.Bool {
				return s, "flow finds visible elements only (hidden=true)"
			}
		default: // role, appname, windowtitle, editable, hittable
			return s, "flow selectors have no " + t.Key + "= yet"
		}
	}
	if s.ID == nil && s.Text == nil {
		return s, "it names no id, text, label or value, so it would match any element"
	}
	return s, ""
}

func boolCopy(b *bool) *bool {
	v := *b
	return &v
}
