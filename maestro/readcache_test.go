package maestro_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
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

// TestScriptReadOncePerLoad: a script every flow of a suite runs is read
// once, and every runScript still holds its text and is still checked
// where it is written (a reference to a missing script fails there).
func TestScriptReadOncePerLoad(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{"ws/setup.js": {Data: []byte("output.ready = true\n")}}
	for i := range 4 {
		tree[fmt.Sprintf("ws/f%d.yaml", i)] = &fstest.MapFile{Data: []byte(
			"appId: a\nonFlowStart:\n  - runScript: setup.js\n---\n- runScript: setup.js\n- back\n")}
	}
	tree["ws/f4.yaml"] = &fstest.MapFile{Data: []byte(header + "- runScript: gone.js\n")}
	src := &countingSource{MapFS: tree, reads: map[string]int{}}
	l := newLoader139(src)
	_, _ = l.Plan([]string{"ws"}, maestro.PlanOptions{KeepGoing: true})
	if n := src.reads["ws/setup.js"]; n != 1 {
		t.Errorf("setup.js read %d times, want once", n)
	}
	scripts := 0
	for _, f := range l.Flows() {
		f.AllCommands(func(c canonical.Command) {
			if rs, ok := c.(*canonical.RunScript); ok {
				scripts++
				if rs.Source != "output.ready = true\n" {
					t.Errorf("%s: runScript holds %q", rs.Pos, rs.Source)
				}
			}
		})
	}
	if scripts != 8 {
		t.Errorf("%d runScript commands, want 8", scripts)
	}
	if len(l.Problems()) != 1 || l.Problems()[0].Pos.File != "ws/f4.yaml" {
		t.Errorf("want the missing script's problem in f4.yaml, got %v", l.Problems())
	}
}
