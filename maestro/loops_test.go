package maestro_test

import (
	"strings"
	"testing"
)

// TestLoopCountWarnings: a literal repeat times or retry maxRetries that
// Maestro reads as a loop that never runs, never ends in practice, or runs
// otherwise than written is a warning at the value, saying what Maestro
// does and how to fix it. Counts Maestro reads as written, and counts
// computed by ${}, are not.
func TestLoopCountWarnings(t *testing.T) {
	t.Parallel()
	const never = `repeat times %s never runs the commands: Maestro reads it as %s and skips the repeat | hint: write a count of 1 or more, or remove the repeat`
	unlimited := func(v, until, hint string) string {
		return `repeat times ` + v + ` is not a number to Maestro, so the repeat has no count limit and ` + until + ` | hint: ` + hint
	}
	limit := func(v, until string) string {
		return `repeat times ` + v + ` is at Maestro's limit of 2147483647 runs, so the repeat in practice ` + until +
			` | hint: write the number of runs you need, such as times: 100`
	}
	const stopped, whileFalse, plain = "runs until the flow is stopped", "ends only when its while condition is false", "write a plain number, such as times: 3"
	repeat := func(times string) string { return "- repeat:\n    times: " + times + "\n    commands: [back]\n" }
	repeatWhile := func(times string) string {
		return "- repeat:\n    times: " + times + "\n    while: {visible: More}\n    commands: [back]\n"
	}
	retry := func(n string) string { return "- retry:\n    maxRetries: " + n + "\n    commands: [back]\n" }
	for _, tc := range []struct{ in, want string }{
		{repeat("3"), ""}, {repeat("3.5"), ""}, {repeat("1e3"), ""}, {repeat("2147483646"), ""}, {repeat("${COUNT}"), ""},
		{repeat("0"), sprintf(never, `"0"`, "0")},
		{repeat("0.9"), sprintf(never, `"0.9"`, "0")},
		{repeat("-2"), sprintf(never, `"-2"`, "-2")},
		{repeat(".NaN"), unlimited(`".NaN"`, stopped, plain)},
		{repeat("NaN"), sprintf(never, `"NaN"`, "0")},
		{repeat("-Infinity"), sprintf(never, `"-Infinity"`, "-2147483648")},
		{repeat("Infinity"), limit(`"Infinity"`, stopped)},
		{repeat("1e30"), limit(`"1e30"`, stopped)},
		{repeat("2147483647"), limit(`"2147483647"`, stopped)},
		{repeatWhile("99999999999"), limit(`"99999999999"`, whileFalse)},
		{repeat("1_000"), unlimited(`"1_000"`, stopped, "write times: 1000 (Maestro reads numbers without _ separators)")},
		{repeat(".inf"), unlimited(`".inf"`, stopped, plain)},
		{repeat("0x10"), unlimited(`"0x10"`, stopped, plain)},
		{repeat(`"3 times"`), unlimited(`"3 times"`, stopped, plain)},
		{repeatWhile(`""`), unlimited(`""`, whileFalse, plain)},
		{retry("2"), ""}, {retry("0"), ""}, {retry("${N}"), ""},
		{retry("2.0"), `maxRetries "2.0" is not a whole number to Maestro, which then retries once | hint: write a whole number from 0 to 3, such as maxRetries: 2`},
		{retry("-1"), `maxRetries "-1" is negative: Maestro then never runs the commands | hint: write maxRetries: 0 to run the commands once without retrying`},
		{retry("5"), `maxRetries "5" is more than Maestro's limit: it retries at most 3 times | hint: write maxRetries: 3`},
	} {
		r := loadBody(t, tc.in, nil)
		if r.err != nil {
			t.Fatalf("%q did not load: %v", tc.in, r.err)
		}
		var got []string
		for _, w := range r.warnings {
			got = append(got, renderProblem(w))
		}
		want := ""
		if tc.want != "" {
			want = "flows/main.yaml:4:12: INVALID_ARGS: " + tc.want // the times value
			if strings.HasPrefix(tc.in, "- retry") {
				want = "flows/main.yaml:4:17: INVALID_ARGS: " + tc.want // the maxRetries value
			}
		}
		if strings.Join(got, "\n") != want {
			t.Errorf("%s\nwarnings:\n\t%s\nwant:\n\t%s", tc.in, strings.Join(got, "\n\t"), want)
		}
	}
}

func sprintf(format string, args ...string) string {
	for _, a := range args {
		format = strings.Replace(format, "%s", a, 1)
	}
	return format
}
