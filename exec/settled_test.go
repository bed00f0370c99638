package exec_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// versionedDevice is a stillDevice that settles on its side
// (exec.SettledReader) and versions its screen. With bumps, a tap moves
// the version without changing the tree, as on a phone where the touch's
// own accessibility events move the helper's event counter; with
// repaints, a tap changes the pixels without changing the tree (a
// button that only restyles itself).
type versionedDevice struct {
	stillDevice
	bumps, opaque, repaints bool
	version, painted        int
	shots                   int
	timeouts                []string
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
	if d.repaints {
		d.painted++
	}
	return d.stillDevice.Tap(ctx, p)
}

func (d *versionedDevice) Screenshot(context.Context) ([]byte, error) {
	d.shots++
	return []byte(fmt.Sprintf("still %d", d.painted)), nil
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
// or waitToSettleTimeoutMs), and decides "no change" as Maestro does on
// every device (Maestro.kt hierarchyBasedTap): same hierarchy, then same
// screenshot. A version that moved with the tap is not a change: a static
// element is tapped twice, as on sim. (Before issue 19's fix the moved
// version stopped the retry: one tap, no screenshot.)
func TestTapIgnoresTheSettledVersion(t *testing.T) {
	dev := &versionedDevice{bumps: true}
	timeout := 700
	tp := tap(4, text("Plain"), false)
	tp.WaitToSettleTimeoutMs = &timeout
	runVersioned(t, dev, launch(3), tp)
	if len(dev.taps) != 2 || dev.shots != 2 {
		t.Errorf("%d taps and %d screenshots; want two taps and two (before, after the first)", len(dev.taps), dev.shots)
	}
	checkList(t, "settle timeouts", dev.timeouts, []string{"1.8s", "700ms", "700ms", "700ms"})
}

// Same version, same tree, same pixels: the tap is retried once, and the
// screenshots are taken on a versioned device too (before the first tap,
// and after it, where the retry is decided).
func TestTapOnVersionedScreenRetriesWithScreenshots(t *testing.T) {
	for name, dev := range map[string]*versionedDevice{"plain": {}, "opaque": {opaque: true}} {
		runVersioned(t, dev, launch(3), tap(4, text("Plain"), false))
		if len(dev.taps) != 2 || dev.shots != 2 {
			t.Errorf("%s: %d taps and %d screenshots; want two taps and two", name, len(dev.taps), dev.shots)
		}
	}
}

// Pixels that changed with the tap are a change: one tap, the screenshot
// before it and the one after it.
func TestTapStopsWhenTheScreenshotChanged(t *testing.T) {
	dev := &versionedDevice{repaints: true}
	runVersioned(t, dev, launch(3), tap(4, text("Plain"), false))
	if len(dev.taps) != 1 || dev.shots != 2 {
		t.Errorf("%d taps and %d screenshots; want one tap and two", len(dev.taps), dev.shots)
	}
}

// Without retryTapIfNoChange nothing is decided after the tap, so no
// screenshot is taken at all.
func TestTapWithoutRetryTakesNoScreenshot(t *testing.T) {
	dev := &versionedDevice{}
	tp := tap(4, text("Plain"), false)
	tp.RetryIfNoChange = false
	runVersioned(t, dev, launch(3), tp)
	if len(dev.taps) != 1 || dev.shots != 0 {
		t.Errorf("%d taps and %d screenshots; want one tap and none", len(dev.taps), dev.shots)
	}
}

// toastDevice shows the synthetic node an Android helper adds for a toast
// (Maestro's ToastAccessibilityListener: class android.widget.Toast, no
// bounds of its own, so [0,0][0,0]) beside the app's window.
type toastDevice struct{ stillDevice }

func (d *toastDevice) Hierarchy(ctx context.Context) (*exec.Node, error) {
	root, _ := d.stillDevice.Hierarchy(ctx)
	root.Children = append(root.Children, &exec.Node{Text: "Saved", Class: "android.widget.Toast", Enabled: true, Bounds: &exec.Rect{}})
	return root, nil
}

// A toast is visible to assertVisible, as in Maestro, although its node
// has no area: the off-screen pruning keeps it (issue 19 M3, Go side).
func TestToastNodeIsVisible(t *testing.T) {
	dev := &toastDevice{}
	clock := newClock()
	dev.clock, dev.start = clock, clock.Now()
	cfg := exec.Config{Device: dev, Clock: clock, LookupTimeout: time.Second,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}), Commands: []canonical.Command{
		launch(3), &canonical.Assert{Meta: canonical.Meta{Name: "assertVisible", Pos: at(4)}, Visible: text("Saved")}}}
	if res := exec.RunFlow(context.Background(), cfg, flow); res.Status != exec.StatusPassed {
		t.Fatalf("assertVisible on a toast %s: %+v", res.Status, res.Error)
	}
}

// blinkingDevice's screenshots differ by a blinking one-pixel cursor,
// far below Maestro's 0.005 % (a caret, a ripple's last frame, a clock
// digit on a phone): the tap is retried as Maestro retries it, although
// the bytes differ.
type blinkingDevice struct {
	stillDevice
	shots int
}

func (d *blinkingDevice) Screenshot(context.Context) ([]byte, error) {
	d.shots++
	img := image.NewNRGBA(image.Rect(0, 0, 400, 400))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	if d.shots%2 == 0 {
		img.Set(200, 200, color.Black)
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes(), nil
}

func TestTapRetriesThroughABlinkingCursor(t *testing.T) {
	dev := &blinkingDevice{}
	clock := newClock()
	dev.clock, dev.start = clock, clock.Now()
	cfg := exec.Config{Device: dev, Clock: clock,
		NewScripts: func(string, func(string)) exec.Scripts { return literalScripts{} }}
	flow := &canonical.Flow{File: "flow.yaml", Name: "flow", AppID: canonical.Text("com.still", canonical.Pos{}),
		Commands: []canonical.Command{launch(3), tap(4, text("Plain"), false)}}
	if res := exec.RunFlow(context.Background(), cfg, flow); res.Status != exec.StatusPassed {
		t.Fatalf("flow %s: %+v", res.Status, res.Error)
	}
	if len(dev.taps) != 2 || dev.shots != 2 {
		t.Errorf("%d taps and %d screenshots; want two taps and two (a one-pixel blink is no change)", len(dev.taps), dev.shots)
	}
}
