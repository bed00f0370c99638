package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/internal/fakeios/runner"
)

// startStudio runs flow studio in the test process until the test ends
// and returns the address it printed.
func startStudio(t *testing.T, getenv func(string) string, args ...string) string {
	t.Helper()
	var out, errb syncBuffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: with139(getenv)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, env, append([]string{"flow", "studio", "--no-open"}, args...)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Errorf("flow studio did not end when its context did")
		}
	})
	serving := regexp.MustCompile(`serving (http://\S+)`)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m := serving.FindStringSubmatch(errb.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("flow studio ended with exit %d before serving\n--- stderr\n%s", code, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("flow studio printed no address\n--- stderr\n%s", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// studioPage drives the page in headless Chromium through chromedriver.
type studioPage struct {
	t   *testing.T
	ctx context.Context
	c   *webdriver.Client
}

func openStudioPage(t *testing.T, url string) *studioPage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	dev, err := webdriver.Open(ctx, webdriver.Config{Emulation: webdriver.Emulation{Width: 1280, Height: 900, PixelRatio: 1,
		UserAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"}})
	if err != nil {
		t.Fatalf("opening the browser: %v", err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })
	p := &studioPage{t: t, ctx: ctx, c: dev.Client()}
	if err := p.c.Navigate(ctx, url); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	return p
}

// js runs a script's body in the page and returns its value.
func (p *studioPage) js(script string, args ...any) any {
	p.t.Helper()
	var out any
	if args == nil {
		args = []any{}
	}
	if err := p.c.Execute(p.ctx, script, args, false, &out); err != nil {
		p.t.Fatalf("script failed: %v\n%s", err, script)
	}
	return out
}

// wait polls a script until it returns something truthy.
func (p *studioPage) wait(what, script string, args ...any) any {
	p.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := p.js(script, args...)
		if v != nil && v != false && v != "" {
			return v
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited 60s for %s; the page shows:\n%v", what, p.js(`return document.querySelector("main").innerText`))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// run types a command into the command box, runs it and returns the
// status the page shows.
func (p *studioPage) run(command string) string {
	p.t.Helper()
	p.js(`document.querySelector('[data-testid=result]').textContent = "";
		document.querySelector('[data-testid=command]').value = arguments[0];
		document.querySelector('[data-testid=run]').click();`, command)
	st := p.wait("the result of "+command, `const s = document.querySelector('[data-testid=result] [data-status]'); return s && s.dataset.status`)
	// The page reads the screen again after each command.
	p.wait("the run button back", `return !document.querySelector('[data-testid=run]').disabled`)
	return st.(string)
}

// shot saves the page as docs/studio-NAME.png when
// FLOW_STUDIO_SCREENSHOTS names a folder: how docs/studio.md's pictures
// are made.
func (p *studioPage) shot(name string) {
	p.t.Helper()
	dir := os.Getenv("FLOW_STUDIO_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := p.c.Screenshot(p.ctx)
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "studio-"+name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// nodeTexts is every element the tree shows, one per line.
func (p *studioPage) nodeTexts() string {
	return p.js(`return [...document.querySelectorAll('[data-testid=node]')].map(n => n.textContent).join("\n")`).(string)
}

// screenSum is a digest of the screenshot the page shows.
func (p *studioPage) screenSum() string {
	return p.wait("the screenshot", `const img = document.querySelector('[data-testid=screen]');
		if (!img.complete || !img.naturalWidth) return "";
		const c = document.createElement("canvas"); c.width = img.naturalWidth; c.height = img.naturalHeight;
		c.getContext("2d").drawImage(img, 0, 0);
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let h = 0; for (let i = 0; i < d.length; i += 7) h = (h * 31 + d[i]) | 0;
		return c.width + "x" + c.height + ":" + h;`).(string)
}

// pickText waits for the element showing text in the tree, checks the
// two-way hover between tree and screen, clicks it and returns the
// suggestions offered as kind, yaml pairs.
func (p *studioPage) pickText(text string) [][2]string {
	p.t.Helper()
	find := `return [...document.querySelectorAll('[data-testid=node]')].find(n => n.textContent.includes(JSON.stringify(arguments[0])))`
	p.wait("an element showing "+text, find+` ? true : false`, text)
	p.screenSum()
	// Hovering the row boxes the element on the screen…
	box := p.js(`const row = (() => { `+find+` })();
		row.dispatchEvent(new MouseEvent("mouseenter"));
		const b = document.getElementById("hover-box");
		if (b.hidden) return null;
		const r = b.getBoundingClientRect();
		row.dispatchEvent(new MouseEvent("mouseleave"));
		return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];`, text)
	pos, ok := box.([]any)
	if !ok || pos[2].(float64) <= 0 {
		p.t.Fatalf("hovering the %q row boxed nothing on the screen: %v", text, box)
	}
	// …and hovering the screen there marks the row.
	marked := p.js(`const img = document.querySelector('[data-testid=screen]');
		img.dispatchEvent(new MouseEvent("mousemove", {clientX: arguments[1], clientY: arguments[2], bubbles: true}));
		const row = [...document.querySelectorAll('[data-testid=node]')].find(n => n.classList.contains("hover"));
		return row ? row.textContent : null;`, text, pos[0], pos[1])
	if s, _ := marked.(string); !strings.Contains(s, fmt.Sprintf("%q", text)) {
		p.t.Fatalf("hovering the screen over %q marked the row %v", text, marked)
	}
	p.js(`(() => { `+find+` })().click()`, text)
	p.wait("the attributes", `return [...document.querySelectorAll('[data-attr=text]')].some(d => d.textContent === arguments[0])`, text)
	got := p.wait("selector suggestions", `const li = [...document.querySelectorAll('[data-testid=selectors] [data-testid=suggestion]')];
		return li.length ? li.map(l => [l.dataset.kind, l.querySelector("pre").textContent]) : null`)
	var out [][2]string
	for _, s := range got.([]any) {
		pair := s.([]any)
		out = append(out, [2]string{pair[0].(string), pair[1].(string)})
	}
	return out
}

// studioLoop is the authoring loop every device must support: launch,
// pick "Log in", get its text selector first, assert and tap it, and see
// the screen change.
func studioLoop(t *testing.T, p *studioPage, after string) {
	t.Helper()
	if st := p.run("launchApp"); st != "passed" {
		t.Fatalf("launchApp %s: %v", st, p.js(`return document.querySelector('[data-testid=result]').innerText`))
	}
	sugg := p.pickText("Log in")
	if sugg[0] != [2]string{"text", `"Log in"`} {
		t.Fatalf("the most readable selector must come first: the text, got %q", sugg)
	}
	if sel := p.js(`return document.querySelector('[data-testid=node].picked').getAttribute("data-selector")`); sel != `"Log in"` {
		t.Fatalf("the picked row's data-selector must be its unique selector, is %v", sel)
	}
	p.shot("pick")
	p.js(`document.querySelector('[data-testid=suggestion][data-kind=text] button:nth-of-type(3)').click()`)
	if v := p.js(`return document.querySelector('[data-testid=command]').value`); v != `assertVisible: "Log in"` {
		t.Fatalf("the suggestion must fill the command box, it holds %q", v)
	}
	if st := p.run(`assertVisible: "Log in"`); st != "passed" {
		t.Fatalf("assertVisible %s: %v", st, p.js(`return document.querySelector('[data-testid=result]').innerText`))
	}
	before, beforeTree := p.screenSum(), p.nodeTexts()
	if st := p.run(`tapOn: "Log in"`); st != "passed" {
		t.Fatalf("tapOn %s: %v", st, p.js(`return document.querySelector('[data-testid=result]').innerText`))
	}
	p.wait("the screen after the tap", `return [...document.querySelectorAll('[data-testid=node]')].some(n => n.textContent.includes(arguments[0]))`, after)
	if p.nodeTexts() == beforeTree {
		t.Fatal("the tree did not change after the tap")
	}
	deadline := time.Now().Add(30 * time.Second)
	for p.screenSum() == before {
		if time.Now().After(deadline) {
			t.Fatal("the screenshot did not change after the tap")
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.shot("run")
}

// TestStudioOnSim is issue 22's acceptance: on sim with the demo app, the
// page in headless Chromium picks "Log in", offers its text selector
// first, runs it and tapOn, shows the new screen, appends the steps to a
// new flow file, and flow check and flow test pass on that file.
func TestStudioOnSim(t *testing.T) {
	needBrowser(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "flows", "login.yaml")
	vars := map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "state")}
	url := startStudio(t, func(k string) string { return vars[k] }, "--app-id", "com.example.shop", file)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.Contains(url, "token") {
		t.Fatalf("studio must serve loopback without a token by default, printed %s", url)
	}
	p := openStudioPage(t, url)
	studioLoop(t, p, "Welcome back")
	p.js(`document.querySelector('[data-testid=append]').click()`)
	p.wait("the append", `return document.querySelector('[data-testid=append-result]').textContent.includes("appended 3 step")`)
	p.shot("append")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"appId: \"com.example.shop\"\n---\n", "- launchApp\n", "- assertVisible: \"Log in\"\n", "- tapOn: \"Log in\"\n"} {
		if !strings.Contains(string(text), want) {
			t.Fatalf("the flow file lacks %q:\n%s", want, text)
		}
	}
	if shown := p.wait("the flow text", `return document.querySelector('[data-testid=flow-text]').textContent`); shown != string(text) {
		t.Fatalf("the page shows another flow:\n%v\nthe file:\n%s", shown, text)
	}
	// An edit made elsewhere shows on the page (the shared file watcher).
	edited := string(text) + "- assertVisible: \"Welcome back\"\n"
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	p.wait("the edited flow", `return document.querySelector('[data-testid=flow-text]').textContent === arguments[0]`, edited)
	if r := runFlow(t, "", "check", file); r.code != 0 {
		t.Fatalf("flow check on the written flow:\n%s", r)
	}
	env := testEnv(map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "replay")})
	if code := run(context.Background(), env, []string{"flow", "test", file}); code != 0 {
		t.Fatalf("flow test on the written flow: exit %d\n%s%s", code, env.Stdout, env.Stderr)
	}
}

// TestStudioToken: off loopback every request needs the token printed at
// start (the page's address carries it; the page sends it as a header);
// without it, nothing of studio answers.
func TestStudioToken(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"FLOW_STATE_DIR": filepath.Join(dir, "state")}
	url := startStudio(t, func(k string) string { return vars[k] }, "--listen", "0.0.0.0:0")
	m := regexp.MustCompile(`^http://[^/]+:(\d+)/\?token=([A-Za-z0-9_-]{43})$`).FindStringSubmatch(url)
	if m == nil {
		t.Fatalf("off loopback studio must print an address with a made token, printed %s", url)
	}
	base, token := "http://127.0.0.1:"+m[1], m[2]
	get := func(path, auth string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", base+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct{ path, auth string }{
		{"/", ""}, {"/app.js", ""}, {"/api/hierarchy", ""}, {"/api/screenshot", ""}, {"/api/hierarchy", "Bearer wrong-token-of-enough-length"},
		{"/?token=" + token[:42], ""}, {"/api/hierarchy", token},
	} {
		if code, body := get(c.path, c.auth); code != http.StatusUnauthorized {
			t.Errorf("GET %s (Authorization %q) without the token: %d, want 401\n%s", c.path, c.auth, code, body)
		}
	}
	if code, body := get("/?token="+token, ""); code != 200 || !strings.Contains(body, `data-testid="screen"`) {
		t.Errorf("the printed address must serve the page: %d\n%s", code, body)
	}
	if code, body := get("/api/hierarchy", "Bearer "+token); code != 200 || !strings.Contains(body, `"root"`) {
		t.Errorf("the token as a bearer header must be let in: %d\n%s", code, body)
	}
	if code, _ := get("/app.js", "Bearer "+token); code != 200 {
		t.Errorf("the page's script with the token: %d", code)
	}
}

// TestStudioOnFakePhone: the same loop on the fake phone behind the real
// adb server, through the helper APK's protocol.
func TestStudioOnFakePhone(t *testing.T) {
	needBrowser(t)
	p, d, _, apk := fakeAndroid(t)
	url := startStudio(t, d.Getenv, "--device", "android:"+d.Serial, "--android-helper", apk, "--app-id", "com.example.shop")
	studioLoop(t, openStudioPage(t, url), "Welcome back")
	if len(p.Touches()) == 0 {
		t.Fatal("no touch reached the phone's helper")
	}
}

// TestStudioOnFakeRunner: the same loop on the fake iOS runner, reached
// by --ios-runner-url.
func TestStudioOnFakeRunner(t *testing.T) {
	needBrowser(t)
	_, runnerURL := fakeRunner(t, runner.Options{Simulator: true})
	url := startStudio(t, func(string) string { return "" }, "--ios-runner-url", runnerURL, "--app-id", "com.example.shop")
	studioLoop(t, openStudioPage(t, url), "Welcome back")
}

// TestStudioOnWeb: the same loop on the web device (a second headless
// Chromium), on the login test page: Log in with empty fields shows the
// page's error.
func TestStudioOnWeb(t *testing.T) {
	base := needBrowser(t)
	url := startStudio(t, func(string) string { return "" }, "--device", "web", "--app-id", base+"/login.html")
	studioLoop(t, openStudioPage(t, url), "Wrong email or password")
}

// TestStudioLostDevice: when the runner goes away the page shows the
// coded error and a reconnect button instead of hanging; once the runner
// is back, reconnecting shows the screen again.
func TestStudioLostDevice(t *testing.T) {
	needBrowser(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	serve := func(l net.Listener) context.CancelFunc {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); runner.New(runner.Options{Simulator: true}).Serve(ctx, l) }()
		stop := func() { cancel(); <-done }
		t.Cleanup(stop)
		return stop
	}
	stop := serve(l)
	url := startStudio(t, func(string) string { return "" }, "--ios-runner-url", "http://"+addr, "--app-id", "com.example.shop")
	p := openStudioPage(t, url)
	if st := p.run("launchApp"); st != "passed" {
		t.Fatalf("launchApp %s", st)
	}
	stop()
	p.js(`document.querySelector('[data-testid=refresh]').click()`)
	shown := p.wait("the lost device's error", `const e = document.querySelector('[data-testid=device-error]');
		return !e.hidden && !document.querySelector('[data-testid=reconnect]').hidden && e.textContent`).(string)
	if !strings.HasPrefix(shown, "DEVICE_UNAVAILABLE: ") || !strings.Contains(shown, "hint: ") {
		t.Fatalf("the page must show the coded error with its hint, shows %q", shown)
	}
	// A command on the lost device fails at once, and the page stays usable.
	if st := p.run(`tapOn: "Log in"`); st != "failed" && st != "error" {
		t.Fatalf("a command on the lost device: %s", st)
	}
	l2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the runner's port was taken meanwhile: %v", err)
	}
	serve(l2)
	p.js(`document.querySelector('[data-testid=reconnect]').click()`)
	p.wait("the screen after reconnecting", `return document.querySelector('[data-testid=device-error]').hidden &&
		document.querySelectorAll('[data-testid=node]').length > 0`)
	if st := p.run("launchApp"); st != "passed" {
		t.Fatalf("launchApp after reconnecting: %s", st)
	}
}

// TestStudioOnAppium: the page on a phone through Appium (the fake
// driver, whose screen never changes and which cannot launch apps): the
// element is picked, its text selector comes first and tapOn reaches the
// driver as a press.
func TestStudioOnAppium(t *testing.T) {
	srv := appiumServer.Get(t)
	needBrowser(t)
	proxy := newAppiumProxy(t, srv.URL)
	caps := appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", nil)
	url := startStudio(t, func(string) string { return "" }, "--device", "appium", "--webdriver-url", proxy.URL, "--capabilities", caps)
	p := openStudioPage(t, url)
	sugg := p.pickText("Log in")
	if sugg[0] != [2]string{"text", `"Log in"`} {
		t.Fatalf("the most readable selector must come first: the text, got %q", sugg)
	}
	if st := p.run(`tapOn: "Log in"`); st != "passed" {
		t.Fatalf("tapOn %s: %v", st, p.js(`return document.querySelector('[data-testid=result]').innerText`))
	}
	if st := p.run(`launchApp`); st != "failed" {
		t.Fatalf("launchApp on the fake driver must fail (it cannot launch apps): %s", st)
	}
	if shown := p.js(`return document.querySelector('[data-testid=result]').innerText`).(string); !strings.Contains(shown, "UNSUPPORTED_OPERATION") {
		t.Fatalf("the failure must show its coded error: %s", shown)
	}
}
