// swift-tools-version:5.9
// The runner's pure part: the flow-runner-v1 protocol, HTTP framing, gesture
// validation and schedules, the element model. Foundation only, so its
// tests run with `swift test` on macOS and Linux; the Xcode project compiles
// these same sources into the UI-test bundle.
import PackageDescription

let package = Package(
    name: "FlowRunnerCore",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "FlowRunnerCore", targets: ["FlowRunnerCore"]),
    ],
    targets: [
        .target(name: "FlowRunnerCore"),
        .testTarget(name: "FlowRunnerCoreTests", dependencies: ["FlowRunnerCore"]),
    ]
)
