package canonical

import (
	"encoding/json"
	"sort"
)

// Command is one canonical command, whatever surface it came from (Maestro
// YAML, .ad, the CLI). Every command carries a [Meta] with its source
// position; the set of command types is closed: only this package defines
// them, and the runtime switches over them exhaustively.
type Command interface {
	Base() *Meta
	// Kind is the canonical command name ("tap", "swipe", ...).
	Kind() string
}

// Meta is what every command carries besides its payload.
type Meta struct {
	Pos Pos `json:"-"`
	// Name is the command as the user wrote it ("tapOn", "doubleTapOn"),
	// used in progress output and reports.
	Name string `json:"-"`
	// Label replaces the command's description in output (Maestro label).
	Label string `json:"label,omitempty"`
	// Optional turns a failure of this command into a warning.
	Optional bool `json:"optional,omitempty"`
}

// Base returns the command's metadata.
func (m *Meta) Base() *Meta { return m }

// EncodeCommand is the canonical JSON form of a command used by flow plan,
// snapshots and reports: {"command": kind, "at": "file:line:col", ...fields}
// with sorted keys.
func EncodeCommand(c Command) ([]byte, error) {
	data, err := jsonMarshalNoEscape(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	m["command"] = c.Kind()
	if b := c.Base(); b.Pos.Known() {
		m["at"] = b.Pos.String()
	}
	if b := c.Base(); b.Name != "" && b.Name != c.Kind() {
		m["as"] = b.Name
	}
	return jsonMarshalNoEscape(sortedMap(m))
}

// sortedMap exists for readability only: encoding/json already sorts map
// keys; the conversion keeps nested values untouched.
func sortedMap(m map[string]any) map[string]any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(m))
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}

// Selector finds one element on screen (Maestro §2.1). Text and ID are
// regular expressions matched in full, case-insensitively; fields holding
// templates are evaluated when the command runs.
type Selector struct {
	Pos                 Pos         `json:"-"`
	Text                *Template   `json:"text,omitempty"`
	ID                  *Template   `json:"id,omitempty"`
	Index               *Template   `json:"index,omitempty"`
	Width               *int        `json:"width,omitempty"`
	Height              *int        `json:"height,omitempty"`
	Tolerance           *int        `json:"tolerance,omitempty"`
	Enabled             *bool       `json:"enabled,omitempty"`
	Selected            *bool       `json:"selected,omitempty"`
	Checked             *bool       `json:"checked,omitempty"`
	Focused             *bool       `json:"focused,omitempty"`
	Below               *Selector   `json:"below,omitempty"`
	Above               *Selector   `json:"above,omitempty"`
	LeftOf              *Selector   `json:"leftOf,omitempty"`
	RightOf             *Selector   `json:"rightOf,omitempty"`
	ContainsChild       *Selector   `json:"containsChild,omitempty"`
	ChildOf             *Selector   `json:"childOf,omitempty"`
	ContainsDescendants []*Selector `json:"containsDescendants,omitempty"`
	Traits              []string    `json:"traits,omitempty"`
	// CSS is a CSS selector run in the page (the current Maestro's css,
	// web only): an element matches when it is one the page's
	// querySelectorAll returns. Devices without a DOM cannot answer it.
	CSS *Template `json:"css,omitempty"`
	// AnyOf are further selectors tried in order, on the same screen read,
	// when this one matches nothing: .ad's "a || b". Maestro has no such
	// form, so only .ad input and the CLI produce it.
	AnyOf []*Selector `json:"anyOf,omitempty"`
}

// Condition is a when:/while: condition; every present part must hold.
type Condition struct {
	Pos        Pos       `json:"-"`
	Platform   string    `json:"platform,omitempty"` // lower case: android, ios, web
	Visible    *Selector `json:"visible,omitempty"`
	NotVisible *Selector `json:"notVisible,omitempty"`
	True       *Template `json:"true,omitempty"`
	Label      string    `json:"label,omitempty"`
}

// EnvVar is one variable of an env block; its value is a template evaluated
// in the caller's context when the block is defined.
type EnvVar struct {
	Name  string   `json:"name"`
	Value Template `json:"value"`
	Pos   Pos      `json:"-"`
}

// Flow is one loaded flow file: its header and its commands.
type Flow struct {
	File     string   `json:"file"`
	Name     string   `json:"name"`
	AppID    Template `json:"appId"`
	Web      bool     `json:"web,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Env      []EnvVar `json:"env,omitempty"`
	JSEngine string   `json:"jsEngine,omitempty"`
	// MaestroVersion is the semantics the loader read the flow with; the
	// runtime picks the default JavaScript engine from it. A flow not made
	// by the loader (zero) keeps 1.39's choice.
	MaestroVersion MaestroVersion `json:"-"`
	OnFlowStart    []Command      `json:"-"`
	OnFlowComplete []Command      `json:"-"`
	Commands       []Command      `json:"-"`
	Pos            Pos            `json:"-"`
	// Warnings are what loading found acceptable but a reader should know
	// (an .ad selector alternative flow cannot match, for one).
	Warnings []*Error `json:"-"`
}

// PlatformValue holds a Maestro fact that differs per platform; Default
// applies to platforms without their own entry.
type PlatformValue[T any] struct {
	Default T  `json:"default"`
	Android *T `json:"android,omitempty"`
	IOS     *T `json:"ios,omitempty"`
	Web     *T `json:"web,omitempty"`
}

// For returns the value for a platform ("android", "ios", "web").
func (v PlatformValue[T]) For(platform string) T {
	switch {
	case platform == "android" && v.Android != nil:
		return *v.Android
	case platform == "ios" && v.IOS != nil:
		return *v.IOS
	case platform == "web" && v.Web != nil:
		return *v.Web
	}
	return v.Default
}

// Same builds a PlatformValue that is the same everywhere.
func Same[T any](v T) PlatformValue[T] { return PlatformValue[T]{Default: v} }

// AnchorKind says how a gesture point is found.
type AnchorKind string

// Anchor kinds.
const (
	AnchorPoint    AnchorKind = "point"    // absolute grid units
	AnchorPercent  AnchorKind = "percent"  // "x%, y%" of the viewport, may hold ${}
	AnchorFraction AnchorKind = "fraction" // per-platform fraction of the viewport
	AnchorElement  AnchorKind = "element"  // the centre of an element's bounds
	AnchorAxis     AnchorKind = "axis"     // the start point with one axis moved to a viewport fraction
)

// Anchor is one end of a coordinate gesture, resolved against the freshly
// read viewport when the gesture runs.
type Anchor struct {
	Kind     AnchorKind            `json:"kind"`
	Point    *Point                `json:"point,omitempty"`
	Percent  *Template             `json:"percent,omitempty"`
	Fraction *PlatformValue[Point] `json:"fraction,omitempty"`
	Element  *Selector             `json:"element,omitempty"`
	Axis     string                `json:"axis,omitempty"` // "x" or "y"
	At       float64               `json:"at,omitempty"`   // the fraction the axis moves to
}

// MaxNesting bounds how deep command blocks nest when a flow runs: the
// bodies of repeat, retry and runFlow (inline commands or a subflow file,
// whose commands and hooks run one level deeper than the command), counted
// from the top-level flow's commands at level 0. Real flows nest two or
// three levels; the loader refuses deeper files and chains of subflow
// files, and the runtime refuses to go deeper in flows built otherwise.
const MaxNesting = 256

// Walk calls fn for every command in cmds and in their inline bodies
// (runFlow commands, repeat, retry), depth first, in order. Subflow files
// are not entered: they are flows of their own.
func Walk(cmds []Command, fn func(Command)) {
	for _, c := range cmds {
		fn(c)
		switch t := c.(type) {
		case *RunFlow:
			Walk(t.Commands, fn)
		case *Repeat:
			Walk(t.Commands, fn)
		case *Retry:
			Walk(t.Commands, fn)
		}
	}
}

// AllCommands is every command of a flow: hooks, body and inline bodies.
func (f *Flow) AllCommands(fn func(Command)) {
	Walk(f.OnFlowStart, fn)
	Walk(f.Commands, fn)
	Walk(f.OnFlowComplete, fn)
}
