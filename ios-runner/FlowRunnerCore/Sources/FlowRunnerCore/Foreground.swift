import Foundation

/// SpringBoard: the home screen, and the owner of system alerts.
public let springboardBundleId = "com.apple.springboard"

/// XCUIApplication.State's raw values (XCTest's XCUIApplication.h):
/// unknown 0, notRunning 1, runningBackgroundSuspended 2,
/// runningBackground 3, runningForeground 4.
public enum RunState: Int {
    case unknown = 0
    case notRunning = 1
    case suspended = 2
    case background = 3
    case foreground = 4
}

/// A running app as the accessibility client lists it
/// (XCAXClient_iOS.activeApplications): its process and bundle id.
public struct RunningApp: Equatable {
    public var bundleId: String
    public var pid: Int32

    public init(bundleId: String, pid: Int32) {
        self.bundleId = bundleId
        self.pid = pid
    }
}

/// The app the runner addresses, by bundle id; nil is SpringBoard.
///
/// First the apps flow names, in its order (Maestro picks the first of its
/// app ids that runs in the foreground), then the one flow used last, then
/// every other app the device runs: an app opened by openLink, by another
/// app, or running before flow attached is in front without flow having
/// named it, and reads, typing and gestures must address it, not
/// SpringBoard. state is asked lazily (each answer is a round trip to
/// testmanagerd), at most once per bundle id, and never for SpringBoard.
public func foregroundApp(requested: [String], last: String?, running: [RunningApp],
                          state: (String) -> RunState) -> String? {
    var asked = Set<String>()
    var order: [String] = requested
    if let last = last { order.append(last) }
    order += running.map(\.bundleId)
    for id in order where !id.isEmpty && id != springboardBundleId {
        if !asked.insert(id).inserted { continue }
        if state(id) == .foreground {
            return id
        }
    }
    return nil
}
