package appium_test

import (
	"context"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

// BenchmarkNativeCommands: the cost of each touch and read on a local
// Appium 3 server with its fake driver, and the requests each takes
// (requests/op). The fake driver answers at once, so the time is flow's
// client and Appium's own overhead: a floor for a real phone.
func BenchmarkNativeCommands(b *testing.B) {
	d := native(b, open(b, fixturePath(b, "uiautomator2-login.xml"), nil))
	ctx := context.Background()
	vp := canonical.Viewport{Width: 1080, Height: 2400}
	plan, err := planner.Gesture(canonical.Gesture{Intent: canonical.IntentFling, Direction: canonical.DirectionUp,
		Origin: &canonical.Point{X: 540, Y: 1600}}, vp, planner.Android)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"hierarchy", func() error { _, err := d.Hierarchy(ctx); return err }},
		{"tap", func() error { return d.Tap(ctx, canonical.Point{X: 540, Y: 1075}) }},
		{"gesture", func() error { return d.PerformGesture(ctx, plan) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			before := d.RoundTrips()
			for i := 0; i < b.N; i++ {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(d.RoundTrips()-before)/float64(b.N), "requests/op")
		})
	}
}
