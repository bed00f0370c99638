package canonical_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gkampitakis/go-snaps/snaps"

	"github.com/flow-runner/flow/canonical"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := canonical.DecodeJSON([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func errorJSON(err error) string {
	ce, ok := canonical.AsError(err)
	if !ok {
		return fmt.Sprintf("uncoded error: %v", err)
	}
	data, _ := json.Marshal(ce)
	return string(data)
}

// TestNormalizeErrors pins the message of every structured-input rule of
// agent-device.md §1.3; the snapshot file reads as the table of messages.
func TestNormalizeErrors(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`"pan"`, `[]`, `null`,
		`{"kind":"spin"}`, `{}`,
		`{"kind":"pan","delta":{"x":0,"y":1}}`,
		`{"kind":"pan","origin":{"x":"1","y":2},"delta":{"x":0,"y":1}}`,
		`{"kind":"pan","origin":{"x":1,"y":null},"delta":{"x":0,"y":1}}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"pointerCount":1.5}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"pointerCount":0}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"pointerCount":3}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"durationMs":"500"}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"durationMs":15}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"durationMs":10001}`,
		`{"kind":"pan","origin":{"x":1,"y":2},"delta":{"x":0,"y":1},"executionProfile":"endpoint-hold"}`,
		`{"kind":"pinch","scale":0.5,"pointerCount":2}`,
		`{"kind":"fling","direction":"up","origin":{"x":1,"y":2},"durationMs":300}`,
		`{"kind":"fling","direction":"north","origin":{"x":1,"y":2}}`,
		`{"kind":"fling","direction":"up","origin":{"x":1,"y":2},"distance":-1}`,
		`{"kind":"fling","direction":"up","origin":{"x":1,"y":2},"distance":2.5}`,
		`{"kind":"swipe","preset":"left","durationMs":300}`,
		`{"kind":"swipe","preset":"up"}`,
		`{"kind":"pinch"}`,
		`{"kind":"pinch","scale":0.5,"origin":null}`,
		`{"kind":"rotate","degrees":35,"velocity":2}`,
		`{"kind":"rotate","degrees":1e999}`,
		`{"kind":"transform","origin":{"x":1,"y":2},"delta":{"x":0,"y":0},"scale":1}`,
		`{"kind":"drag","source":"  ","destination":"id=b"}`,
		`{"kind":"drag","source":"id=a","destination":""}`,
		`{"kind":"drag","source":"id=a","destination":"id=b","sourceHoldMs":0}`,
		`{"kind":"drag","source":"id=a","destination":"id=b","moveMs":15}`,
		`{"kind":"drag","source":"id=a","destination":"id=b","destinationHoldMs":10001}`,
		`{"kind":"drag","source":"id=a","destination":"id=b","sourceHoldMs":9000,"moveMs":1000,"destinationHoldMs":1}`,
	}
	var b strings.Builder
	for _, in := range inputs {
		_, err := canonical.NormalizeGesture(decode(t, in))
		if err == nil {
			t.Errorf("%s: want an error", in)
			continue
		}
		if canonical.CodeOf(err) != canonical.CodeInvalidArgs {
			t.Errorf("%s: code %s", in, canonical.CodeOf(err))
		}
		fmt.Fprintf(&b, "%s\n  -> %s\n", in, errorJSON(err))
	}
	snaps.MatchSnapshot(t, b.String())
}

// TestNormalizeValid shows the canonical form each valid input becomes:
// defaults stay unset (they depend on the viewport), drag endpoints are
// trimmed.
func TestNormalizeValid(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80}}`,
		`{"kind":"pan","origin":{"x":200,"y":420},"delta":{"x":0,"y":-80},"pointerCount":2,"durationMs":300}`,
		`{"kind":"fling","direction":"left","origin":{"x":300,"y":400},"distance":0}`,
		`{"kind":"swipe","preset":"right-edge"}`,
		`{"kind":"pinch","scale":1.25,"origin":{"x":195,"y":443}}`,
		`{"kind":"rotate","degrees":-35}`,
		`{"kind":"transform","origin":{"x":1,"y":2},"delta":{"x":3,"y":4},"scale":2,"degrees":35,"durationMs":16}`,
		`{"kind":"drag","source":" id=a ","destination":"@e3","sourceHoldMs":1,"moveMs":16,"destinationHoldMs":0}`,
		`{"kind":"pinch","scale":0.5,"unknownKeyIsIgnored":true}`,
	}
	var b strings.Builder
	for _, in := range inputs {
		g, err := canonical.NormalizeGesture(decode(t, in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		data, _ := json.Marshal(g)
		fmt.Fprintf(&b, "%s\n  -> %s\n", in, data)
	}
	snaps.MatchSnapshot(t, b.String())
}

// TestCanonicalRoundTrip: the structured form a GestureInput writes
// normalizes back to the same GestureInput.
func TestCanonicalRoundTrip(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"gesture pan 200 420 0 -80 500", "gesture pan 1 2 3 4 --pointer-count 2", "gesture fling up 200 400 180",
		"gesture swipe left-edge", "gesture pinch 0.5", "gesture pinch 1.25 195 443", "gesture rotate 35 200 420",
		"gesture transform 1 2 3 4 2 35 16", "gesture drag id=a @e3 800 500 0",
	} {
		cmd, err := canonical.ParseGestureCommand(strings.Fields(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		data, _ := json.Marshal(cmd.Gesture)
		back, err := canonical.NormalizeGesture(decode(t, string(data)))
		if err != nil {
			t.Fatalf("%s: re-normalize %s: %v", line, data, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(data) {
			t.Errorf("%s: %s became %s", line, data, again)
		}
	}
}
