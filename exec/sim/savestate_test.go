package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

// save is the device's snapshot.
func (r *rig) save() []byte {
	r.t.Helper()
	data, err := r.dev.State()
	r.must(err)
	return data
}

// restore is a new process's device: a fresh clock at the CLI's start time
// and a fresh event log, rebuilt from data.
func restore(t *testing.T, data []byte, opts sim.Options) *rig {
	t.Helper()
	r := &rig{t: t, ctx: context.Background(), clock: exec.NewVirtualClock(start()), log: &bytes.Buffer{}}
	r.jlog = exec.NewJSONLog(r.log, r.clock)
	opts.Clock, opts.Events = r.clock, r.jlog
	dev, err := sim.Restore(data, opts)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	r.dev = dev
	return r
}

// treeJSON is the hierarchy as the runtime sees it, for whole-screen
// comparisons.
func (r *rig) treeJSON() string {
	r.t.Helper()
	b, err := json.Marshal(r.tree())
	r.must(err)
	return string(b)
}

// busyShop is the demo app after a bit of everything: login typed and
// ticked, the catalog filtered and scrolled, the item photo pinched and
// rotated, the related strip scrolled, and device settings changed.
func busyShop(t *testing.T) *rig {
	t.Helper()
	r := demo(t)
	r.tap("login_button")
	r.tap("email")
	r.must(r.dev.InputText(r.ctx, "a@b.c"))
	r.tap("remember_me")
	r.tap("submit")
	r.tap("filter_sale")
	r.gesture(swipe(t, 540, 2000, 0, -1200, 400, "android"))
	r.openLink("shop://item/trail-running-shoes")
	photo := r.centre("product_photo")
	r.gesture(plan(t, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(1.5), Origin: &photo}, "android"))
	r.gesture(plan(t, canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(30), Origin: &photo}, "android"))
	r.gesture(pan(t, 900, 1640, -500, 0, 600))
	r.tap("size_42")
	r.must(r.dev.SetAirplaneMode(r.ctx, true))
	r.must(r.dev.SetLocation(r.ctx, 52.52, 13.405))
	r.must(r.dev.AddMedia(r.ctx, []string{"photos/a.png"}))
	r.must(r.dev.ClearKeychain(r.ctx))
	return r
}

func TestStateRoundTripIsByteIdentical(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rig  func(t *testing.T) *rig
	}{
		{"fresh_device", func(t *testing.T) *rig { return newRig(t, sim.Options{}) }},
		{"busy_shop", busyShop},
		{"ios_override_on_home_screen", func(t *testing.T) *rig {
			r := newRig(t, sim.Options{Platform: "ios"})
			r.launch(shop)
			r.tap("browse_button")
			r.must(r.dev.PressKey(r.ctx, exec.Key{Name: "Home", AndroidCode: 3}))
			return r
		}},
		{"element_without_id_focused", func(t *testing.T) *rig {
			r := custom(t, mini(`      - {hint: Nickname, bounds: [20, 200, 370, 250], editable: true}
`))
			r.tapAt(100, 220)
			r.must(r.dev.InputText(r.ctx, "Sam <&>"))
			return r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.rig(t)
			first := r.save()
			again := r.save()
			if !bytes.Equal(first, again) {
				t.Fatal("two snapshots of one device differ")
			}
			back := restore(t, first, sim.Options{})
			if second := back.save(); !bytes.Equal(first, second) {
				t.Fatalf("state -> restore -> state changed the bytes:\n%s\n---\n%s", first, second)
			}
			if got, want := back.treeJSON(), r.treeJSON(); got != want {
				t.Fatalf("the restored screen differs:\n%s\n---\n%s", got, want)
			}
			assertSortedKeys(t, first)
		})
	}
}

// assertSortedKeys re-encodes data through maps, whose keys encoding/json
// sorts: equal bytes mean every object was already written in key order.
func assertSortedKeys(t *testing.T, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("keys are not sorted:\n%s\n---\n%s", data, buf.Bytes())
	}
}

// TestStateShape pins the snapshot format; the demo model's digest is
// masked so editing shop.yaml does not churn it.
func TestStateShape(t *testing.T) {
	t.Parallel()
	r := custom(t, mini(`      - {id: name, hint: Name, bounds: [20, 200, 370, 250], editable: true}
      - {id: later, text: Later, bounds: [20, 260, 370, 300], appearAfterMs: 1500}
`))
	r.tap("name")
	r.must(r.dev.InputText(r.ctx, "Sam"))
	r.tap("go")
	data := r.save()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(slices.Sorted(maps.Keys(top)), ","); got != "apps,clock,extras,format,front,shown,version" {
		t.Fatalf("top-level keys: %s", got)
	}
	masked := strings.ReplaceAll(string(data), shopDigest(t, data), "<sha256 of apps/shop.yaml>")
	snaps.MatchSnapshot(t, masked)
}

// shopDigest is the digest the snapshot records for the demo app.
func shopDigest(t *testing.T, data []byte) string {
	t.Helper()
	var s struct {
		Apps []struct {
			Model struct {
				Builtin string
				SHA256  string
			}
		}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	for _, a := range s.Apps {
		if a.Model.Builtin == "shop" {
			return a.Model.SHA256
		}
	}
	t.Fatal("the snapshot names the demo app")
	return ""
}

// TestRestoreContinuesLogin is the CLI pipeline: open, tap "Log in", type
// into email in one process, then go on in the next.
func TestRestoreContinuesLogin(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("login_button")
	r.tap("email")
	r.must(r.dev.InputText(r.ctx, "a@b.c"))
	before := r.treeJSON()
	data := r.save()
	r.must(r.dev.Close(r.ctx))
	if again, err := r.dev.State(); err != nil || !bytes.Equal(again, data) {
		t.Fatalf("State after Close: %v", err)
	}

	next := restore(t, data, sim.Options{})
	if got := next.treeJSON(); got != before {
		t.Fatalf("the next process sees another screen:\n%s\n---\n%s", got, before)
	}
	if !next.has("login_title") || next.text("email") != "a@b.c" || !next.node("email").Focused {
		t.Fatal("the login screen with the typed email and its focus")
	}
	// Focus and the keyboard survived: typing goes on in the same field.
	next.must(next.dev.InputText(next.ctx, "om"))
	if next.text("email") != "a@b.com" {
		t.Fatalf("email is %q", next.text("email"))
	}
	// The back stack survived too.
	next.must(next.dev.Back(next.ctx)) // keyboard
	next.must(next.dev.Back(next.ctx))
	if !next.has("home_title") {
		t.Fatal("back from login returns to home")
	}
}

func TestRestoreKeepsScrollOffset(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("browse_button")
	r.gesture(swipe(t, 540, 2000, 0, -1200, 400, "android"))
	y := r.lastY("product_list")
	if y == 0 {
		t.Fatal("the swipe scrolls the catalog")
	}
	before := r.treeJSON()
	next := restore(t, r.save(), sim.Options{})
	if got := next.treeJSON(); got != before {
		t.Fatalf("the scrolled catalog differs after restore:\n%s\n---\n%s", got, before)
	}
	// The next swipe starts from the saved offset.
	next.gesture(swipe(t, 540, 2000, 0, -1200, 400, "android"))
	if got := next.lastY("product_list"); got <= y {
		t.Fatalf("scrolling on goes past %g, got %g", y, got)
	}
}

func TestRestoreKeepsAppearAfterCounting(t *testing.T) {
	t.Parallel()
	r := custom(t, strings.Replace(mini(""), "      - {id: back,",
		"      - {id: late, text: Late, bounds: [0, 200, 390, 260], appearAfterMs: 1500}\n      - {id: back,", 1))
	r.tap("go")
	if !r.has("back") || r.has("late") {
		t.Fatal("next opens without the late element")
	}
	r.must(r.clock.Sleep(r.ctx, 1000*time.Millisecond))
	saved := r.clock.Now()
	data := r.save()

	next := restore(t, data, sim.Options{})
	if !next.clock.Now().Equal(saved) {
		t.Fatalf("the new clock is advanced to the saved time %v, got %v", saved, next.clock.Now())
	}
	if next.has("late") {
		t.Fatal("1000 ms after entering: still hidden after restore")
	}
	next.clock.Advance(499 * time.Millisecond)
	if next.has("late") {
		t.Fatal("1499 ms after entering: still hidden")
	}
	next.clock.Advance(time.Millisecond)
	if !next.has("late") {
		t.Fatal("1500 ms after entering: shown")
	}
}

func TestRestoreClock(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.must(r.clock.Sleep(r.ctx, time.Hour))
	data := r.save()
	saved := r.clock.Now()

	later := exec.NewVirtualClock(saved.Add(time.Minute))
	if _, err := sim.Restore(data, sim.Options{Clock: later}); err != nil {
		t.Fatal(err)
	}
	if !later.Now().Equal(saved.Add(time.Minute)) {
		t.Fatal("a clock already past the saved time keeps its time")
	}

	dev, err := sim.Restore(data, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := dev.State()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("without a clock the device starts at the saved time: %v", err)
	}
}

// TestRestoreKeepsAppModels: an app installed with --app in one call is
// still installed in the next, which passes no --app.
func TestRestoreKeepsAppModels(t *testing.T) {
	t.Parallel()
	r := custom(t, mini(""))
	r.tap("go")
	next := restore(t, r.save(), sim.Options{})
	if !next.has("back") {
		t.Fatal("the custom app is still in front on its next screen")
	}
	info, err := next.dev.Info(next.ctx)
	next.must(err)
	if info.Name != "flow sim (com.example.mini, com.example.shop)" || info.Platform != "ios" {
		t.Fatalf("info: %+v", info)
	}
	next.must(next.dev.OpenLink(next.ctx, "mini://next", false))
	next.launch("com.example.mini")
	if !next.has("go") {
		t.Fatal("the restored model launches at its start screen")
	}
	next.launch(shop)
	if !next.has("home_title") {
		t.Fatal("the demo app is there too")
	}
}

func TestRestoreWithGivenApps(t *testing.T) {
	t.Parallel()
	model := mini(`      - {id: typed, hint: Name, bounds: [20, 200, 370, 250], editable: true}
      - {id: saved, text: Remember me, bounds: [20, 300, 370, 350], checked: false, persist: true}
`)
	r := custom(t, model)
	r.tap("saved")
	r.tap("typed")
	r.must(r.dev.InputText(r.ctx, "Sam"))
	data := r.save()

	t.Run("same_model_keeps_everything", func(t *testing.T) {
		t.Parallel()
		app, err := sim.LoadApp("elsewhere/custom.yaml", []byte(model))
		if err != nil {
			t.Fatal(err)
		}
		next := restore(t, data, sim.Options{Apps: []*sim.App{app}})
		if next.text("typed") != "Sam" || !next.node("saved").Checked || !next.node("typed").Focused {
			t.Fatal("an identical model passed again keeps the running app")
		}
	})
	t.Run("changed_model_is_an_update", func(t *testing.T) {
		t.Parallel()
		app, err := sim.LoadApp("custom.yaml", []byte(strings.Replace(model, "Mini", "Mini 2", 1)))
		if err != nil {
			t.Fatal(err)
		}
		next := restore(t, data, sim.Options{Apps: []*sim.App{app}})
		if len(next.tree().Children) != 0 {
			t.Fatal("an updated app's process has ended: the home screen is in front")
		}
		next.launch("com.example.mini")
		if next.text("title") != "Mini 2" || next.text("typed") != "" {
			t.Fatal("the update starts from its new model")
		}
		if !next.node("saved").Checked {
			t.Fatal("persisted state survives the update")
		}
	})
	t.Run("new_app_is_installed_after_saved_ones", func(t *testing.T) {
		t.Parallel()
		other, err := sim.LoadApp("other.yaml", []byte(strings.Replace(mini(""), "com.example.mini", "com.example.other", 1)))
		if err != nil {
			t.Fatal(err)
		}
		next := restore(t, data, sim.Options{Apps: []*sim.App{other}})
		info, err := next.dev.Info(next.ctx)
		next.must(err)
		if info.Name != "flow sim (com.example.mini, com.example.shop, com.example.other)" {
			t.Fatalf("info: %+v", info)
		}
		if next.text("typed") != "Sam" {
			t.Fatal("the saved app is untouched")
		}
	})
}

func TestRestorePlatform(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{Platform: "ios"})
	data := r.save()
	for _, tc := range []struct{ override, want string }{{"", "sim:ios"}, {"android", "sim:android"}} {
		next := restore(t, data, sim.Options{Platform: tc.override})
		info, err := next.dev.Info(next.ctx)
		next.must(err)
		if info.ID != tc.want {
			t.Fatalf("override %q: %s, want %s", tc.override, info.ID, tc.want)
		}
	}
}

func TestStateRefusesHandBuiltApp(t *testing.T) {
	t.Parallel()
	app := &sim.App{AppID: "com.example.go", Platform: "android", Viewport: sim.Size{Width: 100, Height: 100},
		Start: "home", Screens: []*sim.Screen{{Name: "home"}}}
	_, err := sim.New(sim.Options{Apps: []*sim.App{app}}).State()
	if codeOf(err) != canonical.CodeUnsupportedOperation {
		t.Fatalf("want UNSUPPORTED_OPERATION, got %v", err)
	}
}

func TestRestoreRefusesDamagedState(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("login_button")
	good := string(r.save())
	edit := func(old, repl string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("the snapshot has no %q", old)
		}
		return strings.Replace(good, old, repl, 1)
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "cannot read it"},
		{"not_json", "flow sim state", "cannot read it"},
		{"truncated", good[:len(good)/2], "cannot read it"},
		{"trailing_data", good + "{}", "cannot read it"},
		{"other_json", `{"apps": []}`, `format is ""`},
		{"newer_version", edit(`"version": 1`, `"version": 2`), "has version 2 and this flow reads version 1"},
		{"version_as_text", edit(`"version": 1`, `"version": "1"`), "cannot read it"},
		{"unknown_field", edit(`"format"`, `"colour": "red", "format"`), `unknown field "colour"`},
		{"bad_clock", edit(`"clock": "`, `"clock": "x`), "is not an RFC 3339 time"},
		{"unknown_screen", edit(`"screen": "login"`, `"screen": "logon"`), `no screen "logon"`},
		{"front_not_running", regexp.MustCompile(`(?s),\n      "stack": \[.*?\n      \]`).ReplaceAllString(good, ""), "is not running"},
		{"front_not_installed", edit(`"front": "com.example.shop"`, `"front": "com.example.shopp"`), "is not installed"},
		{"unknown_builtin", edit(`"builtin": "shop"`, `"builtin": "bank"`), `built-in model "bank"`},
		{"platform", edit(`"format"`, `"platform": "web", "format"`), `platform "web"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := sim.Restore([]byte(tc.data), sim.Options{})
			e, ok := canonical.AsError(err)
			if !ok || e.Code != canonical.CodeInvalidArgs {
				t.Fatalf("want INVALID_ARGS, got %v", err)
			}
			if !strings.Contains(e.Message, tc.want) {
				t.Fatalf("message %q lacks %q", e.Message, tc.want)
			}
			if !strings.Contains(e.Hint, "delete the saved sim state") {
				t.Fatalf("the hint says how to reset: %q", e.Hint)
			}
		})
	}
}

func TestRestoreRefusesModelThatNoLongerLoads(t *testing.T) {
	t.Parallel()
	r := custom(t, mini(""))
	data := strings.Replace(string(r.save()), "appId: com.example.mini", "appId: com.example.mini\\nbogus: 1", 1)
	_, err := sim.Restore([]byte(data), sim.Options{})
	e, ok := canonical.AsError(err)
	if !ok || e.Code != canonical.CodeInvalidArgs || !strings.Contains(e.Message, "no longer loads") {
		t.Fatalf("want INVALID_ARGS about the model, got %v", err)
	}
}
