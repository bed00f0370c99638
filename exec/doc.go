// Package exec runs canonical commands on a device: it plans each gesture
// against a freshly read viewport, hands the plan to the device through one
// PerformGesture primitive, and waits and asserts with Maestro's semantics.
//
// exec is format-agnostic: a flow from YAML and one from .ad look the same.
// It imports canonical and planner only, never maestro or compat; platform
// adapters live in its subpackages and never import each other.
package exec
