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

// TestStopKeepsStateClearResetsIt: element state is app data, the back
// stack is the process.
func TestStopKeepsStateClearResetsIt(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://login")
	r.tap("email")
	r.must(r.dev.InputText(r.ctx, "kept@example.com"))
	r.tap("remember_me")
	r.must(r.dev.StopApp(r.ctx, shop, false))
	if len(r.tree().Children) != 0 {
		t.Fatal("stopApp closes the app")
	}
	r.launch(shop)
	if !r.has("home_title") {
		t.Fatal("a stopped app starts at home")
	}
	r.openLink("shop://login")
	if r.text("email") != "kept@example.com" || !r.node("remember_me").Checked || r.node("email").Focused {
		t.Fatal("stopApp keeps element state and drops focus")
	}
	r.must(r.dev.ClearState(r.ctx, shop))
	r.launch(shop)
	r.openLink("shop://login")
	if r.text("email") != "" || r.node("remember_me").Checked {
		t.Fatal("clearState resets element state")
	}
	r.tap("remember_me")
	r.must(r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop, ClearState: true, StopApp: true}))
	r.openLink("shop://login")
	if r.node("remember_me").Checked {
		t.Fatal("launchApp clearState resets element state")
	}
	// Stopping or clearing an app that is not installed is no error.
	r.must(r.dev.StopApp(r.ctx, "com.example.absent", true))
	r.must(r.dev.ClearState(r.ctx, "com.example.absent"))
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
