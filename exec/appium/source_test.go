package appium_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/appium"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "source", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parse(t *testing.T, data []byte, want appium.Dialect) *exec.Node {
	t.Helper()
	root, d, err := appium.ParseSource(data)
	if err != nil {
		t.Fatal(err)
	}
	if d != want {
		t.Fatalf("dialect %v, want %v", d, want)
	}
	return root
}

// all is the tree in pre-order, as Maestro's aggregate() lists it.
func all(n *exec.Node) []*exec.Node {
	out := []*exec.Node{n}
	for _, c := range n.Children {
		out = append(out, all(c)...)
	}
	return out
}

// one is the only node keep accepts.
func one(t *testing.T, root *exec.Node, what string, keep func(*exec.Node) bool) *exec.Node {
	t.Helper()
	var found []*exec.Node
	for _, n := range all(root) {
		if keep(n) {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d nodes, want 1", what, len(found))
	}
	return found[0]
}

func byID(id string) func(*exec.Node) bool { return func(n *exec.Node) bool { return n.ID == id } }

func byLabel(l string) func(*exec.Node) bool { return func(n *exec.Node) bool { return n.Label == l } }

func rect(x, y, w, h int) exec.Rect { return exec.Rect{X: x, Y: y, W: w, H: h} }

func bounds(t *testing.T, n *exec.Node, want exec.Rect) {
	t.Helper()
	if n.Bounds == nil || *n.Bounds != want {
		t.Errorf("%s %q bounds = %+v, want %+v", n.Class, n.ID, n.Bounds, want)
	}
}

// The fixtures' whole trees, pinned.
func TestParseSourceFixtures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file    string
		dialect appium.Dialect
	}{
		{"uiautomator2-login.xml", appium.DialectUiAutomator2},
		{"xcuitest-login.xml", appium.DialectXCUITest},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			snaps.MatchJSON(t, parse(t, fixture(t, tc.file), tc.dialect))
		})
	}
}

func TestUiAutomator2Mapping(t *testing.T) {
	t.Parallel()
	root := parse(t, fixture(t, "uiautomator2-login.xml"), appium.DialectUiAutomator2)
	// Maestro's root: the <hierarchy> with no bounds; one child per window.
	if root.Bounds != nil || root.Class != "" || len(root.Children) != 4 {
		t.Fatalf("root = %+v with %d windows", root, len(root.Children))
	}
	const pkg = "com.example.shop:id/"
	email := one(t, root, "email", byID(pkg+"email"))
	if email.Hint != "Email" || email.Text != "Email" || !email.Focused || !email.Enabled || email.Class != "android.widget.EditText" {
		t.Errorf("email = %+v", email)
	}
	bounds(t, email, rect(63, 363, 954, 147))
	password := one(t, root, "password", byID(pkg+"password"))
	if password.Hint != "Password" || password.Text != "••••••••" || password.Focused {
		t.Errorf("password = %+v", password)
	}
	remember := one(t, root, "remember", byID(pkg+"remember"))
	if !remember.Checked || remember.Text != "Remember me" || remember.Clickable == nil || !*remember.Clickable {
		t.Errorf("remember = %+v", remember)
	}
	login := one(t, root, "login", byID(pkg+"login"))
	if login.Text != "Log in" || login.Label != "Log in to your account" || login.Class != "android.widget.Button" {
		t.Errorf("login = %+v", login)
	}
	bounds(t, login, rect(63, 909, 954, 126))
	orders := one(t, root, "orders", byID(pkg+"orders"))
	if orders.Scrollable != "vertical" || len(orders.Children) != 6 {
		t.Errorf("orders scroll %q with %d rows", orders.Scrollable, len(orders.Children))
	}
	// The last row is cut by the navigation bar: the server writes the
	// visible part, as Maestro's dump does.
	bounds(t, orders.Children[5], rect(0, 2085, 1080, 189))
	if title := one(t, root, "title", byID(pkg+"title")); title.Text != "Welcome back" || title.Scrollable != "" {
		t.Errorf("title = %+v", title)
	}
	// Other windows are matchable too, as in Maestro (status bar, keyboard).
	if clock := one(t, root, "clock", byID("com.android.systemui:id/clock")); clock.Text != "9:41" || clock.Label != "9:41 AM" {
		t.Errorf("clock = %+v", clock)
	}
	for _, n := range all(root) {
		if n.Clickable == nil {
			t.Fatalf("%s without clickable: every Android node says", n.Class)
		}
	}
}

func TestXCUITestMapping(t *testing.T) {
	t.Parallel()
	root := parse(t, fixture(t, "xcuitest-login.xml"), appium.DialectXCUITest)
	if root.Class != "XCUIElementTypeApplication" || root.Label != "Shop" || root.ID != "" {
		t.Errorf("root = %+v", root)
	}
	bounds(t, root, rect(0, 0, 390, 844))
	// WDA writes a StaticText's label as its value: no text of its own, as
	// Maestro reads a label; it still matches through the label.
	welcome := one(t, root, "welcome", byLabel("Welcome back"))
	if welcome.Text != "" || welcome.ID != "" || welcome.Class != "XCUIElementTypeStaticText" {
		t.Errorf("welcome = %+v", welcome)
	}
	bounds(t, welcome, rect(20, 100, 350, 41))
	email := one(t, root, "email", byID("email"))
	if email.Hint != "Email" || email.Text != "Email" || email.Label != "" || !email.Enabled {
		t.Errorf("email = %+v", email)
	}
	password := one(t, root, "password", byID("password"))
	if password.Hint != "Password" || password.Text != "••••••••" || password.Class != "XCUIElementTypeSecureTextField" {
		t.Errorf("password = %+v", password)
	}
	remember := one(t, root, "remember", byID("remember"))
	if !remember.Checked || remember.Label != "Remember me" || remember.Text != "1" {
		t.Errorf("remember = %+v", remember)
	}
	login := one(t, root, "login", byID("login"))
	if login.Label != "Log in" || login.Text != "" || !login.Enabled || login.Selected {
		t.Errorf("login = %+v", login)
	}
	bounds(t, login, rect(20, 332, 350, 50))
	// name is the label when there is no identifier: no id then.
	create := one(t, root, "create account", byLabel("Create account"))
	if create.Enabled || create.ID != "" {
		t.Errorf("create account = %+v", create)
	}
	// A selected tab: WDA writes value "1" and the Selected trait.
	tab := one(t, root, "orders tab", byLabel("Orders"))
	if !tab.Selected || tab.Text != "" {
		t.Errorf("orders tab = %+v", tab)
	}
	if account := one(t, root, "account tab", byLabel("Account")); account.Selected {
		t.Errorf("account tab = %+v", account)
	}
	orders := one(t, root, "orders", byID("orders"))
	if orders.Scrollable != "vertical" || len(orders.Children) != 6 {
		t.Errorf("orders scroll %q with %d cells", orders.Scrollable, len(orders.Children))
	}
	// visible="false" cells stay: Maestro's snapshot has them, and the
	// runtime prunes what is off screen.
	bounds(t, orders.Children[5], rect(0, 780, 390, 60))
	for _, n := range all(root) {
		if n.Clickable != nil {
			t.Fatalf("%s with clickable: only Android says", n.Class)
		}
	}
}

// fakeDriverServe is what @appium/fake-driver (lib/fake-app.ts, loadApp)
// serves for an app file: the first <app and </app wrapped in AppiumAUT.
func fakeDriverServe(file string) []byte {
	file = strings.Replace(file, "<app ", "<AppiumAUT><app ", 1)
	file = strings.Replace(file, "<app>", "<AppiumAUT><app>", 1)
	file = strings.Replace(file, "</app>", "</app></AppiumAUT>", 1)
	return []byte(file)
}

func TestParseSourceUnwraps(t *testing.T) {
	t.Parallel()
	ua2 := string(fixture(t, "uiautomator2-login.xml"))
	xcui := string(fixture(t, "xcuitest-login.xml"))
	body := func(s string) string { return s[strings.Index(s, "?>")+2:] }
	// WebDriverAgent's own /source, without the driver's AppiumAUT scope.
	wda := strings.NewReplacer("<AppiumAUT>", "", "</AppiumAUT>", "").Replace(xcui)
	for _, tc := range []struct {
		name, plain, wrapped string
		dialect              appium.Dialect
	}{
		{"uiautomator2 in a fake driver app", ua2, `<?xml version="1.0"?>` + "\n" + `<app name="shop">` + body(ua2) + "</app>\n", appium.DialectUiAutomator2},
		{"xcuitest in a fake driver app", xcui, "<app>" + body(wda) + "</app>", appium.DialectXCUITest},
		{"xcuitest without the driver's scope", xcui, wda, appium.DialectXCUITest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := parse(t, []byte(tc.plain), tc.dialect)
			got := parse(t, fakeDriverServe(tc.wrapped), tc.dialect)
			if len(all(got)) != len(all(want)) || !sameTree(got, want) {
				t.Errorf("the wrapped source reads differently")
			}
		})
	}
}

func sameTree(a, b *exec.Node) bool {
	if a.Text != b.Text || a.Hint != b.Hint || a.Label != b.Label || a.ID != b.ID || a.Class != b.Class ||
		a.Enabled != b.Enabled || a.Checked != b.Checked || a.Selected != b.Selected || a.Focused != b.Focused ||
		a.Scrollable != b.Scrollable || (a.Bounds == nil) != (b.Bounds == nil) || (a.Bounds != nil && *a.Bounds != *b.Bounds) ||
		(a.Clickable == nil) != (b.Clickable == nil) || (a.Clickable != nil && *a.Clickable != *b.Clickable) ||
		len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !sameTree(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

func TestParseSourceHTML(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"doctype":          "\ufeff  <!DOCTYPE html><html><head><meta charset=utf-8></head><body><br></body></html>",
		"unquoted":         "<html lang=en><body>",
		"xhtml":            `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`,
		"upper case":       "<HTML><BODY></BODY></HTML>",
		"fake driver view": "<AppiumAUT><app><html><body/></html></app></AppiumAUT>",
	} {
		root, d, err := appium.ParseSource([]byte(doc))
		if err != nil || d != appium.DialectHTML || root != nil {
			t.Errorf("%s: root %v, dialect %v, err %v", name, root, d, err)
		}
	}
}

func TestParseSourceRefuses(t *testing.T) {
	t.Parallel()
	nest := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	const xc = "<XCUIElementTypeOther>"
	const xcEnd = "</XCUIElementTypeOther>"
	for _, tc := range []struct {
		name, doc string
		code      canonical.Code
	}{
		{"empty", "", canonical.CodeDeviceUnavailable},
		{"only a declaration", `<?xml version="1.0"?>` + "\n", canonical.CodeDeviceUnavailable},
		{"json", `{"value":"<hierarchy/>"}`, canonical.CodeDeviceUnavailable},
		{"unclosed xcuitest", `<XCUIElementTypeApplication x="0"><XCUIElementTypeWindow>`, canonical.CodeDeviceUnavailable},
		{"unclosed uiautomator2", `<hierarchy><android.widget.FrameLayout>`, canonical.CodeDeviceUnavailable},
		{"mismatched wrapper", `<AppiumAUT><XCUIElementTypeApplication/></app>`, canonical.CodeDeviceUnavailable},
		{"bad entity", `<XCUIElementTypeApplication label="&nope;"/>`, canonical.CodeDeviceUnavailable},
		{"two roots", `<hierarchy/><hierarchy/>`, canonical.CodeDeviceUnavailable},
		{"two apps in the wrapper", `<AppiumAUT><app><hierarchy/><hierarchy/></app></AppiumAUT>`, canonical.CodeDeviceUnavailable},
		{"empty wrapper", `<AppiumAUT></AppiumAUT>`, canonical.CodeDeviceUnavailable},
		{"empty fake app", `<AppiumAUT><app/></AppiumAUT>`, canonical.CodeDeviceUnavailable},
		{"xcuitest too deep", nest(xc, xcEnd, 513), canonical.CodeDeviceUnavailable},
		{"xcuitest too many", "<XCUIElementTypeApplication>" + strings.Repeat("<XCUIElementTypeOther/>", 200000) + "</XCUIElementTypeApplication>", canonical.CodeDeviceUnavailable},
		{"uiautomator2 too deep", "<hierarchy>" + nest("<a>", "</a>", 512) + "</hierarchy>", canonical.CodeDeviceUnavailable},
		{"fake driver's own app", `<AppiumAUT><app><MockListItem id="lv"/></app></AppiumAUT>`, canonical.CodeUnsupportedOperation},
		{"espresso-like root", `<android.widget.FrameLayout/>`, canonical.CodeUnsupportedOperation},
		{"xcuitest json source as xml", `<AppiumAUT><app/><XCUIElementTypeApplication/></AppiumAUT>`, canonical.CodeDeviceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, d, err := appium.ParseSource([]byte(tc.doc))
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != tc.code || ce.Hint == "" || root != nil || d != appium.DialectUnknown {
				t.Errorf("root %v, dialect %v, err %#v", root, d, err)
			}
		})
	}
	// Exactly at the depth bound still reads.
	if _, _, err := appium.ParseSource([]byte(nest(xc, xcEnd, 512))); err != nil {
		t.Errorf("depth 512: %v", err)
	}
}

func TestParseScreen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc string
		want      appium.Screen
		dialect   appium.Dialect
	}{
		{"uiautomator2 fixture", string(fixture(t, "uiautomator2-login.xml")), appium.Screen{Width: 1080, Height: 2400}, appium.DialectUiAutomator2},
		{"xcuitest fixture", string(fixture(t, "xcuitest-login.xml")), appium.Screen{Width: 390, Height: 844}, appium.DialectXCUITest},
		{"landscape", `<hierarchy index="0" class="hierarchy" rotation="1" width="2400" height="1080"><unclosed>`, appium.Screen{Width: 2400, Height: 1080, Rotation: 1}, appium.DialectUiAutomator2},
		{"fractional points", `<AppiumAUT><app><XCUIElementTypeApplication x="0" y="0" width="375.5" height="667"/></app></AppiumAUT>`, appium.Screen{Width: 375, Height: 667}, appium.DialectXCUITest},
		{"maestro-style root", `<hierarchy rotation="0"/>`, appium.Screen{}, appium.DialectUiAutomator2},
		{"no height", `<XCUIElementTypeApplication x="0" y="0" width="390"/>`, appium.Screen{}, appium.DialectXCUITest},
		{"html", `<!DOCTYPE html><html>`, appium.Screen{}, appium.DialectHTML},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, d, err := appium.ParseScreen([]byte(tc.doc))
			if err != nil || s != tc.want || d != tc.dialect {
				t.Errorf("screen %+v, dialect %v, err %v", s, d, err)
			}
		})
	}
	if v := (appium.Screen{Width: 1080, Height: 2400, Rotation: 0}).Viewport(); v != (canonical.Viewport{Width: 1080, Height: 2400}) {
		t.Errorf("viewport %+v", v)
	}
	if _, _, err := appium.ParseScreen([]byte(`<MockApp/>`)); canonical.CodeOf(err) != canonical.CodeUnsupportedOperation {
		t.Errorf("unknown root: %v", err)
	}
}

func FuzzParseSource(f *testing.F) {
	f.Add(fixture(f, "uiautomator2-login.xml"))
	f.Add(fixture(f, "xcuitest-login.xml"))
	f.Add([]byte(`<AppiumAUT><app><hierarchy><a displayed="false"><b/></a></hierarchy></app></AppiumAUT>`))
	f.Add([]byte(`<XCUIElementTypeApplication x="1e400" y="-0" width="NaN" height="3"><XCUIElementTypeButton value="1" traits="Selected"/></XCUIElementTypeApplication>`))
	f.Add([]byte(`<!doctype html><html>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, d, err := appium.ParseSource(data)
		if err != nil {
			if _, ok := canonical.AsError(err); !ok {
				t.Fatalf("uncoded error %v", err)
			}
			if root != nil || d != appium.DialectUnknown {
				t.Fatalf("an error with root %v, dialect %v", root, d)
			}
			return
		}
		if d == appium.DialectHTML {
			if root != nil {
				t.Fatal("a root for HTML")
			}
			return
		}
		for _, n := range all(root) {
			if (n.Clickable != nil) != (d == appium.DialectUiAutomator2) {
				t.Fatalf("%v node %s: clickable %v", d, n.Class, n.Clickable)
			}
			switch n.Scrollable {
			case "", "vertical", "horizontal":
			default:
				t.Fatalf("scrollable %q", n.Scrollable)
			}
		}
		// ParseScreen agrees on the dialect of every source ParseSource reads.
		if _, sd, err := appium.ParseScreen(data); err != nil || sd != d {
			t.Fatalf("ParseScreen: dialect %v, err %v", sd, err)
		}
	})
}
