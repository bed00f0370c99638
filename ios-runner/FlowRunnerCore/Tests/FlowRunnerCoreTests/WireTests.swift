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
        var commands: [Command] = []
        for line in try jsonLines(file) {
            if let request = line["request"], case let .success(c) = decodeRequest(request.data).command {
                commands.append(c)
            }
        }
        XCTAssertTrue(commands.contains(.launch(appId: "com.example.shop", arguments: ["onboarded", "true"], stop: true)))
        XCTAssertTrue(commands.contains(.typeText("ada@example.com ✓")))
        XCTAssertTrue(commands.contains(.settle(appIds: ["com.example.shop"], maxDepth: 60, quietMs: 200, timeoutMs: 3000)))
        XCTAssertTrue(commands.contains(.tap(x: 540, y: 320)))
        XCTAssertTrue(commands.contains(.erase(count: 2)))
        XCTAssertTrue(commands.contains(.key(.enter)))
        XCTAssertTrue(commands.contains(.quit))
    }

    func testFieldErrorsNameCommandAndField() {
        let cases: [(String, String, String)] = [
            (#"{"command":"tap","commandId":3,"y":1}"#, "INVALID_ARGS", #"tap: missing required field "x""#),
            (#"{"command":"tap","commandId":3,"x":"1","y":1}"#, "INVALID_ARGS", #"tap: field "x" must be a number"#),
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

    func testLaunchArgumentsAsMaestroBuildsThem() throws {
        let body = #"{"command":"launch","commandId":1,"appId":"a","arguments":{"isE2E":true,"port":8080,"-mode":"demo","ratio":4.5}}"#
        guard case let .success(.launch(_, args, stop)) = decodeRequest(Data(body.utf8)).command else {
            return XCTFail("launch refused")
        }
        XCTAssertEqual(args, ["isE2E", "true", "-port", "8080", "-mode", "demo", "-ratio", "4.5"])
        XCTAssertFalse(stop)
    }
}
