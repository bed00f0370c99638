import Foundation

/// The protocol name `status` reports (ios-runner/PROTOCOL.md).
public let runnerProtocol = "flow-runner-v1"

/// A refusal or failure, answered as `{"ok": false, "error": …}`. Codes are
/// PROTOCOL.md's, one for one with flow's canonical codes.
public struct RunnerError: Error, Equatable {
    public let code: String
    public let message: String
    public let hint: String?

    public init(_ code: String, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    public static func invalidArgs(_ message: String, hint: String? = nil) -> RunnerError {
        RunnerError("INVALID_ARGS", message, hint: hint)
    }

    public static func commandFailed(_ message: String, hint: String? = nil) -> RunnerError {
        RunnerError("COMMAND_FAILED", message, hint: hint)
    }

    public static func unsupported(_ message: String, hint: String? = nil) -> RunnerError {
        RunnerError("UNSUPPORTED_OPERATION", message, hint: hint)
    }

    public static func internalError(_ message: String, hint: String? = nil) -> RunnerError {
        RunnerError("INTERNAL", message, hint: hint)
    }

    var json: JSON {
        var members: [(String, JSON)] = [("code", .string(code)), ("message", .string(message))]
        if let hint = hint, !hint.isEmpty {
            members.append(("hint", .string(hint)))
        }
        return .object(members)
    }
}

/// Key and button names flow sends (Maestro's iOS map: Enter is return,
/// Backspace is delete; Home and Lock are hardware buttons).
public enum KeyName: String { case enter, backspace }
public enum ButtonName: String { case home, lock }

/// What setOrientation turns the device to: Maestro's four orientations by
/// their camel-case names (Maestro's DeviceOrientation.camelCaseName), which its own
/// iOS runner sets as XCUIDevice's orientation (SetOrientationHandler).
public enum DeviceOrientation: String, CaseIterable {
    case portrait, landscapeLeft, landscapeRight, upsideDown

    /// The UIDeviceOrientation raw value XCUIDevice is set to. Maestro's
    /// LANDSCAPE_LEFT is the phone turned 90° counter-clockwise, home
    /// button on the right: UIDeviceOrientation.landscapeLeft (3), as
    /// Maestro's runner maps it; UPSIDE_DOWN is portraitUpsideDown (2).
    public var uiDeviceOrientation: Int {
        switch self {
        case .portrait: return 1
        case .upsideDown: return 2
        case .landscapeLeft: return 3
        case .landscapeRight: return 4
        }
    }

    /// The interface orientation an app that follows the device shows
    /// afterwards, as `viewport` names it: the raw values coincide, so a
    /// device turned landscape-left shows the interface landscape-right
    /// (Screen.swift interfaceOrientation).
    public var interfaceOrientation: Int { uiDeviceOrientation }
}

/// One decoded command of flow-runner-v1.
public enum Command: Equatable {
    case status
    case hierarchy(appIds: [String], maxDepth: Int)
    case settle(appIds: [String], maxDepth: Int, quietMs: Int, timeoutMs: Int)
    case viewport(appIds: [String])
    case gesture(plan: GesturePlan, appBundleId: String?)
    case tap(x: Double, y: Double)
    case longPress(x: Double, y: Double, holdMs: Int)
    case typeText(String)
    case erase(count: Int)
    case key(KeyName)
    case button(ButtonName)
    case hideKeyboard
    case screenshot
    case launch(appId: String, arguments: [String], stop: Bool)
    case terminate(appId: String)
    case openLink(String)
    case setOrientation(DeviceOrientation)
    case quit
}

/// The default depth of a hierarchy read when flow does not send one.
public let defaultMaxDepth = 60

/// Largest request body the runner reads (PROTOCOL.md "Framing").
public let maxBodyBytes = 4 << 20

/// The longest longPress hold: a hold blocks the main thread, where every
/// other command waits, so it is bounded as gestures are (exec/ios
/// lower.go's 10000 ms; Maestro's longPress holds 3000 ms).
public let maxHoldMs = 10000

/// The most characters one erase deletes: deletes are typed at Maestro's
/// pace, 30 a second (WebDriverAgent's typing frequency is keys per
/// second), on the main thread, so 500 take about 17 s, well inside flow's
/// 30 s bound for a command; Maestro's eraseText erases 50 by default.
public let maxEraseCount = 500

/// Decodes a request body: its commandId (0 when absent, as the answer
/// then carries) and the command or the refusal to answer with.
public func decodeRequest(_ body: Data) -> (commandId: Int, command: Result<Command, RunnerError>) {
    guard let json = try? JSON.parse(body), case let .object(members) = json else {
        return (0, .failure(.invalidArgs("the body is not a JSON object")))
    }
    // A commandId that is not a safe integer is read as absent, never trapped on.
    let id = json["commandId"]?.numberValue.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil } ?? 0
    let name = json["command"]?.stringValue ?? ""
    let fields = Fields(command: name, object: members)
    do {
        return (id, .success(try decodeCommand(name, fields)))
    } catch let e as RunnerError {
        return (id, .failure(e))
    } catch {
        return (id, .failure(.internalError("\(error)")))
    }
}

/// Typed access to a request's fields with PROTOCOL.md's messages:
/// `tap: missing required field "x"`, `tap: field "x" must be a number`.
struct Fields {
    let command: String
    let object: [(String, JSON)]

    func raw(_ name: String) -> JSON? { object.first(where: { $0.0 == name })?.1 }

    func missing(_ name: String) -> RunnerError {
        .invalidArgs("\(command): missing required field \"\(name)\"")
    }

    func mistyped(_ name: String, _ what: String) -> RunnerError {
        .invalidArgs("\(command): field \"\(name)\" must be \(what)")
    }

    func number(_ name: String) throws -> Double {
        guard let v = raw(name) else { throw missing(name) }
        guard let n = v.numberValue else { throw mistyped(name, "a number") }
        return n
    }

    func int(_ name: String, default value: Int? = nil) throws -> Int {
        if raw(name) == nil, let value = value { return value }
        let n = try number(name)
        guard n.isFinite, abs(n) < 1e15 else { throw mistyped(name, "a number") }
        return Int(n)
    }

    /// An integer field within lo...hi; outside is INVALID_ARGS giving the
    /// bounds, so a runaway value never blocks the main thread.
    func int(_ name: String, in range: ClosedRange<Int>, unit: String) throws -> Int {
        let n = try int(name)
        guard range.contains(n) else {
            throw RunnerError.invalidArgs("\(command): field \"\(name)\" must be between \(range.lowerBound) and \(range.upperBound) \(unit), not \(n)",
                                          hint: "send a \(name) from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    func string(_ name: String) throws -> String {
        guard let v = raw(name) else { throw missing(name) }
        guard let s = v.stringValue else { throw mistyped(name, "a string") }
        return s
    }

    func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let v = raw(name) else { return value }
        guard let b = v.boolValue else { throw mistyped(name, "a boolean") }
        return b
    }

    func strings(_ name: String) throws -> [String] {
        guard let v = raw(name) else { return [] }
        guard let a = v.arrayValue else { throw mistyped(name, "a list of strings") }
        return try a.map { item -> String in
            guard let s = item.stringValue else { throw mistyped(name, "a list of strings") }
            return s
        }
    }
}

func decodeCommand(_ name: String, _ f: Fields) throws -> Command {
    switch name {
    case "status": return .status
    case "hierarchy":
        return .hierarchy(appIds: try f.strings("appIds"), maxDepth: try f.int("maxDepth", default: defaultMaxDepth))
    case "settle":
        return .settle(appIds: try f.strings("appIds"), maxDepth: try f.int("maxDepth", default: defaultMaxDepth),
                       quietMs: try f.int("quietMs", default: 200), timeoutMs: try f.int("timeoutMs"))
    case "viewport":
        return .viewport(appIds: try f.strings("appIds"))
    case "gesture":
        guard let raw = f.raw("gesturePlan") else { throw f.missing("gesturePlan") }
        guard let plan = GesturePlan(json: raw) else {
            throw RunnerError.invalidArgs("gesture: field \"gesturePlan\" must be a gesture plan")
        }
        var bundle: String?
        if f.raw("appBundleId") != nil { bundle = try f.string("appBundleId") }
        return .gesture(plan: plan, appBundleId: bundle)
    case "tap":
        return .tap(x: try f.number("x"), y: try f.number("y"))
    case "longPress":
        return .longPress(x: try f.number("x"), y: try f.number("y"), holdMs: try f.int("holdMs", in: 0...maxHoldMs, unit: "ms"))
    case "type":
        return .typeText(try f.string("text"))
    case "erase":
        return .erase(count: try f.int("count", in: 0...maxEraseCount, unit: "characters"))
    case "key":
        let n = try f.string("name")
        guard let k = KeyName(rawValue: n) else { throw RunnerError.unsupported("key: unknown key \"\(n)\"") }
        return .key(k)
    case "button":
        let n = try f.string("name")
        guard let b = ButtonName(rawValue: n) else { throw RunnerError.unsupported("button: unknown button \"\(n)\"") }
        return .button(b)
    case "hideKeyboard": return .hideKeyboard
    case "screenshot": return .screenshot
    case "launch":
        let app = try f.string("appId")
        var args: [String] = []
        if let raw = f.raw("arguments") {
            guard case let .object(members) = raw else { throw f.mistyped("arguments", "an object") }
            args = try launchArguments(members)
        }
        return .launch(appId: app, arguments: args, stop: try f.bool("stop", default: false))
    case "terminate":
        return .terminate(appId: try f.string("appId"))
    case "openLink":
        return .openLink(try f.string("link"))
    case "setOrientation":
        let n = try f.string("orientation")
        guard let o = DeviceOrientation(rawValue: n) else {
            throw RunnerError.invalidArgs("setOrientation: field \"orientation\" must be portrait, landscapeLeft, landscapeRight or upsideDown, not \"\(n)\"")
        }
        return .setOrientation(o)
    case "quit": return .quit
    default:
        throw RunnerError.unsupported("unknown command \"\(name)\"")
    }
}

/// The answer body for a command: `{"ok": true, "commandId": N, "data":
/// {…}}` or `{"ok": false, "commandId": N, "error": {…}}`.
public func encodeAnswer(commandId: Int, _ result: Result<JSON, RunnerError>) -> Data {
    switch result {
    case let .success(data):
        var payload = data
        if case .null = data { payload = .object([]) }
        return JSON.object([("ok", .bool(true)), ("commandId", .number(Double(commandId))), ("data", payload)]).data
    case let .failure(e):
        return JSON.object([("ok", .bool(false)), ("commandId", .number(Double(commandId))), ("error", e.json)]).data
    }
}
