package ad

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
)

// Target annotations (agent-device.md §3.6, ADR 0012 decision 3): a
// recording writes, on the line above an action that resolved an element,
// the identity evidence replay verifies before pointer-down.
//
//	# agent-device:target-v1 {"id":"save","role":"button","label":"Save","ancestry":[],"sibling":0,"viewportOrder":0,"verification":"verified"}
//	# agent-device:targets-v1 {"source":{...},"destination":{...}}
//
// flow reads the agent-device: spelling and its own flow: alias, and always
// writes agent-device: so recordings replay in both tools.

// Limits of an annotation payload.
const (
	MaxTargetPayloadBytes  = 4096
	MaxTargetsPayloadBytes = 2*MaxTargetPayloadBytes + 128 // 8320
	MaxTargetFieldBytes    = 256
	MaxTargetAncestry      = 8
)

// Verification values of target evidence.
const (
	Verified     = "verified"
	Unverifiable = "unverifiable"
)

// TargetEvidence is one element's recorded identity. Empty optional
// strings are absent: normalization drops a field that is empty.
type TargetEvidence struct {
	ID            string          `json:"id,omitempty"`
	Role          string          `json:"role"`
	Label         string          `json:"label,omitempty"`
	Ancestry      []AncestryEntry `json:"ancestry"`
	Sibling       int64           `json:"sibling"`
	ViewportOrder int64           `json:"viewportOrder"`
	ScrollRegion  *ScrollRegion   `json:"scrollRegion,omitempty"`
	Rect          *Rect           `json:"rect,omitempty"`
	Verification  string          `json:"verification"`
}

// AncestryEntry is one ancestor of a target, nearest first.
type AncestryEntry struct {
	Role  string `json:"role"`
	Label string `json:"label,omitempty"`
}

// ScrollRegion is the scroll container a target sits in.
type ScrollRegion struct {
	Role  string `json:"role"`
	ID    string `json:"id,omitempty"`
	Label string `json:"label,omitempty"`
}

// Rect is a target's frame at recording time.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// TargetPair is the evidence of both ends of a target-authored drag.
type TargetPair struct {
	Source      TargetEvidence `json:"source"`
	Destination TargetEvidence `json:"destination"`
}

// Normalizer turns text into Unicode NFC. ad may import only canonical
// and the standard library, and NFC needs golang.org/x/text, so the caller
// supplies it (cmd/flow: norm.NFC.String). Without one, text is kept as
// written: that is exact for every string below U+0300 (always NFC), and
// for recordings, whose writer already normalized every field; only a
// hand-edited, non-NFC label would compare differently.
type Normalizer func(string) string

func (n Normalizer) apply(s string) string {
	if n == nil {
		return s
	}
	return n(s)
}

// annotationKind is what a comment line turned out to be.
type annotationKind int

const (
	notAnnotation annotationKind = iota // an ordinary comment (or a future version)
	singleTarget                        // target-v1
	pairTarget                          // targets-v1
)

// annotationPrefixes are the tags flow reads; the first is what it writes.
func annotationPrefixes() []string { return []string{"agent-device:", "flow:"} }

// matchAnnotation is /^#\s*agent-device:target(s)?-v(\d+)(?:\s+(\S.*))?$/
// on a trimmed comment line. It returns the kind (notAnnotation for any
// other comment and for a version other than 1, which a v1 reader treats
// as a comment) and the payload with its byte offset in the line.
func matchAnnotation(trimmed string) (annotationKind, string, int) {
	rest, ok := strings.CutPrefix(trimmed, "#")
	if !ok {
		return notAnnotation, "", 0
	}
	rest = strings.TrimLeftFunc(rest, isJSSpace)
	var tagged bool
	for _, p := range annotationPrefixes() {
		if r, ok := strings.CutPrefix(rest, p); ok {
			rest, tagged = r, true
			break
		}
	}
	if !tagged {
		return notAnnotation, "", 0
	}
	kind := singleTarget
	if r, ok := strings.CutPrefix(rest, "targets-v"); ok {
		rest, kind = r, pairTarget
	} else if r, ok := strings.CutPrefix(rest, "target-v"); ok {
		rest = r
	} else {
		return notAnnotation, "", 0
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return notAnnotation, "", 0
	}
	version, after := rest[:n], rest[n:]
	payload := ""
	if after != "" {
		r, _ := utf8.DecodeRuneInString(after)
		if !isJSSpace(r) {
			return notAnnotation, "", 0
		}
		payload = strings.TrimLeftFunc(after, isJSSpace)
		// ".*" does not cross a line terminator: such a line is no match.
		if strings.IndexFunc(payload, IsLineTerminator) >= 0 {
			return notAnnotation, "", 0
		}
	}
	// Number("01") === 1: leading zeros still spell version 1.
	if strings.TrimLeft(version, "0") != "1" {
		return notAnnotation, "", 0
	}
	return kind, payload, len(trimmed) - len(payload)
}

// annotationHint is the hint of every annotation error.
const annotationHint = "target annotations are written by recordings; fix the JSON or delete the annotation line to replay without identity checks"

// parseTargetsPayload reads a targets-v1 payload.
func parseTargetsPayload(text string, nfc Normalizer) (*TargetPair, error) {
	if len(text) > MaxTargetsPayloadBytes {
		return nil, annotationErr("targets-v1 annotation exceeds the %d-byte payload cap.", MaxTargetsPayloadBytes)
	}
	v, err := decodeJSONValue(text)
	if err != nil {
		return nil, annotationErr("targets-v1 annotation is not valid JSON.")
	}
	rec, ok := v.(map[string]any)
	if !ok {
		return nil, annotationErr("targets-v1 annotation must be a JSON object.")
	}
	src, okS := rec["source"]
	dst, okD := rec["destination"]
	if !okS || !okD {
		return nil, annotationErr("targets-v1 annotation requires source and destination evidence.")
	}
	// agent-device re-serializes each endpoint and parses it as a target-v1
	// payload, caps included.
	s, err := parseTargetPayload(jsStringify(src), nfc)
	if err != nil {
		return nil, err
	}
	d, err := parseTargetPayload(jsStringify(dst), nfc)
	if err != nil {
		return nil, err
	}
	return &TargetPair{Source: *s, Destination: *d}, nil
}

// parseTargetPayload reads and validates a target-v1 payload: known fields
// in any order, unknown fields ignored, strings normalized, malformed or
// oversized values refused.
func parseTargetPayload(text string, nfc Normalizer) (*TargetEvidence, error) {
	if len(text) > MaxTargetPayloadBytes {
		return nil, annotationErr("target-v1 annotation exceeds the %d-byte payload cap.", MaxTargetPayloadBytes)
	}
	v, err := decodeJSONValue(text)
	if err != nil {
		return nil, annotationErr("target-v1 annotation is not valid JSON.")
	}
	raw, ok := v.(map[string]any)
	if !ok {
		return nil, annotationErr("target-v1 annotation must be a JSON object.")
	}
	var t TargetEvidence
	if t.Role, err = roleField(raw, "role", "role", nfc); err != nil {
		return nil, err
	}
	if t.ID, err = idField(raw, "id", "id", nfc); err != nil {
		return nil, err
	}
	if t.Label, err = labelField(raw, "label", "label", nfc); err != nil {
		return nil, err
	}
	if t.Ancestry, err = ancestryField(raw, nfc); err != nil {
		return nil, err
	}
	if t.Sibling, err = countField(raw, "sibling"); err != nil {
		return nil, err
	}
	if t.ViewportOrder, err = countField(raw, "viewportOrder"); err != nil {
		return nil, err
	}
	if t.ScrollRegion, err = scrollRegionField(raw, nfc); err != nil {
		return nil, err
	}
	if t.Rect, err = rectField(raw); err != nil {
		return nil, err
	}
	switch raw["verification"] {
	case Verified:
		t.Verification = Verified
	case Unverifiable:
		t.Verification = Unverifiable
	default:
		return nil, annotationErr(`target-v1 "verification" must be "verified" or "unverifiable".`)
	}
	return &t, nil
}

func annotationErr(format string, args ...any) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, format, args...).WithHint(annotationHint)
}

func boundField(v, name string) (string, error) {
	if len(v) > MaxTargetFieldBytes {
		return "", annotationErr(`target-v1 %q exceeds the %d-byte field cap.`, name, MaxTargetFieldBytes)
	}
	return v, nil
}

func stringField(rec map[string]any, key, name string) (string, bool, error) {
	v, ok := rec[key]
	if !ok {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, annotationErr(`target-v1 %q must be a string.`, name)
	}
	return s, true, nil
}

// roleField is a required role: NFC only, possibly empty.
func roleField(rec map[string]any, key, name string, nfc Normalizer) (string, error) {
	if _, ok := rec[key]; !ok {
		return "", annotationErr(`target-v1 %q is required.`, name)
	}
	s, _, err := stringField(rec, key, name)
	if err != nil {
		return "", err
	}
	return boundField(nfc.apply(s), name)
}

// idField is an optional identifier: NFC only, never trimmed.
func idField(rec map[string]any, key, name string, nfc Normalizer) (string, error) {
	s, ok, err := stringField(rec, key, name)
	if err != nil || !ok {
		return "", err
	}
	return boundField(nfc.apply(s), name)
}

// labelField is an optional label: NFC, trimmed, whitespace runs collapsed
// to one space.
func labelField(rec map[string]any, key, name string, nfc Normalizer) (string, error) {
	s, ok, err := stringField(rec, key, name)
	if err != nil || !ok {
		return "", err
	}
	return boundField(NormalizeLabel(s, nfc), name)
}

// NormalizeLabel is the label rule of target evidence: NFC, trim, collapse
// every whitespace run (JavaScript's \s) to one space.
func NormalizeLabel(s string, nfc Normalizer) string {
	return strings.Join(strings.FieldsFunc(nfc.apply(s), isJSSpace), " ")
}

func ancestryField(rec map[string]any, nfc Normalizer) ([]AncestryEntry, error) {
	v, ok := rec["ancestry"]
	if !ok {
		return []AncestryEntry{}, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, annotationErr(`target-v1 "ancestry" must be an array.`)
	}
	if len(list) > MaxTargetAncestry {
		return nil, annotationErr(`target-v1 "ancestry" exceeds the %d-entry cap.`, MaxTargetAncestry)
	}
	out := make([]AncestryEntry, 0, len(list))
	for i, e := range list {
		m, isObj := e.(map[string]any)
		if !isObj {
			return nil, annotationErr(`target-v1 "ancestry[%d]" must be an object.`, i)
		}
		role, err := roleField(m, "role", "ancestry["+strconv.Itoa(i)+"].role", nfc)
		if err != nil {
			return nil, err
		}
		label, err := labelField(m, "label", "ancestry["+strconv.Itoa(i)+"].label", nfc)
		if err != nil {
			return nil, err
		}
		out = append(out, AncestryEntry{Role: role, Label: label})
	}
	return out, nil
}

// maxSafeInteger is Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

func countField(rec map[string]any, key string) (int64, error) {
	v, ok := rec[key]
	if !ok {
		return 0, nil
	}
	f, isNum := v.(float64)
	if !isNum || !canonical.IsInteger(f) || f < 0 || f > maxSafeInteger {
		return 0, annotationErr(`target-v1 %q must be a non-negative integer.`, key)
	}
	return int64(f), nil
}

func scrollRegionField(rec map[string]any, nfc Normalizer) (*ScrollRegion, error) {
	v, ok := rec["scrollRegion"]
	if !ok {
		return nil, nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		return nil, annotationErr(`target-v1 "scrollRegion" must be an object.`)
	}
	var r ScrollRegion
	var err error
	if r.Role, err = roleField(m, "role", "scrollRegion.role", nfc); err != nil {
		return nil, err
	}
	if r.ID, err = idField(m, "id", "scrollRegion.id", nfc); err != nil {
		return nil, err
	}
	if r.Label, err = labelField(m, "label", "scrollRegion.label", nfc); err != nil {
		return nil, err
	}
	return &r, nil
}

func rectField(rec map[string]any) (*Rect, error) {
	v, ok := rec["rect"]
	if !ok {
		return nil, nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		return nil, annotationErr(`target-v1 "rect" must be an object.`)
	}
	num := func(key string) (float64, error) {
		f, isNum := m[key].(float64)
		if !isNum || !canonical.IsFinite(f) {
			return 0, annotationErr(`target-v1 "rect.%s" must be a finite number.`, key)
		}
		return f, nil
	}
	var r Rect
	var err error
	if r.X, err = num("x"); err != nil {
		return nil, err
	}
	if r.Y, err = num("y"); err != nil {
		return nil, err
	}
	if r.Width, err = num("width"); err != nil {
		return nil, err
	}
	if r.Height, err = num("height"); err != nil {
		return nil, err
	}
	return &r, nil
}

// decodeJSONValue is JSON.parse: objects become maps (a repeated key keeps
// its last value), numbers float64 (out-of-range literals become ±Inf, as
// in JavaScript), and trailing text is an error.
func decodeJSONValue(text string) (any, error) {
	if !json.Valid([]byte(text)) {
		return nil, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return jsNumbers(v), nil
}

func jsNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return math.NaN()
		}
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = jsNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = jsNumbers(e)
		}
	}
	return v
}

// jsStringify is JSON.stringify of a decoded value, used where agent-device
// re-serializes a value and caps its byte length. Object keys are sorted:
// the order changes no byte count.
func jsStringify(v any) string {
	var b strings.Builder
	writeJS(&b, v)
	return b.String()
}

func writeJS(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		if !canonical.IsFinite(t) {
			b.WriteString("null")
			return
		}
		b.WriteString(canonical.FormatNumber(t))
	case string:
		b.WriteString(QuoteJSON(t))
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(QuoteJSON(k))
			b.WriteByte(':')
			writeJS(b, t[k])
		}
		b.WriteByte('}')
	}
}

// EncodeTarget is the canonical target-v1 payload: fields in the order the
// recorder writes them, compact, with JavaScript's number and string
// formatting.
func EncodeTarget(t TargetEvidence) string {
	var b bytes.Buffer
	b.WriteByte('{')
	sep := func() {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
	}
	str := func(key, v string, always bool) {
		if v == "" && !always {
			return
		}
		sep()
		b.WriteString(`"` + key + `":` + QuoteJSON(v))
	}
	str("id", t.ID, false)
	str("role", t.Role, true)
	str("label", t.Label, false)
	sep()
	b.WriteString(`"ancestry":[`)
	for i, a := range t.Ancestry {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"role":` + QuoteJSON(a.Role))
		if a.Label != "" {
			b.WriteString(`,"label":` + QuoteJSON(a.Label))
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	b.WriteString(`,"sibling":` + strconv.FormatInt(t.Sibling, 10))
	b.WriteString(`,"viewportOrder":` + strconv.FormatInt(t.ViewportOrder, 10))
	if r := t.ScrollRegion; r != nil {
		b.WriteString(`,"scrollRegion":{"role":` + QuoteJSON(r.Role))
		if r.ID != "" {
			b.WriteString(`,"id":` + QuoteJSON(r.ID))
		}
		if r.Label != "" {
			b.WriteString(`,"label":` + QuoteJSON(r.Label))
		}
		b.WriteByte('}')
	}
	if r := t.Rect; r != nil {
		b.WriteString(`,"rect":{"x":` + canonical.FormatNumber(r.X) + `,"y":` + canonical.FormatNumber(r.Y) +
			`,"width":` + canonical.FormatNumber(r.Width) + `,"height":` + canonical.FormatNumber(r.Height) + `}`)
	}
	str("verification", t.Verification, true)
	b.WriteByte('}')
	return b.String()
}

// EncodeTargets is the canonical targets-v1 payload.
func EncodeTargets(p TargetPair) string {
	return `{"source":` + EncodeTarget(p.Source) + `,"destination":` + EncodeTarget(p.Destination) + `}`
}

// IdentityEvidence is the targets-v1 evidence flow writes for an element
// identity it resolved: the id and label a replay checks before
// pointer-down.
func IdentityEvidence(id canonical.Identity) TargetEvidence {
	return TargetEvidence{ID: id.ID, Role: "element", Label: id.Label, Ancestry: []AncestryEntry{}, Verification: Verified}
}
