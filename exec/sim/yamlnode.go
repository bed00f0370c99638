package sim

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// decoder reads one app model file through yaml.v3 nodes, so every error
// carries file:line:col. Decoding into structs would drop unknown keys
// silently; a misspelt "onTpa" must be an error, not a dead button.
type decoder struct {
	file string
	// visits caps how often aliases make the decoder read mappings, so a
	// self-referencing or exponential alias cannot hang the loader.
	visits int
}

// maxVisits bounds the mappings one file may make the decoder read.
const maxVisits = 100000

func (d *decoder) pos(n *yaml.Node) canonical.Pos {
	if n == nil {
		return canonical.Pos{File: d.file}
	}
	return canonical.Pos{File: d.file, Line: n.Line, Col: n.Column}
}

func (d *decoder) errorf(n *yaml.Node, hint, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(d.pos(n)).WithHint(hint)
}

// resolve follows aliases so anchors (&a / *a) work anywhere.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// kindName names what n is for a message about a recognised app model:
// a short value is quoted, so the user sees the typo; a long one is only
// measured.
func kindName(n *yaml.Node) string {
	n = resolve(n)
	switch {
	case n == nil || isNull(n):
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.ScalarNode && len(n.Value) <= maxQuoted && !strings.ContainsAny(n.Value, "\n\r"):
		return strconv.Quote(n.Value)
	case n.Kind == yaml.ScalarNode:
		return "a " + scalarKind(n) + " of " + byteCount(len(n.Value))
	}
	return "a document"
}

// maxQuoted bounds the values a message quotes.
const maxQuoted = 40

// looksLikeApp reports whether a file's root is an app model, well formed
// or not: a mapping with at least one of an app model's keys. Only then
// may an error quote what the file says.
func looksLikeApp(root *yaml.Node) bool {
	r := resolve(root)
	if r == nil || r.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(r.Content); i += 2 {
		if k := r.Content[i]; k.Kind == yaml.ScalarNode && slices.Contains(appKeys(), k.Value) {
			return true
		}
	}
	return false
}

// shape describes a file's root by its form and size, never its content.
func shape(root *yaml.Node, data []byte) string {
	r := resolve(root)
	switch {
	case r == nil || isNull(r):
		return "no value"
	case r.Kind == yaml.MappingNode:
		return fmt.Sprintf("a mapping of %s, none of them an app model's", plural(len(r.Content)/2, "key"))
	case r.Kind == yaml.SequenceNode:
		return "a list of " + plural(len(r.Content), "item")
	}
	last := bytes.Count(bytes.TrimRight(data, " \t\r\n"), []byte("\n")) + 1
	where := fmt.Sprintf("on line %d", r.Line)
	if last > r.Line {
		where = fmt.Sprintf("on lines %d-%d", r.Line, last)
	}
	return fmt.Sprintf("a single %s of %s %s", scalarKind(r), byteCount(len(r.Value)), where)
}

func scalarKind(n *yaml.Node) string {
	switch n.Tag {
	case "!!int", "!!float":
		return "number"
	case "!!bool":
		return "true or false"
	}
	return "string"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// byteCount is n bytes with thousands separated: 1,679 bytes.
func byteCount(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n == 1 {
		return s + " byte"
	}
	return s + " bytes"
}

// field is one key of a mapping with its value.
type field struct {
	key   string
	keyN  *yaml.Node
	value *yaml.Node
}

// mapping lists a mapping's keys in order, refusing non-mappings, duplicate
// keys (yaml.v3 accepts them in nodes) and keys outside allowed. Merge keys
// (<<: *base) are expanded; an explicit key wins over a merged one.
func (d *decoder) mapping(n *yaml.Node, what string, allowed []string) ([]field, error) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "write "+what+" as key: value lines or {key: value, ...}",
			"%s must be a mapping, got %s", what, kindName(n))
	}
	if d.visits++; d.visits > maxVisits {
		return nil, d.errorf(n, "an alias (*name) inside the node its anchor (&name) marks repeats it forever",
			"aliases make this file too large to read")
	}
	var out, merged []field
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errorf(k, "write keys as plain words, for example id:", "keys must be plain names, got %s", kindName(k))
		}
		if k.Tag == "!!merge" {
			ms, err := d.merge(v, what, allowed)
			if err != nil {
				return nil, err
			}
			merged = append(merged, ms...)
			continue
		}
		if first, dup := seen[k.Value]; dup {
			return nil, d.errorf(k, "keep one "+k.Value+": YAML does not allow a key twice in one mapping",
				"duplicate key %q in %s (first given at line %d)", k.Value, what, first.Line)
		}
		if err := d.known(k, what, allowed); err != nil {
			return nil, err
		}
		seen[k.Value] = k
		out = append(out, field{key: k.Value, keyN: k, value: v})
	}
	for _, f := range merged {
		if _, ok := seen[f.key]; !ok {
			seen[f.key] = f.keyN
			out = append(out, f)
		}
	}
	return out, nil
}

func (d *decoder) merge(v *yaml.Node, what string, allowed []string) ([]field, error) {
	items := []*yaml.Node{v}
	if r := resolve(v); r != nil && r.Kind == yaml.SequenceNode {
		items = r.Content
	}
	var out []field
	for _, item := range items {
		fs, err := d.mapping(item, what, allowed)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// known refuses a key outside allowed, naming the nearest allowed key.
func (d *decoder) known(k *yaml.Node, what string, allowed []string) error {
	for _, a := range allowed {
		if a == k.Value {
			return nil
		}
	}
	hint := what + " accepts: " + strings.Join(allowed, ", ")
	if near := canonical.Closest(k.Value, allowed); near != "" {
		hint = fmt.Sprintf("did you mean %q? %s", near, hint)
	}
	return d.errorf(k, hint, "unknown key %q in %s", k.Value, what)
}

// sequence lists a list's items.
func (d *decoder) sequence(n *yaml.Node, what string) ([]*yaml.Node, error) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "write "+what+" as a list: one \"- ...\" line per item, or [a, b]",
			"%s must be a list, got %s", what, kindName(n))
	}
	return r.Content, nil
}

// text reads any scalar as text: numbers and booleans are coerced, as
// Maestro coerces them into text fields (text: 42 shows "42").
func (d *decoder) text(n *yaml.Node, what string) (string, error) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.ScalarNode || isNull(r) {
		return "", d.errorf(n, "write a value after the colon, quoted if it starts with a special character",
			"%s must be text, got %s", what, kindName(n))
	}
	return r.Value, nil
}

// name reads a non-empty text: ids, screen names, links.
func (d *decoder) name(n *yaml.Node, what string) (string, error) {
	s, err := d.text(n, what)
	if err == nil && strings.TrimSpace(s) == "" {
		err = d.errorf(n, "write a name after the colon", "%s must not be empty", what)
	}
	return s, err
}

func (d *decoder) boolean(n *yaml.Node, what string) (bool, error) {
	r := resolve(n)
	if r != nil && r.Kind == yaml.ScalarNode && r.Tag == "!!bool" {
		return strings.EqualFold(r.Value, "true"), nil
	}
	return false, d.errorf(n, "write "+what+": true or "+what+": false",
		"%s must be true or false, got %s", what, kindName(n))
}

// integer reads a whole number in [lo, hi].
func (d *decoder) integer(n *yaml.Node, what string, lo, hi int) (int, error) {
	if v, ok := intValue(n, lo, hi); ok {
		return v, nil
	}
	return 0, d.errorf(n, fmt.Sprintf("write a whole number from %d to %d", lo, hi),
		"%s must be a whole number from %d to %d, got %s", what, lo, hi, kindName(n))
}

func intValue(n *yaml.Node, lo, hi int) (int, bool) {
	r := resolve(n)
	if r == nil || r.Kind != yaml.ScalarNode || r.Tag != "!!int" {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(r.Value, "_", ""), 0, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		return 0, false
	}
	return int(v), true
}

// yamlLineRe finds the line yaml.v3 names in a syntax error.
func yamlLineRe() *regexp.Regexp { return regexp.MustCompile(`line (\d+):`) }

// syntaxError turns a yaml.v3 parse error into a positioned error. yaml.v3
// writes no column, so the position is the line alone (or the file when the
// error names no line). Its parser (unlike its scanner) counts lines from
// 0, so those messages get one added.
func (d *decoder) syntaxError(err error, data []byte) *canonical.Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	pos := canonical.Pos{File: d.file}
	if strings.HasPrefix(msg, "unknown anchor '") {
		// yaml.v3 names the anchor but gives no line: find the alias.
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			pos.Line = bytes.Count(data[:i], []byte("\n")) + 1
			pos.Col = utf8.RuneCount(data[bytes.LastIndexByte(data[:i], '\n')+1:i]) + 1
		}
	}
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
		pos.Line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.Replace(msg, m[0], "", 1))
		for _, p := range yamlParserProblems() {
			if msg == p {
				pos.Line++
			}
		}
	}
	return canonical.Errorf(canonical.CodeInvalidArgs, "app model is not valid YAML: %s", withoutValues(msg)).At(pos).
		WithHint("check the indentation and the quoting around this line")
}

// yamlValueRe() finds the yaml.v3 messages that quote a name or a value
// from the file: an alias's anchor, a tagged scalar. The file may be
// anyone's secret rather than an app model, so they are said without it.
var yamlValueRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("unknown anchor '[^']*' referenced|anchor '[^']*' value contains itself|`[^`]*`")
})

func withoutValues(msg string) string {
	return yamlValueRe().ReplaceAllStringFunc(msg, func(m string) string {
		switch {
		case strings.HasPrefix(m, "unknown anchor"):
			return "an alias (*name) refers to an anchor (&name) that is not defined"
		case strings.HasPrefix(m, "anchor"):
			return "an anchor's value contains itself"
		}
		return "a value"
	})
}

// yamlParserProblems are the messages of yaml.v3's parser (parserc.go),
// whose line is 0-based.
func yamlParserProblems() []string {
	return []string{"did not find expected <stream-start>", "did not find expected <document start>",
		"found undefined tag handle", "did not find expected node content", "did not find expected '-' indicator",
		"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive"}
}
