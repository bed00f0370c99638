import Foundation
import XCTest
// Under SwiftPM the core is its own module; in the Xcode project its
// sources are compiled into this test bundle, and there is nothing to
// import.
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// ios-runner/, found from this file's own path: the transcripts are the
/// ones the Go client and the fake runner replay, read in place.
func runnerFolder() -> URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // FlowRunnerCoreTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // FlowRunnerCore
        .deletingLastPathComponent() // ios-runner
}

/// The JSON values of a .jsonl file, one per non-empty line.
func jsonLines(_ url: URL) throws -> [JSON] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map {
        try JSON.parse(String($0))
    }
}

/// Values equal with numbers within tolerance: Go and Swift compute
/// offsets and points with the same operations, so they agree exactly; the
/// tolerance only absorbs a difference in how a number was printed.
func nearlyEqual(_ a: JSON, _ b: JSON, tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case let (.number(x), .number(y)): return abs(x - y) <= tolerance
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy { nearlyEqual($0, $1, tolerance: tolerance) }
    case let (.object(x), .object(y)):
        guard x.count == y.count else { return false }
        for (k, v) in x {
            guard let w = b[k], nearlyEqual(v, w, tolerance: tolerance) else { return false }
        }
        return true
    default: return a == b
    }
}
