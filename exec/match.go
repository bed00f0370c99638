package exec

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/flow-runner/flow/canonical"
)

// query is a selector with its templates evaluated and its regular
// expressions compiled, ready to run over a hierarchy (maestro-reference
// §2.1–§2.4).
type query struct {
	text, id            *pattern
	index               *int
	width, height       *int
	tolerance           int
	enabled, selected   *bool
	checked, focused    *bool
	below, above        *query
	leftOf, rightOf     *query
	containsChild       *query
	childOf             *query
	containsDescendants []*query
	traits              []string
	css                 *cssQuery
	anyOf               []*query // tried in order when this one matches nothing
}

// cssQuery is a css selector and what the page answered for it on the
// current screen read (run.resolveCSS fills hits before every match).
type cssQuery struct {
	sel  string
	pos  canonical.Pos
	hits []*Node
}

// pattern is a Java-style regex matched in full, case-insensitively, with
// dot-all and multi-line on (Maestro's options). regexp2 understands the
// lookarounds and backreferences Java allows. An invalid pattern is
// matched literally, as Maestro does.
type pattern struct {
	raw string
	re  *regexp2.Regexp
}

func compilePattern(raw string) *pattern {
	re, err := regexp2.Compile(`^(?:`+raw+`)$`, regexp2.IgnoreCase|regexp2.Singleline|regexp2.Multiline)
	if err != nil {
		re = regexp2.MustCompile(`^(?:`+regexp2.Escape(raw)+`)$`, regexp2.IgnoreCase|regexp2.Singleline|regexp2.Multiline)
	}
	// A pathological pattern must not hang a run.
	re.MatchTimeout = time.Second
	return &pattern{raw: raw, re: re}
}

// matches is Maestro's textMatches rule for one value: a full regex match,
// or literal equality with the pattern, each also tried with line breaks
// read as spaces.
func (p *pattern) matches(v string) bool {
	if v == "" && p.raw != "" {
		ok, _ := p.re.MatchString(v)
		return ok
	}
	for _, s := range []string{v, strings.ReplaceAll(v, "\n", " ")} {
		if s == p.raw {
			return true
		}
		if ok, _ := p.re.MatchString(s); ok {
			return true
		}
	}
	return false
}

// find runs the query, then its alternatives in order until one matches.
func (q *query) find(f *flat) []int {
	m := q.findOwn(f)
	for _, alt := range q.anyOf {
		if len(m) > 0 {
			break
		}
		m = alt.find(f)
	}
	return m
}

// findOwn runs the query over a flattened hierarchy and returns the
// matching nodes in Maestro's order: the first present filter decides the
// order, then index picks by position, else clickable elements come first.
func (q *query) findOwn(f *flat) []int {
	all := make([]int, len(f.nodes))
	for i := range all {
		all[i] = i
	}
	scope := all
	if q.childOf != nil {
		parents := q.childOf.find(f)
		if len(parents) == 0 {
			return nil
		}
		scope = f.subtree(parents[0])
	}
	var lists [][]int
	add := func(l []int) { lists = append(lists, l) }
	if q.css != nil {
		// The current Maestro, the only one with css, takes the deepest
		// match of all the basic filters together (text, id, size,
		// traits, the state flags and css: Orchestra.buildFilter's
		// basicFilters), then intersects it with the relative filters.
		add(q.deepest(f, scope, q.basicFilter))
	}
	if q.text != nil && q.css == nil {
		add(q.deepest(f, scope, q.textFilter))
	}
	if q.id != nil && q.css == nil {
		add(q.deepest(f, scope, q.idFilter))
	}
	if (q.width != nil || q.height != nil) && q.css == nil {
		add(filterNodes(f, scope, func(i int) bool { return q.sizeMatches(f.nodes[i]) }))
	}
	for _, rel := range []struct {
		anchor *query
		ok     func(c, a Rect) bool
	}{
		{q.below, func(c, a Rect) bool { return c.Y > a.Y }},
		{q.above, func(c, a Rect) bool { return c.Y < a.Y }},
		{q.leftOf, func(c, a Rect) bool { return c.X < a.X }},
		{q.rightOf, func(c, a Rect) bool { return c.X > a.X }},
	} {
		if rel.anchor != nil {
			add(relativeTo(f, scope, rel.anchor, rel.ok))
		}
	}
	if q.containsChild != nil {
		child := q.containsChild.find(f)
		add(filterNodes(f, scope, func(i int) bool {
			if len(child) == 0 {
				return false
			}
			for _, c := range f.children[i] {
				if c == child[0] || sameAttributes(f.nodes[c], f.nodes[child[0]]) && sameRect(f.nodes[c].Bounds, f.nodes[child[0]].Bounds) {
					return true
				}
			}
			return false
		}))
	}
	if len(q.containsDescendants) > 0 {
		add(filterNodes(f, scope, func(i int) bool {
			desc := f.subtree(i)[1:]
			for _, dq := range q.containsDescendants {
				found := false
				for _, m := range dq.find(f) {
					if containsInt(desc, m) {
						found = true
						break
					}
				}
				if !found {
					return false
				}
			}
			return true
		}))
	}
	if q.css == nil {
		for _, keep := range q.flagFilters(f) {
			add(filterNodes(f, scope, keep))
		}
	}
	out := scope
	if len(lists) > 0 {
		out = intersect(lists)
	}
	if q.index != nil {
		sorted := append([]int{}, out...)
		sort.SliceStable(sorted, func(a, b int) bool { return byPosition(f.nodes[sorted[a]], f.nodes[sorted[b]]) })
		if *q.index < 0 || *q.index >= len(sorted) {
			return nil
		}
		return []int{sorted[*q.index]}
	}
	return clickableFirst(f, out)
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func filterNodes(f *flat, scope []int, keep func(int) bool) []int {
	var out []int
	for _, i := range scope {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}

// textFilter checks text, then hint, then the accessibility label; the
// result is the union in that order.
func (q *query) textFilter(f *flat, scope []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, attr := range []func(*Node) string{
		func(n *Node) string { return n.Text },
		func(n *Node) string { return n.Hint },
		func(n *Node) string { return n.Label },
	} {
		for _, i := range scope {
			v := attr(f.nodes[i])
			if v != "" && !seen[i] && q.text.matches(v) {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	return out
}

// idFilter matches the whole id or the part after its last "/"
// (com.app:id/login matches "login"); whole matches come first.
func (q *query) idFilter(f *flat, scope []int) []int {
	var exact, suffix []int
	for _, i := range scope {
		id := f.nodes[i].ID
		if id == "" {
			continue
		}
		if q.id.matches(id) {
			exact = append(exact, i)
		} else if k := strings.LastIndex(id, "/"); k >= 0 && q.id.matches(id[k+1:]) {
			suffix = append(suffix, i)
		}
	}
	return append(exact, suffix...)
}

// flagFilters are the traits and state-flag filters the selector has.
func (q *query) flagFilters(f *flat) []func(int) bool {
	var out []func(int) bool
	if len(q.traits) > 0 {
		out = append(out, func(i int) bool { return q.traitsMatch(f.nodes[i]) })
	}
	for _, flag := range []struct {
		want *bool
		get  func(*Node) bool
	}{
		{q.enabled, func(n *Node) bool { return n.Enabled }},
		{q.selected, func(n *Node) bool { return n.Selected }},
		{q.checked, func(n *Node) bool { return n.Checked }},
		{q.focused, func(n *Node) bool { return n.Focused }},
	} {
		if flag.want != nil {
			want, get := *flag.want, flag.get
			out = append(out, func(i int) bool { return get(f.nodes[i]) == want })
		}
	}
	return out
}

// basicFilter is every non-relative filter of a selector with css at once,
// in Maestro's order: text, id, size, traits, the flags, css.
func (q *query) basicFilter(f *flat, scope []int) []int {
	var lists [][]int
	if q.text != nil {
		lists = append(lists, q.textFilter(f, scope))
	}
	if q.id != nil {
		lists = append(lists, q.idFilter(f, scope))
	}
	if q.width != nil || q.height != nil {
		lists = append(lists, filterNodes(f, scope, func(i int) bool { return q.sizeMatches(f.nodes[i]) }))
	}
	for _, keep := range q.flagFilters(f) {
		lists = append(lists, filterNodes(f, scope, keep))
	}
	lists = append(lists, q.cssFilter(f, scope))
	return intersect(lists)
}

// cssFilter keeps the nodes the page's CSS query returned. Maestro's
// Filters.css compares each hierarchy node, without its children, with the
// nodes maestro-web.js queryCss built for the matched elements (the same
// attributes the hierarchy has: text, bounds, id, ...); flow compares the
// same way, so two elements the hierarchy cannot tell apart (same text,
// id and bounds) match together, as in Maestro.
func (q *query) cssFilter(f *flat, scope []int) []int {
	return filterNodes(f, scope, func(i int) bool {
		n := f.nodes[i]
		for _, h := range q.css.hits {
			if sameAttributes(n, h) && sameRect(n.Bounds, h.Bounds) {
				return true
			}
		}
		return false
	})
}

// deepest replaces each match by its deepest matching descendant: a parent
// and a child with the same text resolve to the child.
func (q *query) deepest(f *flat, scope []int, filter func(*flat, []int) []int) []int {
	matches := filter(f, scope)
	var out []int
	seen := map[int]bool{}
	for _, m := range matches {
		cur := m
		for {
			kids := filter(f, f.children[cur])
			if len(kids) == 0 {
				break
			}
			cur = kids[len(kids)-1]
		}
		if !seen[cur] {
			seen[cur] = true
			out = append(out, cur)
		}
	}
	return out
}

// relativeTo keeps candidates whose top-left corner relates to some anchor's
// as ok says, ordered by the distance between centres.
func relativeTo(f *flat, scope []int, anchor *query, ok func(c, a Rect) bool) []int {
	anchors := anchor.find(f)
	type pairDist struct {
		node int
		d    float64
	}
	var pairs []pairDist
	for _, c := range scope {
		cb := f.nodes[c].Bounds
		if cb == nil {
			continue
		}
		for _, a := range anchors {
			ab := f.nodes[a].Bounds
			if ab == nil || !ok(*cb, *ab) {
				continue
			}
			cc, ac := cb.Center(), ab.Center()
			pairs = append(pairs, pairDist{c, math.Hypot(cc.X-ac.X, cc.Y-ac.Y)})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].d < pairs[b].d })
	var out []int
	seen := map[int]bool{}
	for _, p := range pairs {
		if !seen[p.node] {
			seen[p.node] = true
			out = append(out, p.node)
		}
	}
	return out
}

// intersect keeps the elements present in every list, in the first list's
// order (Kotlin Set.intersect).
func intersect(lists [][]int) []int {
	out := lists[0]
	for _, l := range lists[1:] {
		in := map[int]bool{}
		for _, x := range l {
			in[x] = true
		}
		var next []int
		for _, x := range out {
			if in[x] {
				next = append(next, x)
			}
		}
		out = next
	}
	return out
}

// byPosition orders top-to-bottom, then left-to-right; no bounds last.
func byPosition(a, b *Node) bool {
	switch {
	case a.Bounds == nil:
		return false
	case b.Bounds == nil:
		return true
	case a.Bounds.Y != b.Bounds.Y:
		return a.Bounds.Y < b.Bounds.Y
	}
	return a.Bounds.X < b.Bounds.X
}

// clickableFirst is a stable sort: clickable, then not clickable, then
// unknown (only Android reports clickability).
func clickableFirst(f *flat, in []int) []int {
	rank := func(i int) int {
		c := f.nodes[i].Clickable
		switch {
		case c == nil:
			return 2
		case *c:
			return 0
		}
		return 1
	}
	out := append([]int{}, in...)
	sort.SliceStable(out, func(a, b int) bool { return rank(out[a]) < rank(out[b]) })
	return out
}

// describe is Maestro's selector description, used in step names and
// errors: "\"Log in\", id: submit, Below \"Title\"".
func (q *query) describe() string {
	var parts []string
	if q.text != nil {
		parts = append(parts, "\""+q.text.raw+"\"")
	}
	if q.id != nil {
		parts = append(parts, "id: "+q.id.raw)
	}
	rel := func(name string, r *query) {
		if r != nil {
			parts = append(parts, name+" "+r.describe())
		}
	}
	rel("Below", q.below)
	rel("Above", q.above)
	rel("Left of", q.leftOf)
	rel("Right of", q.rightOf)
	rel("Contains child:", q.containsChild)
	if len(q.containsDescendants) > 0 {
		var ds []string
		for _, d := range q.containsDescendants {
			ds = append(ds, d.describe())
		}
		parts = append(parts, "Contains descendants: ["+strings.Join(ds, ", ")+"]")
	}
	if q.width != nil || q.height != nil {
		parts = append(parts, fmt.Sprintf("Size: %sx%s(tolerance: %d)", intText(q.width), intText(q.height), q.tolerance))
	}
	if len(q.traits) > 0 {
		parts = append(parts, "Has traits: "+strings.Join(q.traits, ", "))
	}
	for _, fl := range []struct {
		name string
		v    *bool
	}{{"enabled", q.enabled}, {"selected", q.selected}, {"checked", q.checked}, {"focused", q.focused}} {
		if fl.v != nil {
			parts = append(parts, fmt.Sprintf("%s: %v", fl.name, *fl.v))
		}
	}
	if q.index != nil {
		parts = append(parts, fmt.Sprintf("Index: %d", *q.index))
	}
	rel("Child of:", q.childOf)
	if q.css != nil {
		parts = append(parts, "CSS: "+q.css.sel)
	}
	own := "any element"
	if len(parts) > 0 {
		own = strings.Join(parts, ", ")
	}
	for _, alt := range q.anyOf {
		own += " || " + alt.describe()
	}
	return own
}

func intText(v *int) string {
	if v == nil {
		return "*"
	}
	return fmt.Sprint(*v)
}

// sizeMatches compares bounds with width/height within the tolerance; a
// node without bounds never matches.
func (q *query) sizeMatches(n *Node) bool {
	if n.Bounds == nil {
		return false
	}
	within := func(want *int, got int) bool {
		return want == nil || abs(got-*want) <= q.tolerance
	}
	return within(q.width, n.Bounds.W) && within(q.height, n.Bounds.H)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// traitsMatch: text = has text; square = |1 - w/h| < 0.03; long-text = more
// than 200 characters.
func (q *query) traitsMatch(n *Node) bool {
	for _, t := range q.traits {
		switch t {
		case "text":
			if n.Text == "" {
				return false
			}
		case "square":
			if n.Bounds == nil || n.Bounds.H == 0 || math.Abs(1-float64(n.Bounds.W)/float64(n.Bounds.H)) >= 0.03 {
				return false
			}
		case "long-text":
			if len([]rune(n.Text)) <= 200 {
				return false
			}
		}
	}
	return true
}
