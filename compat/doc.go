// Package compat holds compatibility as data: Maestro's quirks, each with
// where Maestro does it, and the removed Maestro commands with their
// rewrite hints.
//
// It imports only canonical, so the Maestro loader and the conversions can
// use it without a cycle; it never imports maestro, planner or exec. The .ad
// script codec is its own format, in package ad; conversions between .ad
// and Maestro are in package convert.
package compat
