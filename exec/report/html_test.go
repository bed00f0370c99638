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
