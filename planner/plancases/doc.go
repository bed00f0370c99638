// Package plancases is the shared table of gesture plans the platform
// lowerings are tested against: every intent and form the planner makes,
// on an Android and an iOS phone. Each adapter's tests lower the same
// plans, so a planner change shows up in every lowering's snapshots.
package plancases
