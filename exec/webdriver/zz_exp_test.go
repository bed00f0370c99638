package webdriver_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec/webdriver"
)

func TestExpTransform(t *testing.T) {
	dev, base := browser(t)
	load(t, dev, base+"/gestures.html")
	g := canonical.Gesture{Intent: canonical.IntentTransform, Origin: pt(195, 210), Delta: pt(30, 20), Scale: f(1.4), Degrees: f(40), DurationMs: f(1000)}
	p := plan(t, dev, g)
	opts := dev.Calibration().Two
	ticks := webdriver.Schedule(p, opts)
	order := webdriver.SourceOrder(p, opts)
	t.Logf("order %v lead %.1f", order, opts.LeadMs)
	cum := 0.0
	for i, tk := range ticks {
		cum += tk.CostMs
		s := fmt.Sprintf("tick %2d d=%2d cost=%5.1f cum=%6.1f", i, tk.DurationMs, tk.CostMs, cum)
		for _, pt := range tk.Points {
			s += fmt.Sprintf(" (%d,%d)", int(math.Trunc(pt.X)), int(math.Trunc(pt.Y)))
		}
		t.Log(s)
	}
	o := gestureOn(t, dev, p)
	var t0 float64
	for _, e := range pageLog(t, dev) {
		if e.Type[0] != 't' {
			continue
		}
		if t0 == 0 {
			t0 = e.TS
		}
		t.Logf("%-10s %6.1f %v", e.Type, e.TS-t0, e.Touches)
	}
	t.Logf("observed %.1f", o.durationMs)
}
