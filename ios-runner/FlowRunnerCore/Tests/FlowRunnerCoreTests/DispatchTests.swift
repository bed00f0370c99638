import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// The per-command error handling (R2, R3): whatever goes wrong inside a
/// command is that command's answer, and the runner goes on serving.
final class DispatchTests: XCTestCase {
    struct Boom: Error {}

    /// Stands in for FlowCatch: a body that "raises" throws CaughtException.
    let passThrough: ExceptionGuard = { body in try body() }

    func answer(_ body: String, issues: IssueLog = IssueLog(), run: (Command) throws -> JSON) -> (JSON, Bool) {
        let (data, quit) = handleRequest(Data(body.utf8), issues: issues, guarded: passThrough, run: run)
        return ((try? JSON.parse(data)) ?? .null, quit)
    }

    func testSuccessCarriesData() {
        let (a, quit) = answer(#"{"command":"status","commandId":4}"#) { _ in .object([("x", .number(1))]) }
        XCTAssertEqual(a, try JSON.parse(#"{"ok":true,"commandId":4,"data":{"x":1}}"#))
        XCTAssertFalse(quit)
    }

    func testRunnerErrorIsAnsweredAsIs() {
        let (a, _) = answer(#"{"command":"tap","commandId":5,"x":1,"y":2}"#) { _ in
            throw RunnerError.unsupported("nope", hint: "h")
        }
        XCTAssertEqual(a["error"]?["code"]?.stringValue, "UNSUPPORTED_OPERATION")
        XCTAssertEqual(a["error"]?["message"]?.stringValue, "nope")
        XCTAssertEqual(a["error"]?["hint"]?.stringValue, "h")
    }

    func testObjectiveCExceptionIsCommandFailedNamingIt() {
        let raising: ExceptionGuard = { _ in throw CaughtException(name: "NSInternalInconsistencyException", reason: "No snapshot") }
        let (data, quit) = handleRequest(Data(#"{"command":"hierarchy","commandId":6}"#.utf8), issues: IssueLog(), guarded: raising) { _ in
            XCTFail("the guard runs the command, not the dispatcher")
            return .null
        }
        let a = try? JSON.parse(data)
        XCTAssertEqual(a?["ok"], .bool(false))
        XCTAssertEqual(a?["commandId"]?.numberValue, 6)
        XCTAssertEqual(a?["error"]?["code"]?.stringValue, "COMMAND_FAILED")
        XCTAssertEqual(a?["error"]?["message"]?.stringValue, "hierarchy: XCTest raised NSInternalInconsistencyException: No snapshot")
        XCTAssertFalse(quit)
    }

    func testOtherErrorsAreInternal() {
        let (a, _) = answer(#"{"command":"screenshot","commandId":7}"#) { _ in throw Boom() }
        XCTAssertEqual(a["error"]?["code"]?.stringValue, "INTERNAL")
        XCTAssertTrue(a["error"]?["message"]?.stringValue?.hasPrefix("screenshot: ") ?? false)
    }

    func testIssueRecordedDuringACommandFailsIt() {
        let issues = IssueLog()
        issues.capture(true)
        XCTAssertTrue(issues.note("left over from the previous command"))
        let (a, _) = answer(#"{"command":"launch","commandId":8,"appId":"a"}"#, issues: issues) { _ in
            XCTAssertTrue(issues.note("Failed to launch a"))
            return .object([])
        }
        XCTAssertEqual(a["error"]?["code"]?.stringValue, "COMMAND_FAILED")
        XCTAssertEqual(a["error"]?["message"]?.stringValue, "XCUITest: Failed to launch a")
        XCTAssertNil(issues.first, "the command's issues are consumed by its answer")
        // The leftover did not fail the next command.
        let (b, _) = answer(#"{"command":"status","commandId":9}"#, issues: issues) { _ in .object([]) }
        XCTAssertEqual(b["ok"], .bool(true))
    }

    func testQuitAndRefusals() {
        var ran = 0
        let (q, quit) = answer(#"{"command":"quit","commandId":10}"#) { _ in ran += 1; return .object([]) }
        XCTAssertTrue(quit)
        XCTAssertEqual(q["ok"], .bool(true))
        let (r, quit2) = answer(#"{"command":"swipe","commandId":11}"#) { _ in ran += 1; return .object([]) }
        XCTAssertFalse(quit2)
        XCTAssertEqual(r["error"]?["code"]?.stringValue, "UNSUPPORTED_OPERATION")
        XCTAssertEqual(ran, 1, "a refused request never runs")
    }

    func testIssueLogOutsideServingIsNotKept() {
        let issues = IssueLog()
        XCTAssertFalse(issues.note("before serving"))
        issues.capture(true)
        XCTAssertTrue(issues.note("while serving"))
        issues.capture(false)
        XCTAssertFalse(issues.note("after quit"))
        XCTAssertEqual(issues.drain(), [])
    }

    /// XCTest may record issues from other threads while the main thread
    /// drains them: no issue is lost or doubled.
    func testIssueLogTakesConcurrentNotes() {
        let issues = IssueLog()
        issues.capture(true)
        var drained: [String] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2000) { i in
            _ = issues.note("issue \(i)")
            if i % 100 == 0 {
                let got = issues.drain()
                lock.lock()
                drained += got
                lock.unlock()
            }
        }
        drained += issues.drain()
        XCTAssertEqual(drained.count, 2000)
        XCTAssertEqual(Set(drained).count, 2000)
    }

    func testEveryCommandHasItsWireName() throws {
        for line in try jsonLines(runnerFolder().appendingPathComponent("testdata/wire/session.jsonl")) {
            guard let request = line["request"], case let .success(c) = decodeRequest(request.data).command else { continue }
            XCTAssertEqual(c.name, request["command"]?.stringValue)
        }
    }
}
