// Package ios lowers canonical gesture plans for the agent-device XCTest
// runner (agent-device §6): the "gesture" runner request the host sends, and,
// as data, the XCSynthesizedEventRecord the runner builds from it.
//
// The runner owns event synthesis, so the request carries the full canonical
// plan unchanged and [LowerRequest] only checks it against the runner's own
// validation first: a plan the runner would refuse fails here, before an HTTP
// round trip. [Synthesize], [SmoothstepDrag] and [Tap] describe what the
// runner then does with a plan or a coordinate drag: which of its three
// one-contact schedules it picks (fastSwipe for endpoint-hold, the authored
// samples for everything else, smoothstep for its coordinate drag), every
// touch/move/lift with its offset in seconds, and every point converted to
// the device's native portrait space ([ToNative]). They document and pin the
// runner's behaviour so that a fake device can replay it and a change to it
// shows in a snapshot; they cannot prove timing inside the private XCTest
// bridge, which needs live simulator evidence (ADR 0013).
//
// The lowering is pure: no I/O, no clock, no randomness, no package
// state. The runner transport lives in its own files: client.go (HTTP to
// the runner), device.go (exec.Device over it), simulator.go (simctl and
// xcodebuild), iphone.go and goios.go (go-ios over usbmuxd, the iOS 17+
// tunnel), and lock.go (one flow session per device UDID on a host).
//
// ios may import canonical, planner, exec, exec/fsext (the device lock),
// exec/procgroup and go-ios. It must never import the other adapters
// (android, webdriver, sim), maestro or compat, and never regenerate a
// plan's geometry.
package ios
