package planner_test

import (
	"fmt"
	"strings"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
)

func f(v float64) *float64 { return &v }

func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

// phone viewports used across the tests: a 1080x2400 Android phone and a
// 390x844 iPhone whose app frame starts below a 47 pt status bar.
func androidPhone() canonical.Viewport { return canonical.Viewport{Width: 1080, Height: 2400} }

func iPhone() canonical.Viewport { return canonical.Viewport{X: 0, Y: 47, Width: 390, Height: 797} }

func nan() float64 { return canonical.ParseNumber("x") }

func inf() float64 { return canonical.ParseNumber("Infinity") }

// renderPlan is the snapshot form of a plan: a header and one line per
// frame with every pointer's point in full precision, so a reviewer reads a
// changed sample as a one-line diff.
func renderPlan(p planner.Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "topology=%s intent=%s", p.Topology, p.Intent)
	if p.ExecutionProfile != "" {
		fmt.Fprintf(&b, " profile=%s", p.ExecutionProfile)
	}
	v := p.Viewport
	fmt.Fprintf(&b, " durationMs=%d viewport=%s,%s,%s,%s\n", p.DurationMs,
		num(v.X), num(v.Y), num(v.Width), num(v.Height))
	for i := range p.Pointers[0].Samples {
		fmt.Fprintf(&b, "%6dms", p.Pointers[0].Samples[i].OffsetMs)
		for _, ptr := range p.Pointers {
			s := ptr.Samples[i]
			fmt.Fprintf(&b, "  p%d(%s, %s)", ptr.PointerID, num(s.Point.X), num(s.Point.Y))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func num(x float64) string { return canonical.FormatNumber(x) }
