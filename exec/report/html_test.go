package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/report"
)

func html(t *testing.T, run exec.RunResult, opts report.HTMLOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.HTML(&b, run, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestHTMLSnapshot(t *testing.T) {
	t.Parallel()
	out := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)})
	snaps.WithConfig(snaps.Raw(), snaps.Ext(".html")).MatchStandaloneSnapshot(t, out)
}

func TestHTMLDeterministic(t *testing.T) {
	t.Parallel()
	a := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)})
	for range 5 { // details maps would show up as reordering within a few runs
		if b := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)}); a != b {
			t.Fatal("two renders of the same run differ")
		}
	}
}

func TestHTMLEmbedsArtifacts(t *testing.T) {
	t.Parallel()
	out := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)})
	for _, want := range []string{
		`<img src="data:image/png;base64,` + screenshotB64 + `" alt="screenshot Checkout-failure.png"/>`,
		// The hierarchy, escaped, in a collapsed <details>.
		`<details class="artifact"><summary><code>Checkout-hierarchy.json</code></summary><pre>{
  &#34;attributes&#34;: {&#34;text&#34;: &#34;Pay &lt;later&gt; &amp; save&#34;},`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestHTMLArtifactFallbacks(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{Flows: []exec.FlowResult{{Name: "a", Status: exec.StatusFailed,
		Artifacts: []string{"a.png", "gone.png", "a.mp4", "big.json"}}}}
	read := func(name string) ([]byte, error) {
		switch name {
		case "a.png": // named .png but not one: never trusted as an image
			return []byte(`<script>alert(1)</script>`), nil
		case "a.mp4":
			return []byte{0, 0, 0, 0x18, 'f', 't', 'y', 'p'}, nil
		case "big.json":
			return bytes.Repeat([]byte("x"), 1<<20+1), nil
		}
		return nil, errors.New("no such file")
	}
	out := html(t, run, report.HTMLOptions{ReadArtifact: read})
	for _, want := range []string{
		`<p><code>a.png</code> <span class="muted">(not embedded)</span></p>`,
		`<p><code>gone.png</code> <span class="muted">(could not be read: no such file)</span></p>`,
		`<p><code>a.mp4</code> <span class="muted">(not embedded)</span></p>`,
		`<p><code>big.json</code> <span class="muted">(too large to show inline (1048577 bytes))</span></p>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, "data:") || strings.Contains(out, "alert") {
		t.Error("an artifact that is not an image was embedded")
	}
	noReader := html(t, run, report.HTMLOptions{})
	if !strings.Contains(noReader, `<p><code>a.png</code></p>`) {
		t.Error("without ReadArtifact, artifacts are listed by name")
	}
}

// TestHTMLEscapes feeds markup through every field that reaches the page.
func TestHTMLEscapes(t *testing.T) {
	t.Parallel()
	evil := `<script>alert("x")</script>`
	e := canonical.NewError(canonical.CodeCommandFailed, evil).WithHint(evil).With(evil, evil).
		At(canonical.Pos{File: evil, Line: 1, Col: 1})
	run := exec.RunResult{
		Device: exec.DeviceInfo{Name: evil, Platform: evil, ID: evil + "2"},
		Flows: []exec.FlowResult{{Name: evil, File: evil, Status: exec.StatusFailed, Error: e, Artifacts: []string{evil},
			Steps: []exec.StepResult{{Command: evil, Label: evil, Status: exec.StatusFailed, Error: e, Logs: []string{evil},
				Pos: canonical.Pos{File: evil, Line: 2}}}}},
	}
	out := html(t, run, report.HTMLOptions{Title: evil, ReadArtifact: func(string) ([]byte, error) { return []byte(evil), nil }})
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Errorf("raw markup reached the page:\n%s", out)
	}
	if n := strings.Count(out, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"); n < 10 {
		t.Errorf("escaped text appears %d times, want every field (>= 10)", n)
	}
	if err := wellFormed(out); err != nil {
		t.Error(err)
	}
}

// wellFormed parses the page as XML: the template writes void elements
// self-closed, so any unbalanced tag or unescaped '<' or '&' is an error.
func wellFormed(page string) error {
	d := xml.NewDecoder(strings.NewReader(page))
	d.Entity = xml.HTMLEntity
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// TestHTMLStructure checks the page as a tree: self-contained, one open
// <details> per failed flow, one table row per step, nesting depth kept.
func TestHTMLStructure(t *testing.T) {
	t.Parallel()
	out := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)})
	if !strings.HasPrefix(out, "<!DOCTYPE html>\n<html lang=\"en\">") || !strings.HasSuffix(out, "</html>\n") {
		t.Error("want a complete document ending in a newline")
	}
	if err := wellFormed(out); err != nil {
		t.Fatal(err)
	}
	root, err := parseXML([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	var flows []*xmlNode
	var rows [][]*xmlNode
	walk(root, func(n *xmlNode) {
		for _, a := range []string{"src", "href"} {
			if v, ok := n.Attrs[a]; ok && !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "data:image/") {
				t.Errorf("<%s %s=%q> points outside the page", n.Name, a, v)
			}
		}
		switch n.Name {
		case "script", "link", "iframe", "object", "embed":
			t.Errorf("<%s> in a self-contained, script-free page", n.Name)
		case "details":
			if strings.HasPrefix(n.Attrs["class"], "flow ") {
				flows = append(flows, n)
			}
		case "tbody":
			rows = append(rows, n.children("tr"))
		}
	})
	if strings.Contains(out, "url(") || strings.Contains(out, "@import") {
		t.Error("CSS must not load anything")
	}
	if len(flows) != 4 {
		t.Fatalf("%d flow sections, want 4", len(flows))
	}
	for i, want := range []string{"flow passed", "flow failed", "flow passed", "flow skipped"} {
		if got := flows[i].Attrs["class"]; got != want {
			t.Errorf("flow %d class = %q, want %q", i+1, got, want)
		}
		if _, open := flows[i].Attrs["open"]; open != (i == 1) {
			t.Errorf("flow %d open = %v; only the failed flow starts open", i+1, open)
		}
	}
	f := fixture()
	if len(rows) != 3 {
		t.Fatalf("%d step tables, want 3 (the skipped flow has no steps)", len(rows))
	}
	for i, fi := range []int{0, 1, 2} {
		if len(rows[i]) != len(f.Flows[fi].Steps) {
			t.Errorf("flow %d: %d rows, want %d", fi+1, len(rows[i]), len(f.Flows[fi].Steps))
		}
	}
	// The failure shows on the flow and once on the step where it happened,
	// not again on the runFlow and repeat it propagated through; plus the
	// warning.
	if n := strings.Count(out, `<div class="error`); n != 3 {
		t.Errorf("%d error blocks, want 3 (flow, innermost failed step, warned step)", n)
	}
	depth := func(row *xmlNode) string { return row.Children[1].Attrs["style"] }
	if got := depth(rows[1][6]); got != "--depth: 2" {
		t.Errorf("nested tapOn style = %q, want --depth: 2", got)
	}
	for _, want := range []string{
		`<p class="result failed">Test Result: FAILED</p>`,
		`<div class="card"><div class="label">Flows</div><div class="value">4</div></div>`,
		`<div class="value">2</div><div class="sub">1 with warnings</div>`,
		`<div class="card"><div class="label">Duration</div><div class="value">9.8s</div></div>`,
		`<div class="value small">Pixel 7 API 34</div><div class="sub">android · emulator-5554</div>`,
		`<li><a href="#flow-2">Checkout</a>: <span class="mono">flows/subflows/pay.yaml:4:3: ELEMENT_NOT_FOUND: Element not found: Text matching regex: Pay now</span></li>`,
		`<div class="hint">Hint: check the text on screen, or wait for it with extendedWaitUntil</div>`,
		`<dt>timeoutMs</dt><dd class="mono">17000</dd>`,
		`<span class="badge passed">PASSED</span> <span class="badge warned">WARNINGS</span> <span class="name">Search &#34;offers&#34; &amp; &lt;deals&gt;</span>`,
		`<div class="error warned">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func walk(n *xmlNode, fn func(*xmlNode)) {
	fn(n)
	for _, c := range n.Children {
		walk(c, fn)
	}
}

func TestHTMLTitleAndPassingRun(t *testing.T) {
	t.Parallel()
	run := exec.RunResult{Flows: []exec.FlowResult{{Name: "a", Status: exec.StatusPassed, DurationMs: 61_500}}, DurationMs: 61_500}
	out := html(t, run, report.HTMLOptions{Title: "Nightly"})
	for _, want := range []string{
		"<title>Nightly</title>", "<h1>Nightly</h1>", `<p class="result passed">Test Result: PASSED</p>`,
		`<div class="value">1m 2s</div>`, `<div class="value small">unknown</div>`, `<p class="muted">No steps ran.</p>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, "Failed flows") || strings.Contains(out, " open=") {
		t.Error("a passing run lists no failed flows and opens nothing")
	}
	if def := html(t, run, report.HTMLOptions{}); !strings.Contains(def, "<title>Flow Execution Summary</title>") {
		t.Error("default title missing")
	}
}

// emojiRanges are the code points with the Unicode Emoji property outside
// ASCII (emoji-data.txt), whole blocks where most of a block is emoji,
// and the emoji presentation selector. The page must need no emoji font.
var emojiRanges = [][2]rune{
	{0x00a9, 0x00a9}, {0x00ae, 0x00ae}, {0x203c, 0x203c}, {0x2049, 0x2049}, {0x2122, 0x2122}, {0x2139, 0x2139},
	{0x2194, 0x2199}, {0x21a9, 0x21aa}, {0x231a, 0x231b}, {0x2328, 0x2328}, {0x23cf, 0x23cf}, {0x23e9, 0x23f3},
	{0x23f8, 0x23fa}, {0x24c2, 0x24c2}, {0x25aa, 0x25ab}, {0x25b6, 0x25b6}, {0x25c0, 0x25c0}, {0x25fb, 0x25fe},
	{0x2600, 0x26ff}, {0x2702, 0x2702}, {0x2705, 0x2705}, {0x2708, 0x270d}, {0x270f, 0x270f}, {0x2712, 0x2712},
	{0x2714, 0x2714}, {0x2716, 0x2716}, {0x271d, 0x271d}, {0x2721, 0x2721}, {0x2728, 0x2728}, {0x2733, 0x2734},
	{0x2744, 0x2744}, {0x2747, 0x2747}, {0x274c, 0x274c}, {0x274e, 0x274e}, {0x2753, 0x2755}, {0x2757, 0x2757},
	{0x2763, 0x2764}, {0x2795, 0x2797}, {0x27a1, 0x27a1}, {0x27b0, 0x27b0}, {0x27bf, 0x27bf}, {0x2934, 0x2935},
	{0x2b05, 0x2b07}, {0x2b1b, 0x2b1c}, {0x2b50, 0x2b50}, {0x2b55, 0x2b55}, {0x3030, 0x3030}, {0x303d, 0x303d},
	{0x3297, 0x3297}, {0x3299, 0x3299}, {0xfe0f, 0xfe0f}, {0x1f000, 0x1faff},
}

// TestHTMLNoEmoji: status marks (and everything else the page adds) render
// without an emoji font, and each status still has a mark of its own.
func TestHTMLNoEmoji(t *testing.T) {
	t.Parallel()
	out := html(t, fixture(), report.HTMLOptions{ReadArtifact: artifacts(t)})
	for i, r := range out {
		for _, rg := range emojiRanges {
			if r >= rg[0] && r <= rg[1] {
				t.Fatalf("emoji code point %U at byte %d: %q", r, i, out[max(0, i-60):min(len(out), i+20)])
			}
		}
	}
	marks := map[string]bool{}
	for _, status := range []string{"passed", "failed", "warned", "skipped"} {
		_, rest, ok := strings.Cut(out, `<td class="icon" title="`+status+`">`)
		mark, _, _ := strings.Cut(rest, "<")
		if !ok || mark == "" || marks[mark] {
			t.Errorf("status %s has no mark of its own (%q)", status, mark)
		}
		marks[mark] = true
	}
}

// TestReportsNeutraliseControls: control characters and bidi overrides in
// any field reach neither page nor JUnit file raw; they show as escapes.
func TestReportsNeutraliseControls(t *testing.T) {
	t.Parallel()
	evil := "a\x1b[2J\rb\x07\u202ec\u0085\xff"
	shown := `a\x1b[2J\rb\x07\u202ec\u0085\xff`
	e := canonical.NewError(canonical.CodeCommandFailed, evil).WithHint(evil).With(evil, evil).
		At(canonical.Pos{File: evil, Line: 1, Col: 1})
	run := exec.RunResult{
		Device: exec.DeviceInfo{Name: evil, Platform: evil, ID: evil + "2"},
		Flows: []exec.FlowResult{{Name: evil, File: evil, Status: exec.StatusFailed, Error: e, Artifacts: []string{evil + ".json"},
			Steps: []exec.StepResult{{Command: evil, Label: evil, Description: evil, Status: exec.StatusFailed, Error: e, Logs: []string{evil},
				Pos: canonical.Pos{File: evil, Line: 2}}}}},
	}
	page := html(t, run, report.HTMLOptions{Title: evil, ReadArtifact: func(string) ([]byte, error) { return []byte(evil), nil }})
	junitOut := junit(t, run, report.JUnitOptions{SuiteName: evil})
	for what, out := range map[string]string{"html": page, "junit": junitOut} {
		for i, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r == 0x202e || r == 0xfffd {
				t.Errorf("%s: raw %U at byte %d", what, r, i)
				break
			}
		}
		if !strings.Contains(out, shown) {
			t.Errorf("%s: the escapes %s are not shown", what, shown)
		}
	}
	if n := strings.Count(page, shown); n < 10 {
		t.Errorf("the page shows the escapes %d times, want every field (>= 10)", n)
	}
	if err := wellFormed(page); err != nil {
		t.Error(err)
	}
	if problems := validateJUnit([]byte(junitOut)); len(problems) > 0 {
		t.Errorf("invalid JUnit: %s", strings.Join(problems, "\n"))
	}
}
