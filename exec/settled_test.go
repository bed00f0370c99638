package exec_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// versionedDevice is a stillDevice that settles on its side
// (exec.SettledReader) and versions its screen: a tap bumps the version
// when bumps is set, without changing the tree, as a web page whose
// button only restyles itself.
type versionedDevice struct {
	stillDevice
	bumps, opaque bool
	version       int
	shots         int
	timeouts      []string
}

func (d *versionedDevice) ReadSettled(ctx context.Context, timeout time.Duration) (exec.Settled, error) {
	d.timeouts = append(d.timeouts, timeout.String())
	root, _ := d.Hierarchy(ctx)
	return exec.Settled{Root: root, Still: true, Version: fmt.Sprintf("doc:%d", d.version), Opaque: d.opaque}, nil
}

func (d *versionedDevice) Tap(ctx context.Context, p canonical.Point) error {
	if d.bumps {
		d.version++
	}
	return d.stillDevice.Tap(ctx, p)
}

func (d *versionedDevice) Screenshot(context.Context) ([]byte, error) {
	d.shots++
	return []byte("still"), nil
}

func runVersioned(t *testing.T, dev *versionedDevice, cmds ...canonical.Command) exec.FlowResult {
	t.Helper()
	clock := newClock()
	dev.clock, dev.start = clock, clock.Now()
	cfg := exec.Config{Device: dev, Clock: clock,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: cmds}
	res := exec.RunFlow(context.Background(), cfg, flow)
	if res.Status != exec.StatusPassed {
		t.Fatalf("flow %s: %+v", res.Status, res.Error)
	}
	return res
}

// On a SettledReader the tap algorithm settles with one device call per
// settle, as long as Maestro's reads would take (ten reads 200 ms apart,
// or waitToSettleTimeoutMs), and a changed version counts as a change: one
// tap, no screenshot.
func TestTapOnVersionedScreenChangedVersion(t *testing.T) {
	dev := &versionedDevice{bumps: true}
	timeout := 700
	tp := tap(4, text("Plain"), false)
	tp.WaitToSettleTimeoutMs = &timeout
	runVersioned(t, dev, launch(3), tp)
	if len(dev.taps) != 1 || dev.shots != 0 {
		t.Errorf("%d taps and %d screenshots; want one tap and none", len(dev.taps), dev.shots)
	}
	checkList(t, "settle timeouts", dev.timeouts, []string{"1.8s", "700ms", "700ms"})
}

// Same version, same tree: nothing changed, so the tap is retried once,
// still without screenshots.
func TestTapOnVersionedScreenRetriesWithoutScreenshots(t *testing.T) {
	dev := &versionedDevice{}
	runVersioned(t, dev, launch(3), tap(4, text("Plain"), false))
	if len(dev.taps) != 2 || dev.shots != 0 {
		t.Errorf("%d taps and %d screenshots; want two taps and none", len(dev.taps), dev.shots)
	}
}

// An opaque screen (a canvas) falls back to Maestro's screenshots: one
// before the tap and one after each tap that changed neither the hierarchy
// nor the version. A moved version still counts as a change.
func TestTapOnOpaqueScreenComparesScreenshots(t *testing.T) {
	dev := &versionedDevice{opaque: true}
	runVersioned(t, dev, launch(3), tap(4, text("Plain"), false))
	if len(dev.taps) != 2 || dev.shots != 3 {
		t.Errorf("%d taps and %d screenshots; want two taps and three", len(dev.taps), dev.shots)
	}
	moved := &versionedDevice{opaque: true, bumps: true}
	runVersioned(t, moved, launch(3), tap(4, text("Plain"), false))
	if len(moved.taps) != 1 || moved.shots != 1 {
		t.Errorf("version moved: %d taps and %d screenshots; want one tap and one", len(moved.taps), moved.shots)
	}
}
