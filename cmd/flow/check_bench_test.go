package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	flowapi "github.com/flow-runner/flow"
)

// writeWorkspace writes n flows of about 25 commands each, sharing two
// subflows and a script, like a large real suite.
func writeWorkspace(tb testing.TB, dir string, n int) {
	tb.Helper()
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "subflows"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "subflows", "login.yaml"), []byte(`appId: com.example.shop
---
- tapOn: {id: email}
- inputText: ${USER}
- tapOn: {id: password}
- inputText: ${PASSWORD}
- tapOn: "Log in"
- assertVisible: "Welcome.*"
`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "subflows", "setup.js"), []byte("output.ready = true\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("flows: [\"*\"]\nexcludeTags: [wip]\n"), 0o644))
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "appId: com.example.shop\nname: flow %d\ntags: [smoke, t%d]\nenv:\n  USER: user%d@example.com\n  PASSWORD: secret\n", i, i%7, i)
		b.WriteString("onFlowStart:\n  - runScript: subflows/setup.js\n---\n")
		b.WriteString("- launchApp:\n    clearState: true\n- runFlow:\n    file: subflows/login.yaml\n    env: {USER: \"${USER}\"}\n")
		for j := range 4 {
			fmt.Fprintf(&b, "- tapOn:\n    id: item_%d\n    index: %d\n", j, j)
			b.WriteString("- swipe:\n    direction: UP\n    duration: 600\n")
			b.WriteString("- swipe: {start: \"90%, 50%\", end: \"10%, 50%\"}\n")
			fmt.Fprintf(&b, "- assertVisible:\n    text: \"Item %d\"\n    below: {id: header}\n", j)
		}
		b.WriteString("- scrollUntilVisible:\n    element: \"Footer\"\n    direction: DOWN\n- pressKey: Enter\n- assertTrue: ${output.ready}\n")
		must(os.WriteFile(filepath.Join(dir, fmt.Sprintf("flow_%04d.yaml", i)), []byte(b.String()), 0o644))
	}
}

// BenchmarkCheckWorkspace1000 checks a 1,000-flow workspace from disk:
// read, parse, decode, and plan every coordinate swipe on Android and iOS.
// docs/performance.md records it against the one-second bar.
func BenchmarkCheckWorkspace1000(b *testing.B) {
	dir := b.TempDir()
	writeWorkspace(b, dir, 1000)
	paths := []string{filepath.ToSlash(dir)}
	b.ReportAllocs()
	for b.Loop() {
		res, _ := flowapi.Check(context.Background(), paths, flowapi.CheckOptions{})
		if len(res.Problems) > 0 || res.Files != 1001 {
			b.Fatalf("unexpected result: %s %v", checkSummary(res), res.Problems)
		}
	}
}

// TestCheckLargeWorkspace keeps the benchmark's workspace honest: it loads
// without problems and every flow and command is counted.
func TestCheckLargeWorkspace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeWorkspace(t, dir, 20)
	res, _ := flowapi.Check(context.Background(), []string{filepath.ToSlash(dir)}, flowapi.CheckOptions{})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	// 20 flows of 28 commands plus the onFlowStart script, and the login
	// subflow's 6 commands.
	if res.Files != 21 || res.Commands != 20*(2+16+3+1)+6 {
		t.Fatalf("got %s", checkSummary(res))
	}
}

// BenchmarkCheckWorkspace1000YAMLFloor only reads the same workspace's files
// and parses each into yaml.v3 nodes, on as many goroutines as the check
// uses (one per core): the part of a check that the chosen YAML library
// does and nothing of ours can make cheaper. docs/performance.md sets it
// beside BenchmarkCheckWorkspace1000 and the 60 ms bar.
func BenchmarkCheckWorkspace1000YAMLFloor(b *testing.B) {
	dir := b.TempDir()
	writeWorkspace(b, dir, 1000)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		work := make(chan string)
		var wg sync.WaitGroup
		var nodes sync.Map
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for f := range work {
					data, err := os.ReadFile(f)
					if err != nil {
						b.Error(err)
						continue
					}
					dec := yaml.NewDecoder(bytes.NewReader(data))
					docs := 0
					for {
						var n yaml.Node
						if dec.Decode(&n) != nil {
							break
						}
						docs++
					}
					nodes.Store(f, docs)
				}
			})
		}
		for _, f := range files {
			work <- f
		}
		close(work)
		wg.Wait()
		// Every flow file holds a header and a command list, config.yaml
		// one document: a parse that stopped early would make the floor
		// look cheaper than it is.
		nodes.Range(func(k, v any) bool {
			want := 2
			if filepath.Base(k.(string)) == "config.yaml" {
				want = 1
			}
			if v.(int) != want {
				b.Fatalf("%s: %d documents, want %d", k, v, want)
			}
			return true
		})
	}
}
