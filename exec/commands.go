package exec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// exec runs one command.
func (r *run) exec(ctx context.Context, c canonical.Command, depth int) error {
	switch t := c.(type) {
	case *canonical.LaunchApp:
		return r.launchApp(ctx, t)
	case *canonical.StopApp:
		id, err := r.appOr(ctx, t.AppID)
		if err != nil {
			return err
		}
		r.interaction()
		r.event("stopApp", map[string]any{"appId": id, "kill": t.Kill})
		return deviceErr(r.dev.StopApp(ctx, id, t.Kill), "stop the app")
	case *canonical.ClearState:
		id, err := r.appOr(ctx, t.AppID)
		if err != nil {
			return err
		}
		r.interaction()
		r.event("clearState", map[string]any{"appId": id})
		return deviceErr(r.dev.ClearState(ctx, id), "clear the app's state")
	case *canonical.OpenLink:
		link, err := r.str(ctx, t.Link)
		if err != nil {
			return err
		}
		r.interaction()
		r.event("openLink", map[string]any{"link": link})
		if err := r.dev.OpenLink(ctx, link, t.Browser); err != nil {
			return deviceErr(err, "open "+link)
		}
		_, err = r.settle(ctx)
		return err
	case *canonical.Tap:
		return r.tap(ctx, t)
	case *canonical.Assert:
		return r.assert(ctx, t)
	case *canonical.AssertTrue:
		v, err := r.str(ctx, t.Condition)
		if err != nil {
			return err
		}
		if !r.js.Truthy(v) {
			return errorf(canonical.CodeAssertionFailed, "Assertion is false: %s is true", v).
				WithHint("the condition evaluated to " + quoted(v) + "; blank, false, 0, null and undefined are false")
		}
		return nil
	case *canonical.InputText:
		text, err := r.str(ctx, t.Text)
		if err != nil {
			return err
		}
		return r.input(ctx, text)
	case *canonical.InputRandom:
		return r.input(ctx, r.random(t))
	case *canonical.EraseText:
		r.interaction()
		r.event("eraseText", map[string]any{"count": t.Count})
		if err := r.dev.EraseText(ctx, t.Count); err != nil {
			return deviceErr(err, "erase text")
		}
		_, err := r.settle(ctx)
		return err
	case *canonical.CopyText:
		f, _, err := r.findOrFail(ctx, &t.Selector, t.Optional)
		if err != nil {
			return err
		}
		for _, v := range []string{f.node.Text, f.node.Hint, f.node.Label} {
			if v != "" {
				r.copied = v
				r.interaction()
				return r.js.SetCopiedText(v)
			}
		}
		return errorf(canonical.CodeCommandFailed, "the element has no text to copy").
			WithHint("copyTextFrom copies an element's text, hint or accessibility label; this one has none")
	case *canonical.PressKey:
		r.interaction()
		if r.info.Platform == "ios" && !IOSKey(t.Key) {
			// Maestro's iOS driver presses these four keys only and
			// ignores every other one; so does flow on every iOS device
			// (sim:ios and the runner alike), saying so.
			r.log(fmt.Sprintf("warning: %s: iOS has no %q key; pressKey does nothing here, as in Maestro (hint: iOS presses Enter, Backspace, Home and Lock; guard Android keys with when: {platform: Android})", t.Pos, t.Key))
			return nil
		}
		r.event("pressKey", map[string]any{"key": strings.ToLower(t.Key)})
		if err := r.dev.PressKey(ctx, Key{Name: t.Key, AndroidCode: t.AndroidCode}); err != nil {
			return deviceErr(err, "press "+t.Key)
		}
		_, err := r.settle(ctx)
		return err
	case *canonical.Simple:
		return r.simple(ctx, t)
	case *canonical.Swipe:
		return r.swipe(ctx, t)
	case *canonical.GestureStep:
		return r.gestureStep(ctx, t)
	case *canonical.SwipeSeries:
		return r.swipeSeries(ctx, t)
	case *canonical.Drag:
		return r.drag(ctx, t)
	case *canonical.ScrollUntilVisible:
		return r.scrollUntilVisible(ctx, t)
	case *canonical.WaitForAnimation:
		return r.waitForAnimation(ctx, millis(float64(t.TimeoutMs)))
	case *canonical.TakeScreenshot:
		return r.screenshot(ctx, t)
	case *canonical.StartRecording:
		return r.startRecording(ctx, t)
	case *canonical.SetLocation:
		return r.setLocation(ctx, t)
	case *canonical.Travel:
		return r.travel(ctx, t)
	case *canonical.AddMedia:
		if m, ok := r.dev.(MediaAdder); ok {
			r.interaction()
			r.event("addMedia", map[string]any{"files": t.Files})
			return deviceErr(m.AddMedia(ctx, t.Files), "add media")
		}
		return unsupported("addMedia", r.info.Platform)
	case *canonical.SetAirplaneMode:
		if r.info.Platform == "ios" {
			r.warnIOSAirplane(t.Pos)
			return nil
		}
		if a, ok := r.dev.(AirplaneMode); ok {
			r.interaction()
			r.event("airplaneMode", map[string]any{"on": t.Enabled})
			return deviceErr(a.SetAirplaneMode(ctx, t.Enabled), "set airplane mode")
		}
		return nil // Maestro only warns on iOS and web
	case *canonical.SetPermissions:
		return r.setPermissions(ctx, t)
	case *canonical.SetOrientation:
		return r.setOrientation(ctx, t)
	case *canonical.AssertScreenshot:
		return r.assertScreenshot(ctx, t)
	case *canonical.SetClipboard:
		// Maestro's own clipboard, the one pasteText and copyTextFrom
		// use: the device's is not touched (docs.maestro.dev,
		// reference/commands-available/setclipboard and pastetext).
		v, err := r.str(ctx, t.Text)
		if err != nil {
			return err
		}
		r.copied = v
		return r.js.SetCopiedText(v)
	case *canonical.RunFlow:
		return r.runFlow(ctx, t, depth)
	case *canonical.Repeat:
		return r.repeat(ctx, t, depth)
	case *canonical.Retry:
		return r.retry(ctx, t, depth)
	case *canonical.RunScript:
		return r.runScript(ctx, t)
	case *canonical.EvalScript:
		_, err := r.str(ctx, t.Script)
		r.interaction()
		return err
	case *canonical.AI:
		return errorf(canonical.CodeUnsupportedOperation, "%s needs an AI model, which flow does not run", t.Action).
			WithHint("AI commands are optional by default and are reported as warnings; remove them or mark them optional: true")
	}
	return errorf(canonical.CodeUnsupportedOperation, "the runtime cannot run %s commands", c.Kind())
}

func unsupported(what, platform string) error {
	return errorf(canonical.CodeUnsupportedOperation, "%s is not supported on %s", what, platform).
		WithHint("make the command optional: true, or run the flow on a device that supports it")
}

func (r *run) appOr(ctx context.Context, t canonical.Template) (string, error) {
	return r.str(ctx, t)
}

func (r *run) launchApp(ctx context.Context, t *canonical.LaunchApp) error {
	id, err := r.str(ctx, t.AppID)
	if err != nil {
		return err
	}
	args := map[string]any{}
	for _, a := range t.Arguments {
		k, err := r.str(ctx, a.Key)
		if err != nil {
			return err
		}
		if tv, ok := a.Value.(canonical.Template); ok {
			v, err := r.str(ctx, tv)
			if err != nil {
				return err
			}
			args[k] = v
		} else {
			args[k] = a.Value
		}
	}
	if t.ClearKeychain {
		if k, ok := r.dev.(KeychainClearer); ok {
			r.event("clearKeychain", nil)
			if err := k.ClearKeychain(ctx); err != nil {
				return deviceErr(err, "clear the keychain")
			}
		}
	}
	r.interaction()
	r.event("launchApp", map[string]any{"appId": id, "clearState": t.ClearState})
	if err := r.dev.LaunchApp(ctx, LaunchOptions{AppID: id, ClearState: t.ClearState, ClearKeychain: t.ClearKeychain,
		StopApp: t.StopApp, Permissions: t.Permissions, Arguments: args}); err != nil {
		if ce, ok := canonical.AsError(err); ok {
			return ce
		}
		return errorf(canonical.CodeCommandFailed, "Unable to launch app %s: %v", id, err).Wrap(err).
			WithHint("check that the app is installed on the device")
	}
	_, err = r.settle(ctx)
	return err
}

func (r *run) tap(ctx context.Context, t *canonical.Tap) error {
	if t.Point != nil {
		text, err := r.str(ctx, *t.Point)
		if err != nil {
			return err
		}
		vp, err := r.dev.Viewport(ctx)
		if err != nil {
			return deviceErr(err, "read the viewport")
		}
		p, err := resolvePoint(text, vp, t.Point.Pos)
		if err != nil {
			return err
		}
		before, err := r.settleFor(ctx, t.WaitToSettleTimeoutMs)
		if err != nil {
			return err
		}
		return r.tapAt(ctx, p, t, before)
	}
	f, _, err := r.findOrFail(ctx, t.Selector, t.Optional)
	if err != nil {
		return err
	}
	return r.tapElement(ctx, f, t)
}

// assert waits for visible and/or not visible, with Maestro's timeouts:
// the lookup timeout (optional does not shorten it) or the given one, both
// minus the time since the last interaction.
func (r *run) assert(ctx context.Context, a *canonical.Assert) error {
	timeout := r.cfg.LookupTimeout
	if a.TimeoutMs != nil {
		v, err := r.str(ctx, *a.TimeoutMs)
		if err != nil {
			return err
		}
		ms, perr := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 64)
		if perr != nil {
			return errorf(canonical.CodeInvalidArgs, "timeout %q is not a number of milliseconds", v).At(a.TimeoutMs.Pos).
				WithHint("timeout: 10000")
		}
		timeout = millis(ms)
	}
	timeout = r.adjusted(timeout)
	if a.Visible != nil {
		q, err := r.compile(ctx, a.Visible)
		if err != nil {
			return err
		}
		f, scr, err := r.find(ctx, q, timeout)
		if err != nil {
			return err
		}
		if f == nil {
			e := notFound(q, scr, a.Visible.Pos)
			e.Code = canonical.CodeAssertionFailed
			e.Message = "Assertion is false: " + q.describe() + " is visible"
			return e
		}
	}
	if a.NotVisible != nil {
		q, err := r.compile(ctx, a.NotVisible)
		if err != nil {
			return err
		}
		ok, err := r.gone(ctx, q, timeout)
		if err != nil {
			return err
		}
		if !ok {
			return errorf(canonical.CodeAssertionFailed, "Assertion is false: %s is not visible", q.describe()).
				With("selector", q.describe()).
				WithHint("the element stayed on screen for the whole timeout")
		}
	}
	return nil
}

// gone probes until the element is absent: each probe is a 500 ms lookup,
// so an absent element costs about 500 ms as in Maestro.
func (r *run) gone(ctx context.Context, q *query, timeout time.Duration) (bool, error) {
	deadline := r.clock.Now().Add(timeout)
	for {
		f, _, err := r.find(ctx, q, 500*time.Millisecond)
		if errors.Is(err, errNoDOM) {
			// Maestro's css matches nothing without a DOM: absent.
			r.warnNoDOM(err)
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if f == nil {
			return true, nil
		}
		if !r.clock.Now().Before(deadline) {
			return false, nil
		}
		// A probe that finds the element at once takes no time; pause so
		// the deadline comes (on a virtual clock nothing else moves time).
		if err := r.clock.Sleep(ctx, r.pause(deadline)); err != nil {
			return false, err
		}
	}
}

func (r *run) input(ctx context.Context, text string) error {
	r.interaction()
	r.event("inputText", map[string]any{"text": text})
	if err := r.dev.InputText(ctx, text); err != nil {
		return deviceErr(err, "type text")
	}
	_, err := r.settle(ctx)
	return err
}

// random generates inputRandom* text from the run's seeded source.
func (r *run) random(t *canonical.InputRandom) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	pick := func(set string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[r.rand.IntN(len(set))]
		}
		return string(b)
	}
	first := []string{"Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger",
		"Radia", "Tim", "Katherine", "Donald", "Hedy", "John", "Sophie", "Guido", "Anita", "Niklaus"}
	last := []string{"Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra"}
	switch t.Type {
	case "number":
		return pick("123456789", 1) + pick("0123456789", max(t.Length, 1)-1)
	case "email":
		domains := []string{"gmail.com", "yahoo.com", "hotmail.com", "aol.com", "msn.com", "outlook.com"}
		f, l := first[r.rand.IntN(len(first))], last[r.rand.IntN(len(last))]
		return strings.ToLower(f + "_" + l + "_" + pick(alnum, 4) + "@" + domains[r.rand.IntN(len(domains))])
	case "personName":
		return first[r.rand.IntN(len(first))] + " " + last[r.rand.IntN(len(last))]
	case "cityName", "countryName", "colorName":
		// Maestro 2 draws these from DataFaker's address and color
		// providers; flow draws from short lists of its own (any real
		// name serves a form field).
		list := map[string][]string{
			"cityName": {"Lisbon", "Nairobi", "Osaka", "Toronto", "Melbourne", "Recife", "Krakow", "Hanoi",
				"Marrakesh", "Reykjavik", "Santiago", "Tbilisi"},
			"countryName": {"Portugal", "Kenya", "Japan", "Canada", "Australia", "Brazil", "Poland", "Vietnam",
				"Morocco", "Iceland", "Chile", "Georgia"},
			"colorName": {"red", "teal", "olive", "navy blue", "mint green", "salmon", "lavender", "sky blue",
				"gold", "maroon", "turquoise", "light gray"},
		}[t.Type]
		return list[r.rand.IntN(len(list))]
	}
	return pick(alnum, max(t.Length, 1))
}

// IOSKey reports whether Maestro's iOS driver presses the key: Enter and
// Backspace on the keyboard, Home and Lock as buttons (maestro-reference
// §1.4); it ignores every other key.
func IOSKey(name string) bool {
	switch strings.ToLower(strings.ReplaceAll(name, " ", "")) {
	case "enter", "backspace", "home", "lock":
		return true
	}
	return false
}

// warnIOSAirplane: Maestro's iOS driver cannot switch airplane mode; it
// logs a warning and goes on, and so does flow on every iOS device.
func (r *run) warnIOSAirplane(pos canonical.Pos) {
	r.log(fmt.Sprintf("warning: %s: iOS devices cannot switch airplane mode from a test; the command does nothing here, as in Maestro (hint: guard it with when: {platform: Android})", pos))
}

func (r *run) simple(ctx context.Context, t *canonical.Simple) error {
	switch t.Action {
	case "back":
		r.interaction()
		r.event("back", nil)
		if err := r.dev.Back(ctx); err != nil {
			return deviceErr(err, "press back")
		}
	case "hideKeyboard":
		r.interaction()
		r.event("hideKeyboard", nil)
		if err := r.dev.HideKeyboard(ctx); err != nil {
			return deviceErr(err, "hide the keyboard")
		}
	case "pasteText":
		if r.copied == "" {
			r.interaction() // Maestro counts pasteText as mutating even with nothing to paste
			return nil
		}
		return r.input(ctx, r.copied)
	case "clearKeychain":
		if k, ok := r.dev.(KeychainClearer); ok {
			r.interaction()
			r.event("clearKeychain", nil)
			return deviceErr(k.ClearKeychain(ctx), "clear the keychain")
		}
		return nil
	case "stopRecording":
		return r.stopRecording(ctx)
	case "toggleAirplaneMode":
		if r.info.Platform == "ios" {
			r.warnIOSAirplane(t.Pos)
			return nil
		}
		if a, ok := r.dev.(AirplaneMode); ok {
			on, err := a.AirplaneMode(ctx)
			if err != nil {
				return deviceErr(err, "read airplane mode")
			}
			r.interaction()
			r.event("airplaneMode", map[string]any{"on": !on})
			return deviceErr(a.SetAirplaneMode(ctx, !on), "toggle airplane mode")
		}
		return nil
	default:
		return errorf(canonical.CodeUnsupportedOperation, "the runtime cannot run %s", t.Action)
	}
	_, err := r.settle(ctx)
	return err
}

// waitForAnimation compares screenshots in pairs until two match or the
// timeout passes; it never fails (Maestro's behaviour).
func (r *run) waitForAnimation(ctx context.Context, timeout time.Duration) error {
	deadline := r.clock.Now().Add(timeout)
	for {
		a, err := r.dev.Screenshot(ctx)
		if err != nil {
			return deviceErr(err, "take a screenshot")
		}
		if err := r.clock.Sleep(ctx, r.cfg.PollInterval); err != nil {
			return err
		}
		b, err := r.dev.Screenshot(ctx)
		if err != nil {
			return deviceErr(err, "take a screenshot")
		}
		if bytes.Equal(a, b) || !r.clock.Now().Before(deadline) {
			r.interaction()
			return nil
		}
	}
}

func (r *run) screenshot(ctx context.Context, t *canonical.TakeScreenshot) error {
	p, err := r.str(ctx, t.Path)
	if err != nil {
		return err
	}
	var png []byte
	if t.CropOn != nil {
		png, err = r.croppedScreenshot(ctx, t.CropOn, t.Optional)
		if err != nil {
			return err
		}
	} else if png, err = r.dev.Screenshot(ctx); err != nil {
		return deviceErr(err, "take a screenshot")
	}
	name := p + ".png"
	r.event("screenshot", map[string]any{"path": name})
	if r.cfg.Files == nil {
		return nil
	}
	if err := r.cfg.Files.WriteFile(name, png); err != nil {
		return errorf(canonical.CodeCommandFailed, "cannot write screenshot %s: %v", name, err).Wrap(err).
			WithHint("the path is relative to the folder flow runs in; check that it is writable")
	}
	return nil
}

func (r *run) setLocation(ctx context.Context, t *canonical.SetLocation) error {
	lat, err := r.number(ctx, t.Latitude, "latitude")
	if err != nil {
		return err
	}
	lng, err := r.number(ctx, t.Longitude, "longitude")
	if err != nil {
		return err
	}
	l, ok := r.dev.(Locator)
	if !ok {
		return unsupported("setLocation", r.info.Platform)
	}
	r.interaction()
	return r.locate(ctx, l, lat, lng)
}

// locate moves the device to a location, recording it in the event log as
// every device action is.
func (r *run) locate(ctx context.Context, l Locator, latitude, longitude float64) error {
	r.event("setLocation", map[string]any{"latitude": latitude, "longitude": longitude})
	return deviceErr(l.SetLocation(ctx, latitude, longitude), "set the location")
}

func (r *run) number(ctx context.Context, t canonical.Template, what string) (float64, error) {
	v, err := r.str(ctx, t)
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if perr != nil {
		return 0, errorf(canonical.CodeInvalidArgs, "%s %q is not a number", what, v).At(t.Pos).WithHint(what + ": 52.52")
	}
	return f, nil
}

// travel sets the location along the points at the given speed, 50 steps
// a segment (Maestro's geometry, without its double radians conversion).
func (r *run) travel(ctx context.Context, t *canonical.Travel) error {
	l, ok := r.dev.(Locator)
	if !ok {
		return unsupported("travel", r.info.Platform)
	}
	r.interaction()
	if err := r.locate(ctx, l, t.Points[0].X, t.Points[0].Y); err != nil {
		return err
	}
	for i := 1; i < len(t.Points); i++ {
		a, b := t.Points[i-1], t.Points[i]
		meters := haversine(a, b)
		step := time.Duration(meters / t.SpeedMPS * 1000 / 50 * float64(time.Millisecond))
		for s := 1; s <= 50; s++ {
			f := float64(s) / 50
			if err := r.locate(ctx, l, a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f); err != nil {
				return err
			}
			if err := r.clock.Sleep(ctx, step); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *run) runScript(ctx context.Context, t *canonical.RunScript) error {
	if t.When != nil {
		ok, err := r.condition(ctx, t.When)
		if err != nil {
			return err
		}
		if !ok {
			return skipped{"the when: condition is false"}
		}
	}
	env, err := r.vars(ctx, t.Env)
	if err != nil {
		return err
	}
	r.interaction()
	return r.js.RunScript(ctx, t.File, t.Source, env, t.Pos)
}

func (r *run) vars(ctx context.Context, env []canonical.EnvVar) ([]Var, error) {
	out := make([]Var, len(env))
	for i, e := range env {
		v, err := r.str(ctx, e.Value)
		if err != nil {
			return nil, err
		}
		out[i] = Var{Name: e.Name, Value: v}
	}
	return out, nil
}

// condition evaluates a when:/while: condition; every present part must
// hold (platform, visible within 7 s, not visible within 7 s, true).
func (r *run) condition(ctx context.Context, c *canonical.Condition) (bool, error) {
	if c.Platform != "" && !strings.EqualFold(c.Platform, r.info.Platform) {
		return false, nil
	}
	if c.Visible != nil {
		q, err := r.compile(ctx, c.Visible)
		if err != nil {
			return false, err
		}
		f, _, err := r.find(ctx, q, r.adjusted(r.cfg.OptionalLookupTimeout))
		if errors.Is(err, errNoDOM) {
			// Maestro's css matches nothing without a DOM: not visible.
			r.warnNoDOM(err)
			return false, nil
		}
		if err != nil || f == nil {
			return false, err
		}
	}
	if c.NotVisible != nil {
		q, err := r.compile(ctx, c.NotVisible)
		if err != nil {
			return false, err
		}
		ok, err := r.gone(ctx, q, r.adjusted(r.cfg.OptionalLookupTimeout))
		if err != nil || !ok {
			return false, err
		}
	}
	if c.True != nil {
		v, err := r.str(ctx, *c.True)
		if err != nil {
			return false, err
		}
		if !r.js.Truthy(v) {
			return false, nil
		}
	}
	return true, nil
}

func (r *run) runFlow(ctx context.Context, t *canonical.RunFlow, depth int) error {
	if t.When != nil {
		ok, err := r.condition(ctx, t.When)
		if err != nil {
			return err
		}
		if !ok {
			return skipped{"the when: condition is false"}
		}
	}
	return r.subflow(ctx, t, t.Flow, t.Commands, t.Env, depth)
}

// millis is a number of milliseconds as a duration, saturating instead of
// wrapping: a timeout of 1e300 ms waits as long as a duration can, not a
// negative time.
func millis(ms float64) time.Duration {
	switch {
	case ms != ms: // NaN
		return 0
	case ms >= float64(math.MaxInt64/int64(time.Millisecond)):
		return time.Duration(math.MaxInt64)
	case ms <= float64(math.MinInt64/int64(time.Millisecond)):
		return time.Duration(math.MinInt64)
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// setPermissions is the current Maestro's setPermissions: what launchApp
// does to permissions, at any point of a flow. On the web it does nothing,
// as Maestro's WebDriver.setPermissions does nothing.
func (r *run) setPermissions(ctx context.Context, t *canonical.SetPermissions) error {
	id, err := r.appOr(ctx, t.AppID)
	if err != nil {
		return err
	}
	p, ok := r.dev.(PermissionSetter)
	if !ok {
		if r.info.Platform == "web" {
			return nil
		}
		return unsupported("setPermissions", r.info.Platform)
	}
	r.interaction()
	r.event("setPermissions", map[string]any{"appId": id, "permissions": t.Permissions})
	return deviceErr(p.SetPermissions(ctx, id, t.Permissions), "set the permissions of "+id)
}

// setOrientation is the current Maestro's setOrientation. A device that
// cannot turn is refused, the web device included: Maestro's docs say the
// command is not supported on the web (docs.maestro.dev,
// reference/commands-available/setorientation), though its
// WebDriver.setOrientation does nothing and so passes the step.
func (r *run) setOrientation(ctx context.Context, t *canonical.SetOrientation) error {
	v, err := r.str(ctx, t.Orientation)
	if err != nil {
		return err
	}
	if !validOrientation(v) {
		return errorf(canonical.CodeInvalidArgs, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or UPSIDE_DOWN, got %s", quoted(v)).
			WithHint("make " + t.Orientation.Raw + " one of those four, in capitals")
	}
	o, ok := r.dev.(Orienter)
	if !ok {
		return unsupported("setOrientation", r.info.Platform)
	}
	r.interaction()
	r.event("setOrientation", map[string]any{"orientation": v})
	var note string
	if n, ok := r.dev.(OrientationNoter); ok {
		note, err = n.SetOrientationNoted(ctx, v)
	} else {
		err = o.SetOrientation(ctx, v)
	}
	if err != nil {
		return deviceErr(err, "turn the device to "+v)
	}
	if note != "" {
		r.log(fmt.Sprintf("warning: %s: %s", t.Pos, note))
	}
	_, err = r.settle(ctx)
	return err
}

func validOrientation(s string) bool {
	switch s {
	case "PORTRAIT", "LANDSCAPE_LEFT", "LANDSCAPE_RIGHT", "UPSIDE_DOWN":
		return true
	}
	return false
}
