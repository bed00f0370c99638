package flow

import (
	"testing"
	"testing/fstest"
)

// TestIsAppModel pins which files of a folder of flows are sim app models
// (contracts §7: one document with a top-level screens: key), line ends
// and a last line without one included.
func TestIsAppModel(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"appId: x\nscreens:\n  home: {}\n":        true,
		"appId: x\r\nscreens:\r\n  home: {}\r\n":  true,
		"appId: x\nscreens: {}":                   true,
		"screens: {}\n---\n- back\n":              false,
		"screens: {}\n---   \r\n- back\n":         false,
		"screens: {}\n--- # c\n":                  true, // not a separator line of its own
		"appId: x\n  screens: {}\n":               false,
		"appId: x\n---\n- tapOn: screens\n":       false,
		"":                                        false,
		"# screens:\nappId: x\n":                  false,
		"appId: x\n\n\nscreens:\n  a: {}\n\n\n\n": true,
	} {
		src := fstest.MapFS{"f.yaml": {Data: []byte(text)}}
		if got := IsAppModel(src, "f.yaml"); got != want {
			t.Errorf("IsAppModel(%q) = %v, want %v", text, got, want)
		}
	}
	if IsAppModel(fstest.MapFS{}, "missing.yaml") {
		t.Error("a file that cannot be read is not an app model")
	}
}
