// Package runner is a fake flow iOS runner for tests and demos: an HTTP
// server speaking flow-runner-v1 (ios-runner/PROTOCOL.md) whose commands
// are performed on an exec/sim device with the iOS profile, so flow's iOS
// device runs whole flows with no Mac. Gesture requests are validated
// with exec/ios's own rules, kept byte for byte (Gestures) and their plans
// replayed on sim unchanged. It is test tooling: product code never
// imports it.
package runner

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/ios"
	"github.com/flow-runner/flow/exec/sim"
	"github.com/flow-runner/flow/planner"
)

// Options configure the fake runner.
type Options struct {
	Apps   []*sim.App
	Clock  exec.Clock    // nil: the wall clock, so a gesture takes its real time
	Events exec.EventLog // what the apps observed
	// Simulator is what status reports; false makes the runner an iPhone.
	Simulator bool
	// DieAfter > 0: the runner stops answering (closes connections) from
	// command number DieAfter+1 on, as a runner that crashed mid-flow.
	DieAfter int
	// HangOn, when set, is asked about each command by name; from the
	// first it says yes to, the runner reads every request and never
	// answers, keeping the connection open, as a runner whose XCTest
	// wedged, a frozen simulator or a dead link to an iPhone does.
	HangOn func(command string) bool
	// Tamper, when set, may change each answer (the whole object: ok,
	// data or error) before it is sent, as a broken runner would.
	Tamper func(command string, answer map[string]any)
	// OnQuit, when set, is called after the quit command is answered (a
	// fake xcodebuild ends then, as the real test returns).
	OnQuit func()
	// KeyboardStays makes the keyboard ignore hideKeyboard's two short
	// swipes, as a screen that does not dismiss its keyboard on a drag:
	// the runner then answers COMMAND_FAILED (Commands.swift hideKeyboard).
	KeyboardStays bool
	// Alerts are the system prompts the apps raise: each shows the first
	// time its app is launched in the session, as a permission prompt does
	// on first use, and belongs to SpringBoard.
	Alerts []Alert
}

// Alert is a SpringBoard alert an app raises (a permission prompt). While
// it shows, the hierarchy carries it beside the app's tree (as Maestro's
// runner returns SpringBoard's alerts, review M4), a tap on one of its
// buttons answers it, and every other tap or press reaches nothing: a
// system alert is modal.
type Alert struct {
	AppID   string
	Title   string
	Message string
	Buttons []string // left to right, e.g. "Don’t Allow", "Allow"
}

// Runner is the fake.
type Runner struct {
	dev   *sim.Device
	o     Options
	start time.Time

	mu       sync.Mutex
	gestures [][]byte
	commands int
	hanging  bool
	hung     int
	// serial runs one command at a time: the real runner performs every
	// command on the main thread in arrival order (Server.swift,
	// Commands.swift "one command at a time").
	serial sync.Mutex
	// alert is the alert showing; raised are the apps whose alert was
	// shown; answers are the buttons tapped, in order.
	alert   *Alert
	raised  map[string]bool
	answers []string
	// turned is the interface orientation the last setOrientation shows
	// (viewport's name for it), empty before one.
	turned string
}

// New builds a runner over a fresh sim device.
func New(o Options) *Runner {
	clock := o.Clock
	if clock == nil {
		clock = exec.WallClock{}
	}
	return &Runner{dev: sim.New(sim.Options{Platform: "ios", Clock: clock, Events: o.Events, Apps: o.Apps}), o: o, start: time.Now()}
}

// Device is the sim device behind the runner.
func (r *Runner) Device() *sim.Device { return r.dev }

// Answers are the alert buttons tapped so far, in order.
func (r *Runner) Answers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.answers...)
}

// Gestures are the bodies of the gesture commands received, byte for byte.
func (r *Runner) Gestures() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.gestures...)
}

// Hung counts the requests the runner received and left unanswered
// (Options.HangOn).
func (r *Runner) Hung() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hung
}

// Serve answers on l until ctx ends.
func (r *Runner) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	err := srv.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// maxBody is the protocol's 4 MiB request cap.
const maxBody = 4 << 20

func (r *Runner) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/command" {
		http.Error(w, "flow-runner-v1 answers POST /command", http.StatusNotFound)
		return
	}
	r.mu.Lock()
	r.commands++
	dead := r.o.DieAfter > 0 && r.commands > r.o.DieAfter
	r.mu.Unlock()
	if dead {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		http.Error(w, "runner died", http.StatusInternalServerError)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return
	}
	var head struct {
		Command   string `json:"command"`
		CommandID int    `json:"commandId"`
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		r.writeAnswer(w, "", 0, nil, &failure{"INVALID_ARGS", "the body is not a JSON object", ""})
		return
	}
	json.Unmarshal(body, &head)
	if r.hangs(head.Command) {
		<-req.Context().Done() // the client gave up, or the server stops
		return
	}
	r.serial.Lock()
	data, ferr := r.do(req.Context(), head.Command, fields, body)
	r.serial.Unlock()
	r.writeAnswer(w, head.Command, head.CommandID, data, ferr)
}

// hangs decides whether the runner leaves this command unanswered: all of
// them once HangOn has said yes.
func (r *Runner) hangs(command string) bool {
	if r.o.HangOn == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.hanging && r.o.HangOn(command) {
		r.hanging = true
	}
	if r.hanging {
		r.hung++
	}
	return r.hanging
}

type failure struct{ code, message, hint string }

func (f *failure) Error() string { return f.code + ": " + f.message }

func fromErr(err error) *failure {
	if err == nil {
		return nil
	}
	var f *failure
	if errors.As(err, &f) {
		return f
	}
	ce := canonical.Coded(err)
	code := string(ce.Code)
	switch ce.Code {
	case canonical.CodeInvalidArgs, canonical.CodeCommandFailed, canonical.CodeUnsupportedOperation, canonical.CodeTimeout,
		canonical.CodeElementNotFound, canonical.CodeDeviceUnavailable, canonical.CodeInternal:
	default:
		code = string(canonical.CodeCommandFailed)
	}
	return &failure{code, ce.Message, ce.Hint}
}

func (r *Runner) writeAnswer(w http.ResponseWriter, command string, id int, data map[string]any, f *failure) {
	ans := map[string]any{"ok": f == nil, "commandId": id}
	if f != nil {
		e := map[string]any{"code": f.code, "message": f.message}
		if f.hint != "" {
			e["hint"] = f.hint
		}
		ans["error"] = e
	} else {
		if data == nil {
			data = map[string]any{}
		}
		ans["data"] = data
	}
	if r.o.Tamper != nil {
		r.o.Tamper(command, ans)
	}
	b, _ := json.Marshal(ans)
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func missing(command, field string) *failure {
	return &failure{"INVALID_ARGS", fmt.Sprintf("%s: missing required field %q", command, field), ""}
}

func num(fields map[string]json.RawMessage, command, name string) (float64, *failure) {
	raw, ok := fields[name]
	if !ok {
		return 0, missing(command, name)
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, &failure{"INVALID_ARGS", fmt.Sprintf("%s: field %q must be a number", command, name), ""}
	}
	return v, nil
}

// bounded reads an integer field within lo..hi as the runner's decoder
// does (FlowRunnerCore Protocol.swift Fields.int(_:in:unit:)): a hold or an
// erase blocks the runner's main thread, so a runaway value is INVALID_ARGS
// naming the bounds.
func bounded(fields map[string]json.RawMessage, command, name string, lo, hi int, unit string) (int, *failure) {
	v, ferr := num(fields, command, name)
	if ferr != nil {
		return 0, ferr
	}
	n := int(v)
	if n < lo || n > hi {
		return 0, &failure{"INVALID_ARGS", fmt.Sprintf("%s: field %q must be between %d and %d %s, not %d", command, name, lo, hi, unit, n),
			fmt.Sprintf("send a %s from %d to %d", name, lo, hi)}
	}
	return n, nil
}

// The runner's bounds (FlowRunnerCore Protocol.swift maxHoldMs,
// maxEraseCount).
const (
	maxHoldMs     = 10000
	maxEraseCount = 500
)

func str(fields map[string]json.RawMessage, command, name string) (string, *failure) {
	raw, ok := fields[name]
	if !ok {
		return "", missing(command, name)
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", &failure{"INVALID_ARGS", fmt.Sprintf("%s: field %q must be a string", command, name), ""}
	}
	return v, nil
}

// maestroKeys are the names flow's iOS device sends, as sim knows them.
var maestroKeys = map[string]string{"enter": "Enter", "backspace": "Backspace", "home": "Home", "lock": "Lock"}

func (r *Runner) do(ctx context.Context, command string, f map[string]json.RawMessage, body []byte) (map[string]any, *failure) {
	d := r.dev
	switch command {
	case "status":
		return map[string]any{"protocol": ios.RunnerProtocol, "version": "fake", "uptimeMs": time.Since(r.start).Milliseconds(), "simulator": r.o.Simulator}, nil
	case "hierarchy":
		root, err := d.Hierarchy(ctx)
		if err != nil {
			return nil, fromErr(err)
		}
		el, err := r.withAlert(ctx, element(root))
		if err != nil {
			return nil, fromErr(err)
		}
		return map[string]any{"root": el}, nil
	case "settle":
		var st exec.Settled
		var err error
		timeout, _ := num(f, command, "timeoutMs")
		if sr, ok := exec.Device(d).(exec.SettledReader); ok {
			st, err = sr.ReadSettled(ctx, time.Duration(timeout)*time.Millisecond)
		} else {
			st.Root, err = d.Hierarchy(ctx)
			st.Still = true
		}
		if err != nil {
			return nil, fromErr(err)
		}
		el, err := r.withAlert(ctx, element(st.Root))
		if err != nil {
			return nil, fromErr(err)
		}
		version := st.Version
		if version == "" || r.showing() != nil {
			b, _ := json.Marshal(el)
			sum := sha256.Sum256(b)
			version = hex.EncodeToString(sum[:8])
		}
		return map[string]any{"root": el, "still": st.Still, "version": version, "opaque": st.Opaque}, nil
	case "viewport":
		vp, err := d.Viewport(ctx)
		if err != nil {
			return nil, fromErr(err)
		}
		// sim does not rotate: an app model's shape is its orientation, which
		// is the runner's answer when the app's interfaceOrientation cannot
		// be read (Commands.swift interfaceOrientation: a wide window is
		// landscapeRight).
		orientation := "portrait"
		if vp.Width > vp.Height {
			orientation = "landscapeRight"
		}
		// After setOrientation the app shows the interface the device
		// turned to, as an app that follows the device does; sim keeps the
		// model's layout (its frames), so only the name turns.
		r.mu.Lock()
		if r.turned != "" {
			orientation = r.turned
		}
		r.mu.Unlock()
		out := map[string]any{"x": vp.X, "y": vp.Y, "w": vp.Width, "h": vp.Height, "orientation": orientation}
		up, err := d.KeyboardShown(ctx)
		if err != nil {
			return nil, fromErr(err)
		}
		if up {
			// Commands.swift viewport: the keyboard's frame while one exists;
			// sim's keyboard is the bottom 38% of the screen.
			out["keyboard"] = map[string]any{"x": vp.X, "y": vp.Y + vp.Height*0.62, "w": vp.Width, "h": vp.Height * 0.38}
		}
		return out, nil
	case "gesture":
		r.mu.Lock()
		r.gestures = append(r.gestures, append([]byte(nil), body...))
		r.mu.Unlock()
		raw, ok := f["gesturePlan"]
		if !ok {
			return nil, missing(command, "gesturePlan")
		}
		var plan planner.Plan
		if err := json.Unmarshal(raw, &plan); err != nil {
			return nil, &failure{"INVALID_ARGS", "gesture: field \"gesturePlan\" must be a gesture plan", ""}
		}
		if len(plan.Pointers) > 1 && !r.o.Simulator {
			return nil, &failure{"UNSUPPORTED_OPERATION", "two-contact gestures need a simulator", ""}
		}
		if _, err := ios.LowerRequest(plan, ""); err != nil {
			return nil, fromErr(err)
		}
		start := time.Since(r.start).Milliseconds()
		if r.showing() == nil { // a system alert is modal: the gesture reaches nothing
			if err := d.PerformGesture(ctx, plan); err != nil {
				return nil, fromErr(err)
			}
		}
		schedule := "authored"
		if len(plan.Pointers) == 1 && plan.ExecutionProfile == canonical.ProfileEndpointHold {
			schedule = "fastSwipe"
		}
		return map[string]any{"startUptimeMs": start, "endUptimeMs": time.Since(r.start).Milliseconds(), "schedule": schedule}, nil
	case "tap", "longPress":
		x, ferr := num(f, command, "x")
		if ferr != nil {
			return nil, ferr
		}
		y, ferr := num(f, command, "y")
		if ferr != nil {
			return nil, ferr
		}
		p := canonical.Point{X: x, Y: y}
		if handled, err := r.alertTap(ctx, p); handled {
			return nil, fromErr(err)
		}
		if command == "tap" {
			return nil, fromErr(d.Tap(ctx, p))
		}
		hold, ferr := bounded(f, command, "holdMs", 0, maxHoldMs, "ms")
		if ferr != nil {
			return nil, ferr
		}
		return nil, fromErr(d.LongPress(ctx, p, time.Duration(hold)*time.Millisecond))
	case "type":
		text, ferr := str(f, command, "text")
		if ferr != nil {
			return nil, ferr
		}
		if err := d.InputText(ctx, text); err != nil {
			if canonical.CodeOf(err) == canonical.CodeCommandFailed {
				// sim refuses text with no focused field; the runner's
				// wording is FlowRunnerCore Typing.swift noFocusError.
				return nil, &failure{"COMMAND_FAILED", "type: no element has keyboard focus", "tap the field first (tapOn), as on a phone"}
			}
			return nil, fromErr(err)
		}
		return nil, nil
	case "erase":
		n, ferr := bounded(f, command, "count", 0, maxEraseCount, "characters")
		if ferr != nil {
			return nil, ferr
		}
		return nil, fromErr(d.EraseText(ctx, n))
	case "key", "button":
		name, ferr := str(f, command, "name")
		if ferr != nil {
			return nil, ferr
		}
		k, ok := maestroKeys[name]
		if !ok {
			return nil, &failure{"UNSUPPORTED_OPERATION", fmt.Sprintf("%s: unknown %s %q", command, command, name), ""}
		}
		return nil, fromErr(d.PressKey(ctx, exec.Key{Name: k}))
	case "hideKeyboard":
		// Commands.swift hideKeyboard: no keyboard is wasShown false with
		// nothing done; one that two short swipes leave up is
		// COMMAND_FAILED.
		up, err := d.KeyboardShown(ctx)
		if err != nil {
			return nil, fromErr(err)
		}
		if !up {
			return map[string]any{"wasShown": false}, nil
		}
		if r.o.KeyboardStays {
			return nil, &failure{"COMMAND_FAILED", "the keyboard is still shown after two short swipes",
				"this screen does not dismiss its keyboard on a drag: tapOn its Done or Return key instead"}
		}
		if err := d.HideKeyboard(ctx); err != nil {
			return nil, fromErr(err)
		}
		return map[string]any{"wasShown": true}, nil
	case "screenshot":
		png, err := d.Screenshot(ctx)
		if err != nil {
			return nil, fromErr(err)
		}
		return map[string]any{"pngBase64": base64.StdEncoding.EncodeToString(png)}, nil
	case "launch":
		app, ferr := str(f, command, "appId")
		if ferr != nil {
			return nil, ferr
		}
		var args map[string]any
		if raw, ok := f["arguments"]; ok {
			json.Unmarshal(raw, &args)
		}
		var stop bool
		if raw, ok := f["stop"]; ok {
			json.Unmarshal(raw, &stop)
		}
		if ferr := r.installed(ctx, app); ferr != nil {
			return nil, ferr
		}
		if err := d.LaunchApp(ctx, exec.LaunchOptions{AppID: app, StopApp: stop, Arguments: args}); err != nil {
			return nil, fromErr(err)
		}
		r.raise(app)
		return nil, nil
	case "terminate":
		app, ferr := str(f, command, "appId")
		if ferr != nil {
			return nil, ferr
		}
		if ferr := r.installed(ctx, app); ferr != nil {
			return nil, ferr
		}
		return nil, fromErr(d.StopApp(ctx, app, false))
	case "openLink":
		link, ferr := str(f, command, "link")
		if ferr != nil {
			return nil, ferr
		}
		return nil, fromErr(d.OpenLink(ctx, link, false))
	case "setOrientation":
		name, ferr := str(f, command, "orientation")
		if ferr != nil {
			return nil, ferr
		}
		turn, ok := deviceTurns()[name]
		if !ok {
			return nil, &failure{"INVALID_ARGS", fmt.Sprintf("setOrientation: field \"orientation\" must be portrait, landscapeLeft, landscapeRight or upsideDown, not %q", name), ""}
		}
		if err := d.SetOrientation(ctx, turn.maestro); err != nil {
			return nil, fromErr(err)
		}
		r.mu.Lock()
		r.turned = turn.shows
		r.mu.Unlock()
		return nil, nil
	case "quit":
		if r.o.OnQuit != nil {
			go func() {
				time.Sleep(50 * time.Millisecond) // let the answer leave first
				r.o.OnQuit()
			}()
		}
		return nil, nil
	}
	return nil, &failure{"UNSUPPORTED_OPERATION", fmt.Sprintf("unknown command %q", command), ""}
}

// deviceTurn is one setOrientation value: Maestro's name, which sim
// remembers, and the interface orientation viewport then names.
type deviceTurn struct{ maestro, shows string }

// deviceTurns are the runner's setOrientation values (ios-runner/
// PROTOCOL.md; FlowRunnerCore Protocol.swift DeviceOrientation; Maestro's
// SetOrientationHandler sets XCUIDevice.shared.orientation to the
// UIDeviceOrientation of the same name). The interface names follow
// UIKit's UIApplication.h, which defines UIInterfaceOrientationLandscapeLeft
// as UIDeviceOrientationLandscapeRight and the other way round: a device
// turned landscape-left shows the interface landscape-right.
func deviceTurns() map[string]deviceTurn {
	return map[string]deviceTurn{
		"portrait":       {"PORTRAIT", "portrait"},
		"landscapeLeft":  {"LANDSCAPE_LEFT", "landscapeRight"},
		"landscapeRight": {"LANDSCAPE_RIGHT", "landscapeLeft"},
		"upsideDown":     {"UPSIDE_DOWN", "portraitUpsideDown"},
	}
}

// installed answers as Commands.swift installed(): an app the device
// does not have is COMMAND_FAILED for launch and terminate alike.
func (r *Runner) installed(ctx context.Context, app string) *failure {
	if _, ok, err := r.dev.AppViewport(ctx, app); err != nil || !ok {
		return &failure{"COMMAND_FAILED", app + " is not installed", "check the appId"}
	}
	return nil
}

// raise shows app's alert on its first launch.
func (r *Runner) raise(app string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.o.Alerts {
		a := &r.o.Alerts[i]
		if a.AppID == app && !r.raised[app] {
			if r.raised == nil {
				r.raised = map[string]bool{}
			}
			r.raised[app] = true
			r.alert = a
			return
		}
	}
}

func (r *Runner) showing() *Alert {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alert
}

// alertFrames lays an alert out as UIKit does on a phone: 270 points
// wide, centred, its buttons side by side in a 44-point row at the
// bottom. Frames are in the viewport's units.
func alertFrames(vp canonical.Viewport, a *Alert) (box [4]float64, buttons [][4]float64) {
	w, h := 270.0, 140.0
	x, y := vp.X+(vp.Width-w)/2, vp.Y+(vp.Height-h)/2
	box = [4]float64{x, y, w, h}
	n := float64(max(len(a.Buttons), 1))
	for i := range a.Buttons {
		buttons = append(buttons, [4]float64{x + float64(i)*w/n, y + h - 44, w / n, 44})
	}
	return box, buttons
}

func frameOf(f [4]float64) map[string]any {
	return map[string]any{"x": f[0], "y": f[1], "w": f[2], "h": f[3]}
}

// withAlert adds the alert showing to a hierarchy root as the runner
// answers SpringBoard's alerts: an element of type alert beside the app's
// tree, its title as label, its message a staticText, its buttons
// buttons (XCUIElement.ElementType names).
func (r *Runner) withAlert(ctx context.Context, root map[string]any) (map[string]any, error) {
	a := r.showing()
	if a == nil || root == nil {
		return root, nil
	}
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return nil, err
	}
	box, frames := alertFrames(vp, a)
	node := func(typ, label string, f [4]float64) map[string]any {
		return map[string]any{"type": typ, "identifier": "", "label": label, "title": "", "value": "", "placeholder": "",
			"enabled": true, "selected": false, "checked": false, "hasFocus": false, "frame": frameOf(f)}
	}
	alert := node("alert", a.Title, box)
	kids := []map[string]any{node("staticText", a.Message, [4]float64{box[0] + 16, box[1] + 44, box[2] - 32, 44})}
	for i, b := range a.Buttons {
		kids = append(kids, node("button", b, frames[i]))
	}
	alert["children"] = kids
	children, _ := root["children"].([]map[string]any)
	root["children"] = append(children, alert)
	return root, nil
}

// alertTap gives a tap or press to the alert showing: a button answers it,
// anything else reaches nothing. handled is false without an alert.
func (r *Runner) alertTap(ctx context.Context, p canonical.Point) (handled bool, err error) {
	a := r.showing()
	if a == nil {
		return false, nil
	}
	vp, err := r.dev.Viewport(ctx)
	if err != nil {
		return true, err
	}
	_, frames := alertFrames(vp, a)
	for i, f := range frames {
		if p.X >= f[0] && p.X < f[0]+f[2] && p.Y >= f[1] && p.Y < f[1]+f[3] {
			r.mu.Lock()
			r.alert = nil
			r.answers = append(r.answers, a.Buttons[i])
			r.mu.Unlock()
			return true, nil
		}
	}
	return true, nil
}

// element writes a node as the runner's hierarchy element.
func element(n *exec.Node) map[string]any {
	if n == nil {
		return nil
	}
	e := map[string]any{"type": n.Class, "identifier": n.ID, "label": n.Label, "title": n.Text, "value": "",
		"placeholder": n.Hint, "enabled": n.Enabled, "selected": n.Selected, "checked": n.Checked, "hasFocus": n.Focused}
	if n.Bounds != nil {
		e["frame"] = map[string]any{"x": n.Bounds.X, "y": n.Bounds.Y, "w": n.Bounds.W, "h": n.Bounds.H}
	}
	if n.Scrollable != "" {
		e["scrollable"] = n.Scrollable
	}
	var kids []map[string]any
	for _, c := range n.Children {
		kids = append(kids, element(c))
	}
	if kids != nil {
		e["children"] = kids
	}
	return e
}
