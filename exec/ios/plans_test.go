package ios_test

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
	"github.com/flow-runner/flow/planner/plancases"
)

// The plan table is shared with the other lowerings (planner/plancases).

type device = plancases.Device

func devices() []device                { return plancases.Devices() }
func everyIntent() []plancases.Case    { return plancases.EveryIntent() }
func wireLines(data []byte) string     { return plancases.WireLines(data) }
func f(v float64) *float64             { return &v }
func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

func eachPlan(t *testing.T, fn func(t *testing.T, plan planner.Plan)) {
	t.Helper()
	plancases.Each(t, fn)
}
