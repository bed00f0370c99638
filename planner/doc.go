// Package planner turns canonical gesture intent into a deterministic
// GesturePlan (ADR 0013): contact topology, execution profile, duration,
// viewport and every pointer's samples.
//
// The planner is pure: no clock, no randomness, no I/O, no cached viewport.
// Same input, same bytes. It never clamps or distorts a requested gesture:
// geometry that does not fit the viewport (with its 1-point inset) fails with
// GESTURE_TRAJECTORY_OUT_OF_BOUNDS, and non-finite motion with
// GESTURE_TRAJECTORY_NON_FINITE, before anything can reach a lowering.
//
// Numbers follow agent-device 0.21.5 point for point: operation order is kept
// and products are wrapped in explicit float64 conversions so no platform
// fuses them into FMA instructions.
//
// planner imports only canonical.
package planner
