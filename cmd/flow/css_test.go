package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/convert"
	"github.com/flow-runner/flow/maestro"
)

// The css page (exec/webdriver/testdata/css.html) has two "Buy" buttons
// with no id, aria-label, name or title, told apart by class only; a tap
// writes which one it was into #result and marks it .done.
const webCSSFlow = `url: %s/css.html
---
- launchApp
- assertVisible: Nothing bought
- tapOn:
    css: button.secondary
- assertVisible: "Bought: secondary"
- assertVisible:
    css: "#result.done"
- tapOn:
    text: Buy
    css: .primary
- assertVisible: "Bought: primary"
- tapOn: {css: a.more}
- assertVisible: More shown
- assertNotVisible: {css: .ghost}
`

// TestWebCSSFlow: a Maestro web flow selecting by css runs on --device web
// in headless Chromium: each tap reaches the button its class names (the
// page says which), a container matches, assertVisible and
// assertNotVisible with css pass; assertVisible of a css nothing matches
// fails with exit 1 naming the selector, and an invalid selector fails
// at once with INVALID_ARGS at its line (exit 2).
func TestWebCSSFlow(t *testing.T) {
	base := needBrowser(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "css.yaml")
	os.WriteFile(good, []byte(fmt.Sprintf(webCSSFlow, base)), 0o644)
	if r := runFlow(t, "", "check", good, "--maestro-version", "latest"); r.code != 0 {
		t.Fatalf("flow check refuses the css flow:\n%s", r)
	}
	if r := runFlow(t, "", "test", good, "--device", "web", "--maestro-version", "latest"); r.code != 0 {
		t.Fatalf("the css flow must pass:\n%s", r)
	}

	bad := filepath.Join(dir, "css-bad.yaml")
	os.WriteFile(bad, []byte(fmt.Sprintf("url: %s/css.html\n---\n- launchApp\n- assertVisible:\n    css: button.primary.secondary\n", base)), 0o644)
	r := runFlow(t, "", "test", bad, "--device", "web", "--maestro-version", "latest")
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	for _, want := range []string{"css-bad.yaml:4:3: ASSERTION_FAILED", "CSS: button.primary.secondary is visible"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}

	invalid := filepath.Join(dir, "css-invalid.yaml")
	os.WriteFile(invalid, []byte(fmt.Sprintf("url: %s/css.html\n---\n- launchApp\n- tapOn:\n    css: \"button[[\"\n", base)), 0o644)
	r = runFlow(t, "", "test", invalid, "--device", "web", "--maestro-version", "latest")
	if r.code != 2 { // invalid input (docs/cli-contract.md)
		t.Fatalf("want exit 2:\n%s", r)
	}
	for _, want := range []string{"css-invalid.yaml:5:10: INVALID_ARGS", `"button[[" is not a valid CSS selector`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestSimCSSUnsupported: on a device without a DOM a tap by css fails at
// once with UNSUPPORTED_OPERATION (exit 3) and a hint, where Maestro's non-web
// drivers answer the query with nothing and the tap fails after the
// lookup timeout.
func TestSimCSSUnsupported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "css-sim.yaml")
	os.WriteFile(f, []byte("appId: com.example.shop\n---\n- launchApp\n- tapOn:\n    css: button.buy\n"), 0o644)
	r := runFlow(t, "", "test", f, "--device", "sim", "--maestro-version", "latest")
	if r.code != 3 { // UNSUPPORTED_OPERATION (docs/cli-contract.md)
		t.Fatalf("want exit 3:\n%s", r)
	}
	for _, want := range []string{"css-sim.yaml:5:10: UNSUPPORTED_OPERATION", `css selector "button.buy"`, "platform: Web"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("output lacks %q:\n%s", want, r)
		}
	}
}

// TestCSSCheckUnder139: flow check under --maestro-version 1.39 refuses
// css as 1.39.10 does, saying which Maestro has it.
func TestCSSCheckUnder139(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "css.yaml")
	os.WriteFile(f, []byte("url: http://localhost/\n---\n- tapOn:\n    css: button.buy\n"), 0o644)
	r := runFlow(t, "", "check", f, "--maestro-version", "1.39")
	if r.code != 2 || !strings.Contains(r.stdout, `css.yaml:4:5: INVALID_ARGS: unknown key "css" in tapOn: css is a selector key of Maestro 2.10`) {
		t.Fatalf("want exit 2 with css refused at 4:5:\n%s", r)
	}
}

// TestConvertCSSRoundTrip: a css selector written by flow convert --to
// maestro reads back the same through the loader.
func TestConvertCSSRoundTrip(t *testing.T) {
	t.Parallel()
	src := "appId: com.example.shop\n---\n- tapOn:\n    css: 'button[data-kind=\"main\"]'\n    below: {css: \"#header\"}\n"
	l := maestro.NewLoader(nil)
	f, err := l.LoadBytes("w.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := convert.ToMaestro(f, "")
	if err != nil {
		t.Fatal(err)
	}
	back, err := maestro.NewLoader(nil).LoadBytes("w.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sel := back.Commands[0].(*canonical.Tap).Selector
	if sel.CSS == nil || sel.CSS.Raw != `button[data-kind="main"]` || sel.Below == nil || sel.Below.CSS == nil || sel.Below.CSS.Raw != "#header" {
		t.Errorf("read back %#v from\n%s", sel, out)
	}
}
