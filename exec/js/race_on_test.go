//go:build race

package js

// raceDetector reports whether the test binary was built with -race. The
// race run slows every instruction and shares the machine with the other
// race builds, so the watchdog wakes tens of milliseconds late while a
// doubling string keeps doubling: how far a script overshoots there says
// nothing about the shipped binary.
const raceDetector = true
