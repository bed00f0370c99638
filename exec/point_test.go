package exec

import (
	"math"
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestResolvePointAsMaestro: a % anywhere makes both numbers percentages
// of the screen (integer arithmetic), spaces around numbers are trimmed,
// numbers after the second are ignored; non-finite numbers are refused.
func TestResolvePointAsMaestro(t *testing.T) {
	t.Parallel()
	vp := canonical.Viewport{Width: 540, Height: 960}
	for in, want := range map[string]canonical.Point{
		"235, 681":    {X: 235, Y: 681},
		" 50 %, 80% ": {X: 270, Y: 768},
		"100%,100%":   {X: 540, Y: 960},
		"1,2,3":       {X: 1, Y: 2},
		"10.5,20":     {X: 10.5, Y: 20},
		"33%,33":      {X: 178, Y: 316},
	} {
		got, err := resolvePoint(in, vp, canonical.Pos{})
		if err != nil || got != want {
			t.Errorf("resolvePoint(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"inf,1", "1", "a,b", "101%,5%"} {
		if _, err := resolvePoint(in, vp, canonical.Pos{}); err == nil {
			t.Errorf("resolvePoint(%q) accepted", in)
		}
	}
}

// TestMillisSaturates: timeouts and speeds from ${...} are numbers of any
// size; turning them into durations never wraps to a negative time.
func TestMillisSaturates(t *testing.T) {
	t.Parallel()
	if d := millis(1e300); d != time.Duration(math.MaxInt64) {
		t.Errorf("millis(1e300) = %v", d)
	}
	if d := millis(-1e300); d >= 0 {
		t.Errorf("millis(-1e300) = %v", d)
	}
	if d := millis(1500); d != 1500*time.Millisecond {
		t.Errorf("millis(1500) = %v", d)
	}
	if d := swipeDuration(-1e300); d != math.MaxInt32 {
		t.Errorf("swipeDuration(-1e300) = %d", d)
	}
	if d := swipeDuration(1e300); d != 40 {
		t.Errorf("swipeDuration(1e300) = %d", d)
	}
}
