package exec_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/planner"
)

// dyingDevice is a still device that is lost at a moment of the virtual
// clock: from then on every call fails with err, as a browser whose
// session is gone or whose driver stopped answering does. reads counts the
// hierarchy reads after the loss.
type dyingDevice struct {
	stillDevice
	at    time.Time
	err   error
	reads int
}

func (d *dyingDevice) lost() bool { return !d.clock.Now().Before(d.at) }

func (d *dyingDevice) Hierarchy(ctx context.Context) (*exec.Node, error) {
	if d.lost() {
		d.reads++
		return nil, d.err
	}
	return d.stillDevice.Hierarchy(ctx)
}

func (d *dyingDevice) Viewport(ctx context.Context) (canonical.Viewport, error) {
	if d.lost() {
		return canonical.Viewport{}, d.err
	}
	return d.stillDevice.Viewport(ctx)
}

func (d *dyingDevice) Screenshot(ctx context.Context) ([]byte, error) {
	if d.lost() {
		return nil, d.err
	}
	return d.stillDevice.Screenshot(ctx)
}

func (d *dyingDevice) Tap(ctx context.Context, p canonical.Point) error {
	if d.lost() {
		return d.err
	}
	return d.stillDevice.Tap(ctx, p)
}

func (d *dyingDevice) PerformGesture(ctx context.Context, p planner.Plan) error {
	if d.lost() {
		return d.err
	}
	return d.stillDevice.PerformGesture(ctx, p)
}

// sessionGone is how the web device reports a browser that died.
var sessionGone = canonical.NewError(canonical.CodeDeviceUnavailable,
	"WebDriver POST /session/{id}/execute/sync failed: invalid session id: session deleted as the browser has closed the connection")

// TestDeviceLostIsNeverAFlowVerdict: a device lost in the middle of a
// command stops the flow with the device's error (DEVICE_UNAVAILABLE, exit
// 3) at once. The runtime never turns it into ELEMENT_NOT_FOUND or
// ASSERTION_FAILED by polling on until the lookup times out, optional:
// does not excuse it, a condition does not read it as false, and retry
// does not repeat it. An uncoded transport error from a device counts as
// the device failing too.
func TestDeviceLostIsNeverAFlowVerdict(t *testing.T) {
	optional := func(c canonical.Command) canonical.Command { c.Base().Optional = true; return c }
	when := func(cond *canonical.Condition, line int) canonical.Command {
		return &canonical.RunFlow{Meta: canonical.Meta{Name: "runFlow", Pos: at(line)}, When: cond,
			Commands: []canonical.Command{&canonical.Simple{Meta: canonical.Meta{Name: "back", Pos: at(line + 1)}, Action: "back"}}}
	}
	retry := &canonical.Retry{Meta: canonical.Meta{Name: "retry", Pos: at(4)}, MaxRetries: canonical.Text("3", canonical.Pos{}),
		Commands: []canonical.Command{tap(5, text("Missing"), false)}}
	for name, tc := range map[string]struct {
		cmd canonical.Command
		err error
	}{
		"assertVisible polling": {&canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(4)}, Visible: text("Missing")}, sessionGone},
		"assertNotVisible":      {&canonical.Assert{Meta: canonical.Meta{Name: "assertNotVisible", Pos: at(4)}, NotVisible: text("Plain")}, sessionGone},
		"optional tapOn":        {optional(tap(4, text("Missing"), true)), sessionGone},
		"when visible":          {when(&canonical.Condition{Visible: text("Missing")}, 4), sessionGone},
		"when notVisible":       {when(&canonical.Condition{NotVisible: text("Plain")}, 4), sessionGone},
		"retry":                 {retry, sessionGone},
		"uncoded transport":     {&canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(4)}, Visible: text("Missing")}, errors.New("read tcp 127.0.0.1:9515: connection reset by peer")},
	} {
		t.Run(name, func(t *testing.T) {
			clock := newClock()
			dev := &dyingDevice{stillDevice: stillDevice{clock: clock, start: clock.Now()}, at: clock.Now().Add(2 * time.Second), err: tc.err}
			cfg := exec.Config{Device: dev, Clock: clock,
				NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
			flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
				Commands: []canonical.Command{launch(3), tc.cmd, launch(9)}}
			res := exec.RunFlow(context.Background(), cfg, flow)
			if res.Status != exec.StatusFailed || res.Error == nil || res.Error.Code != canonical.CodeDeviceUnavailable {
				t.Fatalf("want the flow failed with DEVICE_UNAVAILABLE, got %s %v", res.Status, res.Error)
			}
			if res.Error.Pos.Line < 4 || res.Error.Pos.Line > 5 {
				t.Errorf("the error must point at the command that met the loss: %v", res.Error.Pos)
			}
			for _, s := range res.Steps {
				if s.Status == exec.StatusWarned {
					t.Errorf("a lost device was excused as a warning: %+v", s)
				}
				if strings.Contains(strings.Join(s.Logs, "\n"), "Retrying") {
					t.Errorf("a lost device was retried: %q", s.Logs)
				}
			}
			if dev.reads > 1 {
				t.Errorf("the runtime read a lost device %d times; it must stop at the first failure", dev.reads)
			}
			if took := time.Duration(res.DurationMs) * time.Millisecond; took > 3*time.Second {
				t.Errorf("the flow went on for %s after the device was lost at 2s", took)
			}
		})
	}
}
