package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/internal/browsertest"
)

// needBrowser skips without a local chromium and chromedriver, or fails
// when FLOW_REQUIRE_BROWSER=1 (CI), holds the machine's browser lock for
// the test (see internal/browsertest), and serves the web test pages: the
// login form and the css page of exec/webdriver/testdata and a page whose
// text appears after 2 s.
func needBrowser(t *testing.T) string {
	t.Helper()
	browsertest.Require(t)
	unlock, err := browsertest.Lock()
	if err != nil {
		t.Fatalf("browser lock: %v", err)
	}
	t.Cleanup(unlock)
	mux := http.NewServeMux()
	mux.Handle("/login.html", http.FileServer(http.Dir("../../exec/webdriver/testdata")))
	mux.Handle("/css.html", http.FileServer(http.Dir("../../exec/webdriver/testdata")))
	mux.HandleFunc("/slow.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><meta name="viewport" content="width=device-width"><p id="state">Waiting</p>
<script>setTimeout(() => { document.getElementById('state').textContent = 'Ready' }, 2000)</script>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

const webLoginFlow = `url: %s/login.html
---
- launchApp
- tapOn: Email
- inputText: ada@example.com
- tapOn: Password
- inputText: secret
- tapOn: Log in
- assertVisible: "%s"
`

// TestWebLoginFlow: a Maestro web flow runs unchanged on --device web in
// headless Chromium and passes with a JUnit report; the same flow
// expecting text the page never shows fails with exit 1, the assertion
// and its position, and a screenshot in the artifacts.
func TestWebLoginFlow(t *testing.T) {
	base := needBrowser(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "login.yaml")
	os.WriteFile(good, []byte(fmt.Sprintf(webLoginFlow, base, "Welcome, ada@example.com!")), 0o644)
	report := filepath.Join(dir, "report.xml")
	r := runFlow(t, "", "test", good, "--device", "web", "--format", "junit", "--output", report)
	if r.code != 0 {
		t.Fatalf("the login flow must pass:\n%s", r)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatalf("report.xml: %v\n%s", err, data)
	}
	if len(suites.Suites) != 1 || len(suites.Suites[0].Cases) != 1 || suites.Suites[0].Cases[0].Name != "login" ||
		suites.Suites[0].Cases[0].Failure != nil {
		t.Fatalf("want one passed testcase named login:\n%s", data)
	}

	bad := filepath.Join(dir, "login-bad.yaml")
	os.WriteFile(bad, []byte(fmt.Sprintf(webLoginFlow, base, "Welcome back, ada@example.com!")), 0o644)
	artifacts := filepath.Join(dir, "artifacts")
	r = runFlow(t, "", "test", bad, "--device", "web", "--artifacts", artifacts)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	for _, want := range []string{`login-bad.yaml:9:3: ASSERTION_FAILED`, `"Welcome back, ada@example.com!" is visible`, `Welcome, ada@example.com!`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	shots, _ := filepath.Glob(filepath.Join(artifacts, "login-bad-*-failure.png"))
	if len(shots) != 1 {
		t.Fatalf("want one failure screenshot named after the flow, got %v", shots)
	}
	png, err := os.ReadFile(shots[0])
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("want a failure screenshot in the artifacts: %v", err)
	}
}

// TestWebShardSplit: --shard-split 2 --device web runs a suite of 8 flows,
// each waiting 2 s on the page, on two browsers at once, with one merged
// report holding every flow. The wall times are logged (docs/performance.md
// has the measured ratio); the test asserts the work was split, not a
// timing.
func TestWebShardSplit(t *testing.T) {
	base := needBrowser(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "suite")
	os.MkdirAll(suite, 0o755)
	for i := range 8 {
		os.WriteFile(filepath.Join(suite, fmt.Sprintf("wait-%d.yaml", i+1)), []byte(fmt.Sprintf(`url: %s/slow.html
---
- launchApp
- assertVisible: Waiting
- extendedWaitUntil:
    visible: Ready
    timeout: 10000
`, base)), 0o644)
	}
	run := func(shards string) (result, time.Duration, []byte) {
		report := filepath.Join(dir, "report-"+shards+".json")
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv139, StateDir: dir}
		start := time.Now()
		code := runMain(env, "test", suite, "--device", "web", "--shard-split", shards, "--format", "json", "--output", report)
		wall := time.Since(start)
		data, _ := os.ReadFile(report)
		return result{code: code, stdout: out.String(), stderr: errb.String()}, wall, data
	}
	one, wallOne, _ := run("1")
	if one.code != 0 {
		t.Fatalf("one shard:\n%s", one)
	}
	two, wallTwo, data := run("2")
	if two.code != 0 {
		t.Fatalf("two shards:\n%s", two)
	}
	for i := range 8 {
		if !strings.Contains(string(data), fmt.Sprintf(`"wait-%d"`, i+1)) {
			t.Fatalf("the merged report lacks wait-%d:\n%s", i+1, data)
		}
	}
	if !strings.Contains(string(data), `"shard": 2`) && !strings.Contains(string(data), `"shard":2`) {
		t.Fatalf("the merged report has no second shard:\n%s", data)
	}
	t.Logf("8 flows waiting 2 s each: one shard %v, two shards %v (ratio %.2f)", wallOne.Round(time.Millisecond),
		wallTwo.Round(time.Millisecond), wallTwo.Seconds()/wallOne.Seconds())
}

func runMain(env Env, args ...string) int {
	return run(context.Background(), env, append([]string{"flow"}, args...))
}
