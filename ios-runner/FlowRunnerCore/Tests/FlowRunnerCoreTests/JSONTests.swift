import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

final class JSONTests: XCTestCase {
    func testRoundTrip() throws {
        let text = #"{"a":[1,2.5,-3e-7,true,false,null],"b":"x\"\\\n\u0001é✓😀","c":{}}"#
        let v = try JSON.parse(text)
        XCTAssertEqual(v["b"]?.stringValue, "x\"\\\n\u{01}é✓😀")
        XCTAssertEqual(try JSON.parse(v.text), v)
    }

    func testSurrogatePairs() throws {
        XCTAssertEqual(try JSON.parse(#""\ud83d\ude00""#).stringValue, "😀")
        XCTAssertThrowsError(try JSON.parse(#""\ud83d""#))
    }

    func testBoolsAreNotNumbers() throws {
        let v = try JSON.parse(#"{"t":true,"one":1}"#)
        XCTAssertNil(v["t"]?.numberValue)
        XCTAssertNil(v["one"]?.boolValue)
    }

    func testMalformed() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\u{01}\"", "tru", "{} x"] {
            XCTAssertThrowsError(try JSON.parse(bad), bad)
        }
    }

    func testNumbersPrintAsGoPrintsThem() {
        XCTAssertEqual(JSON.number(200).text, "200")
        XCTAssertEqual(JSON.number(0.3).text, "0.3")
        XCTAssertEqual(JSON.number(-4).text, "-4")
    }

    func testElementVersionFollowsContent() {
        let a = Element(type: "button", label: "Log in", frame: FlowRect(x: 0, y: 0, width: 10, height: 10))
        var b = a
        XCTAssertEqual(a.version, b.version)
        XCTAssertEqual(a.version.count, 16)
        b.label = "Log out"
        XCTAssertNotEqual(a.version, b.version)
    }
}
