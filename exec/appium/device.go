package appium

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/webdriver"
	"github.com/flow-runner/flow/planner"
)

// Config says which Appium endpoint a Device drives and how.
type Config struct {
	// URL is the Appium server or device cloud hub. User info in it is
	// sent as basic authentication and never printed.
	URL string
	// Capabilities are the session's capabilities, sent as alwaysMatch (or
	// as given when they have a "capabilities", "alwaysMatch" or
	// "firstMatch" key). Keys starting with "flow:" are flow's own and are
	// not sent (see CapMultiTouch).
	Capabilities map[string]any
	// StartTimeout bounds creating the session (5 minutes: a farm may
	// queue the request and install the app first).
	StartTimeout time.Duration
	// Client tunes the HTTP client.
	Client webdriver.ClientOptions
}

// CapMultiTouch (bool) says whether the driver delivers two touch
// sources of one action sequence as one multi-touch gesture. Unset, it is
// true for UiAutomator2 and XCUITest, which do, and false for every other
// driver, whose two-contact gestures are then refused before anything is
// sent.
const CapMultiTouch = webdriver.CapMultiTouch

// Device is a phone driven through an Appium native session
// (UiAutomator2 or XCUITest, locally or on a device farm). It implements
// exec.Device with W3C pointer actions for every touch and Appium's
// `mobile:` extensions for the device commands; nothing of flow's is
// installed on the phone.
//
// A Device is used from one goroutine at a time, like every exec.Device.
type Device struct {
	client *webdriver.Client
	info   exec.DeviceInfo
	// dialect is the driver's page-source format, which also names the
	// platform's commands (Android or iOS).
	dialect    Dialect
	automation string
	multiTouch bool
	// vp is the screen size the last page source gave, valid until the
	// next command that can change the screen.
	vp *canonical.Viewport
	// appID is the last app launched, which deep links open in.
	appID string
	// recording is the file the screen recording goes to, when one runs.
	recording string
	closed    bool
	// rotationRoute is the route setRotation answered on, once one did;
	// noRotation says the driver has neither (see orientation.go).
	rotationRoute string
	noRotation    bool
}

var (
	_ exec.Device          = (*Device)(nil)
	_ exec.Closer          = (*Device)(nil)
	_ exec.Locator         = (*Device)(nil)
	_ exec.Recorder        = (*Device)(nil)
	_ exec.KeychainClearer = (*Device)(nil)
	_ exec.MediaAdder      = (*Device)(nil)
	_ exec.AirplaneMode    = (*Device)(nil)
)

// Native reports what capabilities say of a session: native (an app,
// an app package or bundle, or UiAutomator2/XCUITest without a browser),
// a browser (browserName), or nothing (known false): then only the
// session's page source can tell.
func Native(caps map[string]any) (native, known bool) {
	for _, m := range capabilityObjects(caps) {
		if s, _ := m["browserName"].(string); s != "" {
			return false, true
		}
	}
	for _, m := range capabilityObjects(caps) {
		for _, k := range []string{"appium:app", "appium:appPackage", "appium:appActivity", "appium:bundleId", "app"} {
			if s, _ := m[k].(string); s != "" {
				return true, true
			}
		}
		switch strings.ToLower(str(m, "appium:automationName")) {
		case "uiautomator2", "xcuitest", "espresso":
			return true, true
		}
	}
	return false, false
}

// capabilityObjects are the objects of a capabilities value that carry
// capability keys: the object itself, or its alwaysMatch and firstMatch
// entries.
func capabilityObjects(caps map[string]any) []map[string]any {
	if inner, ok := caps["capabilities"].(map[string]any); ok {
		caps = inner
	}
	out := []map[string]any{caps}
	if am, ok := caps["alwaysMatch"].(map[string]any); ok {
		out = append(out, am)
	}
	if fm, ok := caps["firstMatch"].([]any); ok {
		for _, v := range fm {
			if m, ok := v.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

func str(m map[string]any, key string) string {
	if s, ok := m[key].(string); ok {
		return s
	}
	// Appium answers with the prefix removed.
	s, _ := m[strings.TrimPrefix(key, "appium:")].(string)
	return s
}

// Open creates the session. When it is native, the result is a *Device;
// when capabilities did not say and the session shows a web page, it is
// the web device on that session (*webdriver.Device). Close must be
// called to delete the session.
func Open(ctx context.Context, cfg Config) (exec.Device, error) {
	if u, err := url.ParseRequestURI(cfg.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, canonical.Errorf(canonical.CodeInvalidArgs, "the Appium URL %q is not an http(s) URL", webdriver.Redact(cfg.URL)).
			WithHint("give the server's base URL with --webdriver-url or FLOW_WEBDRIVER_URL, e.g. http://127.0.0.1:4723 (Appium 3) or a cloud hub such as https://USER:KEY@hub-cloud.browserstack.com/wd/hub")
	}
	if len(cfg.Capabilities) == 0 {
		return nil, canonical.NewError(canonical.CodeInvalidArgs, "an Appium session needs capabilities").
			WithHint("give --capabilities FILE with platformName, appium:automationName and the app (docs/webdriver.md has one per driver)")
	}
	timeout := cfg.StartTimeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	send, own := webdriver.SplitCapabilities(cfg.Capabilities)
	client := webdriver.NewClient(cfg.URL, cfg.Client)
	addSecrets(client, send)
	sess, err := client.NewSession(ctx, send, timeout)
	if err != nil {
		if ce, ok := canonical.AsError(err); ok && ce.Reason() == "WEBDRIVER_SESSION_REFUSED" {
			ce.Hint = refusalHint(ce.Message)
		}
		return nil, err
	}
	d := &Device{client: client}
	browser, err := d.adopt(ctx, sess, own)
	switch {
	case err != nil:
		_ = client.DeleteSession(context.WithoutCancel(ctx))
		return nil, err
	case browser:
		return webdriver.Attach(ctx, client, sess, webdriver.Config{URL: cfg.URL, Capabilities: cfg.Capabilities})
	}
	return d, nil
}

// refusalHint points at what usually makes an Appium server or a farm
// refuse a session, from its message.
func refusalHint(msg string) string {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "parallel") || strings.Contains(m, "quota") || strings.Contains(m, "limit") ||
		strings.Contains(m, "queue") || strings.Contains(m, "minutes"):
		return "the provider is out of capacity for this account (parallel sessions or minutes); wait for running sessions to end, lower --shard-split, or raise the plan's limit"
	case strings.Contains(m, "auth") || strings.Contains(m, "credential") || strings.Contains(m, "unauthori"):
		return "the provider refused the credentials: check the user and access key in the URL or in the capabilities (they are never printed)"
	case strings.Contains(m, "could not find a driver") || strings.Contains(m, "automationname"):
		return "the server has no driver for appium:automationName: install it (appium driver install uiautomator2, or xcuitest) or fix the name"
	}
	return "the endpoint could not start a session for these capabilities; its message says why. Check platformName, appium:automationName, appium:deviceName and appium:app in --capabilities (docs/webdriver.md)"
}

// addSecrets tells the client the capability values it must never print:
// clouds take the access key in capabilities as often as in the URL.
func addSecrets(c *webdriver.Client, caps map[string]any) {
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case string:
			k := strings.ToLower(key)
			for _, s := range []string{"key", "password", "token", "secret", "username", "user"} {
				if strings.HasSuffix(k, s) || strings.HasPrefix(k, s) {
					c.AddSecret(x)
				}
			}
		}
	}
	walk(caps, "")
}

// adopt reads what the session is: the platform from its capabilities,
// or from its page source when they do not say; browser is true for a
// session that shows a web page.
func (d *Device) adopt(ctx context.Context, sess webdriver.Session, own map[string]any) (browser bool, err error) {
	caps := sess.Capabilities
	d.automation = str(caps, "appium:automationName")
	platform := strings.ToLower(str(caps, "platformName"))
	switch strings.ToLower(d.automation) {
	case "uiautomator2", "espresso":
		d.dialect = DialectUiAutomator2
	case "xcuitest":
		d.dialect = DialectXCUITest
	default:
		switch platform {
		case "android":
			d.dialect = DialectUiAutomator2
		case "ios":
			d.dialect = DialectXCUITest
		}
	}
	if d.dialect == DialectUnknown || str(caps, "browserName") != "" {
		src, err := d.client.PageSource(ctx)
		if err != nil {
			return false, err
		}
		_, kind, err := ParseScreen([]byte(src))
		if err != nil {
			return false, err
		}
		if kind == DialectHTML {
			return true, nil
		}
		d.dialect = kind
	}
	switch v := own[CapMultiTouch].(type) {
	case bool:
		d.multiTouch = v
	default:
		a := strings.ToLower(d.automation)
		d.multiTouch = a == "uiautomator2" || a == "xcuitest"
	}
	d.info = describe(sess, d.dialect, d.automation, d.client.Endpoint())
	return false, nil
}

func describe(s webdriver.Session, dialect Dialect, automation, endpoint string) exec.DeviceInfo {
	name := str(s.Capabilities, "appium:deviceName")
	if name == "" {
		name = str(s.Capabilities, "deviceName")
	}
	if v := str(s.Capabilities, "appium:platformVersion"); v != "" {
		name = strings.TrimSpace(name + " " + v)
	}
	if automation != "" {
		name = strings.TrimSpace(name + " (" + automation + ")")
	}
	return exec.DeviceInfo{Platform: dialect.Platform(), Name: strings.TrimSpace(name + " at " + endpoint), ID: s.ID}
}

// Client is the session's WebDriver client, for callers that need a
// command the device does not wrap (tests read Appium's logs through it).
func (d *Device) Client() *webdriver.Client {
	d.vp = nil
	return d.client
}

// MultiTouch reports whether two-contact gestures are sent.
func (d *Device) MultiTouch() bool { return d.multiTouch }

// RoundTrips counts the HTTP requests sent to the endpoint.
func (d *Device) RoundTrips() int64 { return d.client.RoundTrips() }

// Info describes the session: platform android or ios.
func (d *Device) Info(context.Context) (exec.DeviceInfo, error) { return d.info, nil }

func (d *Device) ios() bool { return d.dialect == DialectXCUITest }

// changed forgets the screen size: the command may rotate the screen or
// change the app.
func (d *Device) changed() { d.vp = nil }

// Viewport is the screen in the driver's action coordinates (Android
// pixels, iOS points): the size the last page source gave, else one
// page-source read.
func (d *Device) Viewport(ctx context.Context) (canonical.Viewport, error) {
	if d.vp != nil {
		return *d.vp, nil
	}
	if _, err := d.Hierarchy(ctx); err != nil {
		return canonical.Viewport{}, err
	}
	if d.vp == nil {
		var r webdriver.WindowRect
		if err := d.client.Command(ctx, http.MethodGet, "/window/rect", nil, 0, &r); err != nil {
			return canonical.Viewport{}, err
		}
		return canonical.Viewport{Width: r.Width, Height: r.Height}, nil
	}
	return *d.vp, nil
}

// Hierarchy is the page source, parsed: one round trip.
func (d *Device) Hierarchy(ctx context.Context) (*exec.Node, error) {
	src, err := d.client.PageSource(ctx)
	if err != nil {
		return nil, err
	}
	root, _, vp, err := parse(src)
	if err != nil {
		return nil, err
	}
	if vp.Width > 0 && vp.Height > 0 {
		d.vp = &vp
	}
	return root, nil
}

// Screenshot is GET /screenshot.
func (d *Device) Screenshot(ctx context.Context) ([]byte, error) { return d.client.Screenshot(ctx) }

// Tap is a touch down and up at p: one action sequence.
func (d *Device) Tap(ctx context.Context, p canonical.Point) error { return d.press(ctx, p, 0) }

// LongPress holds a touch at p.
func (d *Device) LongPress(ctx context.Context, p canonical.Point, hold time.Duration) error {
	return d.press(ctx, p, hold)
}

// PressActions is the action body of a tap (hold 0) or long press at p:
// one touch source, down and up, with the hold as a pause between.
func PressActions(p canonical.Point, hold time.Duration) webdriver.Actions {
	acts := []webdriver.PointerAction{{Type: webdriver.PointerMove, X: p.X, Y: p.Y}, {Type: webdriver.PointerDown}}
	if hold > 0 {
		acts = append(acts, webdriver.PointerAction{Type: webdriver.Pause, Duration: int(hold.Milliseconds())})
	}
	acts = append(acts, webdriver.PointerAction{Type: webdriver.PointerUp})
	return webdriver.Actions{Actions: []webdriver.Source{{Type: "pointer", ID: "finger-0",
		Parameters: webdriver.Parameters{PointerType: "touch"}, Actions: acts}}}
}

func (d *Device) press(ctx context.Context, p canonical.Point, hold time.Duration) error {
	return d.perform(ctx, PressActions(p, hold), hold)
}

// perform sends one action sequence; after a failure every pointer is
// released, so no finger stays down. A sequence that ends with every
// pointer up needs no release: one round trip.
func (d *Device) perform(ctx context.Context, body any, lasts time.Duration) error {
	d.changed()
	err := d.client.PerformActions(ctx, body, lasts)
	if err != nil {
		_ = d.client.ReleaseActions(context.WithoutCancel(ctx))
	}
	return err
}

// Lowering is the body PerformGesture sends for a plan: the §7 lowering
// (one timed pointerMove per planned segment, coordinates unrounded),
// which UiAutomator2 and XCUITest interpolate themselves.
func (d *Device) Lowering(plan planner.Plan) (webdriver.Actions, error) {
	return webdriver.LowerActions(plan, webdriver.Options{})
}

// PerformGesture sends the plan as one W3C action sequence. A two-contact
// plan on a driver that does not deliver multi-touch is refused before
// anything is sent.
func (d *Device) PerformGesture(ctx context.Context, plan planner.Plan) error {
	if plan.Topology != planner.Single && !d.multiTouch {
		op := webdriver.RequiredOperation(plan)
		return canonical.Errorf(canonical.CodeUnsupportedOperation, "this Appium driver (%s) is not known to deliver multi-touch: %s needs two contacts",
			orUnknown(d.automation), op).
			With("provider", "appium").With("platform", d.info.Platform).With("operation", string(op)).
			WithHint(`UiAutomator2 and XCUITest deliver it; for another driver that does, set "flow:multiTouch": true in --capabilities`)
	}
	body, err := d.Lowering(plan)
	if err != nil {
		return err
	}
	return d.perform(ctx, body, time.Duration(plan.DurationMs)*time.Millisecond)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown driver"
	}
	return s
}

// mobile runs one of Appium's `mobile:` extensions: one round trip. A
// driver without it answers "unsupported operation", which becomes
// UNSUPPORTED_OPERATION naming the command.
func (d *Device) mobile(ctx context.Context, command, method string, args map[string]any, out any) error {
	d.changed()
	if args == nil {
		args = map[string]any{}
	}
	err := d.client.Execute(ctx, "mobile: "+method, []any{args}, false, out)
	if ce, ok := canonical.AsError(err); ok && ce.Code == canonical.CodeUnsupportedOperation {
		ce.Message = fmt.Sprintf("%s is not supported by this Appium driver (%s): it has no `mobile: %s`", command, orUnknown(d.automation), method)
		ce.With("operation", command).With("platform", d.info.Platform)
		ce.Hint = "flow maps " + command + " to Appium's `mobile: " + method + "`, which UiAutomator2 and XCUITest implement; update the driver, or guard the step with `when: {platform: ...}`"
	}
	return err
}

// appKey is the argument name the driver's app commands take.
func (d *Device) appKey() string {
	if d.ios() {
		return "bundleId"
	}
	return "appId"
}

// keyActions types keys on a W3C key source in one request.
func (d *Device) keyActions(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	return d.perform(ctx, webdriver.KeyActions(keys), time.Duration(len(keys))*50*time.Millisecond)
}

// InputText types into the focused field. Android: `mobile: type`, which
// takes any Unicode text in one call. iOS: the focused element's send
// keys (two round trips), as XCUITest types through the element.
func (d *Device) InputText(ctx context.Context, text string) error {
	if !d.ios() {
		return d.mobile(ctx, "inputText", "type", map[string]any{"text": text}, nil)
	}
	d.changed()
	el, err := d.client.ActiveElement(ctx)
	if err != nil {
		return err
	}
	if el == "" {
		return canonical.NewError(canonical.CodeCommandFailed, "inputText: no element has keyboard focus").
			WithHint("tap the field first (tapOn), as on a phone")
	}
	return d.client.ElementSendKeys(ctx, el, text)
}

// EraseText presses Backspace count times: one key action sequence.
func (d *Device) EraseText(ctx context.Context, count int) error {
	keys := make([]string, count)
	for i := range keys {
		keys[i] = webdriver.KeyBackspace
	}
	return d.keyActions(ctx, keys)
}

// PressKey presses a Maestro key. Android: its key code through
// `mobile: pressKey`. iOS: Enter and Backspace as key actions, Home and
// the volume buttons through `mobile: pressButton`.
func (d *Device) PressKey(ctx context.Context, key exec.Key) error {
	name := strings.ToLower(strings.ReplaceAll(key.Name, " ", ""))
	if !d.ios() {
		if key.AndroidCode == 0 {
			return canonical.Errorf(canonical.CodeUnsupportedOperation, "Android has no %q key", key.Name).
				WithHint("use one of Maestro's key names (Enter, Backspace, Home, Back, Volume Up, ...)")
		}
		return d.mobile(ctx, "pressKey", "pressKey", map[string]any{"keycode": key.AndroidCode}, nil)
	}
	switch name {
	case "enter":
		return d.keyActions(ctx, []string{webdriver.KeyEnter})
	case "backspace":
		return d.keyActions(ctx, []string{webdriver.KeyBackspace})
	case "home", "volumeup", "volumedown":
		return d.mobile(ctx, "pressKey", "pressButton", map[string]any{"name": name}, nil)
	}
	return canonical.Errorf(canonical.CodeUnsupportedOperation, "iOS has no %q key", key.Name).With("device", d.info.Name).
		WithHint("iOS presses Enter, Backspace, Home, Volume Up and Volume Down; guard other keys with `when: {platform: Android}`")
}

// Back is the system back on Android (POST /back) and nothing on iOS,
// where Maestro's back is a no-op.
func (d *Device) Back(ctx context.Context) error {
	if d.ios() {
		return nil
	}
	d.changed()
	return d.client.Back(ctx)
}

// HideKeyboard is `mobile: hideKeyboard`.
func (d *Device) HideKeyboard(ctx context.Context) error {
	return d.mobile(ctx, "hideKeyboard", "hideKeyboard", nil, nil)
}

// LaunchApp follows Maestro's launchApp: clear the state when asked, set
// permissions, stop the app unless stopApp is false, then bring it up.
// Each step is one `mobile:` call.
func (d *Device) LaunchApp(ctx context.Context, o exec.LaunchOptions) error {
	if len(o.Arguments) > 0 && !d.ios() {
		// Refused before anything is sent: a launch must not half happen.
		return canonical.NewError(canonical.CodeUnsupportedOperation, "launchApp arguments are not supported on Appium's Android drivers").
			With("operation", "launchApp.arguments").With("platform", "android").
			WithHint("pass them as intent extras in the session's capabilities (appium:optionalIntentArguments), or drop `arguments:`")
	}
	d.appID = o.AppID
	if o.ClearState {
		if err := d.ClearState(ctx, o.AppID); err != nil {
			return err
		}
	}
	if len(o.Permissions) > 0 {
		if err := d.setPermissions(ctx, o.AppID, o.Permissions); err != nil {
			return err
		}
	}
	// Android's clearApp stops the app itself (pm clear); XCUITest's
	// does not say, and its launchApp ignores a running app.
	if o.StopApp && !(o.ClearState && !d.ios()) {
		if err := d.StopApp(ctx, o.AppID, true); err != nil {
			return err
		}
	}
	if d.ios() && (o.StopApp || o.ClearState || len(o.Arguments) > 0) {
		// XCUITest's activateApp fails for an app that is not running;
		// launchApp starts it (and ignores one already running, which
		// terminateApp above ruled out).
		args := map[string]any{"bundleId": o.AppID}
		if len(o.Arguments) > 0 {
			keys := make([]string, 0, len(o.Arguments))
			for k := range o.Arguments {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			list := make([]string, 0, 2*len(keys))
			for _, k := range keys {
				list = append(list, "-"+k, fmt.Sprint(o.Arguments[k]))
			}
			args["arguments"] = list
		}
		return d.mobile(ctx, "launchApp", "launchApp", args, nil)
	}
	return d.mobile(ctx, "launchApp", "activateApp", map[string]any{d.appKey(): o.AppID}, nil)
}

// SetPermissions is the current Maestro's setPermissions, through the
// driver as launchApp's permissions are.
func (d *Device) SetPermissions(ctx context.Context, appID string, perms map[string]string) error {
	return d.setPermissions(ctx, appID, perms)
}

// setPermissions is Maestro's permission map through the driver:
// Android `mobile: changePermissions` (grant or revoke, Maestro's names
// expanded as adb does), iOS `mobile: setPermission` (simulators).
func (d *Device) setPermissions(ctx context.Context, appID string, perms map[string]string) error {
	if d.ios() {
		access := map[string]string{}
		for name, v := range perms {
			service, ok := xcuitestServices[name]
			if !ok {
				continue // as on simulators through simctl: a name XCUITest cannot set is skipped
			}
			access[service] = map[string]string{"allow": "yes", "deny": "no"}[v]
			if access[service] == "" {
				access[service] = "unset"
			}
		}
		if len(access) == 0 {
			return nil
		}
		return d.mobile(ctx, "permissions", "setPermission", map[string]any{"bundleId": appID, "access": access}, nil)
	}
	grant, revoke := []string{}, []string{}
	all := ""
	for name, v := range perms {
		if name == "all" {
			all = v
			continue
		}
		for _, p := range exec.AndroidPermissions(name) {
			if v == "allow" {
				grant = append(grant, p)
			} else {
				revoke = append(revoke, p)
			}
		}
	}
	var calls []permissionCall
	if all != "" {
		action := "revoke"
		if all == "allow" {
			action = "grant"
		}
		calls = append(calls, permissionCall{action, "all"})
	}
	if len(grant) > 0 {
		calls = append(calls, permissionCall{"grant", grant})
	}
	if len(revoke) > 0 {
		calls = append(calls, permissionCall{"revoke", revoke})
	}
	for _, c := range calls {
		if err := d.mobile(ctx, "permissions", "changePermissions",
			map[string]any{"permissions": c.perms, "appPackage": appID, "action": c.action}, nil); err != nil {
			return err
		}
	}
	return nil
}

// xcuitestServices maps Maestro's iOS permission names to the keys of
// XCUITest's `mobile: setPermission` (appium-xcuitest-driver
// docs/reference/execute-methods.md): it has no camera.
var xcuitestServices = map[string]string{
	"all": "all", "calendar": "calendar", "contacts": "contacts", "location": "location-always",
	"medialibrary": "media-library", "microphone": "microphone", "motion": "motion", "photos": "photos",
	"reminders": "reminders", "siri": "siri",
}

// permissionCall is one `mobile: changePermissions`: "all", or a list.
type permissionCall struct {
	action string
	perms  any
}

// StopApp is `mobile: terminateApp`.
func (d *Device) StopApp(ctx context.Context, appID string, _ bool) error {
	return d.mobile(ctx, "stopApp", "terminateApp", map[string]any{d.appKey(): appID}, nil)
}

// ClearState is `mobile: clearApp`: the app's data is deleted and the app
// stopped (iOS: simulators only).
func (d *Device) ClearState(ctx context.Context, appID string) error {
	return d.mobile(ctx, "clearState", "clearApp", map[string]any{d.appKey(): appID}, nil)
}

// ClearKeychain is `mobile: clearKeychains` (iOS simulators).
func (d *Device) ClearKeychain(ctx context.Context) error {
	if !d.ios() {
		return nil
	}
	return d.mobile(ctx, "clearKeychain", "clearKeychains", nil, nil)
}

// OpenLink is `mobile: deepLink`, in the last launched app when there is
// one (Android needs a package for it).
func (d *Device) OpenLink(ctx context.Context, link string, _ bool) error {
	args := map[string]any{"url": link}
	if d.appID != "" {
		if d.ios() {
			args["bundleId"] = d.appID
		} else {
			args["package"] = d.appID
		}
	}
	return d.mobile(ctx, "openLink", "deepLink", args, nil)
}

// SetLocation is `mobile: setGeolocation` on Android and
// `mobile: setSimulatedLocation` on iOS.
func (d *Device) SetLocation(ctx context.Context, latitude, longitude float64) error {
	method := "setGeolocation"
	if d.ios() {
		method = "setSimulatedLocation"
	}
	return d.mobile(ctx, "setLocation", method, map[string]any{"latitude": latitude, "longitude": longitude}, nil)
}

// AddMedia pushes each file with `mobile: pushFile`: on Android into
// /sdcard/Pictures, where the driver's media scan shows it in the
// gallery; on an iOS simulator into the photo library.
func (d *Device) AddMedia(ctx context.Context, files []string) error {
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return canonical.Errorf(canonical.CodeInvalidArgs, "addMedia: %v", err).WithHint("give a file that exists, relative to the flow")
		}
		remote := filepath.Base(f)
		if !d.ios() {
			remote = "/sdcard/Pictures/" + remote
		}
		if err := d.mobile(ctx, "addMedia", "pushFile", map[string]any{"remotePath": remote,
			"payload": base64.StdEncoding.EncodeToString(data)}, nil); err != nil {
			return err
		}
	}
	return nil
}

// AirplaneMode reads it with `mobile: getConnectivity` (Android).
func (d *Device) AirplaneMode(ctx context.Context) (bool, error) {
	if d.ios() {
		return false, d.noAirplane()
	}
	var v map[string]any
	if err := d.mobile(ctx, "airplaneMode", "getConnectivity", map[string]any{"services": []string{"airplaneMode"}}, &v); err != nil {
		return false, err
	}
	on, _ := v["airplaneMode"].(bool)
	return on, nil
}

// SetAirplaneMode is `mobile: setConnectivity` (Android).
func (d *Device) SetAirplaneMode(ctx context.Context, on bool) error {
	if d.ios() {
		return d.noAirplane()
	}
	return d.mobile(ctx, "airplaneMode", "setConnectivity", map[string]any{"airplaneMode": on}, nil)
}

func (d *Device) noAirplane() error {
	return canonical.NewError(canonical.CodeUnsupportedOperation, "XCUITest cannot switch airplane mode").
		With("operation", "setAirplaneMode").With("platform", "ios").
		WithHint("as in Maestro, airplane mode is Android only; guard the step with `when: {platform: Android}`")
}

// StartRecording starts Appium's screen recording; StopRecording writes
// the video it returns to path.
func (d *Device) StartRecording(ctx context.Context, path string) error {
	if err := d.client.Command(ctx, http.MethodPost, "/appium/start_recording_screen", map[string]any{}, 0, nil); err != nil {
		return err
	}
	d.recording = path
	return nil
}

// StopRecording stops the recording and writes it to the file
// StartRecording named.
func (d *Device) StopRecording(ctx context.Context) error {
	var b64 string
	if err := d.client.Command(ctx, http.MethodPost, "/appium/stop_recording_screen", map[string]any{}, time.Minute, &b64); err != nil {
		return err
	}
	path := d.recording
	d.recording = ""
	video, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "the screen recording is not base64: %v", err)
	}
	if err := os.WriteFile(path, video, 0o644); err != nil {
		return canonical.Errorf(canonical.CodeCommandFailed, "cannot write the recording %s: %v", path, err)
	}
	return nil
}

// Close deletes the session (the farm frees the phone). It is safe to
// call twice.
func (d *Device) Close(ctx context.Context) error {
	if d.closed {
		return nil
	}
	d.closed = true
	return d.client.DeleteSession(ctx)
}
