// Package webdriver lowers canonical gesture plans to W3C WebDriver pointer
// actions (agent-device §7): one touch pointer source per contact, a timed
// pointerMove per planned segment, and a pointerDown/pointerUp around them.
//
// The lowering is deliberately thin. Each planned segment becomes exactly
// one W3C tick, so the sources of a two-contact plan stay tick-aligned and
// the driver owns interpolation across each tick. Drivers that do not
// interpolate will need intermediate moves; that is an [Options] field to
// come, and the zero Options will always produce the exact §7 body.
//
// Lowering is pure: no I/O, no clock, no randomness, no package state. The
// HTTP transport (POST and DELETE /session/:id/actions) will live in its own
// files.
//
// webdriver may import canonical, planner, exec and its own device library.
// It must never import the other adapters (android, ios, sim), maestro or
// compat, and never round or regenerate a plan's geometry.
package webdriver
