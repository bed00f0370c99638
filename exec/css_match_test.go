package exec

import "testing"

// With css the current Maestro takes the deepest match of all basic
// filters together (Orchestra.buildFilter: deepestMatchingElement of the
// intersected basicFilters): a row that has the text and the class is
// found though a child inside it has the class too. Taking the deepest css
// match alone (the child) and intersecting it with the text match (the
// row) would find nothing.
func TestCSSDeepestOfAllBasicFilters(t *testing.T) {
	t.Parallel()
	child := el("", "", rect(10, 10, 50, 20))
	row := el("Buy", "", rect(0, 0, 300, 40), child)
	f := screenOf(el("", "", rect(0, 0, 540, 960), row))
	own := func(n *Node) *Node { c := *n; c.Children = nil; return &c }
	q := &query{text: compilePattern("Buy"), css: &cssQuery{sel: ".row", hits: []*Node{own(row), own(child)}}}
	if got := names(f, q.find(f)); got != "Buy|" {
		t.Fatalf("found %q, want the row", got)
	}
	// css alone: the deepest match, the child.
	q = &query{css: &cssQuery{sel: ".row", hits: []*Node{own(row), own(child)}}}
	if m := q.find(f); len(m) != 1 || f.nodes[m[0]].Bounds.X != 10 {
		t.Fatalf("css alone found %v, want the child", m)
	}
	// A node equal in attributes and bounds to a hit matches even if it
	// is another element (Maestro compares nodes, not elements); one that
	// differs in bounds does not.
	q = &query{css: &cssQuery{sel: ".x", hits: []*Node{{Text: "Buy", Bounds: rect(0, 0, 300, 41), Enabled: true}}}}
	if got := names(f, q.find(f)); got != "" {
		t.Fatalf("a node with other bounds matched: %q", got)
	}
}
