package maestro_test

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// TestPlanAheadSameAsInOrder: Plan reads and parses a workspace's files
// ahead on every core (prefetch.go), and must report exactly what
// loading the same files one by one in order reports: the same
// problems and warnings in the same order, the same flows. The workspace
// mixes every way a file can fail, warnings, a subflow that is also a
// top-level flow (loaded before its turn), a shared subflow and a cycle.
func TestPlanAheadSameAsInOrder(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("the prefetcher runs only with two cores or more (GOMAXPROCS)")
	}
	t.Parallel()
	kinds := []string{
		header + "- back\n- tapOn: {id: ok}\n",
		"appId: a\n- back\n",                                   // no --- line
		header + "- tapOn: [1\n",                               // invalid YAML
		header + "- runFlow: w03.yaml\n- back\n",               // w03 loaded before its turn
		header + "- runFlow: sub/shared.yaml\n",                // shared subflow
		header + "- runFlow: w05.yaml\n",                       // runs itself
		header + "- tapOn: {id: a, idx: 1}\n",                  // unknown key
		header + "- swipe: {direction: UP, duration: -5}\n",    // schema / value problem
		"appId: a\nnmae: x\n---\n- back\n",                     // header near-miss warning
		header + "- tapOn: *nope\n",                            // unknown anchor
		"",                                                     // empty
		header,                                                 // no commands
		"appId: a\n---\n- back\n---\n- back\n",                 // three documents
		header + "- inputText: &a hello\n- inputText: *a\n",    // alias read as text, warned
		header + "- runFlow: missing.yaml\n",                   // missing subflow
		header + "- repeat: {times: 2, commands: [back, 5]}\n", // bad nested command
		header + "- tapOn: {css: .buy}\n",                      // a selector key 1.39 lacks
	}
	tree := fstest.MapFS{"ws/sub/shared.yaml": {Data: []byte(header + "- back\n- tapOn: x\n")}}
	for i := range 48 {
		tree[fmt.Sprintf("ws/w%02d.yaml", i)] = &fstest.MapFile{Data: []byte(kinds[i%len(kinds)])}
	}
	// Refused before reading, and a large valid flow: both left to the
	// loader in its turn.
	tree["ws/w48.yaml"] = &fstest.MapFile{Data: make([]byte, maestro.MaxFileSize+1)}
	tree["ws/w49.yaml"] = &fstest.MapFile{Data: []byte(header + strings.Repeat("- back\n", 10000))}
	// Unreadable though its size is fine: the prefetcher's read error
	// must be the loader's.
	src := deniedOne{MapFS: tree, file: "ws/w20.yaml"}
	ahead := newLoader139(src)
	plan, err := ahead.Plan([]string{"ws"}, maestro.PlanOptions{KeepGoing: true})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	inOrder := newLoader139(src)
	var files []string
	for i := range 50 {
		files = append(files, fmt.Sprintf("ws/w%02d.yaml", i))
	}
	for _, f := range files {
		_, _ = inOrder.Load(f)
	}
	same := func(what string, got, want []*canonical.Error) {
		t.Helper()
		if g, w := errorLines(got), errorLines(want); g != w {
			t.Errorf("%s differ\nplanned ahead:\n%s\nin order:\n%s", what, g, w)
		}
	}
	same("problems", ahead.Problems(), inOrder.Problems())
	same("warnings", ahead.Warnings(), inOrder.Warnings())
	if len(ahead.Problems()) == 0 || len(ahead.Warnings()) == 0 {
		t.Fatalf("the workspace should have problems and warnings: %d, %d", len(ahead.Problems()), len(ahead.Warnings()))
	}
	var got, want []string
	for _, f := range ahead.Flows() {
		got = append(got, fmt.Sprintf("%s:%d", f.File, len(f.Commands)))
	}
	for _, f := range inOrder.Flows() {
		want = append(want, fmt.Sprintf("%s:%d", f.File, len(f.Commands)))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("flows differ\nplanned ahead: %v\nin order:      %v", got, want)
	}
	if len(plan.Flows)+len(plan.Sequence)+len(plan.Broken) != 50 {
		t.Errorf("plan holds %d flows and %d broken, want 50 in all", len(plan.Flows)+len(plan.Sequence), len(plan.Broken))
	}
	for _, f := range files {
		_, a := ahead.Recognized(f)
		_, b := inOrder.Recognized(f)
		if a != b {
			t.Errorf("%s: recognized %v planned ahead, %v in order", f, a, b)
		}
	}
}

// deniedOne refuses to read one file, as a file without read permission
// fails (os.ReadFile's *fs.PathError wrapping fs.ErrPermission).
type deniedOne struct {
	fstest.MapFS
	file string
}

func (d deniedOne) ReadFile(name string) ([]byte, error) {
	if name == d.file {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.ReadFile(name)
}

func errorLines(es []*canonical.Error) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s | %s\n", e.Error(), e.Hint)
	}
	return b.String()
}

// TestDiscoverStopsWhileSkipping: Discover asks Skip about a folder's
// files on every core; a ctx that ends meanwhile stops it with
// INTERRUPTED, and few files are asked about after that.
func TestDiscoverStopsWhileSkipping(t *testing.T) {
	t.Parallel()
	tree := fstest.MapFS{}
	for i := range 200 {
		tree[fmt.Sprintf("ws/f%03d.yaml", i)] = wsFlow("")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var asked atomic.Int64
	skip := func(string) bool {
		if asked.Add(1) == 10 {
			cancel()
		}
		return false
	}
	_, err := newLoader139(tree).WithContext(ctx).Discover([]string{"ws"}, maestro.PlanOptions{Skip: skip})
	interruptedErr(t, err)
	if n := asked.Load(); n > 10+int64(runtime.GOMAXPROCS(0)) {
		t.Errorf("Skip was asked about %d files after the interruption", n-10)
	}
}
