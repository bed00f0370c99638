package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
)

func TestTapRunsOnTap(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.tap("login_button")
	if !r.screenHas("login_title", "email") || r.has("login_button") {
		t.Fatal("tapping Log in must open the login screen")
	}
	r.tap("remember_me")
	if !r.node("remember_me").Checked {
		t.Fatal("remember_me toggles on tap")
	}
	r.tap("remember_me")
	if r.node("remember_me").Checked {
		t.Fatal("a second tap unticks it")
	}
}

func TestTapDisabledElementDoesNothing(t *testing.T) {
	t.Parallel()
	model := `appId: com.example.gate
platform: android
viewport: {width: 400, height: 800}
start: a
screens:
  - name: a
    elements:
      - {id: locked, text: Locked, bounds: [0, 0, 400, 100], enabled: false, onTap: {goto: b}, onLongPress: {goto: b}}
      - {id: box, text: Box, bounds: [0, 100, 400, 200], checked: false, enabled: false}
  - name: b
    elements:
      - {id: inside, text: Inside, bounds: [0, 0, 400, 100]}
`
	app, err := sim.LoadApp("gate.yaml", []byte(model))
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, sim.Options{Apps: []*sim.App{app}})
	r.launch("com.example.gate")
	r.tap("locked")
	r.tap("box")
	r.must(r.dev.LongPress(r.ctx, r.centre("locked"), time.Second))
	if !r.has("locked") || r.node("box").Checked {
		t.Fatal("disabled elements must not react")
	}
	got := strings.Join(r.lines()[1:], "\n")
	for _, want := range []string{
		`{"t":150,"type":"observed","element":"locked","enabled":false,"event":"tap"}`,
		`{"t":200,"type":"observed","element":"box","enabled":false,"event":"tap"}`,
		`{"t":1200,"type":"observed","element":"locked","enabled":false,"event":"longPress"}`,
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("log lacks %s:\n%s", want, got)
		}
	}
}

// TestTapGoesToDeepestHandler: a label on top of a button passes the tap
// down to it, and a plain child inside a button lets its parent take it.
func TestTapGoesToDeepestHandler(t *testing.T) {
	t.Parallel()
	model := `appId: com.example.stack
platform: android
viewport: {width: 400, height: 800}
start: a
screens:
  - name: a
    elements:
      - {id: button, bounds: [0, 0, 400, 200], onTap: {show: done},
         elements: [{id: caption, text: Press, bounds: [0, 0, 200, 100]}]}
      - {id: overlay, text: Overlay, bounds: [0, 150, 400, 250]}
      - {id: top, text: Top, bounds: [300, 0, 400, 100], onTap: {hide: done}}
      - {id: field, hint: Type, bounds: [0, 300, 400, 400], editable: true}
      - {id: plain, text: Plain, bounds: [0, 500, 400, 600]}
      - {id: done, text: Done, bounds: [0, 700, 400, 800], visible: false}
`
	app, err := sim.LoadApp("stack.yaml", []byte(model))
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, sim.Options{Apps: []*sim.App{app}})
	r.launch("com.example.stack")
	r.tapAt(50, 50)  // on caption, inside button
	r.tapAt(50, 175) // on overlay, above button
	r.tapAt(50, 225) // on overlay only: it takes the tap itself
	r.tapAt(50, 550) // plain text: observed, nothing happens
	r.tapAt(50, 650) // nothing there: no observation
	r.tapAt(50, 750) // done, which the first tap showed
	r.tapAt(350, 50) // top and button both handle taps: the one drawn on top wins
	got := r.lines()[1:]
	want := []string{
		`{"t":150,"type":"observed","element":"button","event":"tap"}`,
		`{"t":150,"type":"observed","element":"done","event":"show"}`,
		`{"t":200,"type":"observed","element":"button","event":"tap"}`,
		`{"t":200,"type":"observed","element":"done","event":"show"}`,
		`{"t":250,"type":"observed","element":"overlay","event":"tap"}`,
		`{"t":300,"type":"observed","element":"plain","event":"tap"}`,
		`{"t":400,"type":"observed","element":"done","event":"tap"}`,
		`{"t":450,"type":"observed","element":"top","event":"tap"}`,
		`{"t":450,"type":"observed","element":"done","event":"hide"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("observations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTapInvisibleElementIsNotHit(t *testing.T) {
	t.Parallel()
	r := demo(t)
	// share_hint's place while it is hidden: empty screen, so the log
	// holds only the launch's navigate.
	r.tapAt(540, 1000)
	if len(r.lines()) != 1 {
		t.Fatalf("a tap on nothing is not observed:\n%s", r.log)
	}
	r.must(r.dev.LongPress(r.ctx, r.centre("hero_banner"), 3*time.Second))
	if !r.has("share_hint") {
		t.Fatal("the long press shows share_hint")
	}
	r.tapAt(540, 1000)
	if last := r.lines()[len(r.lines())-1]; !strings.Contains(last, `"element":"share_hint","event":"tap"`) {
		t.Fatalf("now the tap hits share_hint: %s", last)
	}
}

func TestLongPress(t *testing.T) {
	t.Parallel()
	r := demo(t)
	before := r.clock.Now()
	r.must(r.dev.LongPress(r.ctx, r.centre("hero_banner"), 3*time.Second))
	if got := r.clock.Now().Sub(before); got != 3*time.Second {
		t.Fatalf("a long press takes its hold, took %v", got)
	}
	if !r.screenHas("hero_banner", "share_hint") {
		t.Fatal("the long press shows share_hint and stays on home")
	}
	// Without onLongPress the deepest element sees it and nothing happens.
	r.must(r.dev.LongPress(r.ctx, r.centre("login_button"), time.Second))
	if !r.has("login_button") {
		t.Fatal("login_button has no long-press action")
	}
	// A press shorter than the long-press timeout is a tap.
	r.must(r.dev.LongPress(r.ctx, r.centre("login_button"), 200*time.Millisecond))
	if !r.has("login_title") {
		t.Fatal("a 200 ms press taps")
	}
}

func TestTapOffScreenIsRefused(t *testing.T) {
	t.Parallel()
	r := demo(t)
	for _, p := range []canonical.Point{{X: -1, Y: 10}, {X: 1080.5, Y: 10}, {X: 10, Y: 2401}, {X: 10, Y: -0.5}} {
		if err := r.dev.Tap(r.ctx, p); codeOf(err) != canonical.CodeInvalidArgs {
			t.Fatalf("tap at %v: %v", p, err)
		}
	}
}

// TestTapOnTheScreenEdgeLands: the far edges are on the screen, as Maestro
// taps (width, height) for point "100%,100%" (IntegrationTest "Case 071 -
// Tap on relative point").
func TestTapOnTheScreenEdgeLands(t *testing.T) {
	t.Parallel()
	r := demo(t)
	for _, p := range []canonical.Point{{X: 0, Y: 0}, {X: 1080, Y: 2400}, {X: 1080, Y: 0}, {X: 0, Y: 2400}} {
		if err := r.dev.Tap(r.ctx, p); err != nil {
			t.Fatalf("tap at %v: %v", p, err)
		}
		if err := r.dev.LongPress(r.ctx, p, time.Second); err != nil {
			t.Fatalf("long press at %v: %v", p, err)
		}
	}
}

// TestTapScrolledContent taps a row the list brought on screen: hit
// testing follows the scroll offset.
func TestTapScrolledContent(t *testing.T) {
	t.Parallel()
	r := demo(t)
	r.openLink("shop://catalog")
	for !r.has("product_36") {
		r.gesture(pan(t, 540, 2000, 0, -1500, 3000))
	}
	r.tap("product_36")
	if !r.has("item_title") {
		t.Fatal("Trail Running Shoes opens the item screen")
	}
	var _ exec.Device = r.dev
}
