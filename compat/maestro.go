package compat

import "github.com/flow-runner/flow/canonical"

// Quirk is one Maestro behaviour flow reproduces on purpose, with where
// Maestro does it, so a reader can check it and a test can pin it.
type Quirk struct {
	ID     string
	What   string
	Source string
}

// Quirks lists the Maestro behaviours encoded in this package.
func Quirks() []Quirk {
	return []Quirk{
		{"swipe-default-duration", "every swipe form lasts 400 ms unless duration is given", "YamlSwipe.kt:58"},
		{"swipe-up-start", "a direction swipe UP starts at 50% height on Android and 90% on iOS", "AndroidDriver.kt:394, IOSDriver.kt:254"},
		{"swipe-element-end", "a swipe from an element moves one axis to 10% or 90% of the screen", "AndroidDriver.kt:449"},
		{"swipe-endpoint-hold", "iOS swipes reach the end in 100 ms and hold there for the duration", "EventRecord.swift"},
		{"scroll-duration", "scroll is a swipe up from the centre: 400 ms on Android, 333 ms on iOS", "AndroidDriver.kt:370, IOSDriver.kt:221"},
		{"long-press", "long presses hold 3000 ms on every platform", "AndroidDriver.kt:267"},
		{"tap-retry", "taps are retried once when neither hierarchy nor screenshot changed", "Maestro.kt:269"},
		{"scroll-until-visible-speed", "scrollUntilVisible speed s becomes a floor(1000*(100-s)/100)+1 ms swipe; negative results become 40 ms", "Commands.kt:119"},
		{"scroll-until-visible-visibility", "visibilityPercentage below 100 behaves like 0 (integer division)", "Orchestra.kt:506"},
		{"erase-default", "eraseText without a count erases 50 characters", "Orchestra.kt:1269"},
		{"retry-cap", "retry maxRetries is capped at 3", "Orchestra.kt:1270"},
		{"lookup-timeouts", "element lookups wait 17 s, 7 s when optional, minus the time since the last interaction", "Orchestra.kt:78"},
	}
}

// DefaultSwipeDurationMs is Maestro's swipe duration when none is given.
const DefaultSwipeDurationMs = 400

// Duration bounds of a canonical pan (ADR 0013).
const (
	minPanMs = canonical.MinDurationMs
	maxPanMs = canonical.MaxDurationMs
)

// ClampSwipeDuration fits a Maestro swipe duration into the canonical pan's
// 16..10000 ms. Maestro itself accepts any duration (scrollUntilVisible at
// speed 100 asks for 1 ms); one planner frame is the physical minimum. It
// reports whether the value changed so the loader can say so.
func ClampSwipeDuration(ms int) (int, bool) {
	switch {
	case ms < minPanMs:
		return minPanMs, true
	case ms > maxPanMs:
		return maxPanMs, true
	}
	return ms, false
}

func pt(x, y float64) canonical.Point { return canonical.Point{X: x, Y: y} }

// DirectionSwipe is the start and end, as fractions of the viewport, of a
// direction-only swipe (maestro-reference §5.2). ok is false for an unknown
// direction. Directions are upper case here.
func DirectionSwipe(direction string) (start, end canonical.PlatformValue[canonical.Point], ok bool) {
	switch direction {
	case "UP":
		iosStart := pt(0.5, 0.9)
		return canonical.PlatformValue[canonical.Point]{Default: pt(0.5, 0.5), IOS: &iosStart},
			canonical.Same(pt(0.5, 0.1)), true
	case "DOWN":
		return canonical.Same(pt(0.5, 0.2)), canonical.Same(pt(0.5, 0.9)), true
	case "RIGHT":
		return canonical.Same(pt(0.1, 0.5)), canonical.Same(pt(0.9, 0.5)), true
	case "LEFT":
		return canonical.Same(pt(0.9, 0.5)), canonical.Same(pt(0.1, 0.5)), true
	}
	return canonical.PlatformValue[canonical.Point]{}, canonical.PlatformValue[canonical.Point]{}, false
}

// ElementSwipeEnd is where a swipe that starts on an element (or at the
// screen centre) ends: one axis moves to a viewport fraction, the other
// stays.
func ElementSwipeEnd(direction string) (axis string, at float64, ok bool) {
	switch direction {
	case "UP":
		return "y", 0.1, true
	case "DOWN":
		return "y", 0.9, true
	case "RIGHT":
		return "x", 0.9, true
	case "LEFT":
		return "x", 0.1, true
	}
	return "", 0, false
}

// Scroll is Maestro's scroll command as a swipe: up from the centre, with
// a per-platform duration.
func Scroll() (start, end canonical.PlatformValue[canonical.Point], duration canonical.PlatformValue[int]) {
	ios := 333
	return canonical.Same(pt(0.5, 0.5)), canonical.Same(pt(0.5, 0.1)),
		canonical.PlatformValue[int]{Default: 400, IOS: &ios}
}

// LongPressMs is how long Maestro holds a long press.
const LongPressMs = 3000

// Removed is a form Maestro declares but refuses, or that flow refuses,
// with the rewrite to use instead.
type Removed struct {
	Form string
	Why  string
	Hint string
}

// RemovedCommand reports whether a command name is a removed form.
func RemovedCommand(name string) (Removed, bool) {
	switch name {
	case "openBrowser":
		return Removed{Form: "openBrowser", Why: "openBrowser is declared by Maestro but never worked: every Maestro version refuses it",
			Hint: "use openLink: {link: URL, browser: true}"}, true
	}
	return Removed{}, false
}

// ScrollSpeedMs is how long each swipe of a scrollUntilVisible lasts at a
// speed (Maestro's speedToDuration in Commands.kt): 10*(100-speed)+1 ms,
// or 40 ms when that is negative (a speed above 100).
func ScrollSpeedMs(speed int64) int64 {
	d := 1000*(100-speed)/100 + 1
	if d < 0 {
		return 40
	}
	return d
}
