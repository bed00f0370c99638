package sim_test

import (
	"testing"
	"time"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

// act records an action the way the runtime does, before the device call,
// so the log reads as a real run's: each action, then what the app saw.
func (r *rig) act(typ string, fields map[string]any, call func() error) {
	r.t.Helper()
	r.jlog.Record(typ, fields)
	r.must(call())
}

func (r *rig) tapEvent(id string) {
	r.t.Helper()
	p := r.centre(id)
	r.act("tap", map[string]any{"point": p}, func() error { return r.dev.Tap(r.ctx, p) })
}

func (r *rig) gestureEvent(p planner.Plan) {
	r.t.Helper()
	r.act("gesture", map[string]any{"intent": p.Intent, "durationMs": p.DurationMs}, func() error { return r.dev.PerformGesture(r.ctx, p) })
}

// TestEventLogObservations pins contracts §8 on sim: the runtime's action
// lines with the app's observations right after the action that caused
// them. (Gesture lines carry the whole plan in a real run; here only its
// intent and duration, to keep the snapshot readable.)
func TestEventLogObservations(t *testing.T) {
	t.Parallel()
	r := newRig(t, sim.Options{})
	r.act("launchApp", map[string]any{"appId": shop, "clearState": true}, func() error {
		return r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop, ClearState: true, StopApp: true})
	})
	hero := r.centre("hero_banner")
	r.act("longPress", map[string]any{"point": hero, "durationMs": 3000}, func() error {
		return r.dev.LongPress(r.ctx, hero, 3*time.Second)
	})
	r.tapEvent("login_button")
	r.tapEvent("email")
	r.act("inputText", map[string]any{"text": "a@b.c"}, func() error { return r.dev.InputText(r.ctx, "a@b.c") })
	r.act("eraseText", map[string]any{"count": 2}, func() error { return r.dev.EraseText(r.ctx, 2) })
	r.act("pressKey", map[string]any{"key": "enter"}, func() error {
		return r.dev.PressKey(r.ctx, exec.Key{Name: "Enter", AndroidCode: 66})
	})
	r.tapEvent("remember_me")
	r.tapEvent("submit")
	r.gestureEvent(fling(t, 540, 1800, 540, 1500))
	r.gestureEvent(fling(t, 900, 1500, 100, 1500)) // horizontal on a vertical list: nothing
	r.act("back", nil, func() error { return r.dev.Back(r.ctx) })
	r.act("openLink", map[string]any{"link": "shop://item/trail-running-shoes"}, func() error {
		return r.dev.OpenLink(r.ctx, "shop://item/trail-running-shoes", false)
	})
	photo := r.centre("product_photo")
	r.gestureEvent(plan(t, canonical.Gesture{Intent: canonical.IntentPinch, Scale: f(2), Origin: &photo}, planner.Android))
	r.gestureEvent(plan(t, canonical.Gesture{Intent: canonical.IntentRotate, Degrees: f(-30), Origin: &photo}, planner.Android))
	r.gestureEvent(fling(t, 900, 1640, 500, 1640))
	r.tapEvent("add_to_cart")
	r.act("stopApp", map[string]any{"appId": shop, "kill": false}, func() error { return r.dev.StopApp(r.ctx, shop, false) })
	r.act("launchApp", map[string]any{"appId": shop, "clearState": false}, func() error {
		return r.dev.LaunchApp(r.ctx, exec.LaunchOptions{AppID: shop, StopApp: true})
	})
	r.act("back", nil, func() error { return r.dev.Back(r.ctx) })
	r.must(r.jlog.Err())
	snaps.MatchSnapshot(t, r.log.String())
}
