//go:build linux

package maestro_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/flow-runner/flow/internal/peakrss"
	"github.com/flow-runner/flow/maestro"
)

// memoryShapeEnv names the shape the helper process loads.
const memoryShapeEnv = "FLOW_TEST_LOAD_SHAPE"

// TestLoadMemoryIsBounded loads the worst case of each shape just under
// the file size limit and at 10 MB (refused by it), and the flow with the
// most values the limit allows, each in its own process, and checks the
// process's peak resident memory stays under 1 GB. docs/performance.md
// ("Loading") records the figures.
func TestLoadMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("loads about 80 MB of flows in child processes")
	}
	var names []string
	for name := range loadShapes() {
		names = append(names, name)
	}
	sort.Strings(names)
	var cases []string
	for _, size := range []int{maestro.MaxFileSize - 1024, 10 << 20} {
		for _, name := range names {
			cases = append(cases, fmt.Sprintf("%s/%d", name, size))
		}
	}
	// Just under the values limit: two bytes a value, and selectors
	// nested 32 deep.
	cases = append(cases, fmt.Sprintf("flow-list/%d", 2*1_000_000-200), "deep-selectors/4400000")
	for _, shape := range cases {
		t.Run(shape, func(t *testing.T) {
			t.Parallel() // two at a time on two cores: still well under the machine's memory
			cmd := exec.Command(os.Args[0], "-test.run=^TestLoadMemoryHelper$", "-test.v")
			cmd.Env = append(os.Environ(), memoryShapeEnv+"="+shape)
			peak := peakrss.Wrap(cmd, t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			rss, err := peak.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%-24s peak RSS %4d MB  %s", shape, rss>>20, strings.TrimSpace(grepOutcome(string(out))))
			if rss >= 1<<30 {
				t.Errorf("peak RSS %d MB, want under 1 GB", rss>>20)
			}
		})
	}
}

func grepOutcome(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "outcome: "); i >= 0 {
			return line[i+len("outcome: "):]
		}
	}
	return ""
}

// TestLoadMemoryHelper is the child process of TestLoadMemoryIsBounded.
func TestLoadMemoryHelper(t *testing.T) {
	shape := os.Getenv(memoryShapeEnv)
	if shape == "" {
		t.Skip("run by TestLoadMemoryIsBounded")
	}
	i := strings.LastIndexByte(shape, '/')
	size, err := strconv.Atoi(shape[i+1:])
	gen, ok := loadShapes()[shape[:max(i, 0)]]
	if i < 0 || err != nil || !ok {
		t.Fatalf("no shape %q", shape)
	}
	data := gen(size)
	name := shape[:i]
	runtime.GC() // only the load counts, not the generator's garbage
	_, err = loadData(t, data)
	switch {
	case err == nil && len(data) > maestro.MaxFileSize:
		t.Fatalf("%s (%d bytes) loads past the size limit", name, len(data))
	case err == nil:
		t.Logf("outcome: %d bytes loaded", len(data))
	case strings.Contains(err.Error(), "; the limit is "):
		t.Logf("outcome: %d bytes refused: %.120s", len(data), err.Error()[strings.Index(err.Error(), "INVALID_ARGS: ")+14:])
	default:
		t.Fatalf("%s (%d bytes) does not load: %.300v", name, len(data), err)
	}
}
