package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/maestro"
)

// writeTree writes files (slash paths relative to dir) and returns dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runFlowWithin runs the CLI and fails the test if it has not returned
// within a bound: a FIFO read would block forever.
func runFlowWithin(t *testing.T, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- runFlow(t, "", args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(30 * time.Second):
		t.Fatalf("flow %s did not return: it is reading something that never ends", strings.Join(args, " "))
		return result{}
	}
}

// TestInputFilesMustBeRegularAndBounded: every file flow reads because a
// flow or the command line names it (runFlow, runScript, addMedia, the
// flow files and .ad scripts themselves, --capabilities) is refused before
// it is read when it is not a regular file or is over the size limit,
// with exit 2 and the position that names it; nothing blocks on a FIFO or
// streams /dev/zero.
func TestInputFilesMustBeRegularAndBounded(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"media/ok.png": "png",
		"folder/x":     "",
	})
	fifoOK := makeFIFO(filepath.Join(dir, "pipe.yaml")) == nil &&
		makeFIFO(filepath.Join(dir, "pipe.js")) == nil &&
		makeFIFO(filepath.Join(dir, "pipe.png")) == nil &&
		makeFIFO(filepath.Join(dir, "pipe.ad")) == nil &&
		makeFIFO(filepath.Join(dir, "pipe.json")) == nil
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maestro.MaxFileSize+1); err != nil { // sparse: no 5 MiB written
		t.Fatal(err)
	}
	flow := func(name, command string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("appId: com.example.app\n---\n"+command+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	type tc struct {
		name string
		args []string
		want string // in stdout or stderr
		fifo bool
	}
	cases := []tc{
		{"runFlow folder", []string{"check", flow("a.yaml", "- runFlow: folder")}, `a.yaml:3:12: INVALID_ARGS: runFlow file "folder" is a folder, not a file`, false},
		{"runFlow too large", []string{"check", flow("b.yaml", "- runFlow: big.yaml")}, `b.yaml:3:12: INVALID_ARGS: runFlow file "big.yaml" is 5,242,881 bytes; the limit is 5 MiB`, false},
		{"runScript too large", []string{"check", flow("c.yaml", "- runScript: {file: big.yaml}")}, `c.yaml:3:21: INVALID_ARGS: runScript file "big.yaml" is 5,242,881 bytes; the limit is 5 MiB`, false},
		{"flow file too large", []string{"check", big}, `big.yaml: INVALID_ARGS: flow path ` + filepath.ToSlash(big) + ` is 5,242,881 bytes; the limit is 5 MiB`, false},
		{"runFlow FIFO", []string{"check", flow("d.yaml", "- runFlow: pipe.yaml")}, `d.yaml:3:12: INVALID_ARGS: runFlow file "pipe.yaml" is a named pipe (FIFO), not a regular file`, true},
		{"runScript FIFO", []string{"check", flow("e.yaml", "- runScript: pipe.js")}, `e.yaml:3:14: INVALID_ARGS: runScript file "pipe.js" is a named pipe (FIFO), not a regular file`, true},
		{"addMedia FIFO", []string{"check", flow("f.yaml", "- addMedia: [media/ok.png, pipe.png]")}, `f.yaml:3:28: INVALID_ARGS: addMedia file "pipe.png" is a named pipe (FIFO), not a regular file`, true},
		{"flow file FIFO", []string{"check", filepath.Join(dir, "pipe.yaml")}, `pipe.yaml: INVALID_ARGS: flow path ` + filepath.ToSlash(filepath.Join(dir, "pipe.yaml")) + ` is a named pipe (FIFO), not a regular file`, true},
		{".ad script FIFO", []string{"check", filepath.Join(dir, "pipe.ad")}, `is a named pipe (FIFO), not a regular file`, true},
		{"capabilities FIFO", []string{"test", "--device", "web", "--capabilities", filepath.Join(dir, "pipe.json"), flow("g.yaml", "- back")},
			`--capabilities: ` + filepath.Join(dir, "pipe.json") + ` is a named pipe (FIFO), not a regular file`, true},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases,
			tc{"runFlow /dev/zero", []string{"check", flow("h.yaml", "- runFlow: /dev/zero")}, `h.yaml:3:12: INVALID_ARGS: runFlow file "/dev/zero" is a character device, not a regular file`, false},
			tc{"runScript /dev/zero", []string{"check", flow("i.yaml", "- runScript: /dev/zero")}, `i.yaml:3:14: INVALID_ARGS: runScript file "/dev/zero" is a character device, not a regular file`, false},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.fifo && !fifoOK {
				t.Skip("no FIFOs on this system")
			}
			r := runFlowWithin(t, c.args...)
			if r.code != 2 || !strings.Contains(r.stdout+r.stderr, c.want) {
				t.Errorf("want exit 2 and %q\n%s", c.want, r)
			}
		})
	}
}

// TestSnippetsQuoteOnlyRecognizedFiles: an error shows source lines only
// from files flow recognized as flows (a header naming the app) or .ad
// scripts (lines that parse), never from a file a path merely names.
func TestSnippetsQuoteOnlyRecognizedFiles(t *testing.T) {
	t.Parallel()
	const marker = "SECRET-MARKER-7f3a"
	dir := writeTree(t, map[string]string{
		"secret.txt":       "TOKEN=" + marker + "\n",
		"secret.yaml":      "password: " + marker + "\n---\n- x: 1\n",
		"secret-list.yaml": "- " + marker + "\n",
		"credentials.ad":   "[default]\naws_secret_access_key = " + marker + "\n",
		"txt.yaml":         "appId: com.example.app\n---\n- runFlow: secret.txt\n",
		"yaml.yaml":        "appId: com.example.app\n---\n- runFlow: secret.yaml\n",
		"list.yaml":        "appId: com.example.app\n---\n- runFlow: {file: secret-list.yaml}\n",
		"environ.yaml":     "appId: com.example.app\n---\n- runFlow: /proc/self/environ\n",
		// Controls: files flow recognizes keep their snippets.
		"typo.yaml":   "appId: com.example.app\n---\n- back\n- frobnicate: \"" + marker + "\"\n",
		"syntax.yaml": "appId: com.example.app\n---\n- tapOn: \"" + marker + "\n",
		"typo.ad":     "open com.example.app\nclick \"" + marker + "\" --frobnicate\n",
	})
	environ, _ := os.ReadFile("/proc/self/environ")
	for _, tc := range []struct {
		args  []string
		quote bool // the control: the marker's line is quoted
	}{
		{[]string{"check", filepath.Join(dir, "txt.yaml")}, false},
		{[]string{"check", filepath.Join(dir, "yaml.yaml")}, false},
		{[]string{"check", filepath.Join(dir, "list.yaml")}, false},
		{[]string{"check", filepath.Join(dir, "credentials.ad")}, false},
		{[]string{"check", filepath.Join(dir, "secret.yaml")}, false},
		{[]string{"convert", "--to", "ad", filepath.Join(dir, "yaml.yaml")}, false},
		{[]string{"convert", "--to", "maestro", filepath.Join(dir, "credentials.ad")}, false},
		{[]string{"test", filepath.Join(dir, "txt.yaml")}, false},
		{[]string{"check", filepath.Join(dir, "typo.yaml")}, true},
		{[]string{"check", filepath.Join(dir, "syntax.yaml")}, true},
		{[]string{"check", filepath.Join(dir, "typo.ad")}, true},
	} {
		r := runFlowWithin(t, tc.args...)
		out := r.stdout + r.stderr
		if r.code != 2 {
			t.Errorf("flow %s: want exit 2\n%s", strings.Join(tc.args, " "), r)
		}
		if strings.Contains(out, marker) != tc.quote {
			t.Errorf("flow %s: quotes the marker: %v, want %v\n%s", strings.Join(tc.args, " "), !tc.quote, tc.quote, r)
		}
	}
	if runtime.GOOS != "linux" || len(environ) == 0 {
		return
	}
	r := runFlowWithin(t, "check", filepath.Join(dir, "environ.yaml"))
	if r.code != 2 {
		t.Errorf("runFlow: /proc/self/environ: want exit 2\n%s", r)
	}
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if _, v, ok := bytes.Cut(kv, []byte("=")); ok && len(v) >= 12 && strings.Contains(r.stdout+r.stderr, string(v)) {
			t.Errorf("runFlow: /proc/self/environ prints an environment value (%.20s...)\n%s", v, r)
		}
	}
}

// TestSnippetOfALongLine: a snippet shows a window of a long line around
// the column, with the caret under the character the error names.
func TestSnippetOfALongLine(t *testing.T) {
	t.Parallel()
	line := "- " + strings.Repeat("repeat: {times: 2, commands: [", 300) + "back" + strings.Repeat("]}", 300)
	dir := writeTree(t, map[string]string{"deep.yaml": "appId: com.example.app\n---\n" + line + "\n"})
	r := runFlowWithin(t, "check", filepath.Join(dir, "deep.yaml"))
	if r.code != 2 || !strings.Contains(r.stdout, "the flow nests 300 blocks deep; the limit is 256") {
		t.Fatalf("want the depth limit\n%s", r)
	}
	var snippet, caret string
	for _, l := range strings.Split(r.stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "     3 | "):
			snippet = strings.TrimPrefix(l, "     3 | ")
		case strings.HasPrefix(l, "       | "):
			caret = strings.TrimPrefix(l, "       | ")
		}
	}
	n := len([]rune(snippet))
	if n == 0 || n > 170 || !strings.HasPrefix(snippet, "…") || !strings.HasSuffix(snippet, "…") {
		t.Fatalf("snippet of %d characters, want a window of at most 170 marked with …:\n%s", n, r)
	}
	at := len([]rune(strings.TrimSuffix(caret, "^")))
	if rest := string([]rune(snippet)[at:]); !strings.HasPrefix(rest, "repeat: {") || !strings.HasSuffix(caret, "^") {
		t.Errorf("the caret points at %q, want the 257th repeat\n%s", rest, r)
	}
}
