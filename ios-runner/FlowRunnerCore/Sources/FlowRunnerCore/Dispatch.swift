import Foundation

/// An Objective-C exception caught around a command or a synthesis
/// (FlowRunnerUITests/FlowCatch.m). XCTest's private classes raise
/// NSException for states they do not expect (a stale element, a record they
/// refuse); one that escapes aborts the whole runner, so every command and
/// every synthesis runs inside a catch and answers COMMAND_FAILED instead
/// (agent-device and Maestro wrap theirs the same way).
public struct CaughtException: Error, Equatable {
    public let name: String
    public let reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// XCTest issues recorded while a command runs. XCUITest records an issue,
/// rather than throwing, when it cannot do what it was asked (an app that
/// will not launch, a query that timed out); while the runner serves, such
/// an issue is the answer to the command that caused it. XCTest may record
/// from a thread other than main, so the list is behind a lock.
public final class IssueLog {
    private let lock = NSLock()
    private var capturing = false
    private var issues: [String] = []

    public init() {}

    /// Starts (true) or stops diverting issues here; either way the log is
    /// emptied.
    public func capture(_ on: Bool) {
        lock.lock()
        capturing = on
        issues = []
        lock.unlock()
    }

    /// Keeps an issue when capturing and says so; false means the caller
    /// records it as XCTest usually does.
    public func note(_ description: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard capturing else { return false }
        issues.append(description)
        return true
    }

    /// The first issue since the last drain, left in place.
    public var first: String? {
        lock.lock()
        defer { lock.unlock() }
        return issues.first
    }

    /// Empties the log and returns what it held, oldest first.
    public func drain() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let out = issues
        issues = []
        return out
    }
}

extension Command {
    /// The command's name on the wire, for messages.
    public var name: String {
        switch self {
        case .status: return "status"
        case .hierarchy: return "hierarchy"
        case .settle: return "settle"
        case .viewport: return "viewport"
        case .gesture: return "gesture"
        case .tap: return "tap"
        case .longPress: return "longPress"
        case .typeText: return "type"
        case .erase: return "erase"
        case .key: return "key"
        case .button: return "button"
        case .hideKeyboard: return "hideKeyboard"
        case .screenshot: return "screenshot"
        case .launch: return "launch"
        case .terminate: return "terminate"
        case .openLink: return "openLink"
        case .setOrientation: return "setOrientation"
        case .quit: return "quit"
        }
    }
}

/// Runs body with Objective-C exceptions caught: the XCTest side passes
/// FlowCatch, tests pass a stand-in that throws CaughtException.
public typealias ExceptionGuard = (() throws -> JSON) throws -> JSON

/// Decodes, runs and answers one request body: the per-command error
/// handling of the runner, whatever runs the command. quit is true for
/// `quit`, whose answer is sent before the runner stops.
public func handleRequest(_ body: Data, issues: IssueLog, guarded: ExceptionGuard,
                          run: (Command) throws -> JSON) -> (answer: Data, quit: Bool) {
    let (id, decoded) = decodeRequest(body)
    switch decoded {
    case let .failure(e):
        return (encodeAnswer(commandId: id, .failure(e)), false)
    case let .success(command):
        let result = outcome(of: command, issues: issues, guarded: guarded, run: run)
        return (encodeAnswer(commandId: id, result), command == .quit)
    }
}

/// The answer to one decoded command: its data, or what went wrong as a
/// RunnerError. A RunnerError thrown is answered as is; an Objective-C
/// exception is COMMAND_FAILED naming it; an XCTest issue recorded while the
/// command ran turns a success into COMMAND_FAILED; any other error is
/// INTERNAL. Nothing here ends the session.
public func outcome(of command: Command, issues: IssueLog, guarded: ExceptionGuard,
                    run: (Command) throws -> JSON) -> Result<JSON, RunnerError> {
    _ = issues.drain()
    var result: Result<JSON, RunnerError>
    do {
        result = .success(try guarded { try run(command) })
    } catch let e as RunnerError {
        result = .failure(e)
    } catch let e as CaughtException {
        result = .failure(.commandFailed("\(command.name): XCTest raised \(e.name): \(e.reason)",
                                         hint: "the runner is still serving; check the device (the app may have gone or changed screen) and retry the step"))
    } catch {
        result = .failure(.internalError("\(command.name): \(error)"))
    }
    let recorded = issues.drain()
    if case .success = result, let issue = recorded.first {
        // XCUITest did not do what it was asked, though it returned.
        result = .failure(.commandFailed("XCUITest: \(issue)",
                                         hint: "check the device: the app may have gone, or no field has the keyboard focus"))
    }
    return result
}
