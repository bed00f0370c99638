package exec_test

// Regression tests for the runtime's timing rules, on a fake device and a
// virtual clock so every duration is exact. The end-to-end versions, on
// sim, live in cmd/flow/semantics_*_test.go.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

// stillDevice is a 1000x2000 Android screen that never changes: after a
// launch (100 ms) it shows one element, "Plain", which does nothing when
// tapped. A tap costs 50 ms. It records when each tap starts.
type stillDevice struct {
	clock    exec.Clock
	start    time.Time
	launched bool
	taps     []string
	// ticking adds a clock whose text changes with time, so the screen
	// never settles.
	ticking bool
}

func (d *stillDevice) Info(context.Context) (exec.DeviceInfo, error) {
	return exec.DeviceInfo{Platform: "android", Name: "still", ID: "still"}, nil
}
func (d *stillDevice) Viewport(context.Context) (canonical.Viewport, error) {
	return canonical.Viewport{Width: 1000, Height: 2000}, nil
}
func (d *stillDevice) Hierarchy(context.Context) (*exec.Node, error) {
	root := &exec.Node{Bounds: &exec.Rect{W: 1000, H: 2000}, Enabled: true}
	if d.launched {
		root.Children = []*exec.Node{{Text: "Plain", Bounds: &exec.Rect{Y: 200, W: 1000, H: 100}, Enabled: true}}
	}
	if d.ticking {
		root.Children = append(root.Children, &exec.Node{Text: d.clock.Now().Sub(d.start).String(),
			Bounds: &exec.Rect{Y: 10, W: 200, H: 50}, Enabled: true})
	}
	return root, nil
}
func (d *stillDevice) Screenshot(context.Context) ([]byte, error) { return []byte("still"), nil }
func (d *stillDevice) Tap(ctx context.Context, p canonical.Point) error {
	d.taps = append(d.taps, d.clock.Now().Sub(d.start).String())
	return d.clock.Sleep(ctx, 50*time.Millisecond)
}
func (d *stillDevice) LongPress(context.Context, canonical.Point, time.Duration) error { return nil }
func (d *stillDevice) PerformGesture(context.Context, planner.Plan) error              { return nil }
func (d *stillDevice) InputText(context.Context, string) error                         { return nil }
func (d *stillDevice) EraseText(context.Context, int) error                            { return nil }
func (d *stillDevice) PressKey(context.Context, exec.Key) error                        { return nil }
func (d *stillDevice) Back(context.Context) error                                      { return nil }
func (d *stillDevice) HideKeyboard(context.Context) error                              { return nil }
func (d *stillDevice) LaunchApp(ctx context.Context, _ exec.LaunchOptions) error {
	d.launched = true
	return d.clock.Sleep(ctx, 100*time.Millisecond)
}
func (d *stillDevice) StopApp(context.Context, string, bool) error  { return nil }
func (d *stillDevice) ClearState(context.Context, string) error     { return nil }
func (d *stillDevice) OpenLink(context.Context, string, bool) error { return nil }

// literalScripts evaluates only templates without ${}: enough for flows
// that use no JavaScript.
type literalScripts struct{}

func (literalScripts) Interpolate(_ context.Context, t canonical.Template) (string, error) {
	v, _ := t.Literal()
	return v, nil
}
func (literalScripts) Truthy(s string) bool        { return s != "" && s != "false" }
func (literalScripts) DefineVars([]exec.Var) error { return nil }
func (literalScripts) EnterScope()                 {}
func (literalScripts) LeaveScope()                 {}
func (literalScripts) RunScript(context.Context, string, string, []exec.Var, canonical.Pos) error {
	return nil
}
func (literalScripts) SetCopiedText(string) error { return nil }

func at(line int) canonical.Pos { return canonical.Pos{File: "flow.yaml", Line: line, Col: 3} }

func text(s string) *canonical.Selector {
	t := canonical.Text(s, canonical.Pos{})
	return &canonical.Selector{Text: &t}
}

func launch(line int) canonical.Command {
	return &canonical.LaunchApp{Meta: canonical.Meta{Name: "launchApp", Pos: at(line)},
		AppID: canonical.Text("com.still", canonical.Pos{}), StopApp: true}
}

func tap(line int, s *canonical.Selector, optional bool) *canonical.Tap {
	return &canonical.Tap{Meta: canonical.Meta{Name: "tapOn", Pos: at(line), Optional: optional}, Mode: canonical.TapSingle,
		Selector: s, Repeat: 1, DelayMs: 100, RetryIfNoChange: true}
}

// runStill runs commands on a fresh still device and returns the result,
// each step as "command status duration", and the tap start times.
func runStill(t *testing.T, ctx context.Context, clock exec.Clock, cmds ...canonical.Command) (exec.FlowResult, []string, []string) {
	t.Helper()
	dev := &stillDevice{clock: clock, start: clock.Now()}
	cfg := exec.Config{Device: dev, Clock: clock,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: cmds}
	res := exec.RunFlow(ctx, cfg, flow)
	var steps []string
	for _, s := range res.Steps {
		steps = append(steps, fmt.Sprintf("%s %s %dms", s.Command, s.Status, s.DurationMs))
	}
	return res, steps, dev.taps
}

func newClock() *exec.VirtualClock {
	return exec.NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
}

func checkList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestLookupBudgetCountsFromCommandEnd: Maestro stamps the last interaction
// when a mutating command returns, so a lookup right after launchApp gets
// the full 17 s (7 s when optional), however long the launch and its settle
// took. A failed optional tap mutates nothing; a tap that ran restarts the
// budget.
func TestLookupBudgetCountsFromCommandEnd(t *testing.T) {
	_, steps, _ := runStill(t, context.Background(), newClock(),
		launch(3), tap(4, text("Missing"), true), tap(5, text("Plain"), false), tap(6, text("Missing"), false))
	// launchApp: 100 ms plus one 200 ms settle poll. The tap on Plain:
	// settle, tap, settle, and once more as nothing changed.
	checkList(t, "steps", steps, []string{"launchApp passed 300ms", "tapOn warned 7000ms", "tapOn passed 700ms", "tapOn failed 17000ms"})
}

// TestRepeatedTapsStartDelayApart: like Maestro, each tap of a repeated tap
// is followed by the delay minus the time the tap took, so taps start
// exactly delay apart, and the last one is followed by it too.
func TestRepeatedTapsStartDelayApart(t *testing.T) {
	triple := tap(4, text("Plain"), false)
	triple.Repeat, triple.DelayMs, triple.RetryIfNoChange = 3, 300, false
	double := tap(5, text("Plain"), false)
	double.Mode, double.Repeat, double.RetryIfNoChange = canonical.TapDouble, 2, false
	_, steps, taps := runStill(t, context.Background(), newClock(), launch(3), triple, double)
	// Taps at 0.5, 0.8 and 1.1 s, the last delay until 1.4 s, a settle
	// (1.6 s) and the double tap's settle (1.8 s): 1.8 and 1.9 s.
	checkList(t, "taps", taps, []string{"500ms", "800ms", "1.1s", "1.8s", "1.9s"})
	checkList(t, "steps", steps, []string{"launchApp passed 300ms", "tapOn passed 1300ms", "tapOn passed 600ms"})
}

// TestProbesEndAtTheirDeadline: polls never sleep past a lookup's
// deadline, so assertNotVisible on an absent element costs one 500 ms probe
// (Maestro quirk 9) and a wait fails when its budget ends, not at the next
// 200 ms poll.
func TestProbesEndAtTheirDeadline(t *testing.T) {
	timeout := canonical.Text("1600", canonical.Pos{})
	_, steps, _ := runStill(t, context.Background(), newClock(), launch(3),
		&canonical.Assert{Meta: canonical.Meta{Name: "assertNotVisible", Pos: at(4)}, NotVisible: text("Missing")},
		&canonical.Assert{Meta: canonical.Meta{Name: "extendedWaitUntil", Pos: at(5)}, Visible: text("Missing"), TimeoutMs: &timeout})
	// The wait's 1600 ms count from launchApp's end: 500 ms are spent.
	checkList(t, "steps", steps, []string{"launchApp passed 300ms", "assertNotVisible passed 500ms", "extendedWaitUntil failed 1100ms"})
}

// cancellingClock cancels the run when virtual time passes a point, as a
// Ctrl-C landing in the middle of a wait.
type cancellingClock struct {
	*exec.VirtualClock
	at     time.Time
	cancel context.CancelFunc
}

func (c *cancellingClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := c.VirtualClock.Sleep(ctx, d); err != nil {
		return err
	}
	if !c.Now().Before(c.at) {
		c.cancel()
	}
	return ctx.Err()
}

// TestInterruptDuringRuntimeWait: an interrupt that lands in one of the
// runtime's own waits (a lookup poll here) is reported as the run being
// interrupted, at the command, never as an INTERNAL context error nor as
// the element not being found; an optional command does not excuse it.
func TestInterruptDuringRuntimeWait(t *testing.T) {
	for _, optional := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clock := newClock()
		c := &cancellingClock{VirtualClock: clock, at: clock.Now().Add(2 * time.Second), cancel: cancel}
		res, steps, _ := runStill(t, ctx, c, launch(3),
			&canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(4), Optional: optional}, Visible: text("Missing")},
			launch(5))
		if res.Status != exec.StatusInterrupted || res.Error == nil || res.Error.Code != canonical.CodeInterrupted ||
			res.Error.Message != "the run was interrupted" || res.Error.Pos.Line != 4 {
			t.Fatalf("optional=%v: want INTERRUPTED \"the run was interrupted\" at line 4, got %s %+v", optional, res.Status, res.Error)
		}
		if len(steps) != 2 || !strings.HasPrefix(steps[1], "assertVisible interrupted") {
			t.Errorf("optional=%v: the running step must be interrupted and the next never start: %+v", optional, steps)
		}
	}
}

// TestMutatingWithoutDeviceAction: Maestro counts pasteText (even with
// nothing copied) and a scrollUntilVisible that needed no swipe as
// mutating, so the next lookup's budget restarts after them.
func TestMutatingWithoutDeviceAction(t *testing.T) {
	absent := func(line int) canonical.Command {
		return &canonical.Assert{Meta: canonical.Meta{Name: "assertNotVisible", Pos: at(line)}, NotVisible: text("Missing")}
	}
	_, steps, _ := runStill(t, context.Background(), newClock(), launch(3), absent(4),
		&canonical.Simple{Meta: canonical.Meta{Name: "pasteText", Pos: at(5)}, Action: "pasteText"},
		tap(6, text("Missing"), true), absent(7),
		&canonical.ScrollUntilVisible{Meta: canonical.Meta{Name: "scrollUntilVisible", Pos: at(8)}, Element: *text("Plain"),
			Direction: "down", TimeoutMs: canonical.Text("20000", canonical.Pos{}), Speed: canonical.Text("40", canonical.Pos{}),
			VisibilityPercentage: 100},
		tap(9, text("Missing"), true))
	checkList(t, "steps", steps, []string{"launchApp passed 300ms", "assertNotVisible passed 500ms", "pasteText passed 0ms",
		"tapOn warned 7000ms", "assertNotVisible passed 500ms", "scrollUntilVisible passed 0ms", "tapOn warned 7000ms"})
}

// TestWaitToSettleTimeoutBoundsSettling: on a screen that never stops
// changing, the generic settle gives up after ten reads (1.8 s of polls),
// once before and once after the tap; waitToSettleTimeoutMs replaces both
// waits with its own timeout (Maestro §2.7). The changing screen also
// counts as a reaction, so the tap is not retried.
func TestWaitToSettleTimeoutBoundsSettling(t *testing.T) {
	for _, tc := range []struct {
		settle *int
		want   string
	}{{nil, "tapOn passed 3650ms"}, {ptr(500), "tapOn passed 1050ms"}} {
		clock := newClock()
		dev := &stillDevice{clock: clock, start: clock.Now(), launched: true, ticking: true}
		cfg := exec.Config{Device: dev, Clock: clock,
			NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
		tp := tap(3, text("Plain"), false)
		tp.WaitToSettleTimeoutMs = tc.settle
		res := exec.RunFlow(context.Background(), cfg, &canonical.Flow{File: "flow.yaml", Name: "flow", Commands: []canonical.Command{tp}})
		if len(res.Steps) != 1 {
			t.Fatalf("want one step, got %+v", res.Steps)
		}
		s := res.Steps[0]
		if got := fmt.Sprintf("%s %s %dms", s.Command, s.Status, s.DurationMs); got != tc.want {
			t.Errorf("waitToSettleTimeoutMs %v: got %q, want %q", tc.settle, got, tc.want)
		}
		if len(dev.taps) != 1 {
			t.Errorf("waitToSettleTimeoutMs %v: want one tap, got %v", tc.settle, dev.taps)
		}
	}
}

func ptr(n int) *int { return &n }
