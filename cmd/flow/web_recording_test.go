package main

import (
	"bytes"
	"fmt"
	"image/gif"
	"os"
	"path/filepath"
	"testing"
)

// TestWebRecording: `flow test --device web` runs startRecording and
// stopRecording on headless Chromium and writes <path>.gif (relative to
// the working folder, here an absolute path) that decodes, with a frame
// for the empty form and one for the typed email.
func TestWebRecording(t *testing.T) {
	base := needBrowser(t)
	dir := t.TempDir()
	clip := filepath.Join(dir, "out", "login")
	flow := filepath.Join(dir, "record.yaml")
	os.WriteFile(flow, []byte(fmt.Sprintf(`url: %s/login.html
---
- launchApp
- startRecording: %s
- tapOn: Email
- inputText: ada@example.com
- stopRecording
`, base, clip)), 0o644)
	r := runFlow(t, "", "test", flow, "--device", "web")
	if r.code != 0 {
		t.Fatalf("the recording flow must pass:\n%s", r)
	}
	data, err := os.ReadFile(clip + ".gif")
	if err != nil {
		t.Fatalf("no recording: %v\n%s", err, r)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s.gif does not decode as a GIF: %v", clip, err)
	}
	if len(g.Image) < 2 {
		t.Errorf("%d frames, want at least 2 (the form before and after typing)", len(g.Image))
	}
}
