package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/appium"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/internal/appiumtest"
	"github.com/flow-runner/flow/planner"
)

// appiumServer is the test binary's one Appium server (see TestMain).
var appiumServer appiumtest.Shared

// appiumProxy stands between flow and a real Appium server and keeps,
// for every session flow deletes, the "actions" log of Appium's fake
// driver as it was just before the DELETE: what Appium received, read
// from Appium itself, after flow's run ended normally.
type appiumProxy struct {
	*httptest.Server
	appium string
	mu     sync.Mutex
	logs   map[string]json.RawMessage
	// auth is every Authorization header the proxy saw; seen every
	// session a command named.
	auth []string
	seen []string
}

func newAppiumProxy(t *testing.T, appiumURL string) *appiumProxy {
	t.Helper()
	target, err := url.Parse(appiumURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &appiumProxy{appium: appiumURL, logs: map[string]json.RawMessage{}}
	rp := httputil.NewSingleHostReverseProxy(target)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			p.auth = append(p.auth, a)
		}
		p.mu.Unlock()
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if len(parts) >= 2 && parts[0] == "session" {
			p.mu.Lock()
			if len(p.seen) == 0 || p.seen[len(p.seen)-1] != parts[1] {
				p.seen = append(p.seen, parts[1])
			}
			p.mu.Unlock()
		}
		if r.Method == http.MethodDelete && len(parts) == 2 && parts[0] == "session" {
			if log, err := fetchActionsLog(r.Context(), appiumURL, parts[1]); err == nil {
				p.mu.Lock()
				p.logs[parts[1]] = log
				p.mu.Unlock()
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// fetchActionsLog is POST /session/:id/se/log {"type":"actions"}.
func fetchActionsLog(ctx context.Context, base, session string) (json.RawMessage, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/session/"+session+"/se/log",
		strings.NewReader(`{"type":"actions"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var v struct {
		Value json.RawMessage `json:"value"`
	}
	err = json.NewDecoder(resp.Body).Decode(&v)
	return v.Value, err
}

func (p *appiumProxy) sessionLogs() map[string]json.RawMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]json.RawMessage, len(p.logs))
	for k, v := range p.logs {
		out[k] = v
	}
	return out
}

// appiumCaps writes a capabilities file for the fake driver serving app
// (a page-source fixture), with extra keys.
func appiumCaps(t *testing.T, app string, extra map[string]any) string {
	t.Helper()
	abs, err := filepath.Abs(app)
	if err != nil {
		t.Fatal(err)
	}
	caps := map[string]any{"platformName": "Fake", "appium:automationName": "Fake", "appium:deviceName": "Fake Phone",
		"appium:app": abs, "flow:multiTouch": true}
	for k, v := range extra {
		caps[k] = v
	}
	data, _ := json.Marshal(caps)
	file := filepath.Join(t.TempDir(), "caps.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// expectedActions is what the run's event log says flow performed, as
// the action bodies flow's lowering makes of it: each tap and long press
// its press actions, each gesture the §7 lowering of its plan.
func expectedActions(t *testing.T, events string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e struct {
			Type   string           `json:"type"`
			Point  *canonical.Point `json:"point"`
			HoldMs float64          `json:"durationMs"`
			Plan   *planner.Plan    `json:"plan"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("event %s: %v", line, err)
		}
		var body any
		switch {
		case e.Type == "gesture" && e.Plan != nil:
			acts, err := webdriver.LowerActions(*e.Plan, webdriver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			body = acts.Actions
		case e.Type == "tap" && e.Point != nil:
			body = appium.PressActions(*e.Point, 0).Actions
		case e.Type == "longPress" && e.Point != nil:
			body = appium.PressActions(*e.Point, time.Duration(e.HoldMs)*time.Millisecond).Actions
		default:
			continue
		}
		raw, _ := json.Marshal(body)
		out = append(out, raw)
	}
	return out
}

// sameJSON compares two JSON values by meaning (numbers as numbers, key
// order ignored).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// TestAppiumNativeFlows runs a Maestro flow and an .ad script on a real
// Appium 3 server with its fake driver, once serving a UiAutomator2 page
// source and once an XCUITest one (our fixtures, exec/appium/testdata):
// assertVisible and tapOn with selectors read the page source, swipe,
// scroll and pinch are gestures, and the action sequences Appium logged
// equal, one for one and in order, flow's lowering of each tap and plan
// the run's event log recorded.
func TestAppiumNativeFlows(t *testing.T) {
	srv := appiumServer.Get(t)
	for _, tc := range []struct {
		platform, source, flows string
		device                  []string
	}{
		{"android", "../../exec/appium/testdata/source/uiautomator2-login.xml", "testdata/appium/android", []string{"--device", "appium"}},
		// Without --device: the capabilities name an app, so the session
		// is native.
		{"ios", "../../exec/appium/testdata/source/xcuitest-login.xml", "testdata/appium/ios", nil},
	} {
		t.Run(tc.platform, func(t *testing.T) {
			t.Parallel()
			proxy := newAppiumProxy(t, srv.URL)
			caps := appiumCaps(t, tc.source, nil)
			events := filepath.Join(t.TempDir(), "events.jsonl")
			report := filepath.Join(t.TempDir(), "report.json")
			args := append([]string{"test", tc.flows}, tc.device...)
			r := runFlow(t, "", append(args, "--webdriver-url", proxy.URL,
				"--capabilities", caps, "--events", events, "--output", report)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\nAppium:\n%s", r.code, r, srv.Log())
			}
			data, _ := os.ReadFile(report)
			if !strings.Contains(string(data), `"platform": "`+tc.platform+`"`) && !strings.Contains(string(data), `"platform":"`+tc.platform+`"`) {
				t.Errorf("the report does not name platform %s:\n%s", tc.platform, data)
			}
			logs := proxy.sessionLogs()
			if len(logs) != 1 {
				t.Fatalf("want one deleted session with its actions log, got %d", len(logs))
			}
			var got []json.RawMessage
			for _, l := range logs {
				if err := json.Unmarshal(l, &got); err != nil {
					t.Fatal(err)
				}
			}
			want := expectedActions(t, events)
			if len(want) < 5 {
				t.Fatalf("the event log has only %d touches", len(want))
			}
			if len(got) != len(want) {
				t.Fatalf("Appium logged %d action sequences, flow performed %d", len(got), len(want))
			}
			var pinches int
			for i := range want {
				if !sameJSON(got[i], want[i]) {
					t.Errorf("action sequence %d:\nAppium got %s\nlowering   %s", i, got[i], want[i])
				}
				var sources []any
				_ = json.Unmarshal(got[i], &sources)
				if len(sources) == 2 {
					pinches++
				}
			}
			if pinches == 0 {
				t.Error("no two-contact sequence reached Appium; the flows pinch")
			}
		})
	}
}

// sessionIDs are the sessions the proxy has seen commands for.
func (p *appiumProxy) sessionIDs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// TestAppiumFailures: what a farm user meets when something is wrong.
// Each run exits in bounded time with the endpoint's own message, and
// the credentials in the URL appear nowhere: not on the terminal, not in
// the report.
func TestAppiumFailures(t *testing.T) {
	srv := appiumServer.Get(t)
	const user, key = "farm-user", "k3y-0f-the-farm"
	withCreds := func(u string) string { return strings.Replace(u, "http://", "http://"+user+":"+key+"@", 1) }
	android := "../../exec/appium/testdata/source/uiautomator2-login.xml"
	clean := func(t *testing.T, r result, files ...string) {
		t.Helper()
		all := r.stdout + r.stderr
		for _, f := range files {
			data, _ := os.ReadFile(f)
			all += string(data)
		}
		for _, s := range []string{user, key} {
			if strings.Contains(all, s) {
				t.Errorf("the output shows the credential %q:\n%s", s, all)
			}
		}
	}
	t.Run("unreachable", func(t *testing.T) {
		t.Parallel()
		dead := httptest.NewServer(http.NotFoundHandler())
		url := dead.URL
		dead.Close()
		report := filepath.Join(t.TempDir(), "report.json")
		start := time.Now()
		r := runFlow(t, "", "test", "testdata/appium/android", "--device", "appium", "--webdriver-url", withCreds(url),
			"--capabilities", appiumCaps(t, android, nil), "--output", report)
		if r.code != 3 || !strings.Contains(r.stderr, "did not answer") || !strings.Contains(r.stderr, "DEVICE_UNAVAILABLE") {
			t.Errorf("want exit 3 naming the unreachable endpoint:\n%s", r)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("an unreachable endpoint took %s", d)
		}
		clean(t, r, report)
	})
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		proxy := newAppiumProxy(t, srv.URL)
		report := filepath.Join(t.TempDir(), "report.json")
		// The fake driver needs appium:app; without it Appium refuses the
		// session with its own reason.
		caps := appiumCaps(t, android, map[string]any{"appium:app": nil})
		r := runFlow(t, "", "test", "testdata/appium/android", "--device", "appium", "--webdriver-url", withCreds(proxy.URL),
			"--capabilities", caps, "--output", report)
		if r.code != 3 || !strings.Contains(r.stderr, "refused to create a session") || !strings.Contains(r.stderr, "app") {
			t.Errorf("want exit 3 with Appium's reason:\n%s", r)
		}
		clean(t, r, report)
		proxy.mu.Lock()
		auth := proxy.auth
		proxy.mu.Unlock()
		if len(auth) == 0 || !strings.HasPrefix(auth[0], "Basic ") {
			t.Errorf("the URL's credentials were not sent as basic authentication: %q", auth)
		}
	})
	t.Run("deleted mid-flow", func(t *testing.T) {
		t.Parallel()
		proxy := newAppiumProxy(t, srv.URL)
		dir := t.TempDir()
		flowFile := filepath.Join(dir, "wait.yaml")
		if err := os.WriteFile(flowFile, []byte("appId: com.example.shop\n---\n- assertVisible: Welcome back\n- extendedWaitUntil:\n    visible: Never shown\n    timeout: 60000\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		report := filepath.Join(dir, "report.json")
		go func() {
			// Delete the session behind flow's back once the wait runs,
			// as a farm does when its session timeout passes.
			for i := 0; i < 200; i++ {
				time.Sleep(50 * time.Millisecond)
				if ids := proxy.sessionIDs(); len(ids) > 0 && i > 20 {
					req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/session/"+ids[0], nil)
					if resp, err := http.DefaultClient.Do(req); err == nil {
						resp.Body.Close()
					}
					return
				}
			}
		}()
		start := time.Now()
		r := runFlow(t, "", "test", flowFile, "--device", "appium", "--webdriver-url", withCreds(proxy.URL),
			"--capabilities", appiumCaps(t, android, nil), "--output", report)
		if r.code != 3 || !strings.Contains(r.stderr+r.stdout, "invalid session id") {
			t.Errorf("want exit 3 with Appium's invalid session id:\n%s", r)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("the run took %s after its session was deleted; the wait's timeout was 60 s", d)
		}
		data, _ := os.ReadFile(report)
		if !strings.Contains(string(data), "invalid session id") {
			t.Errorf("the report lost the reason:\n%s", data)
		}
		clean(t, r, report)
	})
	t.Run("extension missing", func(t *testing.T) {
		t.Parallel()
		proxy := newAppiumProxy(t, srv.URL)
		dir := t.TempDir()
		flowFile := filepath.Join(dir, "launch.yaml")
		if err := os.WriteFile(flowFile, []byte("appId: com.example.shop\n---\n- launchApp\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := runFlow(t, "", "test", flowFile, "--device", "appium", "--webdriver-url", proxy.URL,
			"--capabilities", appiumCaps(t, android, nil), "--output", filepath.Join(dir, "report.json"))
		// launchApp grants every permission first, as Maestro does: the
		// first extension the fake driver lacks.
		out := r.stdout + r.stderr
		if r.code != 3 || !strings.Contains(out, "UNSUPPORTED_OPERATION") || !strings.Contains(out, "mobile: changePermissions") ||
			!strings.Contains(out, "hint:") {
			t.Errorf("want the flow to fail with UNSUPPORTED_OPERATION naming mobile: changePermissions, with a hint:\n%s", r)
		}
	})
}

// TestAppiumShards: --shard-split 2 opens two sessions on the same
// endpoint, as on a farm with two phones, and each flow runs on one.
func TestAppiumShards(t *testing.T) {
	srv := appiumServer.Get(t)
	proxy := newAppiumProxy(t, srv.URL)
	report := filepath.Join(t.TempDir(), "report.json")
	junit := filepath.Join(t.TempDir(), "report.xml")
	events := filepath.Join(t.TempDir(), "events.jsonl")
	// Credentials in the URL, as farms document: a passing run prints
	// them nowhere either.
	const user, key = "shard-user", "shard-k3y-secret"
	url := strings.Replace(proxy.URL, "http://", "http://"+user+":"+key+"@", 1)
	r := runFlow(t, "", "test", "testdata/appium/android", "--device", "appium", "--webdriver-url", url,
		"--capabilities", appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", nil),
		"--shard-split", "2", "--output", report, "--events", events)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r)
	}
	r2 := runFlow(t, "", "test", "testdata/appium/android", "--device", "appium", "--webdriver-url", url,
		"--capabilities", appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", nil),
		"--format", "junit", "--output", junit)
	all := r.stdout + r.stderr + r2.stdout + r2.stderr
	for _, f := range []string{report, junit, events} {
		data, _ := os.ReadFile(f)
		all += string(data)
	}
	if !strings.Contains(all, "127.0.0.1") {
		t.Error("the reports do not name the endpoint at all")
	}
	for _, s := range []string{user, key} {
		if strings.Contains(all, s) {
			t.Errorf("a passing run shows the credential %q", s)
		}
	}
	logs := proxy.sessionLogs()
	if len(logs) != 3 {
		t.Fatalf("want two sessions for the sharded run and one for the other, each deleted at the end; got %d", len(logs))
	}
	for id, l := range logs {
		var seqs []json.RawMessage
		if err := json.Unmarshal(l, &seqs); err != nil || len(seqs) == 0 {
			t.Errorf("session %s received no actions (%v): each shard must run a flow", id, err)
		}
	}
}

// TestNativeCapabilities: which capabilities make a session native
// without asking the endpoint.
func TestNativeCapabilities(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		caps          string
		native, known bool
	}{
		{`{"browserName":"chrome","platformName":"android"}`, false, true},
		{`{"platformName":"android","appium:automationName":"UiAutomator2"}`, true, true},
		{`{"platformName":"iOS","appium:automationName":"XCUITest","appium:bundleId":"com.example"}`, true, true},
		{`{"capabilities":{"alwaysMatch":{"platformName":"android","appium:app":"bs://abc"}}}`, true, true},
		{`{"firstMatch":[{"appium:appPackage":"com.example"}]}`, true, true},
		{`{"platformName":"Fake","appium:automationName":"Fake"}`, false, false},
	} {
		var caps map[string]any
		if err := json.Unmarshal([]byte(tc.caps), &caps); err != nil {
			t.Fatal(err)
		}
		if native, known := appium.Native(caps); native != tc.native || known != tc.known {
			t.Errorf("%s: native %v known %v, want %v %v", tc.caps, native, known, tc.native, tc.known)
		}
	}
}

// TestDocumentedCapabilities: every capabilities file docs/webdriver.md
// offers parses as --capabilities does, describes a native session, and
// names its driver and app; the fake driver's runs on a real Appium
// server (its app path made absolute, since the server reads it).
func TestDocumentedCapabilities(t *testing.T) {
	files, _ := filepath.Glob("../../docs/capabilities/*.json")
	if len(files) < 4 {
		t.Fatalf("docs/capabilities has %d files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		caps, err := webdriver.ParseCapabilities(f, data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if native, known := appium.Native(caps); !native || !known {
			t.Errorf("%s does not describe a native session", f)
		}
		for _, k := range []string{"platformName", "appium:automationName", "appium:deviceName", "appium:app"} {
			if s, _ := caps[k].(string); s == "" {
				t.Errorf("%s has no %s", f, k)
			}
		}
		if filepath.Base(f) == "fake-driver.json" {
			srv := appiumServer.Get(t)
			caps["appium:app"], _ = filepath.Abs(filepath.Join("../..", caps["appium:app"].(string)))
			out, _ := json.Marshal(caps)
			file := filepath.Join(t.TempDir(), "caps.json")
			if err := os.WriteFile(file, out, 0o600); err != nil {
				t.Fatal(err)
			}
			r := runFlow(t, "", "test", "testdata/appium/android", "--webdriver-url", srv.URL, "--capabilities", file,
				"--output", filepath.Join(t.TempDir(), "r.json"))
			if r.code != 0 {
				t.Errorf("%s: exit %d\n%s", f, r.code, r)
			}
		}
	}
}

// TestMCPOnAnAppiumPhone: an agent opens an Appium session through flow
// mcp's open_device and keeps it across tool calls: a snapshot reads the
// page source, a press by selector and a pinch each reach Appium as one
// action sequence, and close_device deletes the session.
func TestMCPOnAnAppiumPhone(t *testing.T) {
	srv := appiumServer.Get(t)
	proxy := newAppiumProxy(t, srv.URL)
	h := startMCP(t)
	h.mustCall("open_device", map[string]any{"device": "appium", "webdriverUrl": proxy.URL,
		"capabilities": appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", nil)})
	snap := h.mustCall("snapshot", nil)
	if refs, _ := snap["data"].(map[string]any)["refs"].(map[string]any); len(refs) == 0 {
		t.Errorf("a snapshot without refs: %v", snap)
	}
	h.mustCall("press", map[string]any{"selector": `text="Log in"`})
	h.mustCall("gesture", map[string]any{"input": map[string]any{"kind": "pinch", "scale": 0.5}})
	h.mustFail("launch_app", map[string]any{"appId": "com.example.shop"}, "UNSUPPORTED_OPERATION")
	h.mustCall("close_device", nil)
	logs := proxy.sessionLogs()
	if len(logs) != 1 {
		t.Fatalf("want the one session deleted by close_device, got %d", len(logs))
	}
	for _, l := range logs {
		// The press is repeated once: the fake screen never changes, and
		// Maestro's tapOn taps again when nothing did.
		var seqs [][]any
		if err := json.Unmarshal(l, &seqs); err != nil || len(seqs) != 3 || len(seqs[0]) != 1 || len(seqs[1]) != 1 || len(seqs[2]) != 2 {
			t.Errorf("want one-finger presses then a two-finger pinch, Appium logged %s", l)
		}
	}
}

// TestAppiumSetOrientationWithoutRotation: on Appium's fake driver, which
// has no rotation route, setOrientation LANDSCAPE_LEFT passes with a
// warning at its step on the console and in the report (the side was not
// chosen), and UPSIDE_DOWN fails UNSUPPORTED_OPERATION (exit 3) at its line with a
// hint.
func TestAppiumSetOrientationWithoutRotation(t *testing.T) {
	srv := appiumServer.Get(t)
	caps := appiumCaps(t, "../../exec/appium/testdata/source/uiautomator2-login.xml", nil)
	dir := t.TempDir()
	turn := filepath.Join(dir, "turn.yaml")
	os.WriteFile(turn, []byte("appId: com.example.shop\n---\n- setOrientation: LANDSCAPE_LEFT\n- setOrientation: PORTRAIT\n"), 0o644)
	report := filepath.Join(dir, "report.json")
	r := runFlow(t, "", "test", turn, "--maestro-version", "2.10", "--device", "appium", "--webdriver-url", srv.URL, "--capabilities", caps, "--output", report)
	if r.code != 0 {
		t.Fatalf("%s\nAppium:\n%s", r, srv.Log())
	}
	want := "warning: " + turn + ":3:3: this Appium driver (Fake) has no rotation route"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("no warning %q on the console:\n%s", want, r.stdout)
	}
	if strings.Count(r.stdout, "has no rotation route") != 1 {
		t.Errorf("PORTRAIT needs no side and must not warn:\n%s", r.stdout)
	}
	if data, _ := os.ReadFile(report); !strings.Contains(string(data), "has no rotation route") {
		t.Errorf("the report lacks the warning:\n%s", data)
	}
	upside := filepath.Join(dir, "upside.yaml")
	os.WriteFile(upside, []byte("appId: com.example.shop\n---\n- setOrientation: UPSIDE_DOWN\n"), 0o644)
	r = runFlow(t, "", "test", upside, "--maestro-version", "2.10", "--device", "appium", "--webdriver-url", srv.URL, "--capabilities", caps)
	if r.code != 3 || !strings.Contains(r.stdout, "upside.yaml:3:3") || !strings.Contains(r.stdout, "UNSUPPORTED_OPERATION") {
		t.Fatalf("UPSIDE_DOWN: want exit 3 (UNSUPPORTED_OPERATION, docs/cli-contract.md) at line 3, got %s", r)
	}
}
