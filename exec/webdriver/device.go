package webdriver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

// Capabilities flow reads from a capabilities object and never sends: an
// endpoint cannot be asked what it delivers, so the user says it.
const (
	// CapMultiTouch (bool) says the endpoint delivers two touch sources of
	// one action sequence as one multi-touch gesture. Local Chromium does
	// (webdriver-chromium.md); a remote endpoint is assumed not to unless
	// this is true, and two-contact gestures are refused before anything
	// is sent.
	CapMultiTouch = "flow:multiTouch"
	// CapCalibrate (bool, default true) measures the per-tick cost of
	// pointer actions once per session, in a tab of its own before the
	// first gesture, and corrects each gesture from the duration the page
	// observed of the ones before. False trusts the endpoint to keep time
	// (no cost is subtracted, nothing is corrected).
	CapCalibrate = "flow:calibrate"
)

// Config says which browser a Device drives.
type Config struct {
	// URL is a remote WebDriver endpoint: a Selenium Grid, an Appium server
	// with a mobile browser, a device cloud. Empty starts chromedriver and a
	// headless Chromium locally.
	URL string
	// Capabilities are the session's capabilities. Remote: sent as
	// alwaysMatch (or as given when the object has a "capabilities",
	// "alwaysMatch" or "firstMatch" key); nil asks for {"browserName":
	// "chrome"}. Local: top-level keys replace the local defaults. Keys
	// starting with "flow:" are flow's own (CapMultiTouch, CapCalibrate) and
	// are removed before sending.
	Capabilities map[string]any
	// ChromeDriver and Browser are the local binaries; empty searches PATH.
	ChromeDriver, Browser string
	// Emulation is the local phone; the zero value is DefaultEmulation.
	Emulation Emulation
	// StartTimeout bounds starting chromedriver and creating the session
	// (90 s: a remote Grid may queue the request).
	StartTimeout time.Duration
	// Client tunes the HTTP client.
	Client ClientOptions
}

// Device is a browser driven through W3C WebDriver: the web platform of
// flow. It implements exec.Device and exec.Closer. Every method is one or
// a few WebDriver round trips; RoundTrips counts them.
//
// A Device is used from one goroutine at a time, like every exec.Device.
type Device struct {
	client     *Client
	proc       *driverProcess // nil for a remote endpoint
	info       exec.DeviceInfo
	multiTouch bool
	calib      Calibration
	// calibPending is set until the gesture timing is measured (see
	// Calibrate).
	calibPending bool
	// devtools paces gestures through Chromium's DevTools instead of W3C
	// actions (see CapTouchDispatch).
	devtools bool
	chromium bool // the endpoint has chromedriver's DevTools bridge
	// vp is the viewport the last Hierarchy read, valid until the next
	// command that can change the page.
	vp *canonical.Viewport
	// settleFrames and settleLimit bound the wait for scrolling to stop
	// after a gesture: that many frames without a scroll event, at most
	// that long (3 frames, 5 s).
	settleFrames int
	settleLimit  time.Duration
	last         Settle
	// multiTouched is set once a two-contact gesture ran in the current
	// tab. Chromium then no longer delivers touches after a same-site
	// navigation in that tab (the first touch waits 5 s for an answer and
	// never reaches the page), so the device moves to a fresh tab before
	// the next navigation or touch on a new document; see freshTab.
	multiTouched bool
	// adapt turns on the correction from observed gestures (with
	// calibration); drift holds it per contact count and intent, and
	// lastGesture is what the page saw of the last gesture.
	adapt       bool
	drift       map[driftKey]float64
	lastGesture GestureTiming
	// keep is the last settled read while it may stand in for a new one
	// (see ReadSettled).
	keep *keptRead
	// rec is the screen recording running, if any (recording.go).
	rec    *recording
	closed bool
}

var (
	_ exec.Device            = (*Device)(nil)
	_ exec.Closer            = (*Device)(nil)
	_ exec.SettledReader     = (*Device)(nil)
	_ exec.AnimationRecorder = (*Device)(nil)
)

// Open starts or connects to the browser and creates the session; the
// gesture timing is measured before the first gesture (see Calibrate).
// Close must be called to end the session
// (and, locally, chromedriver and the browser).
func Open(ctx context.Context, cfg Config) (*Device, error) {
	timeout := cfg.StartTimeout
	if timeout <= 0 {
		timeout = 90 * time.Second
	}
	caps, own := SplitCapabilities(cfg.Capabilities)
	d := &Device{settleFrames: 3, settleLimit: 5 * time.Second}
	var local bool
	if cfg.URL == "" {
		local = true
		driver, browser, err := FindLocal(cfg.ChromeDriver, cfg.Browser)
		if err != nil {
			return nil, err
		}
		em := cfg.Emulation
		if em.Width == 0 {
			em = DefaultEmulation()
		}
		sweepStale()
		profile, err := newProfile()
		if err != nil {
			return nil, err
		}
		proc, err := startDriver(ctx, driver, min(timeout, 20*time.Second))
		if err != nil {
			removeProfile(profile)
			return nil, err
		}
		proc.profile = profile
		_ = os.WriteFile(filepath.Join(profile, driverFile), []byte(strconv.Itoa(proc.cmd.Process.Pid)), 0o600)
		d.proc = proc
		base := localCapabilities(browser, profile, em)
		for k, v := range caps {
			base[k] = v
		}
		caps = base
		d.client = NewClient(proc.url, cfg.Client)
		d.multiTouch = true
		d.chromium = true
	} else {
		if _, err := url.ParseRequestURI(cfg.URL); err != nil || !strings.HasPrefix(cfg.URL, "http") {
			return nil, canonical.Errorf(canonical.CodeInvalidArgs, "--webdriver-url %q is not an http(s) URL", Redact(cfg.URL)).
				WithHint("give the endpoint's base URL, e.g. http://localhost:4444 or http://localhost:4723")
		}
		if len(caps) == 0 {
			caps = map[string]any{"browserName": "chrome"}
		}
		d.client = NewClient(cfg.URL, cfg.Client)
		d.multiTouch = own[CapMultiTouch] == true
	}
	sess, err := d.client.NewSession(ctx, caps, timeout)
	if err != nil {
		d.stopProcess()
		if ce, ok := canonical.AsError(err); ok && local && ce.Reason() == "WEBDRIVER_SESSION_REFUSED" &&
			!strings.Contains(ce.Hint, "different versions") {
			ce.WithHint("chromedriver could not start Chromium (its message says why): check that chromium and chromium-driver are the same version and that Chromium runs here (chromium --headless --version)")
		}
		return nil, err
	}
	if err := d.adopt(ctx, sess, own, local); err != nil {
		return nil, err
	}
	return d, nil
}

// Attach makes a Device of a browser session that client already created
// on a remote endpoint (a caller that had to see the session before it
// knew it was a browser: an Appium session whose capabilities did not
// say). cfg.Capabilities' "flow:" keys apply as in Open; Close deletes
// the session.
func Attach(ctx context.Context, client *Client, sess Session, cfg Config) (*Device, error) {
	_, own := SplitCapabilities(cfg.Capabilities)
	d := &Device{settleFrames: 3, settleLimit: 5 * time.Second, client: client}
	d.multiTouch = own[CapMultiTouch] == true
	if err := d.adopt(ctx, sess, own, false); err != nil {
		return nil, err
	}
	return d, nil
}

// adopt sets the device up for the session it created or was given; on
// failure the session is deleted.
func (d *Device) adopt(ctx context.Context, sess Session, own map[string]any, local bool) error {
	if !local {
		name, _ := sess.Capabilities["browserName"].(string)
		d.chromium = strings.Contains(strings.ToLower(name), "chrom") || strings.Contains(strings.ToLower(name), "edge")
	}
	d.info = describe(sess, d.client.Endpoint(), local)
	d.calib = defaultCalibration()
	if !local {
		d.calib = Calibration{One: Options{Interpolate: true}, Two: Options{Interpolate: true}}
	}
	switch own[CapTouchDispatch] {
	case nil:
		d.devtools = local
	case DispatchDevTools:
		d.devtools = true
	case DispatchActions:
	default:
		_ = d.client.DeleteSession(context.WithoutCancel(ctx))
		d.stopProcess()
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s is %v", CapTouchDispatch, own[CapTouchDispatch]).
			WithHint(`use "` + DispatchDevTools + `" (Chromium's DevTools, paced by the wall clock) or "` + DispatchActions + `" (W3C pointer actions)`)
	}
	if d.devtools && !d.chromium {
		_ = d.client.DeleteSession(context.WithoutCancel(ctx))
		d.stopProcess()
		return canonical.Errorf(canonical.CodeInvalidArgs, "%s %q needs a Chromium endpoint; this one is %s", CapTouchDispatch, DispatchDevTools, d.info.Name).
			WithHint(`remove "` + CapTouchDispatch + `" or set it to "` + DispatchActions + `"`)
	}
	if !d.devtools && own[CapCalibrate] != false {
		d.adapt = true
		d.calibPending = true
	}
	return nil
}

// SplitCapabilities separates flow's own "flow:" keys from the ones
// sent, at the top level and inside a capabilities, alwaysMatch or
// firstMatch object, so a file in W3C's full form keeps them to itself too.
func SplitCapabilities(in map[string]any) (send, own map[string]any) {
	own = map[string]any{}
	var clean func(m map[string]any) map[string]any
	clean = func(m map[string]any) map[string]any {
		out := make(map[string]any, len(m))
		for k, v := range m {
			switch {
			case strings.HasPrefix(k, "flow:"):
				own[k] = v
			case k == "capabilities" || k == "alwaysMatch":
				if inner, ok := v.(map[string]any); ok {
					v = clean(inner)
				}
				out[k] = v
			case k == "firstMatch":
				if list, ok := v.([]any); ok {
					cl := make([]any, len(list))
					for i, e := range list {
						if m, ok := e.(map[string]any); ok {
							e = clean(m)
						}
						cl[i] = e
					}
					v = cl
				}
				out[k] = v
			default:
				out[k] = v
			}
		}
		return out
	}
	return clean(in), own
}

func describe(s Session, endpoint string, local bool) exec.DeviceInfo {
	name, _ := s.Capabilities["browserName"].(string)
	version, _ := s.Capabilities["browserVersion"].(string)
	label := strings.TrimSpace(name + " " + version)
	if local {
		label += " (local, headless)"
	} else {
		label += " at " + endpoint
	}
	return exec.DeviceInfo{Platform: "web", Name: label, ID: s.ID}
}

// Client is the device's WebDriver client, for callers that need a command
// the device does not wrap (tests read their pages through it).
func (d *Device) Client() *Client {
	// Whoever sends through the client may change the page.
	d.changed()
	d.keep = nil
	return d.client
}

// RoundTrips counts the WebDriver requests the device has sent.
func (d *Device) RoundTrips() int64 { return d.client.RoundTrips() }

// Calibration is the timing the device lowers gestures with.
func (d *Device) Calibration() Calibration { return d.calib }

// MultiTouch reports whether two-contact gestures are sent.
func (d *Device) MultiTouch() bool { return d.multiTouch }

// Info describes the browser.
func (d *Device) Info(context.Context) (exec.DeviceInfo, error) { return d.info, nil }

// changed forgets the viewport the last hierarchy read.
func (d *Device) changed() { d.vp = nil }

// Viewport is the window's inner size in CSS px at (0,0): what pointer
// actions address. Right after Hierarchy it costs nothing.
func (d *Device) Viewport(ctx context.Context) (canonical.Viewport, error) {
	if d.vp != nil {
		return *d.vp, nil
	}
	var wh []float64
	if err := d.read(ctx, func() error { return d.client.Execute(ctx, viewportScript, nil, true, &wh) }); err != nil {
		return canonical.Viewport{}, err
	}
	if len(wh) != 2 {
		return canonical.Viewport{}, canonical.NewError(canonical.CodeCommandFailed, "the page did not report its viewport")
	}
	return canonical.Viewport{Width: wh[0], Height: wh[1]}, nil
}

// domNode is the hierarchy script's compact node.
type domNode struct {
	B  [4]int     `json:"b"`
	C  string     `json:"c"`
	T  string     `json:"t"`
	I  string     `json:"i"`
	L  string     `json:"l"`
	H  string     `json:"h"`
	D  int        `json:"d"`
	K  int        `json:"k"`
	S  int        `json:"s"`
	F  int        `json:"f"`
	SC string     `json:"sc"`
	CH []*domNode `json:"ch"`
}

func (n *domNode) node() *exec.Node {
	out := &exec.Node{Text: n.T, Hint: n.H, Label: n.L, ID: n.I, Class: n.C,
		Bounds:  &exec.Rect{X: n.B[0], Y: n.B[1], W: n.B[2], H: n.B[3]},
		Enabled: n.D == 0, Checked: n.K == 1, Selected: n.S == 1, Focused: n.F == 1, Scrollable: n.SC}
	if len(n.CH) > 0 {
		out.Children = make([]*exec.Node, len(n.CH))
		for i, c := range n.CH {
			out.Children[i] = c.node()
		}
	}
	return out
}

// Hierarchy reads the page's element tree in one round trip (see
// hierarchyScript for what each attribute is), and the viewport with it.
func (d *Device) Hierarchy(ctx context.Context) (*exec.Node, error) {
	if s, ok := d.kept(); ok {
		return s.Root, nil
	}
	var raw string
	if err := d.read(ctx, func() error { return d.client.Execute(ctx, hierarchyScript, nil, true, &raw) }); err != nil {
		return nil, err
	}
	root, _, err := d.decodeHierarchy(raw)
	return root, err
}

// QueryCSS runs a CSS selector in the page (exec.DOMQuerier; Maestro's
// CdpWebDriver.queryCss) in one round trip and returns the matched
// elements the hierarchy holds, as Hierarchy shows them, without
// children. A selector the page refuses is INVALID_ARGS naming it, with
// the browser's reason.
func (d *Device) QueryCSS(ctx context.Context, selector string) ([]*exec.Node, error) {
	var raw string
	if err := d.read(ctx, func() error { return d.client.Execute(ctx, cssScript, []any{selector}, true, &raw) }); err != nil {
		return nil, err
	}
	var res struct {
		Bad  *string    `json:"bad"`
		Hits []*domNode `json:"hits"`
	}
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		return nil, canonical.Errorf(canonical.CodeCommandFailed, "the page's answer to the css selector %q could not be read: %v", selector, err).
			WithHint("the page may have navigated while it was read; the next read usually succeeds")
	}
	if res.Bad != nil {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "the css selector %q is not a valid CSS selector: %s", selector, *res.Bad).
			With("selector", selector).
			WithHint(`write a selector document.querySelectorAll accepts, e.g. css: "button.primary" or css: "#checkout"`)
	}
	out := make([]*exec.Node, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.node()
	}
	return out, nil
}

// read runs a read-only page script, repeating it up to three times,
// 100 ms apart, when the page refused it: a script that lands while the
// page navigates fails ("execution context was destroyed", no body yet)
// and succeeds on the next document. Transport failures are the client's
// to retry.
func (d *Device) read(ctx context.Context, script func() error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(100 * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return err
			case <-t.C:
			}
		}
		if err = script(); canonical.CodeOf(err) != canonical.CodeCommandFailed {
			return err
		}
	}
	return err
}

func (d *Device) decodeHierarchy(raw string) (root *exec.Node, opaque bool, err error) {
	var page struct {
		W, H   float64
		Opaque bool
		Root   *domNode
	}
	if err := json.Unmarshal([]byte(raw), &page); err != nil || page.Root == nil {
		return nil, false, canonical.Errorf(canonical.CodeCommandFailed, "the page's hierarchy could not be read: %v", err).
			WithHint("the page may have navigated while it was read; the next read usually succeeds")
	}
	d.vp = &canonical.Viewport{Width: page.W, Height: page.H}
	return page.Root.node(), page.Opaque, nil
}

// ReadSettled waits in the page, in one round trip, until nothing has
// changed for three frames (no DOM mutation, no scrolling, no finite
// animation or transition running, the document loaded) or timeout has
// passed, and then reads the hierarchy (LastSettle has the details of the
// wait). It is what Maestro's settle loop (hierarchy reads 200 ms apart
// until two are equal) asks, answered by the page instead of by polling,
// with the page's change version (see settledScript) for the runtime's
// retry-if-no-change.
//
// A read of a still page is kept: until the device sends anything else,
// for freshFor, ReadSettled and Hierarchy answer with it and send
// nothing. The runtime settles after one step and reads again at the
// start of the next, a millisecond later; the second read would cost a
// round trip and could only see what the first saw.
func (d *Device) ReadSettled(ctx context.Context, timeout time.Duration) (exec.Settled, error) {
	if s, ok := d.kept(); ok {
		return s, nil
	}
	var res struct {
		Settle
		Tree    string `json:"tree"`
		Version string `json:"version"`
	}
	if err := d.read(ctx, func() error {
		return d.client.ExecuteAsync(ctx, settledScript, []any{3, timeout.Milliseconds()}, true, timeout+time.Second, &res)
	}); err != nil {
		return exec.Settled{}, err
	}
	d.last = res.Settle
	root, opaque, err := d.decodeHierarchy(res.Tree)
	if err != nil {
		return exec.Settled{}, err
	}
	s := exec.Settled{Root: root, Still: res.Settled, Version: res.Version, Opaque: opaque}
	if s.Still {
		d.keep = &keptRead{read: s, trips: d.client.RoundTrips(), at: time.Now()}
	}
	return s, nil
}

// freshFor is how long a settled read is kept (see ReadSettled): shorter
// than the runtime's 200 ms poll, so a lookup that polls always reads
// the page again.
const freshFor = 100 * time.Millisecond

// keptRead is a settled read and the round-trip count just after it.
type keptRead struct {
	read  exec.Settled
	trips int64
	at    time.Time
}

// kept is the kept settled read, if nothing was sent since and it is
// fresh.
func (d *Device) kept() (exec.Settled, bool) {
	k := d.keep
	if k == nil || k.trips != d.client.RoundTrips() || time.Since(k.at) >= freshFor {
		d.keep = nil
		return exec.Settled{}, false
	}
	return k.read, true
}

// LastSettle reports how the last wait in the page (SettleScroll or
// SettledHierarchy) ended.
func (d *Device) LastSettle() Settle { return d.last }

// Screenshot is a PNG of the viewport.
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) {
	return d.client.Screenshot(ctx)
}

// Tap is a W3C touch tap at p: down and up on one tick each, no pause,
// which the page sees as touchstart/touchend, pointerdown/pointerup and
// then the compatibility mouse events and click. Maestro's web driver
// clicks with a mouse; flow taps with a finger because the emulated phone
// has a touchscreen and pages written for phones listen for touches.
func (d *Device) Tap(ctx context.Context, p canonical.Point) error {
	return d.press(ctx, p, 0)
}

// LongPress is touch down, a pause of hold, touch up. Headless Chromium
// raises no contextmenu for it and the release still clicks
// (webdriver-chromium.md): the page sees a long touch, nothing more.
func (d *Device) LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error {
	return d.press(ctx, p, hold)
}

// press touches p for hold (none when 0) in one action sequence.
func (d *Device) press(ctx context.Context, p canonical.Point, hold time.Duration) error {
	d.changed()
	if err := d.touchReady(ctx); err != nil {
		return err
	}
	acts := []PointerAction{{Type: PointerMove, X: p.X, Y: p.Y}, {Type: PointerDown, Button: primary}}
	if hold > 0 {
		acts = append(acts, PointerAction{Type: Pause, Duration: int(hold.Milliseconds())})
	}
	acts = append(acts, PointerAction{Type: PointerUp, Button: primary})
	return d.perform(ctx, Actions{Actions: []Source{newSource(0, acts)}}, hold)
}

// Lowering returns the W3C body PerformGesture sends for a plan: the
// interpolated lowering with this session's calibration. touchNone says
// whether the gesture starts where touch-action is none, the only place
// Chromium charges for moves inside the touch slop.
func (d *Device) Lowering(plan planner.Plan, touchNone bool) (Actions, error) {
	if err := d.admit(plan); err != nil {
		return Actions{}, err
	}
	return LowerActions(plan, d.options(plan, touchNone))
}

// options are the lowering options for a plan: the calibration of its
// contact count, with the drift the last gestures showed added to the lead.
func (d *Device) options(plan planner.Plan, touchNone bool) Options {
	opts := d.calib.One
	if plan.Topology == planner.Two {
		opts = d.calib.Two
	}
	if !touchNone {
		opts.SlopCostMs = 0
	}
	opts.LeadMs += d.drift[keyOf(plan, touchNone)]
	return opts
}

// driftKey is what a drift correction is kept for. Gestures of one kind
// share a bias, and kinds differ: two-contact pans have run long while
// transforms, whose contacts take turns pacing the driver, ran short in
// the same session; a pan that scrolls the page (touch-action auto) costs
// Chromium other frames than one the page keeps (touch-action none).
type driftKey struct {
	topology  planner.Topology
	intent    canonical.Intent
	touchNone bool
}

func keyOf(plan planner.Plan, touchNone bool) driftKey {
	return driftKey{plan.Topology, plan.Intent, touchNone}
}

// GestureTiming is what the page observed of a gesture: its first
// touchstart to the touchend that lifted the last contact, by the events'
// own timestamps, against the plan.
type GestureTiming struct {
	PlannedMs int `json:"plannedMs"`
	// ObservedMs is 0 when the page saw no whole touch (a page that
	// navigated during the gesture, or a frame that kept the touches).
	ObservedMs float64 `json:"observedMs"`
	// DriftMs is the correction the gesture was lowered with: added to the
	// calibrated lead, it is what earlier gestures of the session ran over.
	DriftMs float64 `json:"driftMs"`
}

// Drift correction: after each gesture whose touches the page saw, the
// correction moves driftGain of the way toward cancelling the error, and
// stays within driftLimitMs. One session's calibration can be off by a
// frame (it is measured once, and the machine may have been busy then);
// the correction removes such a bias within two or three gestures, while a
// single disturbed gesture moves it by half its error at most.
const (
	driftGain    = 0.5
	driftLimitMs = 3 * frameMs
)

// learn updates the drift correction from what the page observed.
func (d *Device) learn(plan planner.Plan, key driftKey, drift float64, s Settle) {
	d.lastGesture = GestureTiming{PlannedMs: plan.DurationMs, DriftMs: drift}
	if s.Touch == nil || s.Touch.Down == nil || s.Touch.Up == nil || *s.Touch.Up <= *s.Touch.Down {
		return
	}
	observed := *s.Touch.Up - *s.Touch.Down
	d.lastGesture.ObservedMs = observed
	if !d.adapt {
		return
	}
	next := drift + driftGain*(observed-float64(plan.DurationMs))
	if d.drift == nil {
		d.drift = map[driftKey]float64{}
	}
	d.drift[key] = math.Max(-driftLimitMs, math.Min(driftLimitMs, next))
}

// TouchDispatch is how this session sends gestures: DispatchDevTools or
// DispatchActions (see CapTouchDispatch).
func (d *Device) TouchDispatch() string {
	if d.devtools {
		return DispatchDevTools
	}
	return DispatchActions
}

// LastGesture is what the page observed of the last PerformGesture.
func (d *Device) LastGesture() GestureTiming { return d.lastGesture }

// admit refuses a two-contact plan on an endpoint not known to deliver
// multi-touch (agent-device §7), before anything is sent.
func (d *Device) admit(plan planner.Plan) error {
	if plan.Topology != planner.Two || d.multiTouch {
		return nil
	}
	op := RequiredOperation(plan)
	return canonical.Errorf(canonical.CodeUnsupportedOperation, "%s needs two touch contacts, which this WebDriver endpoint is not known to deliver", op).
		With("provider", "webdriver").With("platform", "web").With("operation", string(op)).
		WithHint(`if the endpoint delivers multi-touch pointer actions, add "` + CapMultiTouch + `": true to the capabilities file`)
}

// PerformGesture keeps the page producing frames for the gesture, sends
// it, and waits for any scrolling it started to settle, so the next tap is
// not swallowed by a fling (webdriver-chromium.md: a tap during a fling
// only stops it). With DevTools dispatch (see CapTouchDispatch) the
// touches are paced by the wall clock, a round trip per frame. With W3C
// actions the plan is lowered with interpolation, this session's measured
// tick cost and the drift earlier gestures showed (see learn), sent as one
// action sequence: three round trips. Either way the page's own record of
// the gesture's duration is read back (LastGesture).
func (d *Device) PerformGesture(ctx context.Context, plan planner.Plan) error {
	if err := d.admit(plan); err != nil {
		return err
	}
	if err := d.Calibrate(ctx); err != nil {
		return err
	}
	d.changed()
	lasts := time.Duration(plan.DurationMs) * time.Millisecond
	two := plan.Topology == planner.Two
	touchNone, marked, err := d.keepFrames(ctx, lasts, plan.Start(), two)
	if err != nil {
		return err
	}
	if d.multiTouched && !marked {
		if err := d.freshTab(ctx, true); err != nil {
			return err
		}
		if touchNone, _, err = d.keepFrames(ctx, lasts, plan.Start(), two); err != nil {
			return err
		}
	}
	key := keyOf(plan, touchNone)
	drift := d.drift[key]
	if d.devtools {
		drift = 0
		if two {
			d.multiTouched = true
		}
		if err := d.dispatchPaced(ctx, plan); err != nil {
			return err
		}
	} else {
		acts, err := d.Lowering(plan, touchNone)
		if err != nil {
			return err
		}
		if two && d.chromium {
			d.multiTouched = true
		}
		if err := d.perform(ctx, acts, lasts); err != nil {
			return err
		}
	}
	s, err := d.SettleScroll(ctx)
	d.learn(plan, key, drift, s)
	return err
}

// keepFrames makes the page produce frames for the gesture's duration and
// a margin, reports whether touch-action is none where the gesture starts
// and whether the document carries the multi-touch mark, and sets the mark
// when mark is true (see framesScript): one round trip.
func (d *Device) keepFrames(ctx context.Context, lasts time.Duration, at canonical.Point, mark bool) (touchNone, marked bool, err error) {
	var res any
	err = d.client.Execute(ctx, framesScript, []any{(lasts + time.Second).Milliseconds(), at.X, at.Y, mark}, false, &res)
	if pair, ok := res.([]any); ok && len(pair) == 2 {
		touchNone = pair[0] == "none"
		marked = pair[1] == true
	}
	return touchNone, marked, err
}

// touchReady makes sure touches reach the page before a tap: after a
// multi-touch gesture, a document other than the one it ran on (the page
// navigated since) needs a fresh tab. One round trip, and only after a
// multi-touch gesture.
func (d *Device) touchReady(ctx context.Context) error {
	if !d.multiTouched {
		return nil
	}
	var marked bool
	if err := d.client.Execute(ctx, markedScript, nil, true, &marked); err != nil {
		return err
	}
	if marked {
		return nil
	}
	return d.freshTab(ctx, true)
}

// freshTab replaces the browser tab with a new one (Chromium's touch
// routing is per tab; see multiTouched), reopening the current URL when
// reload is true. The new tab has no history, and a reopened page loses
// its state, as after a reload. Endpoints that cannot open tabs keep the
// old one.
func (d *Device) freshTab(ctx context.Context, reload bool) error {
	d.multiTouched = false
	d.changed()
	current := ""
	if reload {
		var err error
		if current, err = d.client.CurrentURL(ctx); err != nil {
			return err
		}
	}
	handle, err := d.client.NewWindow(ctx, "tab")
	if err != nil {
		return nil // keep the tab we have
	}
	if err := d.client.CloseWindow(ctx); err != nil {
		return err
	}
	if err := d.client.SwitchToWindow(ctx, handle); err != nil {
		return err
	}
	d.front(ctx)
	if current == "" || current == "about:blank" {
		return nil
	}
	return d.navigate(ctx, current, "reopen "+current)
}

// perform sends an action sequence. When it fails, every pointer is
// released so none stays down.
func (d *Device) perform(ctx context.Context, body any, lasts time.Duration) error {
	err := d.client.PerformActions(ctx, body, 2*lasts+5*time.Second)
	if err != nil {
		_ = d.client.ReleaseActions(context.WithoutCancel(ctx))
		if ce, ok := canonical.AsError(err); ok && ce.Details["w3cError"] == "move target out of bounds" {
			ce.WithHint("a point lies outside the browser's viewport; plans are checked against the viewport read before the gesture, so the page may have resized")
		}
	}
	return err
}

// Settle reports how a wait in the page ended: settled, or given up after
// Ms; Frames counts the frames watched, Why says what ended the wait
// ("quiet", "limit", "watchdog").
type Settle struct {
	Settled bool   `json:"settled"`
	Ms      int64  `json:"ms"`
	Frames  int    `json:"frames"`
	Why     string `json:"why,omitempty"`
	// Touch is when the page saw the last gesture's first touch go down and
	// its last touch lift (event timestamps, ms), as the frame loop that
	// PerformGesture starts records them.
	Touch *TouchSpan `json:"touch,omitempty"`
}

// TouchSpan is a gesture's touch span on the page's clock; nil ends were
// not seen.
type TouchSpan struct {
	Down *float64 `json:"down"`
	Up   *float64 `json:"up"`
}

// settleTail is how long a page that scrolled must then stay quiet, beside
// the three frames (see settleScript).
const settleTail = 120 * time.Millisecond

// SettleScroll waits in the page until no scroll event (page, scroll
// container or visual viewport) has fired for three frames, and for
// settleTail once anything scrolled, at most five seconds: one round
// trip. Not settling is not an error; the runtime's own settle then sees
// the page still moving.
func (d *Device) SettleScroll(ctx context.Context) (Settle, error) {
	var s Settle
	err := d.client.ExecuteAsync(ctx, settleScript, []any{d.settleFrames, d.settleLimit.Milliseconds(), settleTail.Milliseconds()}, true,
		d.settleLimit+time.Second, &s)
	d.last = s
	return s, err
}

// Key codes of the W3C keyboard (WebDriver §17.4.2).
const (
	KeyEnter     = "\uE007"
	KeyBackspace = "\uE003"
)

// KeyActions is the body of POST /actions that presses and releases each
// key in turn on one key source.
func KeyActions(keys []string) map[string]any {
	acts := make([]map[string]string, 0, 2*len(keys))
	for _, k := range keys {
		acts = append(acts, map[string]string{"type": "keyDown", "value": k}, map[string]string{"type": "keyUp", "value": k})
	}
	return map[string]any{"actions": []any{map[string]any{"type": "key", "id": "keyboard", "actions": acts}}}
}

// keyActions types keys on a W3C key source in one request.
func (d *Device) keyActions(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	d.changed()
	body := KeyActions(keys)
	err := d.client.PerformActions(ctx, body, time.Duration(len(keys))*50*time.Millisecond)
	if err != nil {
		_ = d.client.ReleaseActions(context.WithoutCancel(ctx))
	}
	return err
}

// InputText types text into whatever has focus, as a keyboard would: one
// key action per character, in one round trip. A line break presses Enter.
// Characters the driver cannot type as keys (outside the Basic
// Multilingual Plane, on chromedriver) are sent to the focused element
// with element send keys instead.
func (d *Device) InputText(ctx context.Context, text string) error {
	keys := make([]string, 0, len(text))
	bmp := true
	for _, r := range text {
		switch {
		case r == '\n':
			keys = append(keys, KeyEnter)
		case r == '\r':
		default:
			keys = append(keys, string(r))
			bmp = bmp && r <= 0xFFFF
		}
	}
	if bmp {
		return d.keyActions(ctx, keys)
	}
	d.changed()
	el, err := d.client.ActiveElement(ctx)
	if err != nil {
		return err
	}
	if el == "" {
		return nil // nothing has focus: typing goes nowhere, as on a phone
	}
	return d.client.ElementSendKeys(ctx, el, strings.ReplaceAll(strings.ReplaceAll(text, "\r", ""), "\n", KeyEnter))
}

// EraseText presses Backspace count times in one round trip.
func (d *Device) EraseText(ctx context.Context, count int) error {
	keys := make([]string, max(count, 0))
	for i := range keys {
		keys[i] = KeyBackspace
	}
	return d.keyActions(ctx, keys)
}

// PressKey presses Enter or Backspace, the two keys Maestro supports on
// the web; any other key is UNSUPPORTED_OPERATION, as in Maestro.
func (d *Device) PressKey(ctx context.Context, key exec.Key) error {
	switch strings.ToLower(strings.TrimSpace(key.Name)) {
	case "enter":
		return d.keyActions(ctx, []string{KeyEnter})
	case "backspace":
		return d.keyActions(ctx, []string{KeyBackspace})
	}
	return canonical.Errorf(canonical.CodeUnsupportedOperation, "Keycode %s is not supported on web", key.Name).
		With("platform", "web").With("key", key.Name).
		WithHint("on the web, pressKey supports Enter and Backspace only")
}

// Back is the browser's back button.
func (d *Device) Back(ctx context.Context) error {
	d.changed()
	return d.client.Back(ctx)
}

// HideKeyboard does nothing: a browser has no on-screen keyboard to hide
// (Maestro's web driver does the same).
func (d *Device) HideKeyboard(context.Context) error { return nil }

// LaunchApp opens the app's URL (the flow's appId or url:) and waits until
// the document has loaded (Maestro: driver.get, then readyState
// "complete", 30 s). clearState clears the origin's storage and cookies
// first. The page is always loaded afresh, except with stopApp: false when
// the browser already shows that URL: then the running page is kept, as
// an app already in front is on a phone. Permissions and launch arguments
// do not apply to a web page and are ignored.
func (d *Device) LaunchApp(ctx context.Context, opts exec.LaunchOptions) error {
	target := linkURL(opts.AppID)
	if opts.ClearState {
		if err := d.ClearState(ctx, target); err != nil {
			return err
		}
	}
	if !opts.StopApp && !opts.ClearState {
		if current, err := d.client.CurrentURL(ctx); err == nil && current == target {
			return nil
		}
	}
	return d.navigate(ctx, target, "launch app "+opts.AppID)
}

// loadTimeout is Maestro's wait for readyState "complete" after a launch.
const loadTimeout = 30 * time.Second

// navigate loads a URL and waits until the document is complete, in a
// fresh tab after a multi-touch gesture.
func (d *Device) navigate(ctx context.Context, target, what string) error {
	d.changed()
	if d.multiTouched {
		if err := d.freshTab(ctx, false); err != nil {
			return err
		}
	}
	if err := d.client.Navigate(ctx, target); err != nil {
		if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeCommandFailed {
			ce.Message = fmt.Sprintf("Unable to %s: %s", what, ce.Details["w3cMessage"])
			if strings.Contains(fmt.Sprint(ce.Details["w3cMessage"]), "ERR_NAME_NOT_RESOLVED") && d.proc != nil {
				ce.WithHint("the local browser cannot reach the network: only 127.0.0.1 resolves; serve the app locally")
			} else {
				ce.WithHint("check the URL and that its server is running")
			}
			ce.With("url", target)
		}
		return err
	}
	deadline := time.Now().Add(loadTimeout)
	for {
		var state string
		if err := d.client.Execute(ctx, readyScript, nil, true, &state); err != nil {
			return err
		}
		if state == "complete" {
			return nil
		}
		if time.Now().After(deadline) {
			return canonical.Errorf(canonical.CodeTimeout, "%s did not finish loading within %s", target, loadTimeout).
				With("url", target).WithHint("the page kept loading; check that its resources are served")
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// linkURL is the URL a link or appId names: as given when it has a scheme
// (http, https, file, data, about, ...), else https:// in front, as
// Maestro's web openLink does.
func linkURL(link string) string {
	link = strings.TrimSpace(link)
	if i := strings.Index(link, ":"); i > 0 {
		scheme := link[:i]
		ok := true
		for _, c := range scheme {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
				ok = false
			}
		}
		// "localhost:8080/x" has a port, not a scheme.
		if ok && !strings.Contains(scheme, ".") && !isPort(link[i+1:]) {
			return link
		}
	}
	return "https://" + link
}

func isPort(rest string) bool {
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n > 0
}

// StopApp unloads the page by navigating to about:blank, which runs its
// unload handlers as closing the tab would; the session stays usable.
func (d *Device) StopApp(ctx context.Context, _ string, _ bool) error {
	d.changed()
	if d.multiTouched {
		return d.freshTab(ctx, false) // a new tab shows about:blank
	}
	return d.client.Navigate(ctx, "about:blank")
}

// SetLocation overrides the position the page's geolocation API reports,
// as Maestro's web driver does: DevTools Emulation.setGeolocationOverride
// with accuracy 0. Only Chromium endpoints have DevTools; others fail with
// UNSUPPORTED_OPERATION.
func (d *Device) SetLocation(ctx context.Context, latitude, longitude float64) error {
	if !d.chromium {
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "setLocation needs Chromium's DevTools; this endpoint is %s", d.info.Name).
			WithHint("run the flow on a Chromium endpoint (the local browser is one), or make the command optional: true")
	}
	return d.client.ChromiumCDP(ctx, "Emulation.setGeolocationOverride",
		map[string]any{"latitude": latitude, "longitude": longitude, "accuracy": 0}, nil)
}

// ClearState clears everything the app's origin stored in the browser:
// cookies, local and session storage, IndexedDB, Cache Storage and service
// workers. On Chromium endpoints that is one DevTools call
// (Storage.clearDataForOrigin); elsewhere flow deletes the cookies the
// current page sees and clears the current origin's storage from the page,
// which only reaches the app's data while the app is open.
func (d *Device) ClearState(ctx context.Context, appID string) error {
	d.changed()
	origin := ""
	if u, err := url.Parse(linkURL(appID)); err == nil && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	if d.chromium && origin != "" {
		err := d.client.ChromiumCDP(ctx, "Storage.clearDataForOrigin", map[string]any{"origin": origin, "storageTypes": "all"}, nil)
		if err == nil {
			return nil
		}
		if canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
			return err
		}
		d.chromium = false
	}
	if err := d.client.DeleteCookies(ctx); err != nil {
		return err
	}
	var at string
	return d.client.ExecuteAsync(ctx, clearStorageScript, nil, false, 10*time.Second, &at)
}

// OpenLink navigates to the link (https:// added when it has no scheme)
// and waits for the page to load. browser is ignored: the link opens in
// the browser flow drives.
func (d *Device) OpenLink(ctx context.Context, link string, _ bool) error {
	return d.navigate(ctx, linkURL(link), "open "+link)
}

// Close releases every pointer, ends the session and, locally, stops
// chromedriver and the browser and removes the temporary profile. It is
// safe to call twice.
func (d *Device) Close(ctx context.Context) error {
	if d.closed {
		return nil
	}
	d.closed = true
	if d.rec != nil {
		// The runtime stops a recording when the flow ends; one still
		// running here has no file to go to.
		d.rec.stop()
		<-d.rec.done
		d.rec = nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = d.client.ReleaseActions(ctx)
	err := d.client.DeleteSession(ctx)
	d.stopProcess()
	if d.proc != nil {
		return nil // the process is gone either way
	}
	return err
}

func (d *Device) stopProcess() {
	if d.proc != nil {
		d.proc.stop()
	}
}
