// Package compat holds compatibility as data: Maestro's quirks, removed
// forms with their rewrite hints, and the .ad script codec.
//
// The .ad codec (adscript*.go) reads and writes agent-device's plain-text
// scripts with agent-device 0.21.5's grammar: [ParseScript] is syntax plus
// the one gesture arity table (canonical.CheckArity, shared with the CLI),
// so a removed form fails before any device action; [Resolve] substitutes
// ${VAR} late, right before a step; [Converter.Steps] turns a resolved
// action into canonical commands; [Encode] writes scripts back with the
// recorder's quoting, byte-stable.
//
// It imports only canonical, so both the Maestro loader and the CLI can use
// it without a cycle; it never imports maestro, planner or exec.
package compat
