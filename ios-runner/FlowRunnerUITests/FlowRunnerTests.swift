import XCTest

/// The runner: one UI test that never ends on its own. It serves
/// flow-runner-v1 (ios-runner/PROTOCOL.md) on FLOW_RUNNER_PORT until flow
/// sends `quit`. xcodebuild passes TEST_RUNNER_FLOW_RUNNER_PORT to the test
/// as FLOW_RUNNER_PORT; go-ios sets it directly.
final class FlowRunnerTests: XCTestCase {
    /// XCTest issues recorded while the server runs belong to the command
    /// that caused them, not to the test (FlowRunnerCore's IssueLog: record
    /// may be called off the main thread, so the log is locked, review R3).
    private let issues = IssueLog()

    override func setUp() {
        super.setUp()
        // A command that fails an XCTest assertion inside XCUITest (a launch
        // of an app that is not installed) must not end the session.
        continueAfterFailure = true
    }

    /// Main actor: XCUIApplication and XCUIElement are main-actor types from
    /// Xcode 16.3 on (review R1), and XCTest runs UI tests on the main thread.
    @MainActor
    func testServe() throws {
        Quiescence.disable()
        let env = ProcessInfo.processInfo.environment
        let port = UInt16(env["FLOW_RUNNER_PORT"] ?? "") ?? 22087
        let commands = Commands(issues: issues)
        let server = try Server(port: port, handle: commands.handle)
        let stopped = expectation(description: "quit")
        // A listener failure after quit must not fulfil it twice.
        stopped.assertForOverFulfill = false
        var failure: String?
        server.onReady = {
            // flow waits for this exact line (PROTOCOL.md "Start and stop").
            NSLog("%@", "FLOW_RUNNER_READY port=\(port)")
        }
        server.onStop = { reason in
            failure = reason
            stopped.fulfill()
        }
        issues.capture(true)
        server.start()
        // The longest a session may last; flow ends it with quit.
        wait(for: [stopped], timeout: 7 * 24 * 3600)
        server.stop()
        issues.capture(false)
        if let failure = failure {
            XCTFail(failure)
        }
    }

    /// XCUITest records an issue, rather than throwing, when it cannot do
    /// what it was asked (an app that will not launch, a query that timed
    /// out). While serving, such an issue is the answer to the command that
    /// caused it, and the session goes on: a bad request never fails the
    /// test. Outside serving, issues are recorded as usual.
    override func record(_ issue: XCTIssue) {
        if issues.note(issue.compactDescription) {
            NSLog("%@", "flow-runner: XCTest issue: \(issue.compactDescription)")
            return
        }
        super.record(issue)
    }
}
