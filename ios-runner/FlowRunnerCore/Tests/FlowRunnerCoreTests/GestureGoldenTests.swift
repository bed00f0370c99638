import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// Replays ios-runner/testdata/gestures.jsonl, which a Go test writes from
/// exec/ios (validate and Synthesize): the runner refuses each plan Go
/// refuses, with the same message, and builds the same event record for
/// each plan Go accepts.
final class GestureGoldenTests: XCTestCase {
    func testEveryPlanAsGoDecides() throws {
        let cases = try jsonLines(runnerFolder().appendingPathComponent("testdata/gestures.jsonl"))
        XCTAssertGreaterThan(cases.count, 20)
        var records = 0, refusals = 0
        for c in cases {
            let name = c["name"]?.stringValue ?? "?"
            guard let raw = c["plan"], let plan = GesturePlan(json: raw) else {
                XCTFail("\(name): the plan does not decode")
                continue
            }
            let w = c["app"]?["window"]
            let app = AppState(orientation: Int(c["app"]?["orientation"]?.numberValue ?? -1),
                               window: FlowRect(x: w?["x"]?.numberValue ?? .nan, y: w?["y"]?.numberValue ?? .nan,
                                            width: w?["width"]?.numberValue ?? .nan, height: w?["height"]?.numberValue ?? .nan))
            let result = synthesize(plan, app: app)
            if let message = c["error"]?.stringValue {
                refusals += 1
                XCTAssertEqual(validate(plan)?.message, message, name)
                guard case let .failure(e) = result else {
                    XCTFail("\(name): synthesized a plan Go refuses")
                    continue
                }
                XCTAssertEqual(e.code, "INVALID_ARGS", name)
                XCTAssertEqual(e.message, message, name)
                continue
            }
            guard let want = c["record"] else {
                XCTFail("\(name): neither error nor record")
                continue
            }
            records += 1
            switch result {
            case let .failure(e):
                XCTFail("\(name): refused: \(e.message)")
            case let .success(record):
                XCTAssertTrue(nearlyEqual(record.json, want), "\(name):\n got \(record.json.text)\nwant \(want.text)")
                XCTAssertEqual(schedule(for: plan) == .fastSwipe, record.name == recordSwipe, name)
            }
        }
        XCTAssertGreaterThan(records, 0)
        XCTAssertGreaterThan(refusals, 0)
    }

    func testOrientationRoundTrips() {
        let frame = FlowRect(x: 10, y: 40, width: 390, height: 800)
        let p = FlowPoint(x: 100, y: 300)
        XCTAssertEqual(toNative(p, frame: frame, orientation: Orientation.portrait), FlowPoint(x: 90, y: 260))
        XCTAssertEqual(toNative(p, frame: frame, orientation: Orientation.landscapeRight), FlowPoint(x: 540, y: 90))
        XCTAssertEqual(toNative(p, frame: frame, orientation: Orientation.landscapeLeft), FlowPoint(x: 260, y: 300))
        XCTAssertEqual(toNative(p, frame: frame, orientation: Orientation.portraitUpsideDown), FlowPoint(x: 300, y: 540))
    }

    func testTapRecord() {
        let app = AppState(orientation: Orientation.portrait, window: FlowRect(x: 0, y: 0, width: 390, height: 844))
        guard case let .success(r) = tapRecord(FlowPoint(x: 10, y: 20), app: app) else { return XCTFail("refused") }
        XCTAssertEqual(r.paths, [[.touch(FlowPoint(x: 10, y: 20), offset: 0), .lift(offset: 0.05)]])
        let nowhere = AppState(orientation: Orientation.portrait, window: FlowRect(x: 0, y: 0, width: 0, height: 0))
        guard case let .failure(e) = tapRecord(FlowPoint(x: 10, y: 20), app: nowhere) else { return XCTFail("tapped without a window") }
        XCTAssertEqual(e.code, "UNSUPPORTED_OPERATION")
    }
}
