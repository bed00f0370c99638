package flow_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The README is the page a newcomer reads in two minutes (issue 23): it
// opens with the two commands that matter and stays short, and the details
// live in docs/, reached by links that must keep working as pages move.

const readmeMaxLines = 150

// TestREADMEOpensWithTheTwoCommands: the first code block is the demo on
// the built-in sim (the command cmd/flow TestDemoPasses runs) and the test
// command CI runs (.ci/run), in that order, and the page fits its budget.
func TestREADMEOpensWithTheTwoCommands(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > readmeMaxLines {
		t.Errorf("README.md has %d lines; the budget is %d: move details into the docs/ page that owns their topic and link it", len(lines), readmeMaxLines)
	}
	var block []string
	in := false
	for _, l := range lines {
		if strings.HasPrefix(l, "```") {
			if in {
				break
			}
			in = true
			continue
		}
		if in {
			// The commands without their trailing comments.
			cmd, _, _ := strings.Cut(l, "#")
			if cmd = strings.TrimSpace(cmd); cmd != "" {
				block = append(block, cmd)
			}
		}
	}
	want := []string{"go run ./cmd/flow test --device sim flows/demo", "go test ./..."}
	if strings.Join(block, "\n") != strings.Join(want, "\n") {
		t.Errorf("README.md's first code block is %q; it must be the demo and the test command, %q", block, want)
	}
}

// mdLink is an inline Markdown link outside code spans: [text](target#anchor).
var mdLink = regexp.MustCompile(`\]\(([^)\s#]*)(#[^)\s]*)?\)`)

// TestDocsLinksResolve: every relative link in README.md and docs/*.md
// names a file of the repository, and a #anchor names a heading of the
// Markdown file it points into, as GitHub derives heading anchors.
func TestDocsLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"README.md"}, pages...)
	anchorsOf := map[string]map[string]bool{}
	for _, page := range pages {
		for n, line := range markdownProse(t, page) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target, anchor := m[1], strings.TrimPrefix(m[2], "#")
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path := page
				if target != "" {
					path = filepath.Join(filepath.Dir(page), filepath.FromSlash(target))
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist (links in docs/ are relative to docs/)", page, n+1, m[0], path)
					continue
				}
				if anchor == "" || !strings.HasSuffix(path, ".md") {
					continue
				}
				if anchorsOf[path] == nil {
					anchorsOf[path] = headingAnchors(t, path)
				}
				if !anchorsOf[path][anchor] {
					t.Errorf("%s:%d: link %q: %s has no heading with the anchor #%s", page, n+1, m[0], path, anchor)
				}
			}
		}
	}
}

// markdownProse returns the file's lines with fenced code blocks blanked
// and code spans removed, so that text such as `a[x](y)` is not a link.
func markdownProse(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	fenced := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	codeSpan := regexp.MustCompile("`[^`]*`")
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			out = append(out, "")
			continue
		}
		if fenced {
			out = append(out, "")
			continue
		}
		out = append(out, codeSpan.ReplaceAllString(l, ""))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// headingAnchors derives the anchors GitHub gives a file's headings: the
// text lower-cased, punctuation other than '-' and '_' dropped, spaces
// turned into '-', and "-1", "-2"… appended to repeats.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	anchors := map[string]bool{}
	seen := map[string]int{}
	// Headings are read raw, not through markdownProse: the text of
	// their code spans counts toward the anchor.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fenced := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// eventCall is how the runtime writes an event log line (exec's r.event).
var eventCall = regexp.MustCompile(`\bevent\("([A-Za-z]+)"`)

// TestEventTypesDocumented: every event type the runtime writes has a row
// in docs/reports.md's event log table, so readers of --events logs learn
// of a new type from the docs, not from a surprise.
func TestEventTypesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("docs", "reports.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## The event log")
	if !ok {
		t.Fatal(`docs/reports.md has no "## The event log" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	sources, err := filepath.Glob(filepath.Join("exec", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range sources {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range eventCall.FindAllStringSubmatch(string(data), -1) {
			seen[m[1]] = true
		}
	}
	if len(seen) < 10 {
		t.Fatalf("found only %d event types in exec/*.go: has r.event moved?", len(seen))
	}
	for typ := range seen {
		if !strings.Contains(section, "| `"+typ+"` |") {
			t.Errorf("exec writes event type %q; docs/reports.md's event log table has no row for it", typ)
		}
	}
}
