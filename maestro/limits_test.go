package maestro_test

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/maestro"
)

// Generators of the flows that made loading slow or unbounded (issue 10),
// each a function of its size so tests and benchmarks share them and no
// large file is committed.

// nestedFlow nests depth repeat blocks in flow style, so the file grows
// linearly with the depth.
func nestedFlow(depth int) []byte {
	var b strings.Builder
	b.WriteString(header + "- ")
	for range depth {
		b.WriteString("repeat: {times: 2, commands: [")
	}
	b.WriteString("back")
	b.WriteString(strings.Repeat("]}", depth))
	b.WriteString("\n")
	return []byte(b.String())
}

// wideFlow is n tapOn commands.
func wideFlow(n int) []byte {
	var b strings.Builder
	b.WriteString(header)
	for i := range n {
		b.WriteString("- tapOn: \"Button " + strconv.Itoa(i) + "\"\n")
	}
	return []byte(b.String())
}

// fill repeats line after the header until the flow has about size bytes.
func fill(size int, line func(i int) string) []byte {
	var b strings.Builder
	b.Grow(size + 100)
	b.WriteString(header)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(line(i))
	}
	return []byte(b.String())
}

// loadShapes make the worst case of each shape at about size bytes.
func loadShapes() map[string]func(size int) []byte {
	return map[string]func(size int) []byte{
		// One command: a scalar of the whole size.
		"long-scalar": func(size int) []byte {
			return []byte(header + "- inputText: \"" + strings.Repeat("x", size) + "\"\n")
		},
		// The most YAML nodes per byte: a flow list of one-letter items.
		"flow-list": func(size int) []byte {
			return []byte(header + "- assertVisible: {containsDescendants: [" + strings.Repeat("a,", size/2) + "a]}\n")
		},
		// Short commands: the most commands per byte.
		"wide-bare": func(size int) []byte { return fill(size, func(int) string { return "- back\n" }) },
		"wide-tap": func(size int) []byte {
			return fill(size, func(i int) string { return "- tapOn: \"B" + strconv.Itoa(i) + "\"\n" })
		},
		// Relative selectors nested as deep as the limit allows.
		"deep-selectors": func(size int) []byte {
			return fill(size, func(int) string {
				return "- tapOn: " + strings.Repeat("{below: ", 31) + "{text: x}" + strings.Repeat("}", 31) + "\n"
			})
		},
		// Every command anchored and aliased once.
		"anchors": func(size int) []byte {
			return fill(size, func(i int) string {
				return fmt.Sprintf("- tapOn: &a%d {id: b%d}\n- assertVisible: *a%d\n", i, i, i)
			})
		},
		// Blocks nested to the limit around the rest of the commands.
		"deep-blocks": func(size int) []byte {
			b := string(nestedFlow(256))
			inner := strings.Repeat("back, ", max(size-len(b), 0)/6)
			return []byte(strings.Replace(b, "back]", inner+"back]", 1))
		},
	}
}

func loadData(tb testing.TB, data []byte) (*maestro.Loader, error) {
	tb.Helper()
	l := newLoader139(fstest.MapFS{mainFlow: &fstest.MapFile{Data: data, Mode: 0o644}})
	_, err := l.Load(mainFlow)
	return l, err
}

// TestDeepBlocksAreRefusedWithTheLimit: blocks nested past the limit are
// refused at the block that crosses it, naming the depth and the limit,
// before anything else reads them; at the limit they load.
func TestDeepBlocksAreRefusedWithTheLimit(t *testing.T) {
	t.Parallel()
	if _, err := loadData(t, nestedFlow(256)); err != nil {
		t.Fatalf("256 nested blocks: %v", err)
	}
	for _, depth := range []int{257, 1001, 20_000} {
		_, err := loadData(t, nestedFlow(depth))
		e := onlyError(t, err)
		want := fmt.Sprintf("the flow nests %s blocks deep; the limit is 256", thousandsOf(depth))
		if depth == 20_000 {
			// yaml.v3 refuses nesting past 10,000 itself.
			want = "invalid YAML: exceeded max depth of 10000"
		}
		if e.Message != want {
			t.Errorf("depth %d: got %s, want %q", depth, renderProblem(e), want)
			continue
		}
		// At the 257th repeat.
		block := len("repeat: {times: 2, commands: [")
		if col := 3 + 256*block; depth < 20_000 && e.Pos != (canonical.Pos{File: mainFlow, Line: 3, Col: col}) {
			t.Errorf("depth %d: at %v, want 3:%d", depth, e.Pos, col)
		}
	}
}

func thousandsOf(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func onlyError(t *testing.T, err error) *canonical.Error {
	t.Helper()
	if err == nil {
		t.Fatal("loaded; want an error")
	}
	var le *maestro.LoadError
	if !errors.As(err, &le) || len(le.Problems) != 1 {
		t.Fatalf("want one problem, got %v", err)
	}
	return le.Problems[0]
}

// TestDeepValuesAreRefusedWithTheLimit: a command's own value (relative
// selectors, lists) nests at most 32 levels; the 33rd is refused where it
// starts, naming the command, the depth and the limit.
func TestDeepValuesAreRefusedWithTheLimit(t *testing.T) {
	t.Parallel()
	selector := func(depth int) string {
		return "- tapOn: " + strings.Repeat("{below: ", depth-1) + "{text: x}" + strings.Repeat("}", depth-1) + "\n"
	}
	if _, err := loadData(t, []byte(header+selector(32))); err != nil {
		t.Fatalf("32 levels: %v", err)
	}
	for _, tc := range []struct {
		text string
		want string
		col  int
	}{
		{selector(33), "tapOn nests 33 levels deep; the limit is 32", 10 + 32*len("{below: ")},
		{selector(500), "tapOn nests 500 levels deep; the limit is 32", 10 + 32*len("{below: ")},
		{"- inputText: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", "inputText nests 40 levels deep; the limit is 32", 14 + 32},
		// Inside a block, the block's own nesting does not count.
		{"- repeat:\n    commands:\n      " + selector(33), "tapOn nests 33 levels deep; the limit is 32", 16 + 32*len("{below: ")},
	} {
		_, err := loadData(t, []byte(header+tc.text))
		e := onlyError(t, err)
		if e.Message != tc.want || e.Pos.Col != tc.col {
			t.Errorf("%.40s...: got %s, want %q at column %d", tc.text, renderProblem(e), tc.want, tc.col)
		}
	}
}

// TestAliasesAreNeverExpanded: as in Maestro's YAML reader, an alias is
// the text of its name, so 200 aliases of a 64 KB anchor add 200 short
// texts, not 12.5 MB; anchored commands load.
func TestAliasesAreNeverExpanded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 64<<10)
	var b strings.Builder
	b.WriteString(header + "- inputText: &t \"" + big + "\"\n")
	for range 200 { // 200 x 64 KB = 12.5 MB if expanded
		b.WriteString("- inputText: *t\n")
	}
	l, err := loadData(t, []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	f := l.Flows()[0]
	if it, ok := f.Commands[200].(*canonical.InputText); !ok || it.Text.Raw != "t" || len(l.Warnings()) != 200 {
		t.Errorf("want the text \"t\" and a warning per alias, got %#v and %d warnings", f.Commands[200], len(l.Warnings()))
	}
	if _, err := loadData(t, loadShapes()["anchors"](256<<10)); err != nil {
		t.Errorf("anchored commands: %v", err)
	}
}

func second[A, B any](_ A, b B) B { return b }

// bigStat reports a size for some files without holding their bytes.
type bigStat struct {
	fstest.MapFS
	sizes map[string]int64
}

func (b bigStat) Stat(name string) (fs.FileInfo, error) {
	info, err := b.MapFS.Stat(name)
	if size, ok := b.sizes[name]; ok && err == nil {
		return sizedInfo{info, size}, nil
	}
	return info, err
}

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (s sizedInfo) Size() int64 { return s.size }

// TestReferencedFilesMustBeRegularAndBounded: runFlow, runScript and
// addMedia refuse folders, devices, FIFOs and sockets, and files over the
// limit, before reading them, at the position that names the file.
func TestReferencedFilesMustBeRegularAndBounded(t *testing.T) {
	t.Parallel()
	files := fstest.MapFS{
		"flows/zero":      {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"flows/zero.png":  {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"flows/fifo.yaml": {Mode: fs.ModeNamedPipe},
		"flows/sock.js":   {Mode: fs.ModeSocket},
		"flows/huge.yaml": {Data: []byte(header + "- back\n")},
		"flows/huge.js":   {Data: []byte("1")},
		"flows/huge.mp4":  {Data: []byte("1")},
		"flows/ok.mp4":    {Data: []byte("1")},
		"flows/dir.yaml":  {Mode: fs.ModeDir},
	}
	src := bigStat{files, map[string]int64{"flows/huge.yaml": maestro.MaxFileSize + 1, "flows/huge.js": 6 << 20, "flows/huge.mp4": maestro.MaxMediaSize + 1, "flows/ok.mp4": maestro.MaxMediaSize}}
	for _, tc := range []struct{ text, want string }{
		{"- runFlow: zero", `3:12: INVALID_ARGS: runFlow file "zero" is a character device, not a regular file`},
		{"- runFlow: {file: fifo.yaml}", `3:19: INVALID_ARGS: runFlow file "fifo.yaml" is a named pipe (FIFO), not a regular file`},
		{"- runScript: sock.js", `3:14: INVALID_ARGS: runScript file "sock.js" is a socket, not a regular file`},
		{"- addMedia: [zero.png]", `3:14: INVALID_ARGS: addMedia file "zero.png" is a character device, not a regular file`},
		{"- runFlow: huge.yaml", `3:12: INVALID_ARGS: runFlow file "huge.yaml" is 5,242,881 bytes; the limit is 5 MiB`},
		{"- runScript: {file: huge.js}", `3:21: INVALID_ARGS: runScript file "huge.js" is 6 MiB; the limit is 5 MiB`},
		{"- addMedia: [ok.mp4, huge.mp4]", `3:22: INVALID_ARGS: addMedia file "huge.mp4" is 1,073,741,825 bytes; the limit is 1 GiB`},
		{"- runFlow: dir.yaml", `3:12: INVALID_ARGS: runFlow file "dir.yaml" is a folder, not a file`},
	} {
		files[mainFlow] = &fstest.MapFile{Data: []byte(header + tc.text + "\n")}
		l := newLoader139(src)
		_, err := l.Load(mainFlow)
		e := onlyError(t, err)
		if got := strings.TrimPrefix(e.Error(), mainFlow+":"); got != tc.want || e.Hint == "" {
			t.Errorf("%s:\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
}

// BenchmarkLoad loads each shape at the sizes issue 10 measured (1,000
// nested blocks, 100,000 commands) and at 4 MB; MB/s is the load rate.
// Shapes past a limit measure how fast they are refused.
func BenchmarkLoad(b *testing.B) {
	cases := []struct {
		name string
		data []byte
	}{
		{"nested-256", nestedFlow(256)},
		{"nested-1000", nestedFlow(1000)},
		{"wide-100k", wideFlow(100_000)},
	}
	var names []string
	for name := range loadShapes() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cases = append(cases, struct {
			name string
			data []byte
		}{name + "-4MB", loadShapes()[name](4 << 20)})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = loadData(b, c.data)
			}
		})
	}
}
