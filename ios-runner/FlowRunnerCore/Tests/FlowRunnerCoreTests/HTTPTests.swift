import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

final class HTTPTests: XCTestCase {
    let body = #"{"command":"status","commandId":1}"#

    func request(_ head: String, _ body: String) -> Data {
        Data((head + body).utf8)
    }

    func testRequestArrivingInPieces() throws {
        let whole = request("POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n", body)
        var reader = HTTPRequestReader()
        var got: HTTPRequest?
        for i in 0..<whole.count {
            got = try reader.feed(whole.subdata(in: i..<i + 1))
            if i < whole.count - 1 { XCTAssertNil(got, "a request before its last byte (\(i))") }
        }
        XCTAssertEqual(got?.method, "POST")
        XCTAssertEqual(got?.path, "/command")
        XCTAssertEqual(got.map { String(decoding: $0.body, as: UTF8.self) }, body)
    }

    func testHeadersAreReadWhateverTheLineEnding() throws {
        for eol in ["\r\n", "\n"] {
            let head = ["POST /command HTTP/1.1", "Host: 127.0.0.1:22087", "Content-Type: application/json",
                        "content-length:\(body.utf8.count)", "Connection: close"].joined(separator: eol) + eol + eol
            var reader = HTTPRequestReader()
            let got = try reader.feed(request(head, body))
            XCTAssertEqual(got?.headers.count, 4, eol.debugDescription)
            XCTAssertEqual(got?.headers.first?.0, "Host")
            XCTAssertEqual(got?.headers.first?.1, "127.0.0.1:22087")
            XCTAssertEqual(got.map { String(decoding: $0.body, as: UTF8.self) }, body, eol.debugDescription)
        }
    }

    func testBodyAfterTheHeadAndBytesPastContentLength() throws {
        var reader = HTTPRequestReader()
        XCTAssertNil(try reader.feed(Data("POST /command HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n".utf8)))
        // Whatever follows the declared length is not part of this request.
        let got = try reader.feed(Data((body + "GARBAGE").utf8))
        XCTAssertEqual(got.map { String(decoding: $0.body, as: UTF8.self) }, body)
    }

    func testNoContentLengthIsAnEmptyBody() throws {
        var reader = HTTPRequestReader()
        let got = try reader.feed(Data("POST /command HTTP/1.1\r\n\r\n".utf8))
        XCTAssertEqual(got?.body.count, 0)
        // The command layer then refuses the empty body with an answer.
        guard case let .failure(e) = decodeRequest(got?.body ?? Data()).command else { return XCTFail("accepted") }
        XCTAssertEqual(e.message, "the body is not a JSON object")
    }

    func testOversizeHeadIsRefused() {
        var reader = HTTPRequestReader()
        let head = "POST /command HTTP/1.1\r\nX-Filler: " + String(repeating: "a", count: 70 << 10)
        XCTAssertThrowsError(try reader.feed(Data(head.utf8))) { e in
            XCTAssertEqual((e as? HTTPStatus)?.code, 431)
        }
    }

    func testRefusals() {
        let cases: [(String, Int)] = [
            ("GET /command HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 405),
            ("POST /status HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 404),
            ("POST /command HTTP/1.1\r\nContent-Length: \(maxBodyBytes + 1)\r\n\r\n", 413),
            ("POST /command HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
            ("POST /command HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            ("POST /command\r\n\r\n", 400),
            ("POST /command HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        ]
        for (head, status) in cases {
            var reader = HTTPRequestReader()
            XCTAssertThrowsError(try reader.feed(Data(head.utf8)), head) { e in
                XCTAssertEqual((e as? HTTPStatus)?.code, status, head)
            }
        }
    }

    func testResponseFraming() {
        let out = String(decoding: httpResponse(body: Data("{}".utf8)), as: UTF8.self)
        XCTAssertEqual(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    }
}
