import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// Replays ios-runner/testdata/wire (PROTOCOL.md "Transcripts"): every
/// request decodes to a command, or to exactly the refusal its response
/// carries; every response is what encodeAnswer writes for its data.
final class WireTests: XCTestCase {
    func transcripts() throws -> [URL] {
        let dir = runnerFolder().appendingPathComponent("testdata/wire")
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
        XCTAssertFalse(files.isEmpty, "no transcripts in \(dir.path)")
        return files
    }

    func testEveryTranscriptDecodesAndAnswers() throws {
        for file in try transcripts() {
            var pending: JSON?
            var exchanges = 0
            for line in try jsonLines(file) {
                if let request = line["request"] {
                    pending = request
                    continue
                }
                guard let response = line["response"], let request = pending else { continue }
                pending = nil
                exchanges += 1
                let (id, decoded) = decodeRequest(request.data)
                let wantId = Int(response["commandId"]?.numberValue ?? -1)
                XCTAssertEqual(id, wantId, "\(file.lastPathComponent): \(request.text)")
                switch decoded {
                case .success:
                    break
                case let .failure(e):
                    // A refusal at decoding must be the transcript's own.
                    XCTAssertEqual(response["ok"], .bool(false), "\(request.text) refused: \(e.message)")
                    XCTAssertEqual(response["error"]?["code"]?.stringValue, e.code, request.text)
                    XCTAssertEqual(response["error"]?["message"]?.stringValue, e.message, request.text)
                }
                let answer: Data
                if response["ok"] == .bool(true) {
                    answer = encodeAnswer(commandId: wantId, .success(response["data"] ?? .object([])))
                } else {
                    let err = response["error"]
                    answer = encodeAnswer(commandId: wantId, .failure(RunnerError(
                        err?["code"]?.stringValue ?? "", err?["message"]?.stringValue ?? "", hint: err?["hint"]?.stringValue)))
                }
                XCTAssertEqual(try JSON.parse(answer), response, "\(file.lastPathComponent): answer to \(request.text)")
            }
            XCTAssertGreaterThan(exchanges, 0, file.lastPathComponent)
        }
    }

    func testSessionCommandsDecodeToTheirValues() throws {
        let file = runnerFolder().appendingPathComponent("testdata/wire/session.jsonl")
        var decoded: [Result<Command, RunnerError>] = []
        for line in try jsonLines(file) {
            if let request = line["request"] {
                decoded.append(decodeRequest(request.data).command)
            }
        }
        let want: [Result<Command, RunnerError>] = [
            .success(.status),
            .success(.launch(appId: "com.example.shop", arguments: ["onboarded", "true"], stop: true)),
            .success(.viewport(appIds: ["com.example.shop"])),
            .success(.hierarchy(appIds: ["com.example.shop"], maxDepth: 60)),
            .success(.tap(x: 540, y: 320)),
            .success(.settle(appIds: ["com.example.shop"], maxDepth: 60, quietMs: 200, timeoutMs: 3000)),
            .success(.typeText("ada@example.com ✓")),
            .success(.erase(count: 2)),
            .success(.key(.enter)),
            .success(.hideKeyboard),
            .success(.openLink("shop://cart")),
            // Refused by the device (not installed), not by decoding.
            .success(.terminate(appId: "com.missing")),
            .failure(RunnerError("UNSUPPORTED_OPERATION", "unknown command \"swipe\"")),
            .success(.quit),
        ]
        XCTAssertEqual(decoded.count, want.count)
        for (i, (got, w)) in zip(decoded, want).enumerated() {
            XCTAssertEqual(got, w, "request \(i + 1)")
        }
    }

    func testOrientationCommandsDecodeToTheirValues() throws {
        let file = runnerFolder().appendingPathComponent("testdata/wire/orientation.jsonl")
        var decoded: [Result<Command, RunnerError>] = []
        for line in try jsonLines(file) {
            if let request = line["request"] {
                decoded.append(decodeRequest(request.data).command)
            }
        }
        let viewport = Result<Command, RunnerError>.success(.viewport(appIds: ["com.example.shop"]))
        let want: [Result<Command, RunnerError>] = [
            .success(.status),
            .success(.launch(appId: "com.example.shop", arguments: [], stop: true)),
            .success(.setOrientation(.landscapeLeft)), viewport,
            .success(.setOrientation(.landscapeRight)), viewport,
            .success(.setOrientation(.upsideDown)), viewport,
            .success(.setOrientation(.portrait)), viewport,
            .failure(RunnerError("INVALID_ARGS", #"setOrientation: field "orientation" must be portrait, landscapeLeft, landscapeRight or upsideDown, not "sideways""#)),
            .success(.quit),
        ]
        XCTAssertEqual(decoded.count, want.count)
        for (i, (got, w)) in zip(decoded, want).enumerated() {
            XCTAssertEqual(got, w, "request \(i + 1)")
        }
        guard case let .failure(e) = decodeRequest(Data(#"{"command":"setOrientation","commandId":4}"#.utf8)).command else {
            return XCTFail("setOrientation without a value accepted")
        }
        XCTAssertEqual(e.message, #"setOrientation: missing required field "orientation""#)
    }

    func testOptionalFieldsTakeTheirDefaults() {
        let body = #"{"command":"hierarchy","commandId":2}"#
        let (id, command) = decodeRequest(Data(body.utf8))
        XCTAssertEqual(id, 2)
        XCTAssertEqual(command, .success(.hierarchy(appIds: [], maxDepth: defaultMaxDepth)))
        let gesture = #"{"command":"gesture","commandId":3,"gesturePlan":{"topology":"single","intent":"fling","executionProfile":"endpoint-hold","durationMs":300,"viewport":{"x":0,"y":0,"width":390,"height":844},"pointers":[{"pointerId":0,"samples":[{"offsetMs":0,"point":{"x":195,"y":600}},{"offsetMs":300,"point":{"x":195,"y":200}}]}]},"appBundleId":"com.example.shop"}"#
        guard case let .success(.gesture(plan, bundle)) = decodeRequest(Data(gesture.utf8)).command else {
            return XCTFail("gesture refused")
        }
        XCTAssertEqual(bundle, "com.example.shop")
        XCTAssertNil(validate(plan))
        XCTAssertEqual(schedule(for: plan), .fastSwipe)
    }

    func testFieldErrorsNameCommandAndField() {
        let cases: [(String, String, String)] = [
            (#"{"command":"tap","commandId":3,"y":1}"#, "INVALID_ARGS", #"tap: missing required field "x""#),
            (#"{"command":"tap","commandId":3,"x":"1","y":1}"#, "INVALID_ARGS", #"tap: field "x" must be a number"#),
            (#"{"command":"tap","commandId":3,"x":true,"y":1}"#, "INVALID_ARGS", #"tap: field "x" must be a number"#),
            (#"{"command":"longPress","commandId":3,"x":1,"y":1}"#, "INVALID_ARGS", #"longPress: missing required field "holdMs""#),
            (#"{"command":"erase","commandId":3}"#, "INVALID_ARGS", #"erase: missing required field "count""#),
            (#"{"command":"launch","commandId":3}"#, "INVALID_ARGS", #"launch: missing required field "appId""#),
            (#"{"command":"openLink","commandId":3,"link":5}"#, "INVALID_ARGS", #"openLink: field "link" must be a string"#),
            (#"{"command":"button","commandId":3,"name":"volumeUp"}"#, "UNSUPPORTED_OPERATION", #"button: unknown button "volumeUp""#),
            (#"{"command":"type","commandId":3,"text":5}"#, "INVALID_ARGS", #"type: field "text" must be a string"#),
            (#"{"command":"gesture","commandId":3}"#, "INVALID_ARGS", #"gesture: missing required field "gesturePlan""#),
            (#"{"command":"gesture","commandId":3,"gesturePlan":[1]}"#, "INVALID_ARGS", #"gesture: field "gesturePlan" must be a gesture plan"#),
            (#"{"command":"key","commandId":3,"name":"tab"}"#, "UNSUPPORTED_OPERATION", #"key: unknown key "tab""#),
            (#"{"command":"swipe","commandId":3}"#, "UNSUPPORTED_OPERATION", #"unknown command "swipe""#),
            (#"[1,2]"#, "INVALID_ARGS", "the body is not a JSON object"),
            (#"{"command":"launch","commandId":3,"appId":"a","arguments":{"list":[1]}}"#, "INVALID_ARGS", #"launch: argument "list" must be a string, a number or a boolean"#),
        ]
        for (body, code, message) in cases {
            guard case let .failure(e) = decodeRequest(Data(body.utf8)).command else {
                XCTFail("accepted: \(body)")
                continue
            }
            XCTAssertEqual(e.code, code, body)
            XCTAssertEqual(e.message, message, body)
        }
    }

    /// R14: a hold or an erase runs on the main thread, where every other
    /// command waits; the runner refuses values past its bounds and says
    /// what they are.
    func testHoldAndEraseAreBounded() {
        let accepted: [(String, Command)] = [
            (#"{"command":"longPress","commandId":1,"x":1,"y":2,"holdMs":10000}"#, .longPress(x: 1, y: 2, holdMs: 10000)),
            (#"{"command":"longPress","commandId":1,"x":1,"y":2,"holdMs":0}"#, .longPress(x: 1, y: 2, holdMs: 0)),
            (#"{"command":"erase","commandId":1,"count":500}"#, .erase(count: 500)),
            (#"{"command":"erase","commandId":1,"count":0}"#, .erase(count: 0)),
        ]
        for (body, want) in accepted {
            XCTAssertEqual(decodeRequest(Data(body.utf8)).command, .success(want), body)
        }
        let refused: [(String, String)] = [
            (#"{"command":"longPress","commandId":1,"x":1,"y":2,"holdMs":10001}"#, #"longPress: field "holdMs" must be between 0 and 10000 ms, not 10001"#),
            (#"{"command":"longPress","commandId":1,"x":1,"y":2,"holdMs":-1}"#, #"longPress: field "holdMs" must be between 0 and 10000 ms, not -1"#),
            (#"{"command":"erase","commandId":1,"count":501}"#, #"erase: field "count" must be between 0 and 500 characters, not 501"#),
            (#"{"command":"erase","commandId":1,"count":-3}"#, #"erase: field "count" must be between 0 and 500 characters, not -3"#),
        ]
        for (body, message) in refused {
            guard case let .failure(e) = decodeRequest(Data(body.utf8)).command else {
                XCTFail("accepted: \(body)")
                continue
            }
            XCTAssertEqual(e.code, "INVALID_ARGS", body)
            XCTAssertEqual(e.message, message, body)
            XCTAssertNotNil(e.hint, body)
        }
    }

    func testLaunchArgumentsAsMaestroBuildsThem() throws {
        let body = #"{"command":"launch","commandId":1,"appId":"a","arguments":{"isE2E":true,"port":8080,"-mode":"demo","ratio":4.5}}"#
        guard case let .success(.launch(_, args, stop)) = decodeRequest(Data(body.utf8)).command else {
            return XCTFail("launch refused")
        }
        XCTAssertEqual(args, ["isE2E", "true", "-port", "8080", "-mode", "demo", "-ratio", "4.5"])
        XCTAssertFalse(stop)
    }
}
