import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

/// R5/R6: text is typed as Maestro types it, slowly at first.
final class TypingTests: XCTestCase {
    func testFirstCharacterAloneThenTheRest() {
        XCTAssertEqual(typingSteps("ada@example.com ✓"), [
            TypingStep(text: "a", typingSpeed: 1, pauseAfter: 0.5),
            TypingStep(text: "da@example.com ✓", typingSpeed: 30),
        ])
    }

    func testGraphemesAreNeverSplit() {
        // A flag is two scalars, é may be two: the first step is one whole
        // character either way.
        XCTAssertEqual(typingSteps("🇫🇷 ok").first?.text, "🇫🇷")
        XCTAssertEqual(typingSteps("e\u{301}te").first?.text, "e\u{301}")
        XCTAssertEqual(typingSteps("e\u{301}te").last?.text, "te")
    }

    func testOneCharacterAndNothing() {
        XCTAssertEqual(typingSteps("x"), [TypingStep(text: "x", typingSpeed: 1)])
        XCTAssertEqual(typingSteps(""), [])
    }

    func testKeysAtMaestrosSpeed() {
        XCTAssertEqual(keySteps("\u{8}\u{8}\u{8}"), [TypingStep(text: "\u{8}\u{8}\u{8}", typingSpeed: 30)])
        XCTAssertEqual(keySteps(""), [])
    }

    func testWithoutFocus() {
        let type = focusPolicy(.typeText("x"))
        XCTAssertEqual(type?.waitMs, focusWaitMs)
        XCTAssertEqual(type?.without, .fail)
        let erase = focusPolicy(.erase(count: 3))
        XCTAssertEqual(erase?.waitMs, focusWaitMs)
        XCTAssertEqual(erase?.without, .skip)
        let key = focusPolicy(.key(.enter))
        XCTAssertEqual(key?.waitMs, 0)
        XCTAssertEqual(key?.without, .skip)
        XCTAssertNil(focusPolicy(.tap(x: 1, y: 2)))
        XCTAssertNil(focusPolicy(.hideKeyboard))
    }

    func testNoFocusWording() {
        let e = noFocusError("type")
        XCTAssertEqual(e.code, "COMMAND_FAILED")
        XCTAssertEqual(e.message, "type: no element has keyboard focus")
    }
}
