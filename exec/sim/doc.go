// Package sim is flow's built-in simulated touchscreen: app models described
// in YAML, recognizers for taps, pans, flings, pinches and rotations, and a
// virtual clock so waits cost no wall time. It is a real adapter, used for
// the README demo and end-to-end tests.
//
// sim imports canonical, planner and exec; never another adapter.
package sim
