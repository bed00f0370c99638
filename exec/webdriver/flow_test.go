package webdriver_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/webdriver"
)

// find is the first node in pre-order that matches.
func find(n *exec.Node, ok func(*exec.Node) bool) *exec.Node {
	if n == nil {
		return nil
	}
	if ok(n) {
		return n
	}
	for _, c := range n.Children {
		if f := find(c, ok); f != nil {
			return f
		}
	}
	return nil
}

func byID(id string) func(*exec.Node) bool {
	return func(n *exec.Node) bool { return n.ID == id && n.Class != "label" }
}

// (e) The hierarchy is one round trip, has the form's fields with Maestro's
// web attributes and bounds that match the DOM, leaves hidden elements out,
// and brings the viewport with it.
func TestBrowserHierarchyInOneRoundTrip(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	before := dev.RoundTrips()
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vp, err := dev.Viewport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 1 {
		t.Errorf("hierarchy and viewport took %d round trips, want 1", n)
	}
	if vp != (canonical.Viewport{Width: 390, Height: 844}) {
		t.Errorf("viewport %+v, want the emulated 390×844 phone", vp)
	}
	var rects map[string][4]float64
	if err := dev.Client().Execute(ctx, `const out = {};
		for (const id of ['email', 'password', 'submit', 'remember']) {
			const r = document.getElementById(id).getBoundingClientRect();
			out[id] = [Math.round(r.x), Math.round(r.y), Math.round(r.x + r.width) - Math.round(r.x), Math.round(r.y + r.height) - Math.round(r.y)];
		}
		return out;`, nil, true, &rects); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, text, hint, class string
	}{
		{"email", "Email", "Email", "input"},
		{"password", "Password", "Password", "input"},
		{"submit", "Log in", "", "button"},
		{"remember", "", "", "input"},
	} {
		n := find(root, byID(c.id))
		if n == nil {
			t.Errorf("no node with id %q", c.id)
			continue
		}
		want := rects[c.id]
		got := *n.Bounds
		if got != (exec.Rect{X: int(want[0]), Y: int(want[1]), W: int(want[2]), H: int(want[3])}) {
			t.Errorf("%s bounds %+v, DOM says %v", c.id, got, want)
		}
		if n.Text != c.text || n.Hint != c.hint || n.Class != c.class || !n.Enabled || n.Checked || n.Focused {
			t.Errorf("%s: %+v", c.id, *n)
		}
	}
	if label := find(root, func(n *exec.Node) bool { return n.Class == "label" && n.Text == "Email address" }); label == nil || label.ID != "email" {
		t.Errorf("the label's resource id is its for attribute (Maestro): %+v", label)
	}
	if hidden := find(root, func(n *exec.Node) bool { return n.ID == "welcome" || n.ID == "logout" }); hidden != nil {
		t.Errorf("a display:none element is in the hierarchy: %+v", *hidden)
	}
	if title := find(root, func(n *exec.Node) bool { return n.Text == "Sign in" }); title == nil {
		t.Errorf("the page heading is missing")
	}
}

// The hierarchy follows the page's state: focus, checked boxes, typed text
// and clipping inside a scroll container.
func TestBrowserHierarchyState(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	email := find(root, byID("email"))
	if err := dev.Tap(ctx, email.Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	if err := dev.InputText(ctx, "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, find(root, byID("remember")).Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, email.Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	root, err = dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := find(root, byID("email")); n.Text != "ada@example.com" || n.Hint != "Email" || !n.Focused {
		t.Errorf("typed email field: %+v", *n)
	}
	if n := find(root, byID("remember")); !n.Checked {
		t.Errorf("the tapped checkbox is not checked: %+v", *n)
	}

	load(t, dev, base+"/gestures.html")
	root, err = dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	scroller := find(root, byID("scroller"))
	if scroller == nil || scroller.Scrollable != "vertical" {
		t.Fatalf("the scroll container: %+v", scroller)
	}
	if row := find(root, func(n *exec.Node) bool { return n.Text == "Row 2" }); row == nil || row.Bounds.Y != 440+120 {
		t.Errorf("a visible row: %+v", row)
	}
	if row := find(root, func(n *exec.Node) bool { return n.Text == "Row 7" }); row != nil {
		t.Errorf("a row scrolled out of its container's view is in the hierarchy: %+v", *row)
	}
	// Row 6 (y 800–860 in a container ending at 820) is clipped to its
	// visible part.
	if row := find(root, func(n *exec.Node) bool { return n.Text == "Row 6" }); row == nil || row.Bounds.H != 20 {
		t.Errorf("a row half out of its container is not clipped: %+v", row)
	}
}

// literalScripts is the smallest exec.Scripts: templates are literal text.
type literalScripts struct{}

func (literalScripts) Interpolate(_ context.Context, t canonical.Template) (string, error) {
	v, ok := t.Literal()
	if !ok {
		return "", errors.New("this test runs literal flows only")
	}
	return v, nil
}
func (literalScripts) Truthy(s string) bool        { return s != "" && s != "false" && s != "0" }
func (literalScripts) DefineVars([]exec.Var) error { return nil }
func (literalScripts) EnterScope()                 {}
func (literalScripts) LeaveScope()                 {}
func (literalScripts) RunScript(context.Context, string, string, []exec.Var, canonical.Pos) error {
	return errors.New("no scripts")
}
func (literalScripts) SetCopiedText(string) error { return nil }

// tripCounter records the device round trips each step took.
type tripCounter struct {
	exec.NopObserver
	dev   *webdriver.Device
	start int64
	steps []string
	trips []stepTrips
}

type stepTrips struct {
	command string
	trips   int64
}

func (c *tripCounter) StepStarted(_ *canonical.Flow, _ canonical.Command, _ string, _ int) {
	c.start = c.dev.RoundTrips()
}

func (c *tripCounter) StepFinished(_ *canonical.Flow, s exec.StepResult, desc string) {
	n := c.dev.RoundTrips() - c.start
	c.steps = append(c.steps, fmt.Sprintf("%-40s %2d round trips, %4d ms", desc, n, s.DurationMs))
	c.trips = append(c.trips, stepTrips{s.Command, n})
}

// memFiles keeps written artifacts.
type memFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memFiles) WriteFile(name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string][]byte{}
	}
	m.files[name] = data
	return nil
}

func text(s string) canonical.Template {
	return canonical.Text(s, canonical.Pos{File: "login.yaml", Line: 1})
}

func tapOn(s string) *canonical.Tap {
	t := text(s)
	return &canonical.Tap{Meta: canonical.Meta{Name: "tapOn"}, Mode: canonical.TapSingle, Selector: &canonical.Selector{Text: &t},
		Repeat: 1, DelayMs: 100, RetryIfNoChange: true}
}

func assertVisible(s string) *canonical.Assert {
	t := text(s)
	return &canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: canonical.Pos{File: "login.yaml", Line: 9}},
		Visible: &canonical.Selector{Text: &t}}
}

// loginFlow is the Maestro web flow of testdata/login.html:
//
//	url: <base>/login.html
//	---
//	- launchApp
//	- tapOn: Email
//	- inputText: ada@example.com
//	- tapOn: Password
//	- inputText: secret
//	- tapOn: Log in
//	- assertVisible: <welcome>
func loginFlow(base, welcome string) *canonical.Flow {
	url := text(base + "/login.html")
	return &canonical.Flow{Name: "login", File: "login.yaml", AppID: url, Web: true, Commands: []canonical.Command{
		&canonical.LaunchApp{Meta: canonical.Meta{Name: "launchApp"}, AppID: url, StopApp: true},
		tapOn("Email"),
		&canonical.InputText{Meta: canonical.Meta{Name: "inputText"}, Text: text("ada@example.com")},
		tapOn("Password"),
		&canonical.InputText{Meta: canonical.Meta{Name: "inputText"}, Text: text("secret")},
		tapOn("Log in"),
		assertVisible(welcome),
	}}
}

func runFlow(t *testing.T, dev *webdriver.Device, flow *canonical.Flow, lookup time.Duration) (exec.FlowResult, *tripCounter, *memFiles) {
	t.Helper()
	counter := &tripCounter{dev: dev}
	artifacts := &memFiles{}
	cfg := exec.Config{Device: dev, Observer: counter, Artifacts: artifacts, LookupTimeout: lookup,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	res := exec.RunFlow(ctxFor(t), cfg, flow)
	return res, counter, artifacts
}

// A Maestro web flow passes end to end on the real browser, and (f) every
// tap on a selector costs three round trips through the runtime's Maestro
// tap algorithm: the screenshot retry-if-no-change compares against, the
// tap, and the settled read after it. The lookup and the settle before
// the tap use the settled read the step before ended with. (Issue 19:
// the no-change decision is Maestro's hierarchy-then-screenshot on every
// device, so the page's change version no longer replaces the screenshot.)
func TestBrowserLoginFlowPasses(t *testing.T) {
	dev, base := browser(t)
	res, counter, _ := runFlow(t, dev, loginFlow(base, "Welcome, ada@example.com!"), 17*time.Second)
	for _, s := range counter.steps {
		t.Log(s)
	}
	if res.Status != exec.StatusPassed {
		t.Fatalf("the login flow %s: %+v", res.Status, res.Error)
	}
	taps := 0
	for _, s := range counter.trips {
		if s.command == "tapOn" {
			taps++
			if s.trips > 3 {
				t.Errorf("a tapOn took %d round trips, want at most 3", s.trips)
			}
		}
	}
	if taps != 3 {
		t.Errorf("counted %d taps: %+v", taps, counter.trips)
	}
}

// (f) A tap on a selector costs the device two round trips: one hierarchy
// read (the viewport comes with it) and one touch tap. Through the
// runtime's Maestro tap algorithm it is three (the screenshot before,
// the tap and the settled read after it); TestBrowserLoginFlowPasses
// asserts that.
func TestBrowserTapOnSelectorRoundTrips(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	before := dev.RoundTrips()
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Viewport(ctx); err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, find(root, byID("password")).Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 2 {
		t.Errorf("find and tap took %d round trips, want 2", n)
	}
	var focused string
	if err := dev.Client().Execute(ctx, "return document.activeElement.id", nil, true, &focused); err != nil || focused != "password" {
		t.Errorf("the tap did not focus the field: %q %v", focused, err)
	}
}

// The same flow fails with a clear error and a screenshot when its
// expected text is missing.
func TestBrowserLoginFlowFailsWithScreenshot(t *testing.T) {
	dev, base := browser(t)
	res, _, files := runFlow(t, dev, loginFlow(base, "Welcome, grace@example.com!"), 2*time.Second)
	if res.Status != exec.StatusFailed || res.Error == nil {
		t.Fatalf("the flow %s, want failed", res.Status)
	}
	if res.Error.Code != canonical.CodeAssertionFailed || !strings.Contains(res.Error.Message, "Welcome, grace@example.com!") ||
		res.Error.Pos.Line != 9 {
		t.Errorf("error %s: %s at %v", res.Error.Code, res.Error.Message, res.Error.Pos)
	}
	if len(res.Artifacts) != 2 || !strings.HasPrefix(res.Artifacts[0], "login-") || !strings.HasSuffix(res.Artifacts[0], "-failure.png") {
		t.Fatalf("want the failure screenshot and hierarchy named after the flow; artifacts %v", res.Artifacts)
	}
	png := files.files[res.Artifacts[0]]
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Errorf("no failure screenshot (%d bytes); artifacts %v", len(png), res.Artifacts)
	}
	if _, ok := files.files[res.Artifacts[1]]; !ok {
		t.Errorf("no failure hierarchy; artifacts %v", res.Artifacts)
	}
}

// Keys: Enter submits, Backspace erases, other keys are refused as on
// Maestro's web driver, with nothing sent.
func TestBrowserKeys(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(dev.Tap(ctx, find(root, byID("email")).Bounds.Center()))
	must(dev.InputText(ctx, "ada@example.comXX"))
	must(dev.EraseText(ctx, 2))
	must(dev.Tap(ctx, find(root, byID("password")).Bounds.Center()))
	must(dev.InputText(ctx, "secret"))
	must(dev.PressKey(ctx, exec.Key{Name: "Enter", AndroidCode: 66}))
	var welcome string
	must(dev.Client().Execute(ctx, "return document.getElementById('welcome').textContent", nil, true, &welcome))
	if welcome != "Welcome, ada@example.com!" {
		t.Errorf("after Enter the page says %q", welcome)
	}
	before := dev.RoundTrips()
	err = dev.PressKey(ctx, exec.Key{Name: "Home", AndroidCode: 3})
	if ce, ok := canonical.AsError(err); !ok || ce.Code != canonical.CodeUnsupportedOperation {
		t.Errorf("pressKey Home: %v", err)
	}
	if dev.RoundTrips() != before {
		t.Errorf("a refused key sent %d requests", dev.RoundTrips()-before)
	}
	// Back returns to the previous page; non-BMP text goes through element
	// send keys.
	load(t, dev, base+"/gestures.html")
	must(dev.Back(ctx))
	var u string
	must(dev.Client().Execute(ctx, "return location.pathname", nil, true, &u))
	if u != "/login.html" {
		t.Errorf("back went to %q", u)
	}
}

// (c') Waiting for scrolling to settle: a tap right after a fling clicks
// (without the wait, Chromium swallows it and only stops the fling).
func TestBrowserTapAfterFlingClicks(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/gestures.html")
	fling := plan(t, dev, canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp, Origin: pt(195, 790), Distance: f(300)})
	gestureOn(t, dev, fling)
	resetLog := func() {
		var v any
		if err := dev.Client().Execute(ctxFor(t), "window.__log = []; return 0", nil, false, &v); err != nil {
			t.Fatal(err)
		}
	}
	resetLog()
	if err := dev.Tap(ctxFor(t), canonical.Point{X: 70, Y: 32}); err != nil {
		t.Fatal(err)
	}
	clicked := false
	for _, e := range pageLog(t, dev) {
		clicked = clicked || (e.Type == "click" && e.Target == "tapme")
	}
	if !clicked {
		t.Errorf("the tap after a fling did not click")
	}
}

// Launch, stop and clear state: the app's storage is gone after clearState.
func TestBrowserClearState(t *testing.T) {
	dev, base := browser(t)
	ctx := ctxFor(t)
	load(t, dev, base+"/login.html")
	var v any
	if err := dev.Client().Execute(ctx, "localStorage.setItem('k', 'v'); document.cookie = 'c=1'; return 0", nil, false, &v); err != nil {
		t.Fatal(err)
	}
	if err := dev.StopApp(ctx, base+"/login.html", false); err != nil {
		t.Fatal(err)
	}
	if err := dev.LaunchApp(ctx, exec.LaunchOptions{AppID: base + "/login.html", ClearState: true}); err != nil {
		t.Fatal(err)
	}
	var got []any
	if err := dev.Client().Execute(ctx, "return [localStorage.getItem('k'), document.cookie]", nil, true, &got); err != nil {
		t.Fatal(err)
	}
	if got[0] != nil || got[1] != "" {
		t.Errorf("after clearState: localStorage k=%v, cookie %q", got[0], got[1])
	}
}

// A screenshot is a PNG of the emulated phone.
func TestBrowserScreenshot(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	png, err := dev.Screenshot(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 1000 || string(png[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %d bytes", len(png))
	}
	w := int(png[16])<<24 | int(png[17])<<16 | int(png[18])<<8 | int(png[19])
	if w != 390*3 {
		t.Errorf("screenshot is %d px wide, want 1170 (390 CSS px at 3×)", w)
	}
}

// Text outside the Basic Multilingual Plane is typed through element send
// keys; the rest as key actions. Both land in the focused field.
func TestBrowserInputUnicode(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	root, err := dev.Hierarchy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, find(root, byID("email")).Bounds.Center()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Zoë ", "naïve 😀"} {
		if err := dev.InputText(ctx, s); err != nil {
			t.Fatalf("input %q: %v", s, err)
		}
	}
	var v string
	if err := dev.Client().Execute(ctx, "return document.getElementById('email').value", nil, true, &v); err != nil {
		t.Fatal(err)
	}
	if v != "Zoë naïve 😀" {
		t.Errorf("the field holds %q", v)
	}
}

// ReadSettled answers at once on a still page, waits out a page that keeps
// changing, keeps a still read until something is sent, and versions the
// page: a change the hierarchy does not show still changes the version.
func TestBrowserReadSettled(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	before := dev.RoundTrips()
	start := time.Now()
	s, err := dev.ReadSettled(ctx, 2*time.Second)
	if err != nil || !s.Still || find(s.Root, byID("email")) == nil || s.Version == "" || s.Opaque {
		t.Fatalf("still page: %+v %+v, %v", s, dev.LastSettle(), err)
	}
	quick := time.Since(start)
	if quick > 500*time.Millisecond {
		t.Errorf("a still page took %s to settle", quick)
	}
	// Kept: the next reads send nothing.
	again, err := dev.ReadSettled(ctx, 2*time.Second)
	if err != nil || again.Version != s.Version {
		t.Fatalf("second read %+v, %v", again, err)
	}
	if _, err := dev.Hierarchy(ctx); err != nil {
		t.Fatal(err)
	}
	if n := dev.RoundTrips() - before; n != 1 {
		t.Errorf("three reads of a still page took %d round trips, want 1", n)
	}
	// Stale after freshFor: read again, same version, nothing changed.
	time.Sleep(150 * time.Millisecond)
	later, err := dev.ReadSettled(ctx, 2*time.Second)
	if err != nil || later.Version != s.Version || dev.RoundTrips()-before != 2 {
		t.Errorf("a read 150 ms later: version %q (was %q), %d round trips, %v", later.Version, s.Version, dev.RoundTrips()-before, err)
	}
	// A class change: the tree is the same, the version is not.
	var v any
	if err := dev.Client().Execute(ctx, "document.body.classList.add('dark'); return 0", nil, false, &v); err != nil {
		t.Fatal(err)
	}
	styled, err := dev.ReadSettled(ctx, 2*time.Second)
	if err != nil || styled.Version == s.Version {
		t.Errorf("a class change kept the version %q (%v)", styled.Version, err)
	}
	// A canvas makes the page opaque to versions.
	if err := dev.Client().Execute(ctx, `const c = document.createElement('canvas'); c.width = 50; c.height = 50;
		document.body.appendChild(c); return 0`, nil, false, &v); err != nil {
		t.Fatal(err)
	}
	if c, err := dev.ReadSettled(ctx, 2*time.Second); err != nil || !c.Opaque {
		t.Errorf("a page with a canvas: opaque %v (%v)", c.Opaque, err)
	}
	if err := dev.Client().Execute(ctx, `let i = 0; window.__tick = setInterval(() => {
		document.getElementById('error').textContent = 'tick ' + (i++); }, 30); return 0`, nil, false, &v); err != nil {
		t.Fatal(err)
	}
	defer dev.Client().Execute(ctx, "clearInterval(window.__tick); return 0", nil, false, &v)
	start = time.Now()
	moving, err := dev.ReadSettled(ctx, 600*time.Millisecond)
	if err != nil || moving.Still {
		t.Errorf("a page changing every 30 ms settled (%+v, %v)", dev.LastSettle(), err)
	}
	if d := time.Since(start); d < 550*time.Millisecond || d > 2*time.Second {
		t.Errorf("the wait took %s for a 600 ms limit (%+v)", d, dev.LastSettle())
	}
	t.Logf("still page settled in %s", quick.Round(time.Millisecond))
}

// launchApp with stopApp: false keeps the page the browser already shows;
// with stopApp (Maestro's default) it loads the page afresh.
func TestBrowserLaunchWithoutStop(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/login.html")
	ctx := ctxFor(t)
	value := func() string {
		var v string
		if err := dev.Client().Execute(ctx, "return document.getElementById('email').value", nil, true, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	var v any
	if err := dev.Client().Execute(ctx, "document.getElementById('email').value = 'kept'; return 0", nil, false, &v); err != nil {
		t.Fatal(err)
	}
	if err := dev.LaunchApp(ctx, exec.LaunchOptions{AppID: base + "/login.html"}); err != nil {
		t.Fatal(err)
	}
	if got := value(); got != "kept" {
		t.Errorf("stopApp: false reloaded the page (email %q)", got)
	}
	if err := dev.LaunchApp(ctx, exec.LaunchOptions{AppID: base + "/login.html", StopApp: true}); err != nil {
		t.Fatal(err)
	}
	if got := value(); got != "" {
		t.Errorf("stopApp: true kept the page (email %q)", got)
	}
}

// After a two-contact gesture Chromium stops delivering touches to the
// next document the tab loads (the first touch waits 5 s and never arrives).
// The device moves to a fresh tab before its own next navigation, and
// before a touch on a document the page navigated to by itself.
func TestBrowserTouchesAfterMultiTouchAndNavigation(t *testing.T) {
	dev, base := browser(t)
	ctx := ctxFor(t)
	pinch := func() {
		t.Helper()
		load(t, dev, base+"/gestures.html")
		gestureOn(t, dev, plan(t, dev, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(0.5), Origin: pt(195, 210)}))
	}
	tapEmail := func(how string) {
		t.Helper()
		root, err := dev.Hierarchy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		email := find(root, byID("email"))
		if email == nil {
			t.Fatalf("%s: not on the login page", how)
		}
		start := time.Now()
		if err := dev.Tap(ctx, email.Bounds.Center()); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		var focused string
		if err := dev.Client().Execute(ctx, "return document.activeElement.id", nil, true, &focused); err != nil {
			t.Fatal(err)
		}
		if focused != "email" || took > 2*time.Second {
			t.Errorf("%s: the tap took %s and focused %q", how, took, focused)
		}
	}
	pinch()
	load(t, dev, base+"/login.html")
	tapEmail("after launchApp")

	pinch()
	var v any
	if err := dev.Client().Execute(ctx, "location.href = '/login.html'; return 0", nil, false, &v); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var path string
		_ = dev.Client().Execute(ctx, "return document.readyState === 'complete' ? location.pathname : ''", nil, true, &path)
		if path == "/login.html" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	tapEmail("after the page navigated")
}
