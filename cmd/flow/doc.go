// Command flow runs mobile UI test flows (Maestro YAML and .ad scripts) and
// plans gestures without a device.
//
// This package is the only one that sees the whole program: it reads flags,
// the environment and standard streams, opens devices and sessions through
// package flow (the module root, the Go API that flow mcp and embedding
// programs use too), renders errors for people or as JSON, and maps error
// codes to exit codes (contracts §1). Everything below it returns errors
// instead of printing or exiting.
package main
