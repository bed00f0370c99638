package maestro

import (
	"bytes"
	_ "embed" // the schema ships inside the binary: flow schema and validation need no files
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"

	"github.com/flow-runner/flow/canonical"
)

// schemaURL is the schema's $id. The compiler is given the embedded bytes
// under this URL, so compiling never touches the network or the disk.
const schemaURL = "https://github.com/flow-runner/flow/maestro/schema.json"

// schemaJSON is read-only; Schema hands out copies.
//
//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft-07) of a Maestro flow file, as
// printed by flow schema. Editors using yaml-language-server validate each
// of a flow's two documents against it, so its top level accepts either a
// header or a command list. The bytes are the embedded file, pretty-printed
// and stable from build to build.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// schemaValidator checks flow documents against the embedded schema and
// turns failures into coded errors at the offending YAML node. Build it
// once per Loader: compiling the schema takes milliseconds, checking a flow
// well under one. After newSchemaValidator nothing in it changes, so it is
// safe for concurrent use.
type schemaValidator struct {
	// doc is the schema as plain data: messages, enums and descriptions
	// are read from it, so the wording lives next to the rule it explains.
	doc      map[string]any
	compiled map[string]*jsonschema.Schema // by "#/..." pointer
	// plain says which compiled schemas accepts can judge (all of them,
	// unless schema.json grows a keyword accepts does not know).
	plain map[string]bool
	bare  []string
	// defs is commandDef by command name, looked up once.
	defs map[string]string
}

func newSchemaValidator() (*schemaValidator, error) { return newSchemaValidatorOf(schemaJSON) }

func newSchemaValidatorOf(data []byte) (*schemaValidator, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("flow schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("flow schema: %w", err)
	}
	v := &schemaValidator{doc: doc, compiled: map[string]*jsonschema.Schema{}, plain: map[string]bool{}}
	// Every schema a check can start from is compiled now (the compiler
	// shares the work between them), so a broken schema fails here rather
	// than on the first flow with an error.
	ptrs := []string{"#", "#/definitions/header", "#/definitions/commandList"}
	for _, name := range sortedKeys(v.commandProperties()) {
		if def, ok := v.commandDef(name); ok {
			ptrs = append(ptrs, def)
		}
	}
	for _, ptr := range ptrs {
		s, err := c.Compile(schemaURL + ptr)
		if err != nil {
			return nil, fmt.Errorf("flow schema %s: %w", ptr, err)
		}
		v.compiled[ptr] = s
		v.plain[ptr] = allPlain(s, map[*jsonschema.Schema]bool{})
	}
	v.bare = v.bareCommands()
	defs := map[string]string{}
	for name := range v.commandProperties() {
		if def, ok := v.commandDef(name); ok {
			defs[name] = def
		}
	}
	v.defs = defs
	return v, nil
}

func (v *schemaValidator) schema(ptr string) (*jsonschema.Schema, error) {
	if s, ok := v.compiled[ptr]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("flow schema has no compiled definition %s", ptr)
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// validate checks one document of a flow file: the header (isHeader) or
// the command list. Every failure becomes an INVALID_ARGS error at the
// node it is about, sorted by position.
//
// Each command item is checked on its own, with the command lists it
// holds cut out and checked item by item in turn: the validator then never
// sees more than one command's own nesting, so checking stays linear in
// the file however deep its blocks nest. accepts decides; the library runs
// only on what accepts refuses, to word the errors.
func (v *schemaValidator) validate(d *decoder, doc *yaml.Node, isHeader bool) []*canonical.Error {
	in := newInstance(d, isHeader, doc)
	if isHeader {
		return finish(v.whole(in, doc, "#/definitions/header", headerCuts()))
	}
	list := resolve(doc)
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return finish(v.whole(in, doc, "#/definitions/commandList", nil))
	}
	var errs []*canonical.Error
	for i, item := range list.Content {
		if d.stopped() {
			break
		}
		errs = append(errs, v.itemAt(in, item, &lazyPtr{token: strconv.Itoa(i)})...)
		if in.failed != nil {
			return one(in.failed)
		}
	}
	if in.unexplained > 0 {
		errs = append(errs, in.errorAt(in.firstUnexplained, "%s more commands do not match the schema (the first %d are reported)",
			thousands(in.unexplained), maxExplained).WithHint("fix the problems reported above and check again"))
	}
	return finish(errs)
}

// maxExplained bounds how many commands of one document get the library's
// worded errors. Each costs far more than accepts; past this many a flow
// has a systematic problem that the first reports show.
const maxExplained = 100

// whole checks a document against def in one piece (the header, or a
// command list document that is not a list of commands), with the command
// lists cut names cut out and checked item by item.
func (v *schemaValidator) whole(in *instance, doc *yaml.Node, def string, cut *cutRule) []*canonical.Error {
	in.cuts = in.cuts[:0]
	value, err := in.convert(doc, "", cut)
	if err != nil {
		return one(canonical.Coded(err))
	}
	cuts := append([]cutList(nil), in.cuts...)
	var errs []*canonical.Error
	s, ok := v.fastRoot(def)
	ok = ok && accepts(s, value)
	in.recycle(value)
	if !ok {
		in.book, in.cuts = true, in.cuts[:0]
		value, err = in.convert(doc, "", cut)
		in.book = false
		if err != nil {
			return one(canonical.Coded(err))
		}
		errs = v.check(in, def, "", value)
	}
	for _, c := range cuts {
		errs = append(errs, v.cutItems(in, c, &lazyPtr{token: pointerToken(c.key)})...)
	}
	if in.failed != nil {
		return one(in.failed)
	}
	return errs
}

// itemAt checks the command item n, found at p, and the command lists it
// holds.
func (v *schemaValidator) itemAt(in *instance, n *yaml.Node, p *lazyPtr) []*canonical.Error {
	in.cuts = in.cuts[:0]
	value, err := in.convert(n, "", itemCuts())
	if err != nil {
		in.failed = canonical.Coded(err)
		return nil
	}
	cuts := append([]cutList(nil), in.cuts...)
	var errs []*canonical.Error
	name, ok := v.fastItem(value)
	in.recycle(value)
	if !ok {
		if in.explained >= maxExplained {
			if in.unexplained == 0 {
				in.firstUnexplained = n
			}
			in.unexplained++
			return nil
		}
		in.explained++
		loc := p.String()
		in.book, in.cuts = true, in.cuts[:0]
		if _, err := in.convert(n, loc, itemCuts()); err != nil {
			in.book = false
			in.failed = canonical.Coded(err)
			return nil
		}
		in.book = false
		errs, name = v.item(in, loc)
	}
	for _, c := range cuts {
		if c.owner != name {
			continue // Maestro runs only the chosen command of an item
		}
		errs = append(errs, v.cutItems(in, c, p.child(pointerToken(c.owner)).child(c.key))...)
		if in.failed != nil {
			return nil
		}
	}
	return errs
}

// cutItems checks the items of a cut-out command list.
func (v *schemaValidator) cutItems(in *instance, c cutList, p *lazyPtr) []*canonical.Error {
	if in.active[c.node] {
		in.failed = in.errorAt(c.at, "alias refers to a value that contains it").
			WithHint("an anchor (&name) cannot be used inside itself")
		return nil
	}
	in.active[c.node] = true
	defer delete(in.active, c.node)
	var errs []*canonical.Error
	for j, item := range c.node.Content {
		if in.d.stopped() {
			break
		}
		errs = append(errs, v.itemAt(in, item, p.child(strconv.Itoa(j)))...)
		if in.failed != nil {
			return nil
		}
	}
	return errs
}

// fastItem decides a command item as item does, with accepts: it returns
// the command that runs and whether the item is valid. An item it cannot
// decide cheaply (no command, or two commands of equal precedence) is
// left to item.
func (v *schemaValidator) fastItem(value any) (string, bool) {
	switch x := value.(type) {
	case string:
		return x, contains(v.bare, x)
	case map[string]any:
		name, tie := "", false
		for n := range x {
			switch {
			case name == "" || precedence(n) < precedence(name):
				name, tie = n, false
			case precedence(n) == precedence(name):
				tie = true
			}
		}
		if name == "" || tie || x[name] == nil {
			return "", false
		}
		def, ok := v.commandDef(name)
		if !ok {
			return "", false
		}
		s, ok := v.fastRoot(def)
		return name, ok && accepts(s, x[name])
	}
	return "", false
}

// fastRoot is the compiled schema of def when accepts can judge it.
func (v *schemaValidator) fastRoot(def string) (*jsonschema.Schema, bool) {
	s, ok := v.compiled[def]
	return s, ok && v.plain[def]
}

// lazyPtr is a JSON pointer built only when an error needs it: building
// every command's pointer up front made deep nesting quadratic.
type lazyPtr struct {
	parent *lazyPtr
	token  string
}

func (p *lazyPtr) child(token string) *lazyPtr { return &lazyPtr{parent: p, token: token} }

func (p *lazyPtr) String() string {
	if p == nil {
		return ""
	}
	return p.parent.String() + "/" + p.token
}

// check validates value (found at base in the document) against the
// schema definition def.
func (v *schemaValidator) check(in *instance, def, base string, value any) []*canonical.Error {
	s, err := v.schema(def)
	if err != nil {
		return one(canonical.Errorf(canonical.CodeInternal, "%v", err).At(in.pos(base)))
	}
	err = s.Validate(value)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return one(canonical.Errorf(canonical.CodeInternal, "schema validation failed: %v", err).At(in.pos(base)))
	}
	return v.explain(in, def, base, ve)
}

// explain turns a validation error tree into errors about the user's YAML:
// a command item is re-checked against its own command's schema, a oneOf
// or anyOf keeps only the branch whose type matches the value, and the
// leaves left become messages.
func (v *schemaValidator) explain(in *instance, def, base string, e *jsonschema.ValidationError) []*canonical.Error {
	if e.AbsoluteKeywordLocation == schemaURL+"#/definitions/commandItem/oneOf" {
		loc := base + e.InstanceLocation
		if errs, _ := v.item(in, loc); len(errs) > 0 {
			return errs
		}
		return one(in.errorAt(in.nodes[loc], "a command must be a name or a name: value mapping, got %s", describeValue(in.values[loc])).
			WithHint("write - tapOn: \"Log in\""))
	}
	r := v.resolve(def, e.KeywordLocation)
	switch r.keyword {
	case "anyOf", "oneOf", "not", "type":
		if msg, ok := r.holder["errorMessage"].(string); ok {
			return v.leaf(in, base, e, r, msg)
		}
	}
	if (r.keyword == "anyOf" || r.keyword == "oneOf") && len(e.Causes) > 0 {
		var typed []*jsonschema.ValidationError
		var wanted []string
		for _, c := range e.Causes {
			if types, ok := v.typeMismatch(def, c, e.InstanceLocation); ok {
				wanted = append(wanted, types...)
				continue
			}
			typed = append(typed, c)
		}
		if len(typed) == 0 {
			loc := base + e.InstanceLocation
			return one(in.errorAt(in.nodes[loc], "%s must be %s, got %s",
				in.subject(loc), typesPhrase(wanted), describeValue(in.values[loc])).WithHint(v.hint(r, in.subject(loc))))
		}
		return v.explain(in, def, base, deepest(typed))
	}
	if len(e.Causes) > 0 {
		var out []*canonical.Error
		for _, c := range e.Causes {
			out = append(out, v.explain(in, def, base, c)...)
		}
		return out
	}
	return v.leaf(in, base, e, r, "")
}

// typeMismatch reports whether branch failed only because the value has
// another JSON type than the branch wants, and which types it wants.
func (v *schemaValidator) typeMismatch(def string, branch *jsonschema.ValidationError, loc string) ([]string, bool) {
	for len(branch.Causes) == 1 {
		branch = branch.Causes[0]
	}
	if len(branch.Causes) > 0 || branch.InstanceLocation != loc {
		return nil, false
	}
	r := v.resolve(def, branch.KeywordLocation)
	if r.keyword != "type" {
		return nil, false
	}
	return stringList(r.holder["type"]), true
}

// deepest picks, among branches whose type matched, the one that got
// furthest into the value: its errors are the most specific.
func deepest(branches []*jsonschema.ValidationError) *jsonschema.ValidationError {
	best, bestDepth := branches[0], -1
	for _, b := range branches {
		if d := maxDepth(b); d > bestDepth {
			best, bestDepth = b, d
		}
	}
	return best
}

func maxDepth(e *jsonschema.ValidationError) int {
	d := strings.Count(e.InstanceLocation, "/")
	for _, c := range e.Causes {
		d = max(d, maxDepth(c))
	}
	return d
}

// item checks one command list item: a bare command, or a mapping with one
// command whose value is checked against that command's schema only, which
// gives the precise errors that the oneOf over every command cannot. It
// also returns the command that runs.
func (v *schemaValidator) item(in *instance, loc string) ([]*canonical.Error, string) {
	node := in.nodes[loc]
	switch x := in.values[loc].(type) {
	case string:
		if contains(v.bare, x) {
			return nil, x
		}
		if _, ok := v.commandDef(x); ok {
			return one(in.errorAt(node, "%s needs a value", x).
				WithHint(fmt.Sprintf("write %s: ... (for example %s)", x, exampleOf(x)))), x
		}
		return one(v.unknownCommand(in, node, x)), x
	case map[string]any:
		names := in.keyOrder(loc)
		if len(names) == 0 {
			return one(in.errorAt(node, "empty command").WithHint("write a command after the dash, for example - back")), ""
		}
		// Maestro accepts several command keys in one item and runs the
		// first by its precedence; the loader warns. Check the one that runs.
		name := names[0]
		for _, n := range names[1:] {
			if precedence(n) < precedence(name) {
				name = n
			}
		}
		at := loc + "/" + pointerToken(name)
		def, ok := v.commandDef(name)
		if !ok {
			return one(v.unknownCommand(in, in.keys[at], name)), name
		}
		if x[name] == nil {
			hint := fmt.Sprintf("give %s a value, for example %s", name, exampleOf(name))
			if contains(v.bare, name) {
				hint = fmt.Sprintf("write - %s without the colon, or give it a value", name)
			}
			return one(in.errorAt(in.keys[at], "%s has no value", name).WithHint(hint)), name
		}
		return v.check(in, def, at, x[name]), name
	}
	return one(in.errorAt(node, "a command must be a name or a name: value mapping, got %s", describeValue(in.values[loc])).
		WithHint("write - tapOn: \"Log in\"")), ""
}

func (v *schemaValidator) unknownCommand(in *instance, node *yaml.Node, name string) *canonical.Error {
	e := canonical.Coded(unknownCommand(in.d, node, name))
	e.Message = "schema: " + e.Message
	return e
}

// commandDef is the definition a command's value is checked against, as
// the schema's commandMapping names it (the property names are command
// names; "hide keyboard" is not a definition name).
func (v *schemaValidator) commandDef(name string) (string, bool) {
	if v.defs != nil {
		def, ok := v.defs[name]
		return def, ok
	}
	p, ok := v.commandProperties()[name].(map[string]any)
	if !ok {
		return "", false
	}
	ref, ok := p["$ref"].(string)
	return ref, ok
}

func (v *schemaValidator) commandProperties() map[string]any {
	m, _ := v.lookup("#/definitions/commandMapping")["properties"].(map[string]any)
	return m
}

func (v *schemaValidator) bareCommands() []string {
	return stringList(v.lookup("#/definitions/bareCommand")["enum"])
}

// resolved is where a keyword sits in the schema: the keyword, the schema
// object holding it, and the schema that describes the value being checked
// (the property or item schema the path last entered), for hints.
type resolved struct {
	keyword string
	tokens  []string // the keyword path, for keywords spread over several tokens
	holder  map[string]any
	subject map[string]any
}

// resolve walks a keyword location (relative to def, "$ref" steps
// included, as jsonschema reports it) through the schema document.
func (v *schemaValidator) resolve(def, keywordLocation string) resolved {
	tokens := splitPointer(keywordLocation)
	r := resolved{tokens: tokens, holder: v.lookup(def)}
	r.subject = r.holder
	n := len(tokens)
	switch {
	case n == 0:
		return r
	case n >= 2 && isIndex(tokens[n-1]) && (tokens[n-2] == "allOf" || tokens[n-2] == "anyOf" || tokens[n-2] == "oneOf"):
		r.keyword = tokens[n-2] + "/" // a wrapper around one branch
		tokens = tokens[:n-2]
	case n >= 3 && tokens[n-3] == "dependencies":
		r.keyword = "dependencies"
		tokens = tokens[:n-3]
	default:
		r.keyword = tokens[n-1]
		tokens = tokens[:n-1]
	}
	var cur any = r.holder
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch c := cur.(type) {
		case map[string]any:
			switch {
			case t == "$ref":
				ref, _ := c["$ref"].(string)
				cur = v.lookup(ref)
				continue
			case t == "properties" && i+1 < len(tokens):
				cur = dig(c, "properties", tokens[i+1])
				i++
			default:
				cur = c[t]
			}
			// The schema of a property, an item or any other value is what
			// a hint should describe.
			if m, ok := cur.(map[string]any); ok && (t == "properties" || t == "items" || t == "additionalProperties") {
				r.subject = m
			}
		case []any:
			j, err := strconv.Atoi(t)
			if err != nil || j < 0 || j >= len(c) {
				return r
			}
			cur = c[j]
		default:
			return r
		}
	}
	if m, ok := cur.(map[string]any); ok {
		r.holder = m
	}
	return r
}

// lookup finds a "#/..." pointer in the schema document.
func (v *schemaValidator) lookup(ptr string) map[string]any {
	var cur any = v.doc
	for _, t := range splitPointer(strings.TrimPrefix(ptr, "#")) {
		m, ok := cur.(map[string]any)
		if !ok {
			return map[string]any{}
		}
		cur = m[t]
	}
	m, _ := cur.(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

// leaf words one failed keyword. msg, when set, is the schema's own
// errorMessage for the keyword's schema.
func (v *schemaValidator) leaf(in *instance, base string, e *jsonschema.ValidationError, r resolved, msg string) []*canonical.Error {
	loc := base + e.InstanceLocation
	subject := in.subject(loc)
	value := in.values[loc]
	got := describeValue(value)
	hint := v.hint(r, subject)
	if n := len(r.tokens); n >= 2 && r.tokens[n-2] == "propertyNames" {
		// The value checked is the key itself; say so and point at it.
		parent := loc[:strings.LastIndex(loc, "/")]
		phrase, _ := r.holder["patternErrorMessage"].(string)
		if phrase == "" {
			phrase = "is not an accepted key"
		}
		return one(in.errorAt(in.keys[loc], "%s key %q %s", in.subject(parent), lastToken(loc), phrase).
			WithHint(v.hint(r, in.subject(parent))))
	}
	switch r.keyword {
	case "type":
		if msg == "" {
			msg = "must be " + typesPhrase(stringList(r.holder["type"]))
		}
		return one(in.errorAt(in.nodes[loc], "%s %s, got %s", subject, msg, got).WithHint(hint))
	case "anyOf", "oneOf", "not":
		if msg == "" {
			msg = "combines keys in a way that is not allowed"
		}
		return one(in.errorAt(in.keyOrValue(loc), "%s %s", subject, msg).WithHint(hint))
	case "enum":
		return one(in.errorAt(in.nodes[loc], "%s must be one of %s, got %s", subject, listValues(r.holder["enum"]), got).
			WithHint(didYouMean(value, r.holder["enum"]) + hint))
	case "const":
		return one(in.errorAt(in.nodes[loc], "%s must be %s, got %s", subject, listValues([]any{r.holder["const"]}), got).WithHint(hint))
	case "pattern":
		phrase, _ := r.holder["patternErrorMessage"].(string)
		if phrase == "" {
			phrase = "does not have the expected form"
		}
		return one(in.errorAt(in.nodes[loc], "%s %s, got %s", subject, phrase, got).
			WithHint(didYouMean(value, r.holder["examples"]) + hint))
	case "required":
		obj, _ := value.(map[string]any)
		var missing []string
		for _, k := range stringList(r.holder["required"]) {
			if _, ok := obj[k]; !ok {
				missing = append(missing, k)
			}
		}
		h := "add " + strings.Join(missing, " and ")
		if len(missing) == 1 {
			if d := v.describedAs(r.holder, missing[0]); d != "" {
				h = fmt.Sprintf("add %s: %s", missing[0], d)
			}
		}
		return one(in.errorAt(in.keyOrValue(loc), "%s needs %s", subject, strings.Join(missing, " and ")).WithHint(h))
	case "additionalProperties":
		return v.unknownKeys(in, loc, r.holder)
	case "dependencies":
		key := r.tokens[len(r.tokens)-2]
		needs := stringList(dig(r.holder, "dependencies", key))
		return one(in.errorAt(in.keyOrValue(loc+"/"+pointerToken(key)), "%s: %s needs %s", subject, key, strings.Join(needs, " and ")).
			WithHint("add " + strings.Join(needs, " and ")))
	case "minItems":
		if least, _ := r.holder["minItems"].(float64); least <= 1 {
			return one(in.errorAt(in.nodes[loc], "%s must not be empty", subject).WithHint(hint))
		}
		return one(in.errorAt(in.nodes[loc], "%s needs at least %v items", subject, r.holder["minItems"]).WithHint(hint))
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return one(in.errorAt(in.nodes[loc], "%s is out of range (%s %v), got %s", subject, r.keyword, r.holder[r.keyword], got).WithHint(hint))
	}
	if r.keyword == "" {
		return one(in.errorAt(in.nodes[loc], "%s is not allowed here", subject).WithHint(hint))
	}
	return one(in.errorAt(in.nodes[loc], "%s does not satisfy the schema's %s rule", subject, strings.TrimSuffix(r.keyword, "/")).WithHint(hint))
}

func one(e *canonical.Error) []*canonical.Error { return []*canonical.Error{e} }

// didYouMean names the accepted value nearest to a mistyped one, ignoring
// letter case, or says nothing.
func didYouMean(value, accepted any) string {
	s, ok := value.(string)
	if !ok {
		return ""
	}
	choices := stringList(accepted)
	lower := make([]string, len(choices))
	for i, c := range choices {
		lower[i] = strings.ToLower(c)
	}
	near := canonical.Closest(strings.ToLower(s), lower)
	for i, l := range lower {
		if near != "" && l == near {
			return fmt.Sprintf("did you mean %q? ", choices[i])
		}
	}
	return ""
}

// unknownKeys reports each key the schema does not allow, at the key.
func (v *schemaValidator) unknownKeys(in *instance, loc string, holder map[string]any) []*canonical.Error {
	props, _ := holder["properties"].(map[string]any)
	allowed := sortedKeys(props)
	var out []*canonical.Error
	for _, k := range in.keyOrder(loc) {
		if _, ok := props[k]; ok {
			continue
		}
		h := in.subject(loc) + " accepts: " + strings.Join(allowed, ", ")
		if near := canonical.Closest(k, allowed); near != "" {
			h = fmt.Sprintf("did you mean %q? %s", near, h)
		}
		out = append(out, in.errorAt(in.keys[loc+"/"+pointerToken(k)], "unknown key %q in %s", k, in.subject(loc)).WithHint(h))
	}
	if len(out) == 0 {
		out = one(in.errorAt(in.nodes[loc], "%s has keys it does not accept", in.subject(loc)))
	}
	return out
}

// hint explains what the checked value is for, from the schema's
// description of it.
func (v *schemaValidator) hint(r resolved, subject string) string {
	d := v.description(r.subject)
	if d == "" {
		d = v.description(r.holder)
	}
	if d == "" {
		return "run flow schema to see every command and key"
	}
	return subject + ": " + d
}

// description is a schema's own description, else its $ref target's.
func (v *schemaValidator) description(s map[string]any) string {
	if d, ok := s["description"].(string); ok {
		return d
	}
	if ref, ok := s["$ref"].(string); ok {
		d, _ := v.lookup(ref)["description"].(string)
		return d
	}
	return ""
}

// describedAs is the description of holder's property key.
func (v *schemaValidator) describedAs(holder map[string]any, key string) string {
	p, _ := dig(holder, "properties", key).(map[string]any)
	return v.description(p)
}

func dig(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		c, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = c[k]
	}
	return cur
}

// finish sorts errors by position and drops repeats: the same failure can
// surface through several schema paths.
func finish(errs []*canonical.Error) []*canonical.Error {
	seen := map[string]bool{}
	var out []*canonical.Error
	for _, e := range errs {
		if e == nil {
			continue
		}
		k := e.Error()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// instance is one YAML document converted to JSON data for the validator.
// While book is set, convert also records the YAML node behind every JSON
// pointer so errors point at the file; it is set only to word the errors
// of a value accepts refused.
type instance struct {
	d      *decoder
	header bool
	// budget is how many values convert may still make: the document's
	// own nodes plus what aliases may add (limit). Without it nine lines
	// of nested aliases expand to a billion values.
	budget, limit int
	book          bool
	values        map[string]any        // pointer -> converted value
	nodes         map[string]*yaml.Node // pointer -> value node (the alias itself for *a)
	keys          map[string]*yaml.Node // pointer -> key node of a mapping entry

	cuts   []cutList
	active map[*yaml.Node]bool // nodes being converted, and cut lists being checked

	// spareMaps and spareLists are the containers of values accepts has
	// judged, cleared for the next command's: converting a new map per
	// mapping of every command was a tenth of what checking allocated.
	spareMaps  []map[string]any
	spareLists [][]any

	explained, unexplained int
	firstUnexplained       *yaml.Node
	// failed stops the check: the document cannot be converted.
	failed *canonical.Error
}

func newInstance(d *decoder, header bool, doc *yaml.Node) *instance {
	written := countNodes(doc)
	return &instance{d: d, header: header, budget: written + aliasValueLimit(written), limit: aliasValueLimit(written),
		values: map[string]any{}, nodes: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{},
		active: map[*yaml.Node]bool{}}
}

// cutRule says which entries of a mapping hold command lists to cut out
// (lists), and which rule applies inside each entry's value (inner).
type cutRule struct {
	owner string // the command whose value this is
	lists []string
	inner func(key string) *cutRule
}

// cutList is a command list convert cut out: a one-command stub stands in
// for it in the converted value.
type cutList struct {
	owner, key string
	node       *yaml.Node // the list
	at         *yaml.Node // where it is written (the alias for *name)
}

func headerCuts() *cutRule { return &cutRule{lists: hookKeys()} }

func itemCuts() *cutRule {
	return &cutRule{inner: func(name string) *cutRule {
		if key, ok := blockList(name); ok {
			return &cutRule{owner: name, lists: []string{key}}
		}
		return nil
	}}
}

// cutStub stands in for a cut-out command list: a valid list, so the
// list's own checks (its type, not being empty) still run on the real one.
func cutStub() []any { return []any{"back"} }

// convert turns a node into map[string]any, []any, string, int64, float64,
// bool or nil, by the scalar's resolved tag: keys stay text (true: is the
// key "true"), inputText: 4 is the number 4, and a merge key (<<) is a key
// like any other, as Maestro reads it. ptr is where n is (used only while
// booking); cut says which command lists to cut out of a mapping.
func (in *instance) convert(n *yaml.Node, ptr string, cut *cutRule) (any, error) {
	if !in.book {
		in.budget--
		if in.budget < 0 {
			e := aliasValuesError(in.d, n, in.limit)
			e.Message = "schema: " + e.Message
			return nil, e
		}
	} else {
		in.nodes[ptr] = n
	}
	r := resolve(n)
	if r == nil {
		return nil, nil
	}
	if in.active[r] {
		return nil, in.errorAt(n, "alias refers to a value that contains it").
			WithHint("an anchor (&name) cannot be used inside itself")
	}
	var out any
	switch r.Kind {
	case yaml.ScalarNode:
		out = scalarValue(r)
	case yaml.SequenceNode:
		in.active[r] = true
		list := in.newList(len(r.Content))
		for i, c := range r.Content {
			var cp string
			if in.book {
				cp = ptr + "/" + strconv.Itoa(i)
			}
			cv, err := in.convert(c, cp, nil)
			if err != nil {
				return nil, err
			}
			list = append(list, cv)
		}
		delete(in.active, r)
		out = list
	case yaml.MappingNode:
		m := in.newMap()
		if err := in.mapping(r, ptr, m, cut); err != nil {
			return nil, err
		}
		out = m
	}
	if in.book {
		in.values[ptr] = out
	}
	return out, nil
}

// newMap is an empty map for convert: a spare one unless booking, whose
// values stay for the errors.
func (in *instance) newMap() map[string]any {
	if n := len(in.spareMaps); n > 0 && !in.book {
		m := in.spareMaps[n-1]
		in.spareMaps = in.spareMaps[:n-1]
		return m
	}
	return map[string]any{}
}

// newList is an empty list of capacity size for convert, as newMap.
func (in *instance) newList(size int) []any {
	if n := len(in.spareLists); n > 0 && !in.book && cap(in.spareLists[n-1]) >= size {
		l := in.spareLists[n-1]
		in.spareLists = in.spareLists[:n-1]
		return l
	}
	return make([]any, 0, size)
}

// recycle keeps the maps and lists of a value converted without booking
// for newMap and newList, once nothing reads the value any more.
func (in *instance) recycle(v any) {
	if in.book {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			in.recycle(e)
		}
		clear(x)
		in.spareMaps = append(in.spareMaps, x)
	case []any:
		for _, e := range x {
			in.recycle(e)
		}
		clear(x)
		in.spareLists = append(in.spareLists, x[:0])
	}
}

// mapping adds n's entries to out as Maestro's reader sees them: the last
// of duplicate keys wins (the loader warns).
func (in *instance) mapping(n *yaml.Node, ptr string, out map[string]any, cut *cutRule) error {
	in.active[n] = true
	defer delete(in.active, n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := k.Value
		if k.Kind != yaml.ScalarNode {
			key = "(" + kindName(k) + ")"
		}
		var p string
		if in.book {
			p = ptr + "/" + pointerToken(key)
			in.keys[p] = k
		}
		if cut != nil && contains(cut.lists, key) {
			if list := resolve(val); list != nil && list.Kind == yaml.SequenceNode && len(list.Content) > 0 {
				in.cuts = append(in.cuts, cutList{owner: cut.owner, key: key, node: list, at: val})
				if in.book {
					in.nodes[p] = val
					in.values[p] = cutStub()
				}
				out[key] = cutStub()
				continue
			}
		}
		var inner *cutRule
		if cut != nil && cut.inner != nil {
			inner = cut.inner(key)
		}
		cv, err := in.convert(val, p, inner)
		if err != nil {
			return err
		}
		out[key] = cv
	}
	return nil
}

// scalarValue types a scalar as Maestro's reader does (javaScalar: YAML
// 1.1, so yes is true and 017 is 15), so the schema judges what Maestro
// reads.
func scalarValue(n *yaml.Node) any {
	switch javaScalar(n) {
	case javaNull:
		return nil
	case javaBool:
		return yaml11True(n.Value)
	case javaInt, javaBigInt:
		if i, ok := parseYAML11Int(strings.ReplaceAll(n.Value, "_", "")); ok {
			if i.IsInt64() {
				return i.Int64()
			}
			f, _ := new(big.Float).SetInt(i).Float64()
			return f
		}
	case javaFloat:
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && finite(f) {
			return f
		}
	}
	// Text, and numbers JSON cannot hold (.inf, .nan), are their text.
	return n.Value
}

func finite(f float64) bool { return f-f == 0 }

func (in *instance) pos(ptr string) canonical.Pos { return in.d.pos(in.nodes[ptr]) }

func (in *instance) errorAt(n *yaml.Node, format string, args ...any) *canonical.Error {
	return in.d.errorf(n, "schema: "+format, args...)
}

// keyOrValue is where an error about a whole mapping points: the key that
// introduces it (tapOn:), or the mapping itself at the top of a document.
func (in *instance) keyOrValue(ptr string) *yaml.Node {
	if k, ok := in.keys[ptr]; ok {
		return k
	}
	return in.nodes[ptr]
}

// keyOrder lists a mapping's keys in file order (Go maps have none).
func (in *instance) keyOrder(ptr string) []string {
	m, _ := in.values[ptr].(map[string]any)
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := in.keys[ptr+"/"+pointerToken(names[i])], in.keys[ptr+"/"+pointerToken(names[j])]
		if a == nil || b == nil || a.Line == b.Line && a.Column == b.Column {
			return names[i] < names[j]
		}
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	return names
}

// subject names the value at ptr for a message: from the innermost
// command (tapOn.below.id), or from the header's key (env.USER).
func (in *instance) subject(ptr string) string {
	tokens := splitPointer(ptr)
	start := -1
	for i := 1; i < len(tokens); i++ {
		if !isIndex(tokens[i-1]) {
			continue
		}
		inList := i-1 == 0 && !in.header
		if i >= 2 {
			switch tokens[i-2] {
			case "commands", "onFlowStart", "onFlowComplete":
				inList = true
			}
		}
		if inList && contains(CommandNames(), tokens[i]) {
			start = i
		}
	}
	var b strings.Builder
	if start < 0 {
		start = 0
		if in.header {
			if len(tokens) == 0 {
				return "the header"
			}
		} else {
			if len(tokens) == 0 {
				return "the commands"
			}
			b.WriteString("commands")
		}
	}
	for _, t := range tokens[start:] {
		if isIndex(t) {
			fmt.Fprintf(&b, "[%s]", t)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// pointerToken escapes a key exactly as jsonschema/v5 writes it into an
// instance location (RFC 6901, then URL path escaping), so the locations it
// reports are keys of instance.nodes.
func pointerToken(s string) string {
	s = strings.ReplaceAll(s, "~", "~0")
	s = strings.ReplaceAll(s, "/", "~1")
	return url.PathEscape(s)
}

func unpointerToken(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	s = strings.ReplaceAll(s, "~1", "/")
	return strings.ReplaceAll(s, "~0", "~")
}

func splitPointer(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	parts := strings.Split(p, "/")
	for i, t := range parts {
		parts[i] = unpointerToken(t)
	}
	return parts
}

func lastToken(ptr string) string {
	return unpointerToken(ptr[strings.LastIndex(ptr, "/")+1:])
}

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func stringList(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, s := range x {
			if s, ok := s.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// typesPhrase words JSON types for a user writing YAML. Text absorbs
// numbers and booleans: Maestro reads those as their text.
func typesPhrase(types []string) string {
	has := map[string]bool{}
	for _, t := range types {
		has[t] = true
	}
	var parts []string
	add := func(t, phrase string) {
		if has[t] {
			parts = append(parts, phrase)
		}
	}
	add("string", "text")
	if !has["string"] {
		add("number", "a number")
		if !has["number"] {
			add("integer", "a whole number")
		}
		add("boolean", "true or false")
	}
	add("array", "a list")
	add("object", "a mapping")
	add("null", "nothing")
	switch len(parts) {
	case 0:
		return "something else"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case string:
		if r := []rune(x); len(r) > 40 {
			x = string(r[:37]) + "..."
		}
		return strconv.Quote(x)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return fmt.Sprint(v)
}

func listValues(v any) string {
	list, _ := v.([]any)
	parts := make([]string, 0, len(list))
	for _, x := range list {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}

// sharedSchemaValidator compiles the schema once per process: compiling
// takes milliseconds and every Loader needs the same read-only validator.
// It is the package's one lazily built value (a documented exception to
// "no globals": it is immutable once built).
var sharedSchemaValidator = sync.OnceValues(newSchemaValidator)

// shared139SchemaValidator is sharedSchemaValidator for SchemaFor(1.39).
var shared139SchemaValidator = sync.OnceValues(func() (*schemaValidator, error) {
	data, err := schema139()
	if err != nil {
		return nil, err
	}
	return newSchemaValidatorOf(data)
})

// schemaValidatorFor is the shared validator of Maestro version v.
func schemaValidatorFor(v canonical.MaestroVersion) (*schemaValidator, error) {
	if v == canonical.Maestro139 {
		return shared139SchemaValidator()
	}
	return sharedSchemaValidator()
}

// SchemaFor is the schema of Maestro version v's flows: Schema for the
// current Maestro; for 1.39 the same without CurrentOnlyCommands, so a
// flow checked under --maestro-version 1.39 is refused what 1.39 refuses.
func SchemaFor(v canonical.MaestroVersion) ([]byte, error) {
	if v == canonical.Maestro139 {
		return schema139()
	}
	return Schema(), nil
}

// schema139 derives 1.39's schema from the embedded one by removing the
// current Maestro's commands from the command mapping, its key list and
// the bare commands (their definitions stay, unreferenced), and the
// current Maestro's selector keys from the selector mappings.
func schema139() ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		return nil, fmt.Errorf("flow schema is not JSON: %w", err)
	}
	defs, _ := doc["definitions"].(map[string]any)
	mapping, _ := defs["commandMapping"].(map[string]any)
	props, _ := mapping["properties"].(map[string]any)
	drop := map[string]bool{}
	for _, name := range CurrentOnlyCommands() {
		drop[name] = true
		delete(props, name)
	}
	without := func(holder map[string]any) {
		list, _ := holder["enum"].([]any)
		var kept []any
		for _, x := range list {
			if s, ok := x.(string); !ok || !drop[s] {
				kept = append(kept, x)
			}
		}
		if list != nil {
			holder["enum"] = kept
		}
	}
	if names, ok := mapping["propertyNames"].(map[string]any); ok {
		without(names)
	}
	if bare, ok := defs["bareCommand"].(map[string]any); ok {
		without(bare)
	}
	// The selector keys 1.39.10's YamlElementSelector lacks (css).
	for _, name := range []string{"selectorMapping", "tapSelectorMapping"} {
		def, _ := defs[name].(map[string]any)
		if props, ok := def["properties"].(map[string]any); ok {
			for _, k := range currentSelectorKeys() {
				delete(props, k)
			}
		}
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
