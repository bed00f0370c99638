// Package compat holds compatibility as data: Maestro's quirks, removed
// forms with their rewrite hints, and the .ad script codec.
//
// It imports only canonical, so both the Maestro loader and the CLI can use
// it without a cycle; it never imports maestro, planner or exec.
package compat
