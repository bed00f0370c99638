package main

import "testing"

// TestSemanticsTimeouts: Maestro's lookup budgets (§2.6) in device time.
// A lookup waits 17 s, 7 s when optional (assertions ignore optional),
// minus the time since the last mutating command ended; extendedWaitUntil
// uses its own timeout, minus the same. Non-mutating commands (assertions,
// screenshots) use the budget up, down to a single look. The timing app's
// "Soon" appears 3 s after its screen opens (100 ms into launchApp),
// "Late" 20 s after, and "Result" 5 s after "Next" opens its screen.
func TestSemanticsTimeouts(t *testing.T) {
	t.Parallel()
	runSemCases(t, []semCase{{
		// Regression: the budget counts from the end of launchApp (100 ms
		// launch, 200 ms settle), not its start: 17000 ms, not 16700.
		name:   "lookup_17s",
		flow:   "time_tap_17s.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ELEMENT_NOT_FOUND", Message: `Element not found: "Missing"`,
			Hint: `closest on screen: text "Waiting" at 0,0`, Line: 4, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn failed 17000ms ELEMENT_NOT_FOUND"},
	}, {
		// The optional tap waits 7 s and mutates nothing; the assertion's
		// 17 s (optional does not shorten it) lose those 7 s.
		name: "optional_7s_assert_not_shortened",
		flow: "time_tap_optional_7s.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn warned 7000ms ELEMENT_NOT_FOUND",
			"L7 assertVisible warned 10000ms ASSERTION_FAILED"},
	}, {
		// An absent element costs one 500 ms probe, taken off the next
		// lookup: 16500 ms.
		name:   "shortened_by_non_mutating_command",
		flow:   "time_shortened.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ASSERTION_FAILED", Message: `Assertion is false: "Missing" is visible`, Line: 5, Col: 3},
		steps:  []string{"L3 launchApp passed 300ms", "L4 assertNotVisible passed 500ms", "L5 assertVisible failed 16500ms ASSERTION_FAILED"},
	}, {
		// 8 s of waiting leave an optional tap no time (one look, 0 ms) and
		// copyTextFrom 9 s.
		name:   "budget_used_up",
		flow:   "time_exhausted.yaml",
		code:   1,
		status: "failed",
		err:    &wantErr{Code: "ELEMENT_NOT_FOUND", Line: 11, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 extendedWaitUntil warned 8000ms ASSERTION_FAILED",
			"L8 tapOn warned 0ms ELEMENT_NOT_FOUND", "L11 copyTextFrom failed 9000ms ELEMENT_NOT_FOUND"},
	}, {
		// Soon appears at 3.1 s: assertVisible sees it 2.8 s in. Late
		// appears at 20.1 s, within the wait's 20 s counted from launchApp's
		// end (0.3 s).
		name:  "elements_appear_within_timeouts",
		flow:  "time_appears.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 assertVisible passed 2800ms", "L5 extendedWaitUntil passed 17000ms"},
	}, {
		name:  "extended_wait_appears",
		flow:  "time_extended_appears.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 extendedWaitUntil passed 2800ms"},
	}, {
		name:   "extended_wait_times_out",
		flow:   "time_extended_timeout.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ASSERTION_FAILED", Message: `Assertion is false: "Late" is visible`,
			Hint: `closest on screen: text "Soon" at 0,200`, Line: 4, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 extendedWaitUntil failed 5000ms ASSERTION_FAILED"},
	}, {
		// notVisible: the hidden spinner passes at the first probe; the
		// title stays for 2000 - 500 ms and fails.
		name:   "extended_wait_not_visible",
		flow:   "time_extended_not_visible.yaml",
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ASSERTION_FAILED", Message: `Assertion is false: "Waiting" is not visible`,
			Hint: "stayed on screen", Line: 8, Col: 3},
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L5 extendedWaitUntil passed 500ms",
			"L8 extendedWaitUntil failed 1500ms ASSERTION_FAILED"},
		events: with([]string{"launchApp com.sem.timing", `observed - navigate screen="wait"`},
			"tap 500,650", "observed spinner tap", "observed spinner hide"),
	}, {
		// Taps wait for their element: Soon 2.8 s; Result 4.8 s, as it
		// appears 5 s after Next opened its screen, 200 ms before the
		// lookup started. Neither changes the screen: two taps each.
		name:  "taps_wait_for_appearing_elements",
		flow:  "time_tap_waits.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn passed 3500ms", "L5 tapOn passed 450ms", "L6 tapOn passed 5500ms"},
		check: func(t *testing.T, r semResult) {
			checkLines(t, "tap times", tapTimes(r), []string{"3300", "3550", "4000", "9250", "9500"})
		},
	}})
}
