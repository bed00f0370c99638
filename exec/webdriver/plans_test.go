package webdriver_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/planner"
	"github.com/flow-runner/flow/planner/plancases"
)

// The plan table is shared with the other lowerings (planner/plancases).

type device = plancases.Device

func devices() []device                { return plancases.Devices() }
func everyIntent() []plancases.Case    { return plancases.EveryIntent() }
func f(v float64) *float64             { return &v }
func pt(x, y float64) *canonical.Point { return &canonical.Point{X: x, Y: y} }

func eachPlan(t *testing.T, fn func(t *testing.T, plan planner.Plan)) {
	t.Helper()
	plancases.Each(t, fn)
}

// wireLines is the snapshot form of an actions body: its exact wire bytes,
// key order included, with a line break before each source and each action
// so that a changed tick reads as a one-line diff. Removing the inserted line
// breaks and indentation gives back the body byte for byte.
func wireLines(data []byte) string {
	var pairs []string
	for _, sep := range []string{"[", ","} {
		pairs = append(pairs, sep+`{"type":"pointer",`, sep+"\n "+`{"type":"pointer",`)
		for _, a := range []string{"pointerMove", "pointerDown", "pointerUp"} {
			pairs = append(pairs, sep+`{"type":"`+a+`"`, sep+"\n  "+`{"type":"`+a+`"`)
		}
	}
	return strings.NewReplacer(pairs...).Replace(string(data))
}
