package main

import "testing"

// TestSemanticsTaps: the tap algorithm (maestro-reference §2.8) on sim's
// taps app: a tap that changes nothing is tapped again once (the default
// retryTapIfNoChange), one that changes the hierarchy is not; repeat and
// delay; doubleTapOn; longPressOn's 3 s hold; taps on a point, in grid units
// or percentages.
//
// A tap costs 50 ms; around it a settle poll (200 ms) before and after, so
// one tap is 450 ms and a retried one 700 ms.
func TestSemanticsTaps(t *testing.T) {
	t.Parallel()
	plain := []string{"tap 500,250", "observed plain tap"}
	runSemCases(t, []semCase{{
		name:   "no_change_taps_twice",
		flow:   "tap_plain.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 700ms"},
		events: with(launchTaps, append(plain, plain...)...),
	}, {
		name:   "change_taps_once",
		flow:   "tap_navigates.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms"},
		events: with(launchTaps, "tap 500,450", "observed next tap", `observed next navigate screen="second"`),
	}, {
		name:   "checked_flag_change_taps_once",
		flow:   "tap_toggles.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms"},
		events: with(launchTaps, "tap 250,1050", "observed check tap", "observed check toggle checked=true"),
	}, {
		name:   "retryTapIfNoChange_false_taps_once",
		flow:   "tap_no_retry.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms"},
		events: with(launchTaps, plain...),
	}, {
		// A disabled element takes the tap and does nothing: retried.
		name:  "disabled_element",
		flow:  "tap_disabled.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn passed 700ms"},
		events: with(launchTaps, "tap 750,1050", "observed off tap enabled=false",
			"tap 750,1050", "observed off tap enabled=false"),
	}, {
		// repeat: 3, delay: 500: taps start 500 ms apart and the last is
		// followed by the delay too; nothing changed, so the group of three
		// is tapped again.
		name:  "repeat_delay_retried_as_a_group",
		flow:  "tap_repeat.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 tapOn passed 3600ms"},
		check: func(t *testing.T, r semResult) {
			checkLines(t, "events", r.eventLines(), with(launchTaps, plain[0], plain[1], plain[0], plain[1], plain[0], plain[1],
				plain[0], plain[1], plain[0], plain[1], plain[0], plain[1]))
			checkLines(t, "tap times", tapTimes(r), []string{"500", "1000", "1500", "2200", "2700", "3200"})
		},
	}, {
		name:   "repeat_without_retry",
		flow:   "tap_repeat_no_retry.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 600ms"},
		events: with(launchTaps, append(plain, plain...)...),
		check: func(t *testing.T, r semResult) {
			checkLines(t, "tap times", tapTimes(r), []string{"500", "600"}) // default delay 100
		},
	}, {
		name:   "double_tap_no_change_is_retried",
		flow:   "tap_double_plain.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 doubleTapOn passed 1000ms"},
		events: with(launchTaps, plain[0], plain[1], plain[0], plain[1], plain[0], plain[1], plain[0], plain[1]),
		check: func(t *testing.T, r semResult) {
			checkLines(t, "tap times", tapTimes(r), []string{"500", "600", "900", "1000"})
		},
	}, {
		// Checked twice is unchecked again: the hierarchy after equals the
		// one before, so Maestro double-taps a second time.
		name:  "double_tap_toggle_twice_is_no_change",
		flow:  "tap_double_toggle.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 doubleTapOn passed 1000ms"},
		events: with(launchTaps,
			"tap 250,1050", "observed check tap", "observed check toggle checked=true",
			"tap 250,1050", "observed check tap", "observed check toggle checked=false",
			"tap 250,1050", "observed check tap", "observed check toggle checked=true",
			"tap 250,1050", "observed check tap", "observed check toggle checked=false"),
	}, {
		// delay sets the gap of a double tap; the first tap navigated, so
		// the second lands on an empty spot of the next screen.
		name:   "double_tap_delay",
		flow:   "tap_double_next.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 doubleTapOn passed 1000ms"},
		events: with(launchTaps, "tap 500,450", "observed next tap", `observed next navigate screen="second"`, "tap 500,450"),
		check: func(t *testing.T, r semResult) {
			checkLines(t, "tap times", tapTimes(r), []string{"500", "800"})
		},
	}, {
		name:   "long_press",
		flow:   "tap_long.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 longPressOn passed 3400ms", "L5 assertVisible passed 0ms"},
		events: with(launchTaps, "longPress 500,650 3000ms", "observed hold longPress", "observed held show"),
	}, {
		name:  "long_press_no_change_is_retried",
		flow:  "tap_long_plain.yaml",
		steps: []string{"L3 launchApp passed 300ms", "L4 longPressOn passed 6600ms"},
		events: with(launchTaps, "longPress 500,250 3000ms", "observed plain longPress",
			"longPress 500,250 3000ms", "observed plain longPress"),
	}, {
		name:   "long_press_point",
		flow:   "tap_long_point.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 longPressOn passed 3400ms"},
		events: with(launchTaps, "longPress 500,650 3000ms", "observed hold longPress", "observed held show"),
	}, {
		name:   "point_grid_units",
		flow:   "tap_point.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L6 assertVisible passed 0ms"},
		events: with(launchTaps, "tap 500,450", "observed next tap", `observed next navigate screen="second"`),
	}, {
		// 50% of 1000, 22% of 2000.
		name:   "point_percent",
		flow:   "tap_point_percent.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L6 assertVisible passed 0ms"},
		events: with(launchTaps, "tap 500,440", "observed next tap", `observed next navigate screen="second"`),
	}, {
		name:   "point_interpolated",
		flow:   "tap_point_env.yaml",
		args:   []string{"-e", "X=500", "-e", "Y=450"},
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 450ms", "L6 assertVisible passed 0ms"},
		events: with(launchTaps, "tap 500,450", "observed next tap", `observed next navigate screen="second"`),
	}, {
		// Any % makes both numbers percentages: "50%,10" is (500, 200).
		name:   "point_one_percent_makes_both",
		flow:   "tap_point_mixed.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 tapOn passed 700ms"},
		events: with(launchTaps, "tap 500,200", "observed plain tap", "tap 500,200", "observed plain tap"),
	}, {
		name:   "double_tap_point",
		flow:   "tap_double_point.yaml",
		steps:  []string{"L3 launchApp passed 300ms", "L4 doubleTapOn passed 1000ms"},
		events: with(launchTaps, "tap 250,200", "observed plain tap", "tap 250,200", "observed plain tap", "tap 250,200", "observed plain tap", "tap 250,200", "observed plain tap"),
	}, {
		// Maestro's own 071_tapOnRelativePoint.yaml (IntegrationTest "Case
		// 071 - Tap on relative point"): 100%,100% taps (width, height)
		// itself, which reaches the device but no element; each tap that
		// changes nothing is retried once, as every point tap is.
		name:  "point_percent_edges",
		flow:  "tap_point_edges.yaml",
		steps: []string{"L9 launchApp passed 300ms", "L10 tapOn passed 700ms", "L12 tapOn passed 700ms", "L14 tapOn passed 700ms", "L16 tapOn passed 700ms", "L18 tapOn passed 700ms"},
		events: []string{"tap 0,0", "tap 0,0", "tap 1000,2000", "tap 1000,2000", "tap 500,1000", "tap 500,1000",
			"tap 250,500", "tap 250,500", "tap 250,500", "tap 250,500"},
		eventTypes: []string{"tap"},
	}, {
		// A literal percentage outside 0..100 is refused when the flow
		// loads (Maestro: at run time), so nothing runs.
		name:   "point_percent_out_of_range",
		flow:   "tap_point_out.yaml",
		code:   2,
		status: "failed",
		err:    &wantErr{Code: "INVALID_ARGS", Message: `point "150%,10%" has a percentage outside 0%..100%`, Line: 5, Col: 12},
		steps:  []string{},
		events: []string{},
	}})
}

// tapTimes lists the virtual times of the tap events.
func tapTimes(r semResult) []string {
	var out []string
	for _, e := range r.events {
		if e.Type == "tap" {
			out = append(out, num(float64(e.T)))
		}
	}
	return out
}

// TestSemanticsSwipes: every swipe form becomes one planned pan with the
// endpoint-hold profile, 400 ms unless duration says otherwise, with
// Maestro's per-platform geometry (§5.1, §5.2): a direction swipe UP starts
// at 50% height on Android and at 90% on iOS; scroll is 400 ms on Android
// and 333 ms on iOS. On the taps app nothing scrolls, so only the plans
// show.
func TestSemanticsSwipes(t *testing.T) {
	t.Parallel()
	forms := func(upStart, scrollMs string) []string {
		return with(launchTaps,
			"gesture 500,"+upStart+">500,200 400ms endpoint-hold",   // direction UP
			"gesture 500,400>500,1800 500ms endpoint-hold",          // DOWN, duration 500
			"gesture 900,1000>100,1000 400ms endpoint-hold",         // LEFT
			"gesture 100,1000>900,1000 400ms endpoint-hold",         // RIGHT
			"gesture 100,400>900,1600 400ms endpoint-hold",          // 10%,20% → 90%,80%
			"gesture 100,200>300,400 1000ms endpoint-hold",          // absolute, 1000 ms
			"gesture 500,650>100,650 400ms endpoint-hold",           // from {id: hold} LEFT
			"gesture 500,450>500,200 400ms endpoint-hold",           // from "Next" UP
			"gesture 500,1000>500,200 "+scrollMs+"ms endpoint-hold") // scroll
	}
	steps := []string{"L3 launchApp passed 300ms", "L4 swipe passed 600ms", "L6 swipe passed 700ms",
		"L9 swipe passed 600ms", "L11 swipe passed 600ms", "L13 swipe passed 600ms", "L16 swipe passed 1200ms",
		"L20 swipe passed 600ms", "L23 swipe passed 600ms"}
	runSemCases(t, []semCase{{
		name:   "android",
		flow:   "swipe_forms.yaml",
		steps:  append(append([]string{}, steps...), "L26 scroll passed 600ms"),
		events: forms("1000", "400"),
	}, {
		name:   "sim_ios",
		flow:   "swipe_forms.yaml",
		args:   []string{"--device", "sim:ios"},
		steps:  append(append([]string{}, steps...), "L26 scroll passed 533ms"),
		events: forms("1800", "333"),
	}, {
		// The list app's model is iOS: with --device sim a flow plans with
		// the model's platform. An iOS swipe reaches its end in 100 ms and
		// rests, so the list moves exactly the finger's travel.
		name:  "scroll_moves_list_ios_model",
		flow:  "swipe_scroll_list.yaml",
		apps:  []string{"list"},
		steps: []string{"L3 launchApp passed 300ms", "L4 scroll passed 533ms", "L5 assertVisible passed 0ms", "L6 assertNotVisible passed 500ms", "L7 swipe passed 600ms"},
		events: with(launchList,
			"gesture 500,1000>500,200 333ms endpoint-hold", "observed rows scroll offset=0,800",
			"gesture 500,400>500,1800 400ms endpoint-hold", "observed rows scroll offset=0,0"),
	}, {
		// sim:android plans the same scroll with Android's 400 ms, which
		// the Android transport drags linearly: the finger still moves at
		// lift, so the list is flung past the 800 px of travel.
		name:  "sim_android_overrides_the_model",
		flow:  "swipe_scroll_fling.yaml",
		apps:  []string{"list"},
		args:  []string{"--device", "sim:android"},
		steps: []string{"L3 launchApp passed 300ms", "L4 scroll passed 600ms"},
		check: func(t *testing.T, r semResult) {
			checkLines(t, "gestures", r.eventLines("gesture"), []string{"gesture 500,1000>500,200 400ms endpoint-hold"})
			var off float64
			for _, e := range r.events {
				if e.Type == "observed" && e.F["event"] == "scroll" {
					off = e.F["offset"].(map[string]any)["y"].(float64)
				}
			}
			if off <= 800 {
				t.Errorf("an Android scroll should fling the list past 800 px, offset %v", off)
			}
		},
	}})
}

// TestSemanticsScrollUntilVisible: §5.4 on the list app (iOS, so each
// swipe moves the list by exactly 800 px): a 500 ms probe, then a swipe
// from the centre (speed 40 → 601 ms) and a settle poll, 1301 ms a round,
// until the element is visible enough or the timeout passes.
func TestSemanticsScrollUntilVisible(t *testing.T) {
	t.Parallel()
	swipe := func(ms string) string { return "gesture 500,1000>500,200 " + ms + "ms endpoint-hold" }
	scrolled := func(y string) string { return "observed rows scroll offset=0," + y }
	list := []string{"list"}
	runSemCases(t, []semCase{{
		name:   "visible_at_once_no_swipe",
		flow:   "suv_visible.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 0ms"},
		events: launchList,
	}, {
		// Row 12 is laid out only once the list is 1600 px down.
		name:   "found_after_two_swipes",
		flow:   "suv_found.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 2602ms"},
		events: with(launchList, swipe("601"), scrolled("800"), swipe("601"), scrolled("1600")),
	}, {
		name:   "interpolated_element_timeout_speed",
		flow:   "suv_env.yaml",
		apps:   list,
		args:   []string{"-e", "TARGET=Row 12", "-e", "TIMEOUT=10000", "-e", "SPEED=40"},
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 2602ms"},
		events: with(launchList, swipe("601"), scrolled("800"), swipe("601"), scrolled("1600")),
	}, {
		// After one swipe Row 10 is 40% on screen: not enough for the
		// default visibilityPercentage 100.
		name:   "partly_visible_needs_100_percent",
		flow:   "suv_partly.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 2102ms"},
		events: with(launchList, swipe("601"), scrolled("800"), swipe("601"), scrolled("1600")),
	}, {
		// visibilityPercentage 50 acts as 0 (integer division): 40% will do.
		name:   "visibility_percentage_below_100_is_0",
		flow:   "suv_partly_quirk.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 1301ms"},
		events: with(launchList, swipe("601"), scrolled("800")),
	}, {
		// centerElement: visible at 1600 px is not near the centre (its
		// centre 1725 is below h/2 + h/5 = 1400); one more swipe.
		name:   "center_element",
		flow:   "suv_center.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 3403ms"},
		events: with(launchList, swipe("601"), scrolled("800"), swipe("601"), scrolled("1600"), swipe("601"), scrolled("2400")),
	}, {
		// Content direction UP swipes DOWN from the centre.
		name:  "direction_up",
		flow:  "suv_up.yaml",
		apps:  list,
		steps: []string{"L3 launchApp passed 300ms", "L4 scroll passed 533ms", "L5 scroll passed 533ms", "L6 scrollUntilVisible passed 2602ms"},
		events: with(launchList, swipe("333"), scrolled("800"), swipe("333"), scrolled("1600"),
			"gesture 500,1000>500,1800 601ms endpoint-hold", scrolled("800"),
			"gesture 500,1000>500,1800 601ms endpoint-hold", scrolled("0")),
	}, {
		// timeout 3000: rounds end at 1301, 2602 (< 3000, so once more) and
		// 3903 ms; the last failed probe is still followed by a swipe.
		name:   "not_found_after_timeout",
		flow:   "suv_not_found.yaml",
		apps:   list,
		code:   1,
		status: "failed",
		err: &wantErr{Code: "ELEMENT_NOT_FOUND", Message: `No visible element found: "Row 99"`,
			Hint: "did not come into view within the timeout", Line: 4, Col: 3},
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible failed 3903ms ELEMENT_NOT_FOUND"},
		events: with(launchList, swipe("601"), scrolled("800"), swipe("601"), scrolled("1600"), swipe("601"), scrolled("2400")),
	}, {
		// speed s → floor(1000*(100-s)/100)+1 ms.
		name:   "speed_0",
		flow:   "suv_speed_0.yaml",
		apps:   list,
		steps:  []string{"L3 launchApp passed 300ms", "L4 scrollUntilVisible passed 3402ms"},
		events: with(launchList, swipe("1001"), scrolled("800"), swipe("1001"), scrolled("1600")),
	}, {
		// 101 ms: the iOS finger rests only 1 ms, so the list is flung.
		name: "speed_90",
		flow: "suv_speed_90.yaml",
		apps: list,
		check: func(t *testing.T, r semResult) {
			checkLines(t, "gestures", r.eventLines("gesture"), []string{swipe("101"), swipe("101")})
		},
	}, {
		// Maestro asks for 1 ms; a planned pan lasts at least 16 ms.
		name: "speed_100",
		flow: "suv_speed_100.yaml",
		apps: list,
		check: func(t *testing.T, r semResult) {
			checkLines(t, "gestures", r.eventLines("gesture"), []string{swipe("16")})
		},
	}, {
		// Over 100 the formula goes negative and Maestro swipes for 40 ms.
		name: "speed_over_100",
		flow: "suv_speed_110.yaml",
		apps: list,
		check: func(t *testing.T, r semResult) {
			checkLines(t, "gestures", r.eventLines("gesture"), []string{swipe("40")})
		},
	}})
}
