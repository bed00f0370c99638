package maestro_test

import (
	"fmt"
	"strings"
	"testing"
)

// chainFiles writes flows/main.yaml and n-1 more files, each running the
// next with runFlow (in an inline runFlow block when inline is set, so
// each file adds two levels); the last file holds one command.
func chainFiles(n int, inline bool) map[string]string {
	files := map[string]string{}
	name := func(i int) string {
		if i == 0 {
			return mainFlow
		}
		return fmt.Sprintf("flows/c%03d.yaml", i)
	}
	for i := range n {
		body := "- back\n"
		if i < n-1 {
			body = fmt.Sprintf("- tapOn: x\n- runFlow: c%03d.yaml\n", i+1)
			if inline {
				body = fmt.Sprintf("- runFlow:\n    commands:\n      - runFlow: c%03d.yaml\n", i+1)
			}
		}
		files[name(i)] = header + body
	}
	return files
}

// TestRunFlowChainsKeepTheNestingLimit: the limit on nested blocks (256)
// holds for chains of subflow files too, each of which nests the next one
// level deeper when it runs. A chain past the limit is refused once, at the
// runFlow command of the file where it first crosses, naming the depth; the
// files above it report that their subflow has errors. A chain at the
// limit loads.
func TestRunFlowChainsKeepTheNestingLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		n      int
		inline bool
		at     string // the problem's position, "" when the chain loads
		depth  int
	}{
		{name: "257 files (256 levels)", n: 257},
		{name: "300 files", n: 300, at: "flows/c042.yaml:4:3", depth: 257},
		{name: "130 files with inline blocks", n: 130, inline: true, at: "flows/main.yaml:5:9", depth: 258},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := chainFiles(tc.n, tc.inline)
			main := files[mainFlow]
			r := loadFlow(t, main, files)
			if tc.at == "" {
				if r.err != nil {
					t.Fatalf("a chain at the limit was refused:\n%s", renderProblems(r.problems))
				}
				return
			}
			if r.err == nil {
				t.Fatal("the chain loaded")
			}
			var deep []string
			for _, p := range r.problems {
				if strings.Contains(p.Message, "blocks deep") {
					deep = append(deep, renderProblem(p))
				}
			}
			want := fmt.Sprintf("%s: INVALID_ARGS: runFlow nests the flow %d blocks deep through", tc.at, tc.depth)
			if len(deep) != 1 || !strings.HasPrefix(deep[0], want) || !strings.Contains(deep[0], "the limit is 256") {
				t.Errorf("problems about the depth:\n%s\nwant one starting %q", strings.Join(deep, "\n"), want)
			}
		})
	}
}
