import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

final class ScreenTests: XCTestCase {
    let tall = FlowRect(x: 0, y: 0, width: 390, height: 844)
    let wide = FlowRect(x: 0, y: 0, width: 844, height: 390)

    func testReportedOrientationWins() {
        for n in 1...4 {
            XCTAssertEqual(interfaceOrientation(reported: n, device: Orientation.portrait, window: wide), n)
        }
    }

    /// Without XCUIApplication's answer (or with one out of range), the
    /// device's orientation stands in when the window's shape agrees, and
    /// the shape decides alone otherwise.
    func testFallbackFromDeviceAndWindow() {
        let cases: [(Int?, Int, FlowRect, Int, String)] = [
            (nil, Orientation.portrait, tall, Orientation.portrait, "upright, agrees"),
            (nil, Orientation.portraitUpsideDown, tall, Orientation.portraitUpsideDown, "upside down, agrees"),
            (nil, Orientation.landscapeLeft, wide, Orientation.landscapeLeft, "device landscape-left shows interface 4"),
            (nil, Orientation.landscapeRight, wide, Orientation.landscapeRight, "device landscape-right shows interface 3"),
            (nil, Orientation.landscapeLeft, tall, Orientation.portrait, "app did not rotate"),
            (nil, Orientation.portrait, wide, Orientation.landscapeRight, "a wide window on an upright device"),
            (nil, 5, wide, Orientation.landscapeRight, "face up, wide"),
            (nil, 6, tall, Orientation.portrait, "face down, tall"),
            (0, Orientation.landscapeLeft, wide, Orientation.landscapeLeft, "unknown answer is no answer"),
            (7, Orientation.portrait, tall, Orientation.portrait, "out-of-range answer is no answer"),
        ]
        for (reported, device, window, want, why) in cases {
            XCTAssertEqual(interfaceOrientation(reported: reported, device: device, window: window), want, why)
        }
    }

    /// setOrientation sets XCUIDevice's orientation as Maestro's runner
    /// does (LANDSCAPE_LEFT is UIDeviceOrientation.landscapeLeft, raw 3;
    /// UPSIDE_DOWN is portraitUpsideDown, raw 2), and an app that follows
    /// shows the interface viewport then names.
    func testSetOrientationTurnsAsMaestros() {
        let cases: [(DeviceOrientation, Int, String)] = [
            (.portrait, 1, "portrait"),
            (.upsideDown, 2, "portraitUpsideDown"),
            (.landscapeLeft, 3, "landscapeRight"),
            (.landscapeRight, 4, "landscapeLeft"),
        ]
        XCTAssertEqual(cases.count, DeviceOrientation.allCases.count)
        for (o, device, shows) in cases {
            XCTAssertEqual(o.uiDeviceOrientation, device, o.rawValue)
            XCTAssertEqual(Orientation.name(o.interfaceOrientation), shows, o.rawValue)
            let wide = device >= 3
            XCTAssertEqual(interfaceOrientation(reported: nil, device: o.uiDeviceOrientation, window: wide ? self.wide : tall),
                           o.interfaceOrientation, "\(o.rawValue): the device's turn reads back as the interface viewport names")
        }
    }

    func testHideKeyboardDragsAreMaestros() {
        let w = FlowRect(x: 10, y: 20, width: 400, height: 800)
        XCTAssertEqual(hideKeyboardDrags(window: w), [
            Drag(from: FlowPoint(x: 210, y: 420), to: FlowPoint(x: 210, y: 20 + 800 * 0.47)),
            Drag(from: FlowPoint(x: 210, y: 420), to: FlowPoint(x: 10 + 400 * 0.47, y: 420)),
        ])
    }

    /// A keyboard that goes after `after` drags (nil: never).
    func hide(keyboardUp: Bool, goesAfter after: Int?) -> (Result<Bool, RunnerError>, drags: Int, pauses: [Double]) {
        var drags = 0
        var pauses: [Double] = []
        var up = keyboardUp
        let result = Result<Bool, Error> {
            try hideKeyboard(window: tall, shown: { up }, drag: { _ in
                drags += 1
                if let after = after, drags >= after { up = false }
            }, pause: { pauses.append($0) })
        }.mapError { $0 as? RunnerError ?? RunnerError.internalError("\($0)") }
        return (result, drags, pauses)
    }

    func testHideKeyboard() {
        let none = hide(keyboardUp: false, goesAfter: 1)
        XCTAssertEqual(try none.0.get(), false)
        XCTAssertEqual(none.drags, 0, "no keyboard, no drag")

        let first = hide(keyboardUp: true, goesAfter: 1)
        XCTAssertEqual(try first.0.get(), true)
        XCTAssertEqual(first.drags, 1)
        XCTAssertEqual(first.pauses, [hideKeyboardPauseSeconds])

        let second = hide(keyboardUp: true, goesAfter: 2)
        XCTAssertEqual(try second.0.get(), true)
        XCTAssertEqual(second.drags, 2)

        let stays = hide(keyboardUp: true, goesAfter: nil)
        XCTAssertEqual(stays.drags, 2)
        guard case let .failure(e) = stays.0 else { return XCTFail("a keyboard that stays is no success") }
        XCTAssertEqual(e, keyboardStaysError)
        XCTAssertEqual(e.code, "COMMAND_FAILED")
    }
}
