package flow

import (
	"testing"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// TestStateWait pins FLOW_LOCK_TIMEOUT's forms.
func TestStateWait(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"": defaultStateWait, "45s": 45 * time.Second, "2m": 2 * time.Minute,
		"10": 10 * time.Second, "0.5": 500 * time.Millisecond, "0": 0} {
		got, err := stateWait(func(string) string { return in })
		if err != nil || got != want {
			t.Errorf("%q: got %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"abc", "-1s", "-3", "1e300"} {
		if _, err := stateWait(func(string) string { return in }); canonical.CodeOf(err) != canonical.CodeInvalidArgs {
			t.Errorf("%q: want INVALID_ARGS, got %v", in, err)
		}
	}
}
