// Package canonical is flow's one normalization boundary.
//
// Every surface — Maestro YAML, .ad lines, CLI arguments and structured JSON —
// is turned into the values of this package exactly once. Downstream packages
// (planner, exec and its adapters) only ever see canonical values, so a rule
// enforced here is enforced for every surface at the same time.
//
// The package also owns the one coded error type, [Error], that every layer
// returns: it carries a code, a message, a hint, a source position and
// machine-readable details, and it is what the CLI renders and maps to exit
// codes.
//
// canonical imports nothing else from flow and only the standard library; it
// does no I/O, reads no clock and keeps no state.
package canonical
