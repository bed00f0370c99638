// Package webdriver is flow's web platform: a browser driven through W3C
// WebDriver. Locally it starts chromedriver and a headless Chromium that
// emulates a phone (390×844 CSS px, touch, mobile user agent) and cannot
// reach the network; remotely it speaks the same protocol to a Selenium
// Grid, an Appium server with a mobile browser, or a device cloud.
//
// The package has three layers:
//
//   - [Client] (client.go): a thin W3C client over net/http. Errors decode
//     into *canonical.Error; only requests that are safe to repeat are
//     retried, and only when the connection failed.
//   - [LowerActions] and [Schedule] (lower.go, schedule.go): the pure
//     lowering of canonical gesture plans to W3C pointer actions. The zero
//     [Options] produce exactly the agent-device §7 body: one touch source
//     per contact, one timed pointerMove per planned segment. chromedriver
//     does not interpolate a timed move and spends about a frame on every
//     tick, so [Device] lowers with Options.Interpolate and costs it
//     measured once per session: intermediate moves about a frame apart,
//     durations reduced by the measured per-tick cost, so the page observes
//     the planned duration.
//   - [Device] (device.go, local.go): exec.Device over a session: the
//     hierarchy from the DOM in one round trip, touch taps and gestures,
//     keys, navigation, screenshots, and a wait for scrolling to settle
//     after every gesture.
//
// Lowering is pure: no I/O, no clock, no randomness, no package state.
// Process and network access live in client.go, local.go and device.go.
//
// webdriver may import canonical, planner, exec and the standard library.
// It must never import the other adapters (android, ios, sim), maestro or
// compat, and never round or regenerate a plan's geometry: interpolation
// only resamples the trajectory the planner decided.
package webdriver
