package canonical_test

import (
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// FuzzNormalizeGesture: any JSON text either normalizes or is refused with a
// coded INVALID_ARGS error; never a panic. A normalized input re-encodes to
// structured JSON that normalizes to the same thing.
func FuzzNormalizeGesture(f *testing.F) {
	for _, s := range []string{
		`{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"durationMs":500}`,
		`{"kind":"drag","source":"id=a","destination":"@e2","sourceHoldMs":800}`,
		`{"kind":"pinch","scale":0.5,"origin":null}`, `{"kind":"rotate","degrees":1e999}`, `[1,2]`, `"x"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := canonical.DecodeJSON([]byte(s))
		if err != nil {
			if canonical.CodeOf(err) != canonical.CodeInvalidArgs {
				t.Fatalf("decode error not coded: %v", err)
			}
			return
		}
		g, err := canonical.NormalizeGesture(raw)
		if err != nil {
			if canonical.CodeOf(err) != canonical.CodeInvalidArgs {
				t.Fatalf("normalize error not INVALID_ARGS: %v", err)
			}
			return
		}
		data, err := g.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		raw2, err := canonical.DecodeJSON(data)
		if err != nil {
			t.Fatalf("canonical form %s does not decode: %v", data, err)
		}
		g2, err := canonical.NormalizeGesture(raw2)
		if err != nil {
			t.Fatalf("canonical form %s does not normalize: %v", data, err)
		}
		data2, _ := g2.MarshalJSON()
		if string(data) != string(data2) {
			t.Fatalf("round trip changed %s into %s", data, data2)
		}
	})
}

// FuzzParseGestureCommand: any command line is parsed or refused with a
// coded error; an accepted line never has more positionals than the arity
// table allows.
func FuzzParseGestureCommand(f *testing.F) {
	for _, s := range []string{
		"gesture pan 200 420 0 -80 500", "swipe 1 2 3 4 500", "gesture rotate 35 1 2 3",
		"swipe 1 2 3 4 --count 3 --pattern ping-pong", "gesture drag a b 1 2 3", "gesture pinch 0.5 --pointer-count=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tokens := strings.Fields(s)
		cmd, err := canonical.ParseGestureCommand(tokens)
		if err != nil {
			ce, ok := canonical.AsError(err)
			if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Message == "" {
				t.Fatalf("bad error for %q: %#v", s, err)
			}
			return
		}
		if (cmd.Gesture == nil) == (cmd.Swipe == nil) {
			t.Fatalf("%q: exactly one of gesture or swipe must be set", s)
		}
		if cmd.Swipe != nil && cmd.Swipe.SeriesMs() > canonical.MaxSwipeSeriesMs {
			t.Fatalf("%q: accepted a series of %d ms", s, cmd.Swipe.SeriesMs())
		}
	})
}
