package ad

import (
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// A structured gesture's .ad form reads back as the same gesture. The
// drag's durations are positional, so one given after one left out must
// not slide into the earlier place: the earlier is written as its default.
func TestGestureActionReadsBack(t *testing.T) {
	i := func(v int) *int { return &v }
	for name, in := range map[string]canonical.GestureInput{
		"only destination hold": {Kind: canonical.KindDrag, Source: "id=a", Destination: "id=b", DestinationHoldMs: i(120)},
		"only move":             {Kind: canonical.KindDrag, Source: "id=a", Destination: "id=b", MoveMs: i(64)},
		"all":                   {Kind: canonical.KindDrag, Source: "id=a", Destination: "id=b", SourceHoldMs: i(40), MoveMs: i(64), DestinationHoldMs: i(32)},
	} {
		t.Run(name, func(t *testing.T) {
			a, why := GestureAction(in)
			if len(why) > 0 {
				t.Fatal(why)
			}
			cmd, err := canonical.ParseGestureCommand(append([]string{a.Command}, a.Positionals...))
			if err != nil || cmd.Gesture == nil {
				t.Fatalf("%s does not parse: %v", EncodeAction(a), err)
			}
			g := cmd.Gesture
			total := func(x canonical.GestureInput) int {
				return canonical.DragTotalMs(x.SourceHoldMs, x.MoveMs, x.DestinationHoldMs)
			}
			same := func(a, b *int, def int) bool {
				if a == nil {
					return b == nil || *b == def
				}
				return b != nil && *a == *b
			}
			if !same(in.SourceHoldMs, g.SourceHoldMs, canonical.DefaultSourceHoldMs) || !same(in.MoveMs, g.MoveMs, canonical.DefaultMoveMs) ||
				!same(in.DestinationHoldMs, g.DestinationHoldMs, 0) || total(in) != total(*g) {
				t.Fatalf("%s reads back as %+v, want %+v", EncodeAction(a), g, in)
			}
		})
	}
}
