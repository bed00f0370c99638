// Package flow is flow's Go API: the engine the flow CLI, `flow mcp` and
// .ad scripts run on, for Go programs that embed it instead of shelling
// out.
//
// Every input — a Maestro flow, an .ad line, a CLI argument, structured
// JSON — is normalized once (package canonical), planned once by one
// deterministic planner (package planner), and only then lowered by a
// device adapter (package exec and its subpackages). The API reaches the
// same functions the CLI does, so its plans, results and coded errors are
// the CLI's.
//
// The API:
//
//   - [PlanGesture] plans structured gesture input (contracts §3) with no
//     device.
//   - [Check] checks flows and .ad scripts with no device, as flow check
//     does: syntax, keys, referenced files, gestures that cannot fit.
//   - [Run] runs flow files, folders or a workspace on a device, as flow
//     test does, and returns the report value (exec.RunResult; package
//     exec/report writes it as JUnit, JSON or HTML). [Load] and [RunPlan]
//     are its two halves, for callers that act between them;
//     [RunParallel] runs a loaded plan from one queue on several devices
//     (flow test --parallel).
//   - [OpenSession] opens a device by name — sim, web, android[:SERIAL],
//     ios[:UDID], appium — and a [Session] performs actions on it: Launch, Press,
//     Fill, Type, Swipe, Scroll, Gesture, Back, Home, Snapshot (with
//     @refs), Screenshot, Wait, Is, or any CLI device command with Do;
//     RunFlow runs a normalized flow on it (ParseLine reads an .ad line),
//     as flow studio's command box does.
//   - [Devices] lists the devices flow can run on.
//
// Errors are *canonical.Error values: a code, a message, a position when
// there is one, details and a hint; canonical.Coded turns any error into
// one and encoding/json writes it as the CLI's --json does.
//
// The other exported names (OpenDevice, OpenDevices, SimState,
// LoadAdFile, …) are the building blocks cmd/flow puts its commands
// together from; they are stable only as far as the CLI needs them.
package flow
