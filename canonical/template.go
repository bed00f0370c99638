package canonical

import "strings"

// Template is text that may hold ${...} JavaScript expressions. Templates
// stay unevaluated, with their source position, until the command runs:
// Maestro evaluates them right before each command, so values written by
// earlier scripts are visible.
type Template struct {
	Raw string `json:"raw"`
	Pos Pos    `json:"-"`
}

// Text builds a template from source text.
func Text(raw string, pos Pos) Template { return Template{Raw: raw, Pos: pos} }

// HasExpr reports whether the template holds an unescaped ${...}.
func (t Template) HasExpr() bool {
	for i := 0; i+1 < len(t.Raw); i++ {
		if t.Raw[i] == '$' && t.Raw[i+1] == '{' && (i == 0 || t.Raw[i-1] != '\\') {
			return true
		}
	}
	return false
}

// Literal is the template's text when it has no expression to evaluate,
// with \${ escapes resolved as Maestro resolves them.
func (t Template) Literal() (string, bool) {
	if t.HasExpr() {
		return "", false
	}
	return strings.ReplaceAll(t.Raw, `\${`, `${`), true
}

// MarshalJSON writes the raw text; snapshots show what the user wrote.
func (t Template) MarshalJSON() ([]byte, error) { return marshalString(t.Raw) }

func marshalString(s string) ([]byte, error) {
	var b strings.Builder
	writeJSONString(&b, s)
	return []byte(b.String()), nil
}

func writeJSONString(b *strings.Builder, s string) {
	data, _ := jsonMarshalNoEscape(s)
	b.Write(data)
}
