package studio

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/exec"
)

func node(text, id string, x, y, w, h int, kids ...*exec.Node) *exec.Node {
	return &exec.Node{Text: text, ID: id, Enabled: true, Bounds: &exec.Rect{X: x, Y: y, W: w, H: h}, Children: kids}
}

// A list of two cards, each with an "Add" button: the button's text finds
// both, so the suggestions must reach it another way, and none of them
// may find the other card's button.
func TestSuggestAmbiguousText(t *testing.T) {
	add1 := node("Add", "", 10, 110, 100, 40)
	add2 := node("Add", "", 10, 310, 100, 40)
	card2 := node("", "card_2", 0, 200, 400, 200, node("Boots", "", 10, 210, 200, 40), add2)
	root := node("", "", 0, 0, 400, 800,
		node("", "card_1", 0, 0, 400, 200, node("Tent", "", 10, 10, 200, 40), add1),
		card2)
	got := Suggest(root, add2)
	if len(got) == 0 {
		t.Fatal("no suggestion for the second Add button")
	}
	for _, s := range got {
		if s.Kind == "text" {
			t.Errorf("the text finds both buttons, yet was offered: %+v", s)
		}
	}
	kinds := map[string]string{}
	for _, s := range got {
		kinds[s.Kind] = s.YAML
	}
	if y := kinds["below"]; y != "text: \"Add\"\nbelow: \"Boots\"" {
		t.Errorf("want the button below its card's title, got %q (all: %+v)", y, got)
	}
	if y := kinds["childOf"]; !strings.Contains(y, "childOf:\n  id: \"card_2\"") {
		t.Errorf("want the button as a child of its card, got %q (all: %+v)", y, got)
	}
	// Each suggestion finds exactly the button in the runtime's matcher.
	for _, s := range got {
		if strings.Contains(s.YAML, "card_1") || strings.Contains(s.YAML, "Tent") {
			t.Errorf("a suggestion leans on the other card: %+v", s)
		}
	}
}

// An element no readable selector finds alone gets an index, counted as
// the runtime counts matches (top to bottom).
func TestSuggestIndexLast(t *testing.T) {
	a := node("Item", "", 0, 0, 100, 40)
	b := node("Item", "", 0, 50, 100, 40)
	root := node("", "", 0, 0, 400, 800, a, b)
	got := Suggest(root, b)
	if len(got) == 0 || got[0].Kind != "index" || got[0].YAML != "text: \"Item\"\nindex: 1" {
		t.Fatalf("want text Item index 1 first, got %+v", got)
	}
	if got := Suggest(root, a); got[0].YAML != "text: \"Item\"\nindex: 0" {
		t.Fatalf("want index 0 for the first, got %+v", got)
	}
}

// A unique text is offered first, as Maestro's short form.
func TestSuggestTextFirst(t *testing.T) {
	login := node("Log in", "login_button", 0, 500, 300, 60)
	root := node("", "", 0, 0, 400, 800, node("Shop", "title", 0, 0, 300, 60), login)
	got := Suggest(root, login)
	if len(got) < 2 || got[0] != (Suggestion{Kind: "text", YAML: `"Log in"`, Command: `tapOn: "Log in"`}) || got[1].YAML != `id: "login_button"` {
		t.Fatalf("want the text, then the id: %+v", got)
	}
}
