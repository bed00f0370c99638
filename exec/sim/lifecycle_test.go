package sim_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

func TestBackStack(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("login_button")
	r.tap("submit")
	if !r.has("catalog_title") {
		t.Fatal("submit opens the catalog")
	}
	r.must(r.dev.Back(r.ctx))
	if !r.has("login_title") {
		t.Fatal("back pops to login")
	}
	r.tap("login_back") // an in-app back button: {back: true}
	if !r.has("login_button") {
		t.Fatal("the back button pops to home")
	}
	r.must(r.dev.PressKey(r.ctx, exec.Key{Name: "Back", AndroidCode: 4}))
	if root := r.tree(); len(root.Children) != 0 || root.Class != "com.android.launcher3.Launcher" {
		t.Fatalf("back on the first screen leaves the app: %+v", root)
	}
	r.must(r.dev.Back(r.ctx)) // nothing happens on the home screen
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop}))
	if !r.has("home_title") {
		t.Fatal("a finished app starts at its start screen even without stopApp")
	}
}

func TestHomeKeyAndResume(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("browse_button")
	r.must(r.dev.PressKey(r.ctx, exec.Key{Name: "Home", AndroidCode: 3}))
	if len(r.tree().Children) != 0 {
		t.Fatal("Home leaves the app")
	}
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop, StopApp: false}))
	if !r.has("catalog_title") {
		t.Fatal("launchApp with stopApp: false resumes where the app was")
	}
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop, StopApp: true}))
	if !r.has("home_title") {
		t.Fatal("stopApp: true restarts at the start screen")
	}
}

// TestStopResetsUIClearResetsSaved: a stopped app rebuilds its screens from
// the model, except elements marked persist, which only clearState resets.
func TestStopResetsUIClearResetsSaved(t *testing.T) {
	t.Parallel()
	r := custom(t, mini(`      - {id: typed, hint: Name, bounds: [20, 200, 370, 250], editable: true}
      - {id: saved, text: Remember me, bounds: [20, 300, 370, 350], checked: false, persist: true}
      - {id: session, text: Dark mode, bounds: [20, 400, 370, 450], checked: false}
`))
	r.tap("typed")
	r.must(r.dev.InputText(r.ctx, "Sam"))
	r.tap("saved")
	r.tap("session")
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: "com.example.mini", StopApp: false}))
	if r.text("typed") != "Sam" || !r.node("session").Checked || !r.node("typed").Focused {
		t.Fatal("relaunching without stopping keeps everything")
	}
	r.must(r.dev.StopApp(r.ctx, "com.example.mini", false))
	if len(r.tree().Children) != 0 {
		t.Fatal("stopApp closes the app")
	}
	r.launch("com.example.mini")
	if r.text("typed") != "" || r.node("session").Checked || r.node("typed").Focused {
		t.Fatal("a stopped app starts from the model")
	}
	if !r.node("saved").Checked {
		t.Fatal("persist: true survives stopApp")
	}
	r.must(r.dev.ClearState(r.ctx, "com.example.mini"))
	if len(r.tree().Children) != 0 {
		t.Fatal("clearState stops the app")
	}
	r.launch("com.example.mini")
	if r.node("saved").Checked {
		t.Fatal("clearState resets persisted state")
	}
	r.tap("saved")
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: "com.example.mini", ClearState: true, StopApp: true}))
	if r.node("saved").Checked {
		t.Fatal("launchApp clearState resets it too")
	}
	// Stopping an app that is not installed is no error; clearing one is
	// none on Android (Maestro's pm clear skips it) but fails on iOS, where
	// Maestro reinstalls the app from its bundle (maestro-reference §1.2
	// clearState).
	r.must(r.dev.StopApp(r.ctx, "com.example.absent", true))
	if err := r.dev.ClearState(r.ctx, "com.example.absent"); canonical.CodeOf(err) != canonical.CodeCommandFailed {
		t.Fatalf("clearState of an app an iOS device lacks: %v", err)
	}
	android := newRig(t, sim.Options{Platform: "android"})
	android.must(android.dev.ClearState(android.ctx, "com.example.absent"))
}

// TestBackOutOfAppForgetsUI: backing out of the first screen finishes the
// app, like a stop.
func TestBackOutOfAppForgetsUI(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("search")
	r.must(r.dev.InputText(r.ctx, "tent"))
	r.must(r.dev.Back(r.ctx)) // keyboard
	r.must(r.dev.Back(r.ctx)) // out of the app
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop}))
	if r.text("search") != "" {
		t.Fatal("a finished app starts from the model")
	}
}

func TestLaunchUnknownApp(t *testing.T) {
	t.Parallel()
	r := demo(t)
	err := r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: "com.example.shopp"})
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Hint, `did you mean "com.example.shop"`) {
		t.Fatalf("got %#v", err)
	}
}

func TestOpenLink(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{})
	r.openLink("shop://cart") // cold: the app starts on the link's screen
	if !r.has("cart_title") {
		t.Fatal("the link opens the cart")
	}
	r.must(r.dev.Back(r.ctx))
	if len(r.tree().Children) != 0 {
		t.Fatal("a cold link's screen is the only one on the stack")
	}
	r.launch(shop)
	r.openLink("shop://item/trail-running-shoes")
	r.must(r.dev.Back(r.ctx))
	if !r.has("home_title") {
		t.Fatal("a warm link pushes onto the back stack")
	}
	err := r.dev.OpenLink(r.ctx, "shop://carts", false)
	ce, ok := canonical.AsError(err)
	if !ok || ce.Code != canonical.CodeCommandFailed || !strings.Contains(ce.Hint, `did you mean "shop://cart"`) {
		t.Fatalf("unknown link: %#v", err)
	}
	if err := r.dev.OpenLink(r.ctx, "shop://cart", true); codeOf(err) != canonical.CodeUnsupportedOperation {
		t.Fatalf("browser: %v", err)
	}
}

func TestUserAppReplacesDemo(t *testing.T) {
	t.Parallel()
	model := strings.Replace(mini(""), "com.example.mini", shop, 1)
	r := custom(t, model)
	if !r.has("title") || r.has("home_title") {
		t.Fatal("an app with the demo's appId replaces it")
	}
	vp, err := r.dev.Viewport(r.ctx)
	r.must(err)
	if vp != (canonical.Viewport{Width: 390, Height: 844}) {
		t.Fatalf("viewport %+v", vp)
	}
	info, err := r.dev.Info(r.ctx)
	r.must(err)
	if info.Platform != "ios" {
		t.Fatalf("the model's platform: %+v", info)
	}
}

func TestClosedDevice(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.must(r.dev.Close(r.ctx))
	if _, err := r.dev.Hierarchy(r.ctx); codeOf(err) != canonical.CodeDeviceUnavailable {
		t.Fatalf("after Close: %v", err)
	}
}
