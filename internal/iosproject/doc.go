// Command iosproject writes ios-runner/FlowRunner.xcodeproj from the Swift
// and Objective-C files under ios-runner/. Run it from the repository root
// after adding, moving or removing a runner source:
//
//	go run ./internal/iosproject
//
// The project is generated, not edited in Xcode, because no machine of ours
// runs Xcode: a hand-edited project file would drift from the sources with
// nothing here to notice. Its tests parse the committed file as Xcode does
// (an OpenStep property list) and fail when it is stale or leaves a source
// out.
package main
