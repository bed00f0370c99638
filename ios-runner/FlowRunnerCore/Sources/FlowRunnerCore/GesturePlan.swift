import Foundation

/// A point. Named FlowPoint (and FlowRect) because MacTypes.h's Point and
/// Rect are visible wherever Foundation is, and would make the names
/// ambiguous in the tests' module.
public struct FlowPoint: Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A rectangle in points: the plan's viewport, the app's window.
public struct FlowRect: Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    var isResolved: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite && width > 0 && height > 0
    }
}

public struct Sample: Equatable {
    public var offsetMs: Int
    public var point: FlowPoint
}

public struct Pointer: Equatable {
    public var pointerId: Int
    public var samples: [Sample]
}

/// flow's canonical gesture plan as `exec/ios.RunnerRequest` carries it
/// (planner/plan.go). Strings are kept as sent: validation, not decoding,
/// refuses an unknown topology or intent, with its own message.
public struct GesturePlan: Equatable {
    public var topology: String
    public var intent: String
    public var executionProfile: String
    public var durationMs: Int
    public var viewport: FlowRect
    public var pointers: [Pointer]

    /// Reads a plan as Go's encoding/json reads planner.Plan: absent
    /// fields are zero, a field of the wrong type makes it no plan (nil).
    public init?(json: JSON) {
        guard case .object = json else { return nil }
        guard let topology = GesturePlan.string(json["topology"]),
              let intent = GesturePlan.string(json["intent"]),
              let profile = GesturePlan.string(json["executionProfile"]),
              let duration = GesturePlan.integer(json["durationMs"]),
              let viewport = GesturePlan.rect(json["viewport"]) else { return nil }
        var pointers: [Pointer] = []
        if let raw = json["pointers"], raw != .null {
            guard let list = raw.arrayValue else { return nil }
            for p in list {
                guard case .object = p, let id = GesturePlan.integer(p["pointerId"]) else { return nil }
                var samples: [Sample] = []
                if let rawSamples = p["samples"], rawSamples != .null {
                    guard let ss = rawSamples.arrayValue else { return nil }
                    for s in ss {
                        guard case .object = s, let offset = GesturePlan.integer(s["offsetMs"]),
                              let point = GesturePlan.point(s["point"]) else { return nil }
                        samples.append(Sample(offsetMs: offset, point: point))
                    }
                }
                pointers.append(Pointer(pointerId: id, samples: samples))
            }
        }
        self.topology = topology
        self.intent = intent
        self.executionProfile = profile
        self.durationMs = duration
        self.viewport = viewport
        self.pointers = pointers
    }

    static func string(_ v: JSON?) -> String? {
        guard let v = v, v != .null else { return "" }
        return v.stringValue
    }

    static func number(_ v: JSON?) -> Double? {
        guard let v = v, v != .null else { return 0 }
        return v.numberValue
    }

    /// An int field: Go refuses a fraction or a number out of int's range.
    static func integer(_ v: JSON?) -> Int? {
        guard let n = number(v), n == n.rounded(), abs(n) < 9.2e18 else { return nil }
        return Int(n)
    }

    static func point(_ v: JSON?) -> FlowPoint? {
        guard let v = v, v != .null else { return FlowPoint(x: 0, y: 0) }
        guard case .object = v, let x = number(v["x"]), let y = number(v["y"]) else { return nil }
        return FlowPoint(x: x, y: y)
    }

    static func rect(_ v: JSON?) -> FlowRect? {
        guard let v = v, v != .null else { return FlowRect(x: 0, y: 0, width: 0, height: 0) }
        guard case .object = v, let x = number(v["x"]), let y = number(v["y"]),
              let w = number(v["width"]), let h = number(v["height"]) else { return nil }
        return FlowRect(x: x, y: y, width: w, height: h)
    }

    public var start: FlowPoint { pointers[0].samples[0].point }
    public var end: FlowPoint { pointers[0].samples[pointers[0].samples.count - 1].point }
}

/// The execution profiles (canonical/gesture.go) and their bounds.
public let profileEndpointHold = "endpoint-hold"
public let profileTimedPan = "timed-pan"
let minDurationMs = 16
let maxDurationMs = 10000

func refusal(_ message: String) -> RunnerError {
    .invalidArgs(message, hint: "plan the gesture with the planner: the iOS runner would refuse this plan")
}

/// Checks a plan with exec/ios/lower.go's rules, in their order and with
/// their messages, so a refusal reads the same whichever side made it.
/// Sample points may lie on the viewport's edges.
public func validate(_ plan: GesturePlan) -> RunnerError? {
    guard plan.topology == "single" || plan.topology == "two" else {
        return refusal("planned gesture topology must be single or two")
    }
    guard intentFits(plan) else {
        return refusal("planned gesture has unsupported intent for its topology")
    }
    if plan.topology == "single" {
        guard plan.executionProfile == profileEndpointHold || plan.executionProfile == profileTimedPan else {
            return refusal("single-pointer gesture requires a supported execution profile")
        }
    } else if !plan.executionProfile.isEmpty {
        return refusal("multi-touch gesture cannot define a single-pointer execution profile")
    }
    guard plan.durationMs >= minDurationMs && plan.durationMs <= maxDurationMs else {
        return refusal("planned gesture durationMs must be between 16 and 10000")
    }
    guard plan.viewport.isResolved else {
        return refusal("planned gesture viewport must be finite and positive")
    }
    let want = plan.topology == "two" ? 2 : 1
    guard plan.pointers.count == want else {
        return refusal("planned gesture pointer count does not match topology")
    }
    for (i, p) in plan.pointers.enumerated() where p.pointerId != i {
        return refusal("planned gesture requires ordered pointer ids")
    }
    let first = plan.pointers[0].samples
    guard first.count >= 2 else {
        return refusal("planned pointer paths require at least two samples")
    }
    let vp = plan.viewport
    for p in plan.pointers {
        guard p.samples.count == first.count else {
            return refusal("planned pointer paths require matching samples")
        }
        var previous = -1
        for (i, s) in p.samples.enumerated() {
            if s.offsetMs != first[i].offsetMs || s.offsetMs <= previous {
                return refusal("planned pointer sample offsets must match and strictly increase")
            }
            let q = s.point
            // Written so that NaN fails every comparison and lands outside.
            if !(q.x >= vp.x && q.x <= vp.x + vp.width && q.y >= vp.y && q.y <= vp.y + vp.height) {
                return refusal("planned pointer sample lies outside the viewport")
            }
            previous = s.offsetMs
        }
        if p.samples[0].offsetMs != 0 || p.samples[p.samples.count - 1].offsetMs != plan.durationMs {
            return refusal("planned pointer paths must start at 0 and end at durationMs")
        }
    }
    if plan.topology == "two" {
        let a = first[0].point, b = plan.pointers[1].samples[0].point
        if !(hypot(a.x - b.x, a.y - b.y) > 0) {
            return refusal("planned pointer paths require a positive initial span")
        }
    }
    return nil
}

func intentFits(_ plan: GesturePlan) -> Bool {
    switch plan.intent {
    case "fling": return plan.topology == "single"
    case "pan": return true
    case "pinch", "rotate", "transform": return plan.topology == "two"
    default: return false
    }
}
