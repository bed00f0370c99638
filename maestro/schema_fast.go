package maestro

import (
	"fmt"
	"math"
	"math/big"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The library validator builds an error for every branch of a oneOf that
// does not match, with a keyword path as long as the schema path that led
// there: a valid flow of 100,000 commands took seconds, and blocks nested
// 1,000 deep minutes. accepts answers only "valid or not", on the same
// compiled schemas, and allocates nothing; the library runs only on the
// commands accepts refuses, to word the errors.

// plainSchema reports whether accepts implements every keyword s uses:
// the ones flow's schema.json writes. A schema using another keyword is
// left to the library.
func plainSchema(s *jsonschema.Schema) bool {
	switch s.Items.(type) {
	case nil, *jsonschema.Schema:
	default:
		return false
	}
	return s.Format == "" && s.RecursiveRef == nil && s.DynamicRef == nil && s.If == nil &&
		s.MaxProperties == -1 && !s.RegexProperties && len(s.DependentRequired) == 0 &&
		len(s.DependentSchemas) == 0 && s.UnevaluatedProperties == nil && s.MaxItems == -1 &&
		!s.UniqueItems && s.AdditionalItems == nil && len(s.PrefixItems) == 0 && s.Items2020 == nil &&
		s.Contains == nil && s.UnevaluatedItems == nil && s.MinLength == -1 && s.MaxLength == -1 &&
		s.ContentEncoding == "" && s.ContentMediaType == "" && s.ContentSchema == nil &&
		s.Minimum == nil && s.ExclusiveMinimum == nil && s.Maximum == nil && s.ExclusiveMaximum == nil &&
		s.MultipleOf == nil && len(s.Extensions) == 0
}

// allPlain reports whether s and every schema it reaches are plain.
func allPlain(s *jsonschema.Schema, seen map[*jsonschema.Schema]bool) bool {
	if s == nil || seen[s] {
		return true
	}
	seen[s] = true
	if !plainSchema(s) {
		return false
	}
	subs := []*jsonschema.Schema{s.Ref, s.Not, s.PropertyNames}
	subs = append(subs, s.AllOf...)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.OneOf...)
	for _, p := range s.Properties {
		subs = append(subs, p)
	}
	for _, p := range s.PatternProperties {
		subs = append(subs, p)
	}
	if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		subs = append(subs, a)
	}
	for _, d := range s.Dependencies {
		switch d := d.(type) {
		case *jsonschema.Schema:
			subs = append(subs, d)
		case []string:
		default:
			return false
		}
	}
	if it, ok := s.Items.(*jsonschema.Schema); ok {
		subs = append(subs, it)
	}
	for _, sub := range subs {
		if !allPlain(sub, seen) {
			return false
		}
	}
	return true
}

// accepts reports whether v is valid against s, which must be allPlain.
// It follows the library's draft-07 semantics keyword by keyword.
func accepts(s *jsonschema.Schema, v any) bool {
	if s.Always != nil {
		return *s.Always
	}
	if len(s.Types) > 0 && !hasType(s.Types, v) {
		return false
	}
	if len(s.Constant) > 0 && !sameValue(v, s.Constant[0]) {
		return false
	}
	if len(s.Enum) > 0 {
		found := false
		for _, e := range s.Enum {
			if sameValue(v, e) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if !acceptsObject(s, x) {
			return false
		}
	case []any:
		if s.MinItems >= 0 && len(x) < s.MinItems {
			return false
		}
		if items, ok := s.Items.(*jsonschema.Schema); ok {
			for _, item := range x {
				if !accepts(items, item) {
					return false
				}
			}
		}
	case string:
		if s.Pattern != nil && !s.Pattern.MatchString(x) {
			return false
		}
	}
	if s.Ref != nil && !accepts(s.Ref, v) {
		return false
	}
	if s.Not != nil && accepts(s.Not, v) {
		return false
	}
	for _, sub := range s.AllOf {
		if !accepts(sub, v) {
			return false
		}
	}
	if len(s.AnyOf) > 0 {
		matched := false
		for _, sub := range s.AnyOf {
			if accepts(sub, v) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	if len(s.OneOf) > 0 {
		matched := 0
		for _, sub := range s.OneOf {
			if accepts(sub, v) {
				matched++
			}
		}
		if matched != 1 {
			return false
		}
	}
	return true
}

func acceptsObject(s *jsonschema.Schema, x map[string]any) bool {
	if s.MinProperties >= 0 && len(x) < s.MinProperties {
		return false
	}
	for _, r := range s.Required {
		if _, ok := x[r]; !ok {
			return false
		}
	}
	for name, pv := range x {
		evaluated := false
		if ps, ok := s.Properties[name]; ok {
			evaluated = true
			if !accepts(ps, pv) {
				return false
			}
		}
		for re, ps := range s.PatternProperties {
			if re.MatchString(name) {
				evaluated = true
				if !accepts(ps, pv) {
					return false
				}
			}
		}
		if !evaluated {
			switch a := s.AdditionalProperties.(type) {
			case bool:
				if !a {
					return false
				}
			case *jsonschema.Schema:
				if !accepts(a, pv) {
					return false
				}
			}
		}
		if s.PropertyNames != nil && !accepts(s.PropertyNames, name) {
			return false
		}
	}
	for name, dep := range s.Dependencies {
		if _, ok := x[name]; !ok {
			continue
		}
		switch dep := dep.(type) {
		case []string:
			for _, r := range dep {
				if _, ok := x[r]; !ok {
					return false
				}
			}
		case *jsonschema.Schema:
			if !accepts(dep, x) {
				return false
			}
		}
	}
	return true
}

// jsonKind is the JSON type of a converted value (convert makes only
// these Go types).
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int64, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

func hasType(types []string, v any) bool {
	kind := jsonKind(v)
	for _, t := range types {
		if t == kind {
			return true
		}
		if t == "integer" && kind == "number" {
			switch n := v.(type) {
			case int64:
				return true
			case float64:
				if n == math.Trunc(n) {
					return true
				}
			}
		}
	}
	return false
}

// sameValue is JSON equality, numbers by value, as the library compares
// enum and const values.
func sameValue(a, b any) bool {
	ka, kb := jsonKindOrLib(a), jsonKindOrLib(b)
	if ka != kb {
		return false
	}
	switch ka {
	case "array":
		x, y := a.([]any), b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case "object":
		x, y := a.(map[string]any), b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	case "number":
		x, _ := new(big.Rat).SetString(fmt.Sprint(a))
		y, _ := new(big.Rat).SetString(fmt.Sprint(b))
		return x != nil && y != nil && x.Cmp(y) == 0
	}
	return a == b
}

// jsonKindOrLib also knows the number types the library's compiled enums
// hold (json.Number and friends print as numbers).
func jsonKindOrLib(v any) string {
	if k := jsonKind(v); k != "" {
		return k
	}
	switch v.(type) {
	case fmt.Stringer, int, int32, float32, uint, uint32, uint64:
		return "number"
	}
	return "other"
}
