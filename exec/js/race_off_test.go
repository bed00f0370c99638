//go:build !race

package js

// raceDetector: see race_on_test.go.
const raceDetector = false
