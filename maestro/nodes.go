package maestro

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// decoder turns yaml.v3 nodes of one file into canonical values, keeping
// every position. Errors are *canonical.Error with file:line:col; warnings
// collect what Maestro accepts but a reader should know.
type decoder struct {
	file string
	// ctx, when set, stops long per-command work (schema checks) early;
	// the loader then reports the interruption.
	ctx      context.Context
	warnings []*canonical.Error
	// visits counts how often each mapping was decoded: once without
	// aliases, endlessly with an alias inside the node its anchor marks,
	// exponentially with nested aliases. maxVisits caps it.
	visits  map[*yaml.Node]int
	tooMany bool
	warned  map[string]bool
	// version is the Maestro the flow is read as; it decides the selector
	// keys (css is the current Maestro's). Zero reads as the current one.
	version canonical.MaestroVersion
	// nativeApp is the flow's appId when it names an app, not a page
	// (no URL, no ${}): its css selectors can never match, which the
	// loader says while the flow is still being written.
	nativeApp string
}

// maxVisits is how often aliases may make the loader decode one mapping.
const maxVisits = 1000

// stopped reports whether the load was interrupted.
func (d *decoder) stopped() bool { return d.ctx != nil && d.ctx.Err() != nil }

func (d *decoder) pos(n *yaml.Node) canonical.Pos {
	if n == nil {
		return canonical.Pos{File: d.file}
	}
	return canonical.Pos{File: d.file, Line: n.Line, Col: n.Column}
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(d.pos(n))
}

// warnf records a warning once per position and text: an aliased node
// decoded again warns once.
func (d *decoder) warnf(n *yaml.Node, hint, format string, args ...any) {
	w := canonical.Errorf(canonical.CodeInvalidArgs, format, args...).At(d.pos(n)).WithHint(hint)
	if d.warned == nil {
		d.warned = map[string]bool{}
	}
	if key := w.Error(); !d.warned[key] {
		d.warned[key] = true
		d.warnings = append(d.warnings, w)
	}
}

// resolve follows aliases so anchors (&a / *a) work anywhere.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	n = resolve(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "null"
		}
		return "a scalar"
	}
	return "a document"
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// pair is one key and its value in a mapping.
type pair struct {
	key   string
	keyN  *yaml.Node
	value *yaml.Node
}

// mergeHint says why << is an unknown key: Maestro's YAML reader
// (jackson-dataformat-yaml) does not implement merge keys.
const mergeHint = "Maestro 1.39 does not merge mappings: its YAML reader takes << as a key like any other " +
	"(and an alias *name as the text \"name\"); write the keys out in this mapping"

// pairs lists a mapping's entries and refuses non-scalar keys. A key given
// twice is accepted as Maestro's Jackson reader accepts it everywhere (a
// tree, a map or a bean alike): the last value wins, at the first key's
// place, and flow warns. A merge key (<<) is an ordinary key named "<<", as
// it is to Maestro.
func (d *decoder) pairs(n *yaml.Node) ([]pair, error) {
	n = resolve(n)
	if err := d.visit(n); err != nil {
		return nil, err
	}
	out := make([]pair, 0, len(n.Content)/2)
	index := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errorf(k, "mapping keys must be plain names, got %s", kindName(k)).
				WithHint("write keys as plain words, for example text: or id:")
		}
		if j, dup := index[k.Value]; dup {
			d.warnf(k, "keep one "+k.Value+": YAML does not allow a key twice in one mapping",
				"duplicate key %q (first given at line %d): Maestro uses this last value, and so does flow", k.Value, out[j].keyN.Line)
			out[j].keyN, out[j].value = k, v
			continue
		}
		index[k.Value] = len(out)
		out = append(out, pair{key: k.Value, keyN: k, value: v})
	}
	return out, nil
}

// literalAliases makes the tree read as Maestro's reader reads it: that
// reader (jackson-dataformat-yaml 2.17) ignores anchors and turns an alias
// *name into the text "name" wherever it stands. Each alias becomes that
// text, with a warning; an alias used as a key is an error there too.
func (d *decoder) literalAliases(root *yaml.Node) error {
	var firstErr error
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.AliasNode {
			d.warnf(n, "write the value out in full, or quote \"*"+n.Value+"\" if you mean the text",
				"*%s is read as the text %q: Maestro 1.39 does not resolve YAML aliases, and neither does flow", n.Value, n.Value)
			*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: n.Value, Line: n.Line, Column: n.Column}
			return
		}
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.AliasNode && firstErr == nil {
				firstErr = d.errorf(c, "an alias (*%s) cannot be a key", c.Value).
					WithHint("write the key out: Maestro's YAML reader refuses an alias where a key belongs")
			}
			walk(c)
		}
	}
	walk(root)
	return firstErr
}

// visit counts one decoding of mapping n and refuses it past maxVisits,
// once: the later refusals are already reported by the first.
func (d *decoder) visit(n *yaml.Node) error {
	if d.visits == nil {
		d.visits = map[*yaml.Node]int{}
	}
	d.visits[n]++
	if d.visits[n] <= maxVisits {
		return nil
	}
	if d.tooMany {
		return alreadyReported{}
	}
	d.tooMany = true
	return d.errorf(n, "aliases repeat this mapping more than %d times", maxVisits).
		WithHint("an alias (*name) inside the node its anchor (&name) marks repeats it forever; anchor a smaller part, or write the repetition out")
}

// checkKeys refuses keys outside allowed, naming the nearest allowed key.
func (d *decoder) checkKeys(what string, ps []pair, allowed []string) error {
	for _, p := range ps {
		if !contains(allowed, p.key) {
			hint := what + " accepts: " + strings.Join(allowed, ", ")
			if near := canonical.Closest(p.key, allowed); near != "" {
				hint = fmt.Sprintf("did you mean %q? %s", near, hint)
			}
			if p.key == "<<" {
				hint = mergeHint
			}
			return d.errorf(p.keyN, "unknown key %q in %s", p.key, what).WithHint(hint)
		}
	}
	return nil
}

// checkKeysOf is checkKeys with the allowed keys in two lists, joined
// only to word an error: joining them for every command of every flow
// was a tenth of what loading a workspace allocated.
func (d *decoder) checkKeysOf(what string, ps []pair, allowed, more []string) error {
	for _, p := range ps {
		if !contains(allowed, p.key) && !contains(more, p.key) {
			return d.checkKeys(what, ps, append(append([]string{}, allowed...), more...))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// str reads any scalar as text, as Maestro coerces numbers and booleans
// into string fields (inputText: 4 types "4").
func (d *decoder) str(n *yaml.Node, what string) (string, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || isNull(n) {
		return "", d.errorf(n, "%s must be text, got %s", what, kindName(n)).
			WithHint("write a value after the colon, quoted if it starts with a special character")
	}
	return n.Value, nil
}

func (d *decoder) template(n *yaml.Node, what string) (canonical.Template, error) {
	s, err := d.str(n, what)
	if err != nil {
		return canonical.Template{}, err
	}
	return canonical.Text(s, d.pos(resolve(n))), nil
}

func (d *decoder) templatePtr(n *yaml.Node, what string) (*canonical.Template, error) {
	t, err := d.template(n, what)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// boolean reads a Boolean field as Maestro does: a YAML 1.1 boolean, or
// the text true or false in one of three spellings each.
func (d *decoder) boolean(n *yaml.Node, what string) (bool, error) {
	n = resolve(n)
	switch javaScalar(n) {
	case javaBool:
		// YAML 1.1 booleans, as Maestro's reader types them: yes, on, ...
		return yaml11True(n.Value), nil
	case javaString:
		// Jackson's String-to-Boolean coercion takes three spellings each.
		switch strings.TrimSpace(n.Value) {
		case "true", "True", "TRUE":
			return true, nil
		case "false", "False", "FALSE":
			return false, nil
		}
	}
	return false, d.errorf(n, "%s must be true or false, got %s", what, describe(n)).
		WithHint("write " + what + ": true or " + what + ": false")
}

// wholeRule says how Maestro reads a whole-number field: as a Java int
// or long (bits), and whether Jackson's bean reading truncates a float
// there (floats) or the text goes through Kotlin's toLong, which refuses
// one (swipe's hand-built forms).
type wholeRule struct {
	bits   int
	floats bool
}

var (
	javaIntField  = wholeRule{bits: 32, floats: true}
	javaLongField = wholeRule{bits: 64, floats: true}
	kotlinToLong  = wholeRule{bits: 64}
)

var asciiInteger = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9]+$`) })

// integer reads a whole number into one of Maestro's Int fields; Maestro
// parses them when the flow loads, so ${} cannot be used there.
func (d *decoder) integer(n *yaml.Node, what string) (int, error) {
	return d.whole(n, what, javaIntField)
}

// whole reads a whole number as Maestro reads it into a field of the
// rule's kind: YAML 1.1 integers (1_000, 0x1F, 017), a float truncated
// with a warning where Jackson truncates it, quoted decimal digits; a
// value beyond the field's range is refused, never wrapped.
func (d *decoder) whole(n *yaml.Node, what string, rule wholeRule) (int, error) {
	r := resolve(n)
	hint := "write a whole number such as 500"
	if r != nil && strings.Contains(r.Value, "${") {
		hint = "Maestro reads " + what + " when the flow loads, so it cannot use ${...}; write a number"
	}
	bad := func() (int, error) {
		return 0, d.errorf(n, "%s must be a whole number, got %s", what, describe(n)).WithHint(hint)
	}
	lo, hi := big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	if rule.bits == 64 {
		lo, hi = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	}
	outOfRange := func() (int, error) {
		return 0, d.errorf(n, "%s %s is out of range: Maestro reads it as a whole number from %s to %s", what, r.Value, lo, hi).
			WithHint("write a number in that range")
	}
	var v *big.Int
	switch javaScalar(r) {
	case javaInt, javaBigInt:
		i, ok := parseYAML11Int(strings.ReplaceAll(r.Value, "_", ""))
		if !ok {
			return bad()
		}
		v = i
	case javaString:
		t := strings.TrimSpace(r.Value)
		if !asciiInteger().MatchString(t) {
			return bad()
		}
		v, _ = new(big.Int).SetString(strings.TrimPrefix(t, "+"), 10)
	case javaFloat:
		f, err := strconv.ParseFloat(strings.ReplaceAll(r.Value, "_", ""), 64)
		if !rule.floats || (err != nil && !math.IsInf(f, 0)) {
			return bad()
		}
		if math.IsNaN(f) {
			d.warnf(n, "write a whole number", "%s %s is read as 0 (Maestro casts NaN to 0)", what, r.Value)
			return 0, nil
		}
		t := math.Trunc(f)
		if math.IsInf(f, 0) || t < float64(lo.Int64()) || t > float64(hi.Int64()) {
			return outOfRange()
		}
		if t != f {
			d.warnf(n, "write a whole number", "%s %s is read as %d: Maestro drops the fraction", what, r.Value, int(t))
		}
		return int(t), nil
	default:
		return bad()
	}
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return outOfRange()
	}
	return int(v.Int64()), nil
}

func (d *decoder) number(n *yaml.Node, what string) (float64, error) {
	n = resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && !isNull(n) {
		if f, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64); err == nil && canonical.IsFinite(f) {
			return f, nil
		}
	}
	return 0, d.errorf(n, "%s must be a number, got %s", what, describe(n)).WithHint("write a number such as 4.5")
}

func describe(n *yaml.Node) string {
	n = resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && !isNull(n) {
		return strconv.Quote(n.Value)
	}
	return kindName(n)
}

// yamlErrorLine finds the line of a syntax error in yaml.v3's text. yaml.v3
// writes a parser error's line 0-based (a scanner error's 1-based) and
// leaves the line out when it is the first. Reader errors (bad UTF-8,
// control characters) and unknown anchors carry no position: they give 0.
func yamlErrorLine(err error) int {
	text := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlSyntaxLineRe().FindStringSubmatch(text); m != nil {
		line, _ := strconv.Atoi(m[1])
		if contains(yamlParserProblems(), m[2]) {
			line++
		}
		return line
	}
	if m := yamlLineRe().FindStringSubmatch(text); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line
	}
	if contains(yamlParserProblems(), text) || contains(yamlScannerProblems(), text) {
		return 1
	}
	return 0
}

var yamlSyntaxLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): (.*)$`) })

// yamlParserProblems are the messages of yaml.v3's parser (parserc.go),
// whose line is 0-based.
func yamlParserProblems() []string {
	return []string{"did not find expected <stream-start>", "did not find expected <document start>",
		"found undefined tag handle", "did not find expected node content", "did not find expected '-' indicator",
		"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive"}
}

// yamlScannerProblems are the messages of yaml.v3's scanner (scannerc.go).
func yamlScannerProblems() []string {
	return []string{"block sequence entries are not allowed in this context", "could not find expected ':'",
		"could not find expected directive name", "did not find URI escaped octet", "did not find expected '!'",
		"did not find expected alphabetic or numeric character", "did not find expected comment or line break",
		"did not find expected digit or '.' character", "did not find expected hexdecimal number",
		"did not find expected tag URI", "did not find expected version number", "did not find expected whitespace",
		"did not find expected whitespace or line break", "did not find the expected '>'",
		"found a tab character that violates indentation", "found a tab character where an indentation space is expected",
		"found an incorrect leading UTF-8 octet", "found an incorrect trailing UTF-8 octet",
		"found an indentation indicator equal to 0", "found character that cannot start any token",
		"found extremely long version number", "found invalid Unicode character escape code",
		"found unexpected document indicator", "found unexpected end of stream", "found unexpected non-alphabetical character",
		"found unknown directive name", "found unknown escape character", "invalid character sequence",
		"mapping keys are not allowed in this context", "mapping values are not allowed in this context",
		"exceeded max depth of 10000"}
}

// yamlValueRe() finds the yaml.v3 messages that quote a name or a value
// from the file: an alias's anchor, a tagged scalar.
var yamlValueRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("unknown anchor '[^']*' referenced|anchor '[^']*' value contains itself|`[^`]*`")
})

// yamlWithoutValues is a yaml.v3 message without the names and values it
// quotes from the file.
func yamlWithoutValues(msg string) string {
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

func yamlErrorText(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	return yamlLinePrefixRe().ReplaceAllString(s, "")
}

// javaKind is what Maestro's reader makes of a scalar where it takes a
// value of any type (Jackson's untyped deserializer): SnakeYAML's YAML 1.1
// resolver types plain scalars, and Jackson turns integers that fit no
// long into BigInteger.
type javaKind int

const (
	javaString javaKind = iota
	javaNull
	javaBool
	javaInt
	javaBigInt
	javaFloat
)

var (
	yaml11Bool = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	})
	yaml11Null = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:~|null|Null|NULL| )?$`) })
	yaml11Int  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?0b_*[0-1]+[0-1_]*|[-+]?0_*[0-7]+[0-7_]*|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x_*[0-9a-fA-F]+[0-9a-fA-F_]*)$`)
	})
	yaml11Sexa  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$`) })
	yaml11Float = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
)

// javaScalar types a scalar as Maestro's reader does.
func javaScalar(n *yaml.Node) javaKind {
	n = resolve(n)
	if n == nil {
		return javaNull
	}
	if n.Kind != yaml.ScalarNode {
		return -1
	}
	v := n.Value
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.ShortTag() {
		case "!!null":
			return javaNull
		case "!!bool":
			if yaml11Bool().MatchString(v) {
				return javaBool
			}
		case "!!int":
			return intKind(v)
		case "!!float":
			return javaFloat
		}
		return javaString
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return javaString
	}
	return plainKind(v)
}

// plainKind types a plain (unquoted, untagged) scalar by SnakeYAML's YAML
// 1.1 patterns. The two shapes most scalars of a flow have are decided
// without them: a word (only the null and bool words are typed) and a
// decimal integer (TestPlainKindAgreesWithThePatterns holds this to the
// patterns alone).
func plainKind(v string) javaKind {
	if v == "" {
		return javaNull
	}
	if !mayBeTyped(v[0]) {
		return javaString
	}
	if c := v[0] | 0x20; c >= 'a' && c <= 'z' {
		switch v {
		case "null", "Null", "NULL":
			return javaNull
		case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
			"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF":
			return javaBool
		}
		return javaString
	}
	if v[0] >= '1' && v[0] <= '9' || v == "0" {
		i := 1
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == len(v) {
			return intKind(v)
		}
	}
	switch {
	case yaml11Null().MatchString(v):
		return javaNull
	case yaml11Bool().MatchString(v):
		return javaBool
	case yaml11Int().MatchString(v):
		return intKind(v)
	case yaml11Sexa().MatchString(v):
		return javaString // Jackson reads base-60 "integers" as text
	case yaml11Float().MatchString(v):
		return javaFloat
	}
	return javaString
}

// mayBeTyped reports whether a plain scalar starting with c may match one
// of the YAML 1.1 patterns above; SnakeYAML's Resolver likewise tries a
// pattern only on the first characters it can start with. Most scalars of
// a flow are text ("Log in", item_3), and skipping five regular
// expressions for them was a tenth of checking a workspace.
func mayBeTyped(c byte) bool {
	switch c {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', // bool, null
		'~', ' ', // null
		'-', '+', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9': // int, sexagesimal, float
		return true
	}
	return false
}

// intKind is an integer's Java type: a long, or BigInteger past it.
func intKind(v string) javaKind {
	s := strings.ReplaceAll(v, "_", "")
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base = 8
	}
	if _, err := strconv.ParseInt(sign+s, base, 64); err != nil {
		return javaBigInt
	}
	return javaInt
}

func (k javaKind) phrase() string {
	switch k {
	case javaNull:
		return "null"
	case javaBool:
		return "a boolean"
	case javaInt, javaFloat:
		return "a number"
	case javaBigInt:
		return "a whole number too large for Maestro"
	case javaString:
		return "text"
	}
	return "a list or a mapping"
}

// castText reads a value Maestro casts to String (as String, or as
// String? when nullable): anything its reader does not type as text fails
// that cast, so flow refuses it here with the way out.
func (d *decoder) castText(n *yaml.Node, what string, nullable bool) (string, error) {
	k := javaScalar(n)
	switch {
	case k == javaString:
		return resolve(n).Value, nil
	case k == javaNull && nullable:
		return "", nil
	}
	hint, got := "write text here", k.phrase()
	if r := resolve(n); r != nil && r.Kind != yaml.ScalarNode {
		got = kindName(r)
	} else if k != javaNull {
		hint = fmt.Sprintf("quote it to pass it as text: %s: %q", lastWord(what), r.Value)
		got += " " + strconv.Quote(r.Value)
	}
	return "", d.errorf(n, "%s must be text, got %s: Maestro casts it to text and fails", what, got).WithHint(hint)
}

func lastWord(s string) string { return s[strings.LastIndex(s, " ")+1:] }

// javaText is the text Maestro gets from a scalar it reads as a value of
// any type and then turns into text (a selector written as a scalar,
// inputText: 4): booleans become true/false, integers their decimal
// value, floats Java's Double.toString. ok is false for a list, a mapping
// or null.
func javaText(n *yaml.Node) (string, bool) {
	k := javaScalar(n)
	r := resolve(n)
	v := strings.ReplaceAll(r.Value, "_", "")
	switch k {
	case javaString:
		return r.Value, true
	case javaBool:
		return strconv.FormatBool(yaml11True(r.Value)), true
	case javaInt, javaBigInt:
		if i, ok := parseYAML11Int(v); ok {
			return i.String(), true
		}
		return r.Value, true
	case javaFloat:
		switch strings.TrimLeft(v, "+") {
		case ".inf", ".Inf", ".INF":
			return "Infinity", true
		case "-.inf", "-.Inf", "-.INF":
			return "-Infinity", true
		case ".nan", ".NaN", ".NAN":
			return "NaN", true
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return javaDouble(f), true
		}
		return r.Value, true
	}
	return "", false
}

func yaml11True(v string) bool {
	switch strings.ToLower(v) {
	case "yes", "true", "on":
		return true
	}
	return false
}

// parseYAML11Int reads a YAML 1.1 integer (0b, 0x, leading-0 octal) of
// any size.
func parseYAML11Int(v string) (*big.Int, bool) {
	neg := false
	if v != "" && (v[0] == '-' || v[0] == '+') {
		neg, v = v[0] == '-', v[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(v, "0b"):
		base, v = 2, v[2:]
	case strings.HasPrefix(v, "0x"):
		base, v = 16, v[2:]
	case len(v) > 1 && v[0] == '0':
		base = 8
	}
	i, ok := new(big.Int).SetString(v, base)
	if ok && neg {
		i.Neg(i)
	}
	return i, ok
}

// javaDouble renders f as Java's Double.toString does (JDK 19 and later,
// the shortest digits that read back as f): plain between 10^-3 and 10^7,
// else d.dddE±n, always with a digit after the point.
func javaDouble(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±xx
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		point := exp + 1 // digits before the point
		switch {
		case point <= 0:
			return sign + "0." + strings.Repeat("0", -point) + digits
		case point >= len(digits):
			return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
		}
		return sign + digits[:point] + "." + digits[point:]
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}

// anyText reads a scalar Maestro takes as a value of any type and then
// turns into text (javaText), warning where that text is not what the
// file says. bigOK says whether Maestro accepts an integer past a long
// there (a selector does; inputText, assertTrue and evalScript do not).
func (d *decoder) anyText(n *yaml.Node, what string, bigOK bool) (canonical.Template, error) {
	r := resolve(n)
	k := javaScalar(r)
	if k == javaBigInt && !bigOK {
		return canonical.Template{}, d.errorf(n, "%s %s is a whole number too large for Maestro, which refuses it here", what, r.Value).
			WithHint(fmt.Sprintf("quote it to pass it as text: %s: %q", what, r.Value))
	}
	text, ok := javaText(r)
	if !ok || k == javaNull {
		return d.template(n, what)
	}
	if text != r.Value {
		d.warnf(n, fmt.Sprintf("quote it to keep the text as written: %q", r.Value),
			"Maestro reads %s here as %s and uses the text %q; so does flow", r.Value, k.phrase(), text)
	}
	return canonical.Text(text, d.pos(r)), nil
}

// appID reads an app id (the header's appId or url, launchApp, stopApp,
// killApp, clearState). Maestro takes any scalar as text, so launchApp: 5
// loads there and then fails to launch an app named "5"; a number or a
// boolean is never an app id, so flow refuses it where it is written.
func (d *decoder) appID(n *yaml.Node, what string) (canonical.Template, error) {
	switch k := javaScalar(n); k {
	case javaInt, javaBigInt, javaFloat, javaBool:
		r := resolve(n)
		return canonical.Template{}, d.errorf(n, "%s %s is %s, not an app id: Maestro would look for an app named %q", what, r.Value, k.phrase(), r.Value).
			WithHint(fmt.Sprintf("write the app's id, such as com.example.app (or quote it if the id really is %q)", r.Value))
	}
	return d.template(n, what)
}

// settleTimeout reads a waitToSettleTimeoutMs. Maestro waits while the
// time is not up and checks at least once (a do-while), so a negative
// value checks once, as 0 does: flow does the same and warns.
func (d *decoder) settleTimeout(n *yaml.Node) (int, error) {
	v, err := d.integer(n, "waitToSettleTimeoutMs")
	if err == nil && v < 0 {
		d.warnf(n, "write 0 or more", "waitToSettleTimeoutMs %d checks the screen once, as 0 does (Maestro too)", v)
	}
	return v, err
}

// kotlinLong is Kotlin's String.toLong as Maestro applies it to text it
// reads when a command runs (scrollUntilVisible's timeout and speed,
// extendedWaitUntil's timeout): a sign and decimal digits, nothing else,
// within a long.
func kotlinLong(s string) (int64, bool) {
	if !asciiInteger().MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// tabIndent finds the tab behind a yaml.v3 tab error, which names the line
// before the tab ("violates indentation") or the tab's line ("cannot
// start any token") and no column: the first tab in the indentation of
// the reported line, the next one or the previous one, where the
// indentation is the spaces, tabs and "-" before a line's first token.
func tabIndent(data []byte, line int, msg string) (canonical.Pos, bool) {
	if !strings.Contains(msg, "tab character") && msg != "found character that cannot start any token" {
		return canonical.Pos{}, false
	}
	lines := strings.Split(string(data), "\n")
	for _, l := range []int{line, line + 1, line - 1} {
		if l < 1 || l > len(lines) {
			continue
		}
		text := lines[l-1]
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c == '\t' {
				return canonical.Pos{Line: l, Col: i + 1}, true
			}
			if c != ' ' && c != '-' {
				break
			}
		}
	}
	return canonical.Pos{}, false
}

// tabError is the error for a tab that indents YAML, at the tab.
func tabError(file string, at canonical.Pos, err error) *canonical.Error {
	at.File = file
	return canonical.NewError(canonical.CodeInvalidArgs, "a tab indents this line: tabs cannot indent YAML; use spaces").
		At(at).Wrap(err).WithHint("replace the tab with spaces (two per level is usual); most editors can show tabs and convert them")
}
