package exec

import (
	"strings"
	"testing"
)

func rect(x, y, w, h int) *Rect { return &Rect{X: x, Y: y, W: w, H: h} }

func tr() *bool { v := true; return &v }

func fa() *bool { v := false; return &v }

func intp(v int) *int { return &v }

func el(text, id string, b *Rect, kids ...*Node) *Node {
	return &Node{Text: text, ID: id, Bounds: b, Enabled: true, Children: kids}
}

func screenOf(root *Node) *flat { return flatten(prune(root, 540, 960)) }

// names lists the matched nodes as "text|id" for readable assertions.
func names(f *flat, idx []int) string {
	var out []string
	for _, i := range idx {
		n := f.nodes[i]
		out = append(out, n.Text+"|"+n.ID)
	}
	return strings.Join(out, ",")
}

// TestSelectorMatching ports the selector behaviours Maestro's integration
// tests pin (maestro-reference §6: 002, 016, 038, 048, 055, 072, 073, 015,
// 032, 091, 080, 081, 003, 007, 054, 083, 097, 114).
func TestSelectorMatching(t *testing.T) {
	t.Parallel()
	grid := el("", "root", rect(0, 0, 540, 960),
		el("Top Left", "", rect(0, 0, 100, 100)), el("Top", "", rect(200, 0, 100, 100)), el("Top Right", "", rect(400, 0, 100, 100)),
		el("Left", "", rect(0, 200, 100, 100)), el("Middle", "", rect(200, 200, 100, 100)), el("Right", "", rect(400, 200, 100, 100)),
		el("Bottom Left", "", rect(0, 400, 100, 100)), el("Bottom", "", rect(200, 400, 100, 100)), el("Bottom Right", "", rect(400, 400, 100, 100)),
	)
	clickT, clickF := true, false
	cases := []struct {
		name string
		root *Node
		q    *query
		want string
	}{
		{"text full match case-insensitive", el("", "", rect(0, 0, 540, 960), el("Log in", "login", rect(0, 0, 100, 50))),
			&query{text: compilePattern("log IN")}, "Log in|login"},
		{"text is a full match, not a substring", el("", "", rect(0, 0, 540, 960), el("Log in now", "", rect(0, 0, 100, 50))),
			&query{text: compilePattern("Log in")}, ""},
		{"regex with dot-all over lines", el("", "", rect(0, 0, 540, 960), el("Hello World\nHere is a second line", "", rect(0, 0, 100, 50))),
			&query{text: compilePattern("Hello world.*")}, "Hello World\nHere is a second line|"},
		{"line break read as space", el("", "", rect(0, 0, 540, 960), el("Hello\nWorld", "", rect(0, 0, 100, 50))),
			&query{text: compilePattern("Hello World")}, "Hello\nWorld|"},
		{"literal equality beats an invalid or different regex", el("", "", rect(0, 0, 540, 960), el("(Secondary button)", "", rect(0, 0, 100, 50))),
			&query{text: compilePattern("(Secondary button)")}, "(Secondary button)|"},
		{"escaped regex", el("", "", rect(0, 0, 540, 960), el("+123456", "", rect(0, 0, 100, 50))),
			&query{text: compilePattern(`\+123456`)}, "+123456|"},
		{"lookahead needs a Java-style engine", el("", "", rect(0, 0, 540, 960), el("Total: 42", "", rect(0, 0, 100, 50)), el("Total: none", "", rect(0, 60, 100, 50))),
			&query{text: compilePattern(`Total: (?=\d).*`)}, "Total: 42|"},
		{"hint and label match text selectors", el("", "", rect(0, 0, 540, 960), &Node{Hint: "Email", Bounds: rect(0, 0, 100, 50)}, &Node{Label: "Close", Bounds: rect(0, 60, 100, 50)}),
			&query{text: compilePattern("Email|Close")}, "|,|"},
		{"id matches after the last slash, exact first", el("", "", rect(0, 0, 540, 960), el("", "com.app:id/keyboard_area", rect(0, 0, 10, 10)), el("", "keyboard_area", rect(0, 20, 10, 10))),
			&query{id: compilePattern("keyboard_area")}, "|keyboard_area,|com.app:id/keyboard_area"},
		{"deepest matching element wins", el("", "", rect(0, 0, 540, 960), el("Same", "outer", rect(0, 0, 100, 100), el("Same", "inner", rect(25, 25, 50, 50)))),
			&query{text: compilePattern("Same")}, "Same|inner"},
		{"clickable first", el("", "", rect(0, 0, 540, 960), &Node{Text: "Button", ID: "a", Bounds: rect(0, 0, 10, 10), Clickable: &clickF}, &Node{Text: "Button", ID: "b", Bounds: rect(0, 20, 10, 10), Clickable: &clickT}),
			&query{text: compilePattern("Button")}, "Button|b,Button|a"},
		{"below: nearest first", grid, &query{below: &query{text: compilePattern("Top")}}, "Middle|,Left|,Right|,Bottom|,Bottom Left|,Bottom Right|"},
		{"text plus relative keeps document order", grid, &query{text: compilePattern(".*Left"), below: &query{text: compilePattern("Top Left")}}, "Left|,Bottom Left|"},
		{"above and right of", grid, &query{above: &query{text: compilePattern("Bottom")}, rightOf: &query{text: compilePattern("Middle")}}, "Right|,Top Right|"},
		{"index sorts by position", el("", "", rect(0, 0, 540, 960), el("Item 2", "", rect(0, 300, 100, 50)), el("Item 1", "", rect(0, 100, 100, 50))),
			&query{text: compilePattern("Item.*"), index: intp(0)}, "Item 1|"},
		{"index out of range matches nothing", el("", "", rect(0, 0, 540, 960), el("Item", "", rect(0, 300, 100, 50))),
			&query{text: compilePattern("Item"), index: intp(1)}, ""},
		{"size with tolerance", el("", "", rect(0, 0, 540, 960), el("a", "", rect(0, 0, 101, 101)), el("b", "", rect(0, 200, 120, 100))),
			&query{width: intp(100), height: intp(100), tolerance: 1}, "a|"},
		{"state flags", el("", "", rect(0, 0, 540, 960), &Node{Text: "On", Checked: true, Enabled: true, Bounds: rect(0, 0, 10, 10)}, &Node{Text: "Off", Enabled: false, Bounds: rect(0, 20, 10, 10)}),
			&query{checked: tr(), enabled: tr()}, "On|"},
		{"disabled", el("", "", rect(0, 0, 540, 960), &Node{Text: "On", Enabled: true, Bounds: rect(0, 0, 10, 10)}, &Node{Text: "Off", Enabled: false, Bounds: rect(0, 20, 10, 10)}),
			&query{text: compilePattern("O.*"), enabled: fa()}, "Off|"},
		{"contains descendants at any depth", el("", "", rect(0, 0, 540, 960), el("", "card", rect(0, 0, 300, 300), el("", "", rect(0, 0, 300, 100), el("Title", "", rect(0, 0, 100, 50))), el("Price", "", rect(0, 200, 100, 50))), el("", "other", rect(0, 400, 300, 300), el("Title", "", rect(0, 400, 100, 50)))),
			&query{id: compilePattern("card|other"), containsDescendants: []*query{{text: compilePattern("Title")}, {text: compilePattern("Price")}}}, "|card"},
		{"child of scopes the search", el("", "", rect(0, 0, 540, 960), el("", "list_a", rect(0, 0, 540, 400), el("Row", "a1", rect(0, 0, 540, 100))), el("", "list_b", rect(0, 500, 540, 400), el("Row", "b1", rect(0, 500, 540, 100)))),
			&query{text: compilePattern("Row"), childOf: &query{id: compilePattern("list_b")}}, "Row|b1"},
		{"half on screen is visible, 10px of 110 is not", el("", "", rect(0, 0, 540, 960), el("Half", "", rect(0, 910, 100, 100)), el("Sliver", "", rect(0, 950, 100, 110))),
			&query{text: compilePattern("Half|Sliver")}, "Half|"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := screenOf(tc.root)
			if got := names(f, tc.q.find(f)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPruneKeepsEverythingWhenAllIsOffScreen(t *testing.T) {
	t.Parallel()
	root := el("", "root", rect(2000, 2000, 100, 100), el("Far", "", rect(2000, 2000, 10, 10)))
	if got := prune(root, 540, 960); got != root {
		t.Fatal("when nothing is on screen Maestro uses the unpruned tree")
	}
}

func TestVisiblePercentage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		r    Rect
		want float64
	}{{Rect{0, 0, 540, 960}, 1}, {Rect{-10, -10, 600, 1000}, 1}, {Rect{0, 910, 100, 100}, 0.5}, {Rect{0, 0, 0, 0}, 0}, {Rect{100, 100, 100, 100}, 1}}
	for _, tc := range cases {
		if got := visiblePercentage(tc.r, 540, 960); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestSelectorDescription(t *testing.T) {
	t.Parallel()
	q := &query{text: &pattern{raw: "Log in"}, id: &pattern{raw: "btn"}, below: &query{text: &pattern{raw: "Title"}}, index: intp(1)}
	if got := q.describe(); got != `"Log in", id: btn, Below "Title", Index: 1` {
		t.Fatalf("got %s", got)
	}
}
