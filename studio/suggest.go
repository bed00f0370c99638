package studio

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// Suggestion is one selector that finds exactly the chosen element on the
// screen read: YAML is its Maestro form as the value of tapOn:,
// assertVisible: and the like.
type Suggestion struct {
	Kind string `json:"kind"` // text, id, id+text, index, below, childOf…
	YAML string `json:"yaml"`
	// Command is the selector inside a tapOn:, ready for the command box.
	Command string `json:"command"`
}

// spec is a selector as studio builds it: the fields it sets, in the
// order a user reads them.
type spec struct {
	text, id string
	index    int // -1: none
	below    *spec
	childOf  *spec
}

func (s spec) selector() *canonical.Selector {
	out := &canonical.Selector{}
	if s.text != "" {
		t := canonical.Text(s.text, canonical.Pos{})
		out.Text = &t
	}
	if s.id != "" {
		t := canonical.Text(s.id, canonical.Pos{})
		out.ID = &t
	}
	if s.index >= 0 {
		t := canonical.Text(strconv.Itoa(s.index), canonical.Pos{})
		out.Index = &t
	}
	if s.below != nil {
		out.Below = s.below.selector()
	}
	if s.childOf != nil {
		out.ChildOf = s.childOf.selector()
	}
	return out
}

// onlyText is true for a selector Maestro lets be written as a bare
// string: tapOn: "Log in".
func (s spec) onlyText() bool {
	return s.text != "" && s.id == "" && s.index < 0 && s.below == nil && s.childOf == nil
}

func q(v string) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// fields are the selector's YAML mapping lines at an indent.
func (s spec) fields(indent string) []string {
	var out []string
	if s.id != "" {
		out = append(out, indent+"id: "+q(s.id))
	}
	if s.text != "" {
		out = append(out, indent+"text: "+q(s.text))
	}
	if s.index >= 0 {
		out = append(out, indent+"index: "+strconv.Itoa(s.index))
	}
	for _, rel := range []struct {
		key string
		s   *spec
	}{{"below", s.below}, {"childOf", s.childOf}} {
		if rel.s == nil {
			continue
		}
		if rel.s.onlyText() {
			out = append(out, indent+rel.key+": "+q(rel.s.text))
			continue
		}
		out = append(out, indent+rel.key+":")
		out = append(out, rel.s.fields(indent+"  ")...)
	}
	return out
}

// value is the selector as the YAML value of a command key.
func (s spec) value() string {
	if s.onlyText() {
		return q(s.text)
	}
	return "\n" + strings.Join(s.fields("  "), "\n")
}

// shownText is what Maestro's text selector compares: text, else the
// hint or label the element shows in its place.
func shownText(n *exec.Node) string {
	for _, v := range []string{n.Text, n.Label, n.Hint} {
		if v != "" {
			return v
		}
	}
	return ""
}

// Suggest lists the selectors that find target, and nothing else, on tree
// (a VisibleTree), most readable first: text, id, both, then index and
// the relative forms anchored on the nearest uniquely found element above
// or around it. Each is checked with exec.MatchSelector, the runtime's
// matcher, so a suggestion never finds another element in a flow.
func Suggest(tree, target *exec.Node) []Suggestion {
	unique := func(s spec) bool {
		m, err := exec.MatchSelector(tree, s.selector())
		return err == nil && len(m) == 1 && m[0] == target
	}
	var out []Suggestion
	seen := map[string]bool{}
	offer := func(kind string, s spec) bool {
		if !unique(s) {
			return false
		}
		v := s.value()
		if seen[v] {
			return true
		}
		seen[v] = true
		yaml := v
		if !s.onlyText() {
			yaml = strings.Join(s.fields(""), "\n")
		}
		out = append(out, Suggestion{Kind: kind, YAML: yaml, Command: "tapOn:" + sep(v) + v})
		return true
	}
	text, id := shownText(target), target.ID
	var bases []named
	if text != "" {
		bases = append(bases, named{"text", spec{text: text, index: -1}})
	}
	if id != "" {
		bases = append(bases, named{"id", spec{id: id, index: -1}})
	}
	if text != "" && id != "" {
		bases = append(bases, named{"id+text", spec{id: id, text: text, index: -1}})
	}
	for _, b := range bases {
		offer(b.kind, b.s)
	}
	// Relative forms: an anchor the user can read, found uniquely itself,
	// for the first plain form.
	anchors := anchorsFor(tree, target)
	if len(bases) > 0 {
		b := bases[0]
		if a := firstUnique(tree, anchors.above, target); a != nil {
			s := b.s
			s.below = a
			offer("below", s)
		}
		if a := firstUnique(tree, anchors.parents, target); a != nil {
			s := b.s
			s.childOf = a
			offer("childOf", s)
		}
	}
	// index counts the matches top to bottom: always unique on this
	// screen but broken by any element added above, so offered only when
	// nothing readable is.
	if len(out) > 0 {
		return out
	}
	for _, b := range append(bases, named{"index", spec{index: -1}}) {
		for i := 0; i < maxIndex; i++ {
			s := b.s
			s.index = i
			m, err := exec.MatchSelector(tree, s.selector())
			if err != nil || len(m) == 0 {
				break
			}
			if m[0] == target {
				offer("index", s)
				break
			}
		}
	}
	return out
}

// maxIndex bounds the index search on a huge screen.
const maxIndex = 500

// named is a selector and the kind of suggestion it makes.
type named struct {
	kind string
	s    spec
}

func sep(v string) string {
	if strings.HasPrefix(v, "\n") {
		return ""
	}
	return " "
}

type anchorSet struct {
	above   []*exec.Node // nearest first
	parents []*exec.Node // nearest first
}

// anchorsFor lists the elements a relative selector may lean on: those
// wholly above the target, nearest first, and its ancestors.
func anchorsFor(tree, target *exec.Node) anchorSet {
	var a anchorSet
	var path []*exec.Node
	var walk func(n *exec.Node, stack []*exec.Node) bool
	walk = func(n *exec.Node, stack []*exec.Node) bool {
		if n == target {
			path = append([]*exec.Node{}, stack...)
			return true
		}
		for _, c := range n.Children {
			if walk(c, append(stack, n)) {
				return true
			}
		}
		return false
	}
	walk(tree, nil)
	for i := len(path) - 1; i >= 0; i-- {
		a.parents = append(a.parents, path[i])
	}
	if target.Bounds == nil {
		return a
	}
	var above []*exec.Node
	var all func(n *exec.Node)
	all = func(n *exec.Node) {
		if n.Bounds != nil && n != target && n.Bounds.Y+n.Bounds.H <= target.Bounds.Y {
			above = append(above, n)
		}
		for _, c := range n.Children {
			all(c)
		}
	}
	all(tree)
	// Nearest first: the bottom edge closest to the target's top.
	for i := 1; i < len(above); i++ {
		for j := i; j > 0 && bottom(above[j]) > bottom(above[j-1]); j-- {
			above[j], above[j-1] = above[j-1], above[j]
		}
	}
	a.above = above
	return a
}

func bottom(n *exec.Node) int { return n.Bounds.Y + n.Bounds.H }

// firstUnique is the first candidate with a text or id selector that
// finds it alone: the anchor of a relative suggestion must itself be
// unambiguous, or the suggestion only holds by luck.
func firstUnique(tree *exec.Node, cands []*exec.Node, target *exec.Node) *spec {
	for _, c := range cands {
		for _, s := range []spec{{text: shownText(c), index: -1}, {id: c.ID, index: -1}} {
			if s.text == "" && s.id == "" {
				continue
			}
			m, err := exec.MatchSelector(tree, s.selector())
			if err == nil && len(m) == 1 && m[0] == c && c != target {
				return &s
			}
		}
	}
	return nil
}
