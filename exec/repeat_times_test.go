package exec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
)

// timesScripts is countingScripts where ${T} comes to value.
type timesScripts struct {
	*countingScripts
	value string
}

func (s timesScripts) Interpolate(ctx context.Context, t canonical.Template) (string, error) {
	if t.Raw == "${T}" {
		return s.value, nil
	}
	return s.countingScripts.Interpolate(ctx, t)
}

// TestRepeatTimesFromAnExpressionWarns: times: ${…} that comes to a value
// Maestro reads as no limit (text that is not a number, a count at
// Int.MAX_VALUE) warns on the repeat's step as the loader warns about the
// same literal, naming the value; an ordinary count, or zero (a repeat a
// variable turns off), does not.
func TestRepeatTimesFromAnExpressionWarns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value, want string
	}{
		{"three", `repeat times "three" is not a number to Maestro, so the repeat has no count limit and runs until the flow is stopped`},
		{"1_000", `(hint: write times: 1000 (Maestro reads numbers without _ separators))`},
		{"1.0E10", `repeat times "1.0E10" is at Maestro's limit of 2147483647 runs, so the repeat in practice runs until the flow is stopped`},
		{"Infinity", `repeat times "Infinity" is at Maestro's limit`},
		{"3", ""},
		{"0", ""},
	} {
		t.Run(tc.value, func(t *testing.T) {
			t.Parallel()
			s := timesScripts{countingScripts: &countingScripts{stopAt: 20}, value: tc.value}
			pos := at(4)
			times := canonical.Text("${T}", pos)
			rep := &canonical.Repeat{Meta: canonical.Meta{Name: "repeat", Pos: pos}, Times: &times, Commands: []canonical.Command{eval(5, "count")}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.cancel = cancel
			clock := newClock()
			cfg := exec.Config{Device: &stillDevice{clock: clock, start: clock.Now(), launched: true}, Clock: clock,
				NewScripts: func(_ string, log func(string)) exec.Scripts { s.log = log; return s }}
			res := exec.RunFlow(ctx, cfg, &canonical.Flow{File: "flow.yaml", Name: "flow", Commands: []canonical.Command{rep}})
			logs := strings.Join(res.Steps[0].Logs, "\n")
			if tc.want == "" {
				if strings.Contains(logs, "warning") {
					t.Errorf("times %q warned: %s", tc.value, logs)
				}
				return
			}
			if !strings.Contains(logs, "warning: "+pos.String()) || !strings.Contains(logs, tc.want) {
				t.Errorf("times %q: the repeat's logs\n%s\nlack the warning at %s with %q", tc.value, logs, pos, tc.want)
			}
			if n := strings.Count(logs, "warning"); n != 1 {
				t.Errorf("warned %d times, want once", n)
			}
		})
	}
}
