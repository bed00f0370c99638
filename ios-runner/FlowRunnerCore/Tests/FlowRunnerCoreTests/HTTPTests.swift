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
