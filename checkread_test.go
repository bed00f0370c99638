package flow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// countingSource counts the reads of each file.
type countingSource struct {
	fstest.MapFS
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingSource) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.MapFS.ReadFile(name)
}

// TestCheckReadsEachFileOnce: discovery reads every file of the folder
// to tell sim app models from flows, and the loader gets that text
// rather than reading each flow and subflow a second time. The app model
// is still skipped and every flow still checked.
func TestCheckReadsEachFileOnce(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{
		"ws/sub/login.yaml": {Data: []byte("appId: a\n---\n- tapOn: Log in\n")},
		"ws/model.yaml":     {Data: []byte("appId: a\nscreens:\n  home: {}\n")},
	}
	for i := range 5 {
		tree[fmt.Sprintf("ws/f%d.yaml", i)] = &fstest.MapFile{Data: []byte("appId: a\n---\n- runFlow: sub/login.yaml\n- back\n")}
	}
	src := &countingSource{MapFS: tree, reads: map[string]int{}}
	res, err := Check(context.Background(), []string{"ws"}, CheckOptions{Source: src})
	if err != nil || len(res.Problems) > 0 {
		t.Fatalf("check: %v %v", err, res.Problems)
	}
	if res.Files != 6 || res.Commands != 5*2+1 {
		t.Errorf("checked %d files, %d commands; want 6 and 11", res.Files, res.Commands)
	}
	for name, n := range src.reads {
		if n > 1 {
			t.Errorf("%s read %d times", name, n)
		}
	}
}

// TestCheckKeepsScriptGestureWarnings: an .ad gesture written for one
// default screen (it fits Android's, not iOS's) is a warning at its line,
// beside the script's own warnings and the flows', none dropped.
func TestCheckKeepsScriptGestureWarnings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tall.ad", "back\nswipe 100 1500 100 1700\n")
	write("flow.yaml", "appId: a\n---\n- swipe: {start: '100, 1500', end: '100, 1700'}\n")
	res, err := Check(context.Background(), []string{filepath.ToSlash(dir)}, CheckOptions{})
	if err != nil || len(res.Problems) > 0 {
		t.Fatalf("check: %v %v", err, res.Problems)
	}
	var inScript, inFlow bool
	for _, w := range res.Warnings {
		switch {
		case strings.HasSuffix(w.Pos.File, "tall.ad") && w.Pos.Line == 2:
			inScript = true
		case strings.HasSuffix(w.Pos.File, "flow.yaml") && w.Pos.Line == 3:
			inFlow = true
		}
	}
	if !inScript || !inFlow {
		t.Fatalf("warnings %v: want one at tall.ad:2 (script %v) and one at flow.yaml:3 (flow %v)", res.Warnings, inScript, inFlow)
	}
}
