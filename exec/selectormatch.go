package exec

import (
	"context"

	"github.com/flow-runner/flow/canonical"
)

// VisibleTree is the hierarchy as a lookup sees it: elements with less
// than a tenth of their area inside vp and nothing visible inside pruned
// away (Maestro's filterOutOfBounds). Tools that show the screen and
// suggest selectors show this tree, so that what they offer is what a run
// would find.
func VisibleTree(root *Node, vp canonical.Viewport) *Node {
	return prune(root, int(vp.X+vp.Width), int(vp.Y+vp.Height))
}

// MatchSelector returns the elements of tree (a VisibleTree) that the
// selector finds, in the runtime's order: a tap takes the first. It is the
// runtime's own matcher, so a selector suggested from it behaves the same
// in a flow. Templates are taken literally; a selector holding ${…} is
// refused, as there is no flow here to evaluate it in.
func MatchSelector(tree *Node, s *canonical.Selector) ([]*Node, error) {
	if s == nil || tree == nil {
		return nil, nil
	}
	r := &run{js: literalScripts{}}
	q, err := r.compile(context.Background(), s)
	if err != nil {
		return nil, err
	}
	if cs := q.cssQueries(); len(cs) > 0 {
		// A css selector is answered by the page, not by the hierarchy
		// this matcher holds.
		return nil, canonical.Errorf(canonical.CodeUnsupportedOperation, "the css selector %q can only be matched in the page", cs[0].sel).
			WithHint("run the flow on the web device to use css; here select the element by text or id")
	}
	f := flatten(tree)
	var out []*Node
	for _, i := range q.find(f) {
		out = append(out, f.nodes[i])
	}
	return out, nil
}

// literalScripts evaluates nothing: compile only interpolates, and a
// template with an expression has no value outside a flow.
type literalScripts struct{ Scripts }

func (literalScripts) Interpolate(_ context.Context, t canonical.Template) (string, error) {
	if t.HasExpr() {
		return "", canonical.Errorf(canonical.CodeInvalidArgs, "the selector %q holds an expression", t.Raw).
			WithHint("selectors are matched here without a flow: write the value itself")
	}
	return t.Raw, nil
}
