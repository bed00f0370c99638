package maestro_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// cancelling is a Source that cancels its context when a given file is
// read (after the read, so that file's contents arrive) and records every
// file read.
type cancelling struct {
	fstest.MapFS
	at     string
	cancel context.CancelFunc
	mu     sync.Mutex
	reads  []string
}

func (c *cancelling) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads = append(c.reads, name)
	c.mu.Unlock()
	data, err := c.MapFS.ReadFile(name)
	if name == c.at {
		c.cancel()
	}
	return data, err
}

func (c *cancelling) Stat(name string) (fs.FileInfo, error)      { return c.MapFS.Stat(name) }
func (c *cancelling) ReadDir(name string) ([]fs.DirEntry, error) { return c.MapFS.ReadDir(name) }

func interruptedErr(t *testing.T, err error) {
	t.Helper()
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeInterrupted || !errors.Is(err, context.Canceled) {
		t.Fatalf("want INTERRUPTED wrapping context.Canceled, got %v", err)
	}
}

// TestPlanStopsBetweenFiles: a workspace of 50 flows whose context is
// cancelled while the 10th is read stops there: Plan returns INTERRUPTED,
// no plan, and reads no further flow file.
func TestPlanStopsBetweenFiles(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{}
	for i := range 50 {
		tree[fmt.Sprintf("ws/f%02d.yaml", i)] = wsFlow("")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &cancelling{MapFS: tree, at: "ws/f09.yaml", cancel: cancel}
	plan, err := newLoader139(src).WithContext(ctx).Plan([]string{"ws"}, maestro.PlanOptions{KeepGoing: true})
	interruptedErr(t, err)
	if plan != nil {
		t.Errorf("an interrupted plan must not be returned: %+v", plan)
	}
	if last := src.reads[len(src.reads)-1]; last != "ws/f09.yaml" {
		t.Errorf("loading went on after the interruption, up to %s (%d reads)", last, len(src.reads))
	}
}

// TestLoadStopsBetweenCommands: a flow of 1,000 runFlow commands whose
// context is cancelled once the flow's own file is read decodes no
// command: no subflow is read, and Load returns INTERRUPTED and no flow
// (a truncated flow must never run).
func TestLoadStopsBetweenCommands(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(header)
	tree := fstest.MapFS{}
	for i := range 1000 {
		fmt.Fprintf(&b, "- runFlow: sub%d.yaml\n", i)
		tree[fmt.Sprintf("flows/sub%d.yaml", i)] = &fstest.MapFile{Data: []byte(header + "- back\n")}
	}
	tree[mainFlow] = &fstest.MapFile{Data: []byte(b.String())}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &cancelling{MapFS: tree, at: mainFlow, cancel: cancel}
	l := newLoader139(src).WithContext(ctx)
	f, err := l.Load(mainFlow)
	interruptedErr(t, err)
	if f != nil {
		t.Errorf("an interrupted load returned a flow of %d commands", len(f.Commands))
	}
	if len(src.reads) != 1 {
		t.Errorf("decoding went on after the interruption: %d files read", len(src.reads))
	}
	if len(l.Flows()) != 0 {
		t.Errorf("an incomplete flow was cached: %d flows", len(l.Flows()))
	}
}

// TestLoadBeforeStart: a context done before loading starts reads
// nothing, for every entry point.
func TestLoadBeforeStart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := &cancelling{MapFS: fstest.MapFS{"ws/a.yaml": wsFlow(""), "ws/config.yaml": {Data: []byte("flows: ['*']\n")}}}
	l := newLoader139(src).WithContext(ctx)
	_, err := l.Load("ws/a.yaml")
	interruptedErr(t, err)
	_, err = l.LoadBytes("ws/b.yaml", []byte(header+"- back\n"))
	interruptedErr(t, err)
	_, err = l.LoadConfig("ws/config.yaml")
	interruptedErr(t, err)
	_, err = newLoader139(src).WithContext(ctx).Plan([]string{"ws"}, maestro.PlanOptions{})
	interruptedErr(t, err)
	if len(src.reads) != 0 {
		t.Errorf("read %v after the context was done", src.reads)
	}
}
