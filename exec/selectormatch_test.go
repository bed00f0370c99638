package exec

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// MatchSelector answers as a lookup in a flow does: pruned to the
// viewport, clickable elements first, index by position, and a template
// refused rather than matched as text.
func TestMatchSelectorIsTheRuntimes(t *testing.T) {
	yes, no := true, false
	plain := &Node{Text: "Save", Enabled: true, Clickable: &no, Bounds: &Rect{X: 0, Y: 0, W: 100, H: 40}}
	button := &Node{Text: "Save", Enabled: true, Clickable: &yes, Bounds: &Rect{X: 0, Y: 100, W: 100, H: 40}}
	off := &Node{Text: "Save", Enabled: true, Bounds: &Rect{X: 0, Y: 5000, W: 100, H: 40}}
	root := &Node{Enabled: true, Bounds: &Rect{W: 400, H: 800}, Children: []*Node{plain, button, off}}
	tree := VisibleTree(root, canonical.Viewport{Width: 400, Height: 800})
	text := canonical.Text("Save", canonical.Pos{})
	m, err := MatchSelector(tree, &canonical.Selector{Text: &text})
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m[0].Bounds.Y != 100 || m[1].Bounds.Y != 0 {
		t.Fatalf("want the clickable Save first and the one off screen pruned, got %d: %+v", len(m), m)
	}
	idx := canonical.Text("1", canonical.Pos{})
	m, _ = MatchSelector(tree, &canonical.Selector{Text: &text, Index: &idx})
	if len(m) != 1 || m[0].Bounds.Y != 100 {
		t.Fatalf("index 1 counts top to bottom: %+v", m)
	}
	expr := canonical.Text("${name}", canonical.Pos{})
	if _, err := MatchSelector(tree, &canonical.Selector{Text: &expr}); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
		t.Fatalf("a template must be refused, got %v", err)
	}
}
