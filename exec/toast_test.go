package exec

import "testing"

// The Android helper adds a toast as one more window root with bounds
// [0,0][0,0] (helper-apk ScreenEvents, as Maestro's ViewHierarchy.kt
// addToastNode writes it). Maestro's AndroidDriver mapHierarchy marks class
// android.widget.Toast ignoreBoundsFiltering, so filterOutOfBounds keeps it
// and assertVisible: "Saved" passes while the toast shows.
func TestPruneKeepsAToastWhateverItsBounds(t *testing.T) {
	t.Parallel()
	app := el("", "", rect(0, 0, 540, 960), el("Save", "save", rect(10, 10, 100, 40)))
	toast := &Node{Text: "Saved", Class: "android.widget.Toast", Bounds: rect(0, 0, 0, 0), Enabled: true}
	empty := el("Gone", "", rect(0, 0, 0, 0))
	root := el("", "", nil, app, toast, empty)
	f := screenOf(root)
	q := &query{text: compilePattern("Saved")}
	if got := names(f, q.find(f)); got != "Saved|" {
		t.Fatalf("the toast node was pruned: found %q", got)
	}
	// Any other node without area is pruned, as before.
	q = &query{text: compilePattern("Gone")}
	if got := names(f, q.find(f)); got != "" {
		t.Fatalf("a zero-area node survived: %q", got)
	}
}
