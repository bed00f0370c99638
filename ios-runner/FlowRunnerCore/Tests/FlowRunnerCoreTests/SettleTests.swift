import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// A clock that moves only when slept on or told to.
final class FakeClock: RunnerClock {
    var now = 0.0
    var slept: [Double] = []
    func nowMs() -> Double { now }
    func sleep(ms: Double) {
        slept.append(ms)
        now += ms
    }
}

/// R17: settle keeps the last good read and gives each read the time left.
final class SettleTests: XCTestCase {
    func screen(_ label: String) -> Element {
        Element(type: "application", label: label, frame: FlowRect(x: 0, y: 0, width: 390, height: 844))
    }

    struct ReadFailed: Error {}

    /// A screen that reads as scripted: each entry a label (a good read) or
    /// nil (a failed one), each read taking costMs; past the script, the
    /// last entry again.
    final class Screen {
        let clock: FakeClock
        let script: [String?]
        let costMs: Double
        var caps: [Double] = []
        init(_ clock: FakeClock, _ script: [String?], costMs: Double) {
            self.clock = clock; self.script = script; self.costMs = costMs
        }
        func read(capMs: Double) throws -> Element {
            caps.append(capMs)
            let i = min(caps.count - 1, script.count - 1)
            clock.now += min(costMs, capMs)
            guard let label = script[i] else { throw ReadFailed() }
            return Element(type: "application", label: label, frame: FlowRect(x: 0, y: 0, width: 390, height: 844))
        }
    }

    func testStillAfterQuietMs() throws {
        let clock = FakeClock()
        let s = Screen(clock, ["a", "b", "b"], costMs: 10)
        let r = try settle(quietMs: 200, timeoutMs: 3000, clock: clock, read: s.read)
        XCTAssertTrue(r.still)
        XCTAssertEqual(r.root, screen("b"))
        XCTAssertEqual(r.version, screen("b").version)
        XCTAssertGreaterThanOrEqual(clock.now, 200)
        XCTAssertLessThan(clock.now, 500)
    }

    func testAFailedReadKeepsTheLastGoodOne() throws {
        // One snapshot fails mid-way (the app changing screen): the settle
        // neither fails nor restarts its quiet window for it.
        let clock = FakeClock()
        let s = Screen(clock, ["a", nil, "a"], costMs: 10)
        let r = try settle(quietMs: 200, timeoutMs: 3000, clock: clock, read: s.read)
        XCTAssertTrue(r.still)
        XCTAssertEqual(r.root, screen("a"))
        XCTAssertEqual(r.failedReads, 1)
    }

    func testFailuresUntilTheEndStillAnswerTheLastGoodRead() throws {
        let clock = FakeClock()
        let s = Screen(clock, ["a", "b", nil], costMs: 100)
        let r = try settle(quietMs: 5000, timeoutMs: 1000, clock: clock, read: s.read)
        XCTAssertFalse(r.still)
        XCTAssertEqual(r.root, screen("b"))
        XCTAssertGreaterThan(r.failedReads, 0)
    }

    func testEachReadIsCappedByTheTimeLeft() throws {
        // Reads of 2 s against a 3 s timeout: the second read is given what
        // is left, and the settle ends at the timeout, not a read later.
        let clock = FakeClock()
        let s = Screen(clock, ["a", "b", "c", "d"], costMs: 2000)
        let r = try settle(quietMs: 200, timeoutMs: 3000, clock: clock, read: s.read)
        XCTAssertFalse(r.still)
        XCTAssertEqual(s.caps.first, 3000)
        XCTAssertEqual(s.caps.count, 2)
        XCTAssertEqual(s.caps[1], 3000 - 2000 - settlePollMs)
        XCTAssertLessThanOrEqual(clock.now, 3000)
    }

    func testNoGoodReadAtAllFails() {
        let clock = FakeClock()
        let s = Screen(clock, [nil], costMs: 100)
        XCTAssertThrowsError(try settle(quietMs: 200, timeoutMs: 500, clock: clock, read: s.read)) { e in
            XCTAssertTrue(e is ReadFailed)
        }
        XCTAssertGreaterThan(s.caps.count, 1, "failed reads are retried while time is left")
    }

    func testNoTimeStillReadsOnce() throws {
        let clock = FakeClock()
        let s = Screen(clock, ["a"], costMs: 100)
        let r = try settle(quietMs: 200, timeoutMs: 0, clock: clock, read: s.read)
        XCTAssertEqual(r.root, screen("a"))
        XCTAssertFalse(r.still)
        XCTAssertEqual(s.caps, [settleFirstReadMs])
    }

    func testWaitUntil() {
        let clock = FakeClock()
        var n = 0
        XCTAssertTrue(waitUntil(timeoutMs: 1000, everyMs: 200, clock: clock) { n += 1; return n == 3 })
        XCTAssertEqual(clock.now, 400)
        let late = FakeClock()
        XCTAssertFalse(waitUntil(timeoutMs: 1000, everyMs: 300, clock: late) { false })
        XCTAssertEqual(late.now, 1000)
        XCTAssertEqual(late.slept, [300, 300, 300, 100])
    }
}
