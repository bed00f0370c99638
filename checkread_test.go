package flow

import (
	"context"
	"fmt"
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
