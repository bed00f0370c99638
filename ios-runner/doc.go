// Package iosrunner carries flow's iOS runner — the Swift XCTest sources
// and Xcode project in this folder — inside the flow binary, and builds it
// with the Mac's Xcode (`flow ios runner build`, or on first use by `flow
// test --device ios`). The Swift is built and run only on a Mac: see
// README.md here for what Linux verifies and what needs one.
package iosrunner
