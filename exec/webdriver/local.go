package webdriver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flow-runner/flow/exec/procgroup"

	"github.com/flow-runner/flow/canonical"
)

// Emulation is the phone a local Chromium pretends to be, through
// chromedriver's mobileEmulation (webdriver-chromium.md): a CSS-pixel
// viewport with touch enabled, so pages see 'ontouchstart' in window and
// a mobile user agent, and touch pointer actions become TouchEvents.
type Emulation struct {
	Width, Height int
	PixelRatio    float64
	UserAgent     string
}

// DefaultEmulation is a Pixel-8-sized phone: 390×844 CSS px at 3×, the
// viewport web plans default to. The user agent names Android so pages
// serve their mobile layout.
func DefaultEmulation() Emulation {
	return Emulation{Width: 390, Height: 844, PixelRatio: 3,
		UserAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) " +
			"Chrome/156.0.0.0 Mobile Safari/537.36"}
}

// chromiumArgs start a headless browser that cannot reach the network:
// every host except 127.0.0.1 is unresolvable, and the background services
// that would phone home are off (webdriver-chromium.md, Setup). Chromium
// refuses to run as root without --no-sandbox; CI runs as root.
func chromiumArgs(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
		"--disable-extensions", "--disable-default-apps", "--no-default-browser-check",
		"--disable-domain-reliability", "--disable-client-side-phishing-detection", "--disable-dev-shm-usage",
		"--user-data-dir=" + profile}
}

// localCapabilities is the session request for a local headless Chromium
// with mobile emulation.
func localCapabilities(browser, profile string, em Emulation) map[string]any {
	return map[string]any{
		"browserName":      "chrome",
		"pageLoadStrategy": "normal",
		"timeouts":         map[string]any{"script": 30000, "pageLoad": 30000, "implicit": 0},
		"goog:chromeOptions": map[string]any{
			"binary": browser,
			"args":   chromiumArgs(profile),
			"mobileEmulation": map[string]any{
				"deviceMetrics": map[string]any{"width": em.Width, "height": em.Height, "pixelRatio": em.PixelRatio,
					"touch": true, "mobile": true},
				"userAgent": em.UserAgent,
			},
		},
	}
}

// Browser names searched on PATH when Config leaves the binaries empty.
var (
	driverNames  = []string{"chromedriver"}
	browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}
)

// FindLocal locates chromedriver and a Chromium-family browser, from the
// given paths or PATH. It reports why when either is missing, so tests can
// skip with the reason and `flow test --device web` can say what to
// install.
func FindLocal(driver, browser string) (driverPath, browserPath string, err error) {
	find := func(given string, names []string, what string) (string, error) {
		if given != "" {
			p, err := osexec.LookPath(given)
			if err != nil {
				return "", canonical.Errorf(canonical.CodeDeviceUnavailable, "%s %s cannot be run: %v", what, given, err).Wrap(err)
			}
			return p, nil
		}
		for _, n := range names {
			if p, err := osexec.LookPath(n); err == nil {
				return p, nil
			}
		}
		return "", canonical.Errorf(canonical.CodeDeviceUnavailable, "%s was not found on PATH (looked for %s)",
			what, strings.Join(names, ", "))
	}
	hint := "install Chromium and its driver (Debian: apt-get install chromium chromium-driver), " +
		"or run against a remote endpoint with --webdriver-url"
	if driverPath, err = find(driver, driverNames, "chromedriver"); err != nil {
		return "", "", canonical.Coded(err).WithHint(hint)
	}
	if browserPath, err = find(browser, browserNames, "a Chromium browser"); err != nil {
		return "", "", canonical.Coded(err).WithHint(hint)
	}
	return driverPath, browserPath, nil
}

// driverProcess is a chromedriver flow started and must stop.
type driverProcess struct {
	cmd     *osexec.Cmd
	url     string
	profile string // the browser's temporary --user-data-dir
	exited  chan struct{}
	output  *tail
	once    sync.Once
}

// tail keeps the last bytes a process wrote, for error messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-4096:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

// startDriver starts chromedriver on a free 127.0.0.1 port in its own
// process group and waits until GET /status says ready. A port taken
// between choosing and binding it is retried with another.
func startDriver(ctx context.Context, driver string, timeout time.Duration) (*driverProcess, error) {
	var last error
	for range 3 {
		p, err := tryStartDriver(ctx, driver, timeout)
		if err == nil {
			return p, nil
		}
		last = err
		if ctx.Err() != nil || !strings.Contains(err.Error(), "bind") {
			break
		}
	}
	return nil, last
}

func tryStartDriver(ctx context.Context, driver string, timeout time.Duration) (*driverProcess, error) {
	port, err := freePort()
	if err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "no free local port for chromedriver: %v", err).Wrap(err)
	}
	out := &tail{}
	cmd := osexec.Command(driver, "--port="+strconv.Itoa(port), "--allowed-ips=127.0.0.1", "--log-level=WARNING")
	cmd.Stdout, cmd.Stderr = out, out
	procgroup.Own(cmd)
	if err := cmd.Start(); err != nil {
		return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "cannot start chromedriver %s: %v", driver, err).Wrap(err).
			WithHint("check that chromedriver is installed and executable")
	}
	p := &driverProcess{cmd: cmd, url: "http://127.0.0.1:" + strconv.Itoa(port), output: out, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	client := NewClient(p.url, ClientOptions{Timeout: time.Second, Retries: -1})
	deadline := time.Now().Add(timeout)
	for {
		ready, _, err := client.Status(ctx)
		if err == nil && ready {
			return p, nil
		}
		select {
		case <-p.exited:
			return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "chromedriver exited before it was ready: %s",
				clip(out.String(), 500)).WithHint("run chromedriver by hand to see why it cannot start")
		default:
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.stop()
			return nil, canonical.Errorf(canonical.CodeDeviceUnavailable, "chromedriver was not ready within %s", timeout).
				WithHint("the machine may be overloaded; rerun, or start chromedriver yourself and pass --webdriver-url")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// stop ends chromedriver and everything in its process group: SIGTERM,
// then SIGKILL after two seconds, then reaps it. It is idempotent.
func (p *driverProcess) stop() {
	p.once.Do(func() {
		procgroup.Signal(p.cmd, false)
		select {
		case <-p.exited:
		case <-time.After(2 * time.Second):
			procgroup.Signal(p.cmd, true)
			<-p.exited
		}
		// Browser processes may outlive the driver by a moment; the group
		// kill reaches them, a second pass catches stragglers.
		procgroup.Signal(p.cmd, true)
		if p.profile != "" {
			removeProfile(p.profile)
		}
	})
}

// removeProfile deletes the temporary browser profile, retrying briefly
// while the last browser processes let go of it.
func removeProfile(dir string) {
	for i := 0; i < 10; i++ {
		if err := os.RemoveAll(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Files flow keeps in a browser profile so that a later run can clean up
// after one that crashed: the PID of the flow process that owns the
// profile, and of its chromedriver (whose process group holds the browser).
const (
	profilePrefix = "flow-chromium-"
	ownerFile     = "flow-owner.pid"
	driverFile    = "flow-driver.pid"
)

// newProfile makes the browser's temporary --user-data-dir, owned by this
// process.
func newProfile() (string, error) {
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return "", canonical.Errorf(canonical.CodeDeviceUnavailable, "cannot create a browser profile folder: %v", err).Wrap(err)
	}
	_ = os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600)
	return dir, nil
}

// sweepStale ends what a crashed run left behind (a panic or SIGKILL skips
// Close): for every flow browser profile whose owning process is gone, the
// chromedriver process group recorded in it, then the profile. Profiles of
// live runs, and folders without an owner, are left alone.
func sweepStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, dir := range dirs {
		owner := readPID(filepath.Join(dir, ownerFile))
		if owner <= 0 || alive(owner) {
			continue
		}
		if driver := readPID(filepath.Join(dir, driverFile)); driver > 0 {
			killStaleDriver(driver)
		}
		removeProfile(dir)
	}
}

func readPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0
	}
	return pid
}

// ParseCapabilities decodes a --capabilities file: a JSON object used as
// the session's alwaysMatch capabilities, or a full {"capabilities":{...}}
// body. The CLI reads the file (refusing what is not a regular file of
// bounded size); name is its path, for messages.
func ParseCapabilities(name string, data []byte) (map[string]any, error) {
	var caps map[string]any
	if err := decodeJSON(data, &caps); err != nil || caps == nil {
		msg := "it is not a JSON object"
		pos := canonical.Pos{File: name, Line: 1, Col: 1}
		if err != nil {
			msg = err.Error()
			var syn *json.SyntaxError
			var typ *json.UnmarshalTypeError
			switch {
			case errors.As(err, &syn):
				pos.Line, pos.Col = lineCol(data, int(syn.Offset)-1) // Offset is just past the offending byte
				// encoding/json quotes the character; the file may be a
				// key or a .env file named by mistake, so the position
				// alone says where.
				msg = "it is not JSON: " + jsonQuotedChar().ReplaceAllString(syn.Error(), "character")
			case errors.As(err, &typ):
				msg = "it is a JSON " + typ.Value + ", not an object"
				pos.Line, pos.Col = lineCol(data, int(typ.Offset))
			case errors.Is(err, io.ErrUnexpectedEOF):
				pos.Line, pos.Col = lineCol(data, len(data))
			}
		}
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "capabilities file %s is not valid: %s", name, msg).At(pos).
			WithHint(`write one JSON object, e.g. {"browserName":"chrome"} for a browser or {"platformName":"Android","appium:automationName":"UiAutomator2","appium:app":"app.apk"} for an Appium phone (docs/capabilities/)`)
	}
	if err := checkOwn(name, data, caps); err != nil {
		return nil, err
	}
	return caps, nil
}

// jsonQuotedChar() is the character encoding/json's syntax errors quote.
var jsonQuotedChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`character '(?:[^'\\]|\\.)+'`) })

// ownValues are flow's own capabilities and what each accepts.
var ownValues = map[string]string{
	CapMultiTouch:    "true or false",
	CapCalibrate:     "true or false",
	CapTouchDispatch: `"` + DispatchDevTools + `" or "` + DispatchActions + `"`,
}

// checkOwn checks the file's "flow:" keys, at the top level or nested as
// SplitCapabilities finds them, where the file can
// still be named: an unknown key or a value of the wrong kind is reported
// at its line and column.
func checkOwn(name string, data []byte, caps map[string]any) error {
	_, own := SplitCapabilities(caps)
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := own[k]
		want, known := ownValues[k]
		ok := known
		switch k {
		case CapMultiTouch, CapCalibrate:
			_, ok = v.(bool)
		case CapTouchDispatch:
			ok = v == DispatchDevTools || v == DispatchActions
		}
		if ok {
			continue
		}
		line, col := locate(data, `"`+k+`"`)
		pos := canonical.Pos{File: name, Line: line, Col: col}
		if !known {
			return canonical.Errorf(canonical.CodeInvalidArgs, "unknown capability %s", k).At(pos).
				WithHint("flow's own capabilities are " + CapMultiTouch + ", " + CapCalibrate + " and " + CapTouchDispatch +
					"; other keys must not start with flow:")
		}
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s is %v", k, v).At(pos).WithHint(k + " takes " + want)
	}
	return nil
}

// locate is the 1-based line and column of the first occurrence of s in
// data (1:1 if absent).
func locate(data []byte, s string) (line, col int) {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 1, 1
	}
	return lineCol(data, i)
}

// lineCol is the 1-based line and column of byte offset i in data; an
// offset past the end is the end.
func lineCol(data []byte, i int) (line, col int) {
	i = max(0, min(i, len(data)))
	line = 1 + bytes.Count(data[:i], []byte("\n"))
	return line, i - bytes.LastIndexByte(data[:i], '\n')
}

func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
