import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// M3: the app in front is found among every running app, not only those
/// flow named or launched.
final class ForegroundTests: XCTestCase {
    /// A device: each bundle id's state, and which ids were asked.
    final class Device {
        var states: [String: RunState]
        var asked: [String] = []
        init(_ states: [String: RunState]) { self.states = states }
        func state(_ id: String) -> RunState {
            asked.append(id)
            return states[id] ?? .notRunning
        }
    }

    func testFlowsAppsFirstInTheirOrder() {
        let d = Device(["com.a": .background, "com.b": .foreground, "com.c": .foreground])
        XCTAssertEqual(foregroundApp(requested: ["com.a", "com.b", "com.c"], last: nil, running: [], state: d.state), "com.b")
        XCTAssertEqual(d.asked, ["com.a", "com.b"], "states are asked only until one is in front")
    }

    func testAnAppFlowNeverNamedIsFound() {
        // Safari opened by openLink, running before flow attached: not in
        // appIds, not launched by flow, but in front.
        let d = Device(["com.example.shop": .background, "com.apple.mobilesafari": .foreground, springboardBundleId: .foreground])
        let running = [RunningApp(bundleId: springboardBundleId, pid: 50), RunningApp(bundleId: "com.apple.mobilesafari", pid: 812)]
        XCTAssertEqual(foregroundApp(requested: ["com.example.shop"], last: "com.example.shop", running: running, state: d.state),
                       "com.apple.mobilesafari")
        XCTAssertFalse(d.asked.contains(springboardBundleId), "SpringBoard is the fallback, never a candidate")
        XCTAssertEqual(d.asked.filter { $0 == "com.example.shop" }.count, 1, "one question per bundle id")
    }

    func testTheAppUsedLastBeforeOtherRunningApps() {
        let d = Device(["com.last": .foreground, "com.other": .foreground])
        XCTAssertEqual(foregroundApp(requested: [], last: "com.last", running: [RunningApp(bundleId: "com.other", pid: 9)], state: d.state),
                       "com.last")
    }

    func testNothingInFrontIsSpringBoard() {
        let d = Device(["com.a": .suspended, "com.b": .background])
        XCTAssertNil(foregroundApp(requested: ["com.a"], last: "com.b", running: [RunningApp(bundleId: springboardBundleId, pid: 50)],
                                   state: d.state))
        XCTAssertNil(foregroundApp(requested: [], last: nil, running: [], state: d.state))
    }

    func testRunStateRawValuesAreXCTests() {
        // XCUIApplication.State: unknown, notRunning, runningBackgroundSuspended,
        // runningBackground, runningForeground.
        XCTAssertEqual([RunState.unknown, .notRunning, .suspended, .background, .foreground].map(\.rawValue), [0, 1, 2, 3, 4])
    }
}
