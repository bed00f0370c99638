// Package procgroup starts a helper program (chromedriver, xcodebuild) in
// a process group of its own and ends the whole group, so a driver never
// outlives flow with the browsers or simulator tools it started. Where
// process groups do not exist, only the program itself is ended.
package procgroup
