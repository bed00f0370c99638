//go:build race

package main

// raceDetector reports whether the test binary was built with -race, whose
// shadow memory multiplies resident memory five- to tenfold, so absolute
// memory bounds measured on it say nothing about the shipped binary.
const raceDetector = true
