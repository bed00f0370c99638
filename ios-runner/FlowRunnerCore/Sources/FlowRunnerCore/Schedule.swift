import Foundation

/// UIInterfaceOrientation's raw values (exec/ios/orientation.go); values
/// the platform does not name behave as portrait.
public enum Orientation {
    public static let unknown = 0
    public static let portrait = 1
    public static let portraitUpsideDown = 2
    public static let landscapeRight = 3
    public static let landscapeLeft = 4

    /// The name `viewport` reports.
    public static func name(_ raw: Int) -> String {
        switch raw {
        case landscapeLeft: return "landscapeLeft"
        case landscapeRight: return "landscapeRight"
        case portraitUpsideDown: return "portraitUpsideDown"
        default: return "portrait"
        }
    }
}

/// Converts a point in the app's oriented frame to native portrait space,
/// where synthesized events are performed. The frame's origin is
/// subtracted and never added back: a record addresses its own window.
public func toNative(_ p: FlowPoint, frame: FlowRect, orientation: Int) -> FlowPoint {
    let lx = p.x - frame.x, ly = p.y - frame.y
    let w = frame.width, h = frame.height
    switch orientation {
    case Orientation.landscapeRight: return FlowPoint(x: h - ly, y: lx)
    case Orientation.landscapeLeft: return FlowPoint(x: ly, y: w - lx)
    case Orientation.portraitUpsideDown: return FlowPoint(x: w - lx, y: h - ly)
    default: return FlowPoint(x: lx, y: ly)
    }
}

/// One XCPointerEventPath call: a touch, a move or a lift (no point).
/// Offsets are seconds from the record's start, as XCTest takes them.
public enum PathEvent: Equatable {
    case touch(FlowPoint, offset: Double)
    case move(FlowPoint, offset: Double)
    case lift(offset: Double)

    public var offset: Double {
        switch self {
        case let .touch(_, o), let .move(_, o): return o
        case let .lift(o): return o
        }
    }
}

/// Names the records carry into the runner's log (exec/ios/synthesize.go).
public let recordSwipe = "flow-swipe"
public let recordGesturePlan = "flow-gesture-plan"
public let recordTap = "flow-tap"

/// The XCSynthesizedEventRecord to perform: its name, the interface
/// orientation it is created with, one path per finger.
public struct EventRecord: Equatable {
    public var name: String
    public var interfaceOrientation: Int
    public var paths: [[PathEvent]]

    /// The record as gestures.jsonl writes it (exec/ios.EventRecord).
    public var json: JSON {
        let list: [JSON] = paths.map { events -> JSON in
            let items: [JSON] = events.map { e -> JSON in
                switch e {
                case let .touch(p, o): return JSON.event("touch", o, p)
                case let .move(p, o): return JSON.event("move", o, p)
                case let .lift(o): return JSON.event("lift", o, nil)
                }
            }
            return JSON.object([("events", JSON.array(items))])
        }
        return JSON.object([
            ("name", JSON.string(name)),
            ("interfaceOrientation", JSON.number(Double(interfaceOrientation))),
            ("paths", JSON.array(list)),
        ])
    }

    /// How long the record takes, to its last lift.
    public var duration: Double {
        paths.flatMap { $0 }.map(\.offset).max() ?? 0
    }
}

extension JSON {
    static func event(_ type: String, _ offset: Double, _ p: FlowPoint?) -> JSON {
        var m: [(String, JSON)] = [("type", .string(type)), ("offset", .number(offset))]
        if let p = p {
            m.append(("point", .object([("x", .number(p.x)), ("y", .number(p.y))])))
        }
        return .object(m)
    }
}

/// What the runner reads from the live app before it synthesizes: the
/// interface orientation and the frame of the app's window.
public struct AppState: Equatable {
    public var orientation: Int
    public var window: FlowRect
    public init(orientation: Int, window: FlowRect) { self.orientation = orientation; self.window = window }
}

/// The schedule a validated plan gets: fastSwipe for a one-contact
/// endpoint-hold plan, its authored samples for everything else.
public enum Schedule: String {
    case fastSwipe
    case authored
}

public func schedule(for plan: GesturePlan) -> Schedule {
    plan.topology == "single" && plan.executionProfile == profileEndpointHold ? .fastSwipe : .authored
}

/// fastSwipe's throw: the end is reached 0.1 s after the touch, as XCTest's
/// own swipe does, so UIKit tells a fling from a timed pan. Public because
/// tapRecord's default argument is inlined into its callers.
public let swipeMoveSeconds = 0.1
public let tapLiftSeconds = 0.05

/// Builds the record for a plan (exec/ios/synthesize.go Synthesize), after
/// validating it. fastSwipe uses the plan's endpoints and holds at the end
/// for the planned duration; sampled records keep every authored sample.
public func synthesize(_ plan: GesturePlan, app: AppState) -> Result<EventRecord, RunnerError> {
    if let e = validate(plan) { return .failure(e) }
    switch schedule(for: plan) {
    case .fastSwipe:
        return swipeRecord(from: plan.start, to: plan.end, durationMs: Double(plan.durationMs), app: app)
    case .authored:
        let paths = plan.pointers.map { p -> [PathEvent] in
            let s = p.samples
            var events: [PathEvent] = [.touch(toNative(s[0].point, frame: plan.viewport, orientation: app.orientation),
                                              offset: seconds(s[0].offsetMs))]
            for sample in s.dropFirst() {
                events.append(.move(toNative(sample.point, frame: plan.viewport, orientation: app.orientation),
                                    offset: seconds(sample.offsetMs)))
            }
            events.append(.lift(offset: seconds(s[s.count - 1].offsetMs)))
            return events
        }
        return .success(EventRecord(name: recordGesturePlan, interfaceOrientation: app.orientation, paths: paths))
    }
}

func seconds(_ ms: Int) -> Double { Double(ms) / 1000 }

/// fastSwipe between two points in the app's oriented frame (Maestro's
/// swipeV2): touch at from, reach to at 0.1 s, hold there for durationMs
/// (clamped to 16...10000), lift. Only the endpoints of a plan matter to it;
/// hideKeyboard's short swipes use it directly.
public func swipeRecord(from: FlowPoint, to: FlowPoint, durationMs: Double, app: AppState) -> Result<EventRecord, RunnerError> {
    guard app.window.isResolved else { return .failure(unresolvedWindow("drag")) }
    let d = min(max(durationMs, Double(minDurationMs)), Double(maxDurationMs))
    let path: [PathEvent] = [
        .touch(toNative(from, frame: app.window, orientation: app.orientation), offset: 0),
        .move(toNative(to, frame: app.window, orientation: app.orientation), offset: swipeMoveSeconds),
        .lift(offset: swipeMoveSeconds + d / 1000),
    ]
    return .success(EventRecord(name: recordSwipe, interfaceOrientation: app.orientation, paths: [path]))
}

/// A synthesized tap or long press: touch at p, lift after holdSeconds
/// (0.05 s for a tap).
public func tapRecord(_ p: FlowPoint, holdSeconds: Double = tapLiftSeconds, app: AppState) -> Result<EventRecord, RunnerError> {
    guard p.x.isFinite && p.y.isFinite else {
        return .failure(.invalidArgs("synthesized coordinate tap requires finite coordinates", hint: "pass finite x and y values"))
    }
    guard app.window.isResolved else { return .failure(unresolvedWindow("tap")) }
    let path: [PathEvent] = [.touch(toNative(p, frame: app.window, orientation: app.orientation), offset: 0),
                             .lift(offset: holdSeconds)]
    return .success(EventRecord(name: recordTap, interfaceOrientation: app.orientation, paths: [path]))
}

func unresolvedWindow(_ kind: String) -> RunnerError {
    .unsupported("synthesized coordinate \(kind) could not resolve an app window with a finite screen frame",
                 hint: "retry after the app is foregrounded, or use a plain screenshot to choose coordinates")
}
