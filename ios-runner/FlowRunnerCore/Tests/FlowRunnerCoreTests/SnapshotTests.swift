import Foundation
import XCTest
#if canImport(FlowRunnerCore)
@testable import FlowRunnerCore
#endif

final class SnapshotTests: XCTestCase {
    let f = FlowRect(x: 0, y: 0, width: 390, height: 844)

    /// The names the Go side maps to Class (exec/ios device.go), by
    /// XCUIElementTypes.h's raw values.
    func testElementTypeNames() {
        let want: [UInt: String] = [0: "any", 1: "other", 2: "application", 4: "window", 7: "alert", 9: "button",
                                    19: "keyboard", 26: "table", 32: "collectionView", 40: "switch", 41: "toggle",
                                    46: "scrollView", 48: "staticText", 49: "textField", 50: "secureTextField",
                                    52: "textView", 75: "cell", 79: "stepper", 80: "tab"]
        for (raw, name) in want {
            XCTAssertEqual(elementTypeName(raw), name, "raw \(raw)")
        }
        // macOS-only types (drawer 6, menuBar 55, ruler 71, statusItem 82)
        // and values past the enum are "other".
        for raw: UInt in [6, 8, 55, 71, 82, 83, 1000] {
            XCTAssertEqual(elementTypeName(raw), "other", "raw \(raw)")
        }
    }

    func testRecordToElement() {
        let record = SnapshotRecord(elementType: ElementTypeRaw.application, label: "Shop", frame: f, children: [
            SnapshotRecord(elementType: 49, identifier: "email", value: "ada@", placeholder: "Email",
                           frame: FlowRect(x: 20, y: 100, width: 350, height: 44), hasFocus: true),
            SnapshotRecord(elementType: ElementTypeRaw.switch, label: "Remember me", value: NSNumber(value: 1), frame: f),
            SnapshotRecord(elementType: ElementTypeRaw.toggle, value: NSNumber(value: 0), frame: f, enabled: false),
            SnapshotRecord(elementType: ElementTypeRaw.table, frame: f, selected: true),
            SnapshotRecord(elementType: 33, value: "50%", frame: f),
        ])
        let e = element(record, maxDepth: 60)
        XCTAssertEqual(e.type, "application")
        XCTAssertEqual(e.label, "Shop")
        XCTAssertEqual(e.children.count, 5)
        let field = e.children[0]
        XCTAssertEqual([field.type, field.identifier, field.value, field.placeholder], ["textField", "email", "ada@", "Email"])
        XCTAssertTrue(field.hasFocus)
        XCTAssertEqual(field.frame, FlowRect(x: 20, y: 100, width: 350, height: 44))
        XCTAssertTrue(e.children[1].checked, "a switch whose value is 1 is checked")
        XCTAssertEqual(e.children[1].value, "1")
        XCTAssertFalse(e.children[2].checked)
        XCTAssertFalse(e.children[2].enabled)
        XCTAssertEqual(e.children[3].scrollable, "vertical")
        XCTAssertTrue(e.children[3].selected)
        XCTAssertNil(e.children[0].scrollable)
        XCTAssertEqual(e.children[4].value, "50%")
        XCTAssertFalse(e.children[4].checked, "only switches and toggles are checked")
    }

    func testDepthIsTrimmed() {
        var deep = SnapshotRecord(elementType: 1, frame: f)
        for _ in 0..<9 { deep = SnapshotRecord(elementType: 1, frame: f, children: [deep]) }
        func depth(_ e: Element) -> Int { 1 + (e.children.map(depth).max() ?? 0) }
        XCTAssertEqual(depth(element(deep, maxDepth: 60)), 10)
        XCTAssertEqual(depth(element(deep, maxDepth: 4)), 4)
        XCTAssertEqual(depth(element(deep, maxDepth: 0)), 1, "at least the root")
    }

    func testValueText() {
        XCTAssertEqual(snapshotValueText("x"), "x")
        XCTAssertEqual(snapshotValueText(NSNumber(value: 0)), "0")
        XCTAssertEqual(snapshotValueText(NSNumber(value: 0.5)), "0.5")
        XCTAssertEqual(snapshotValueText(nil), "")
        XCTAssertEqual(snapshotValueText(Date()), "")
    }

    /// M4: a permission prompt belongs to SpringBoard; it joins the app's
    /// tree so that `tapOn: "Allow"` finds it.
    func testSpringBoardAlertsJoinTheAppsTree() {
        let allow = Element(type: "button", label: "Allow", frame: FlowRect(x: 60, y: 500, width: 270, height: 44))
        let alert = Element(type: "alert", label: "“Shop” Would Like to Send You Notifications", frame: f,
                            children: [Element(type: "other", frame: f, children: [allow])])
        let springboard = Element(type: "application", label: "SpringBoard", frame: f, children: [
            Element(type: "window", frame: f, children: [Element(type: "button", label: "Safari", frame: f)]),
            Element(type: "window", frame: f, children: [alert]),
        ])
        let app = Element(type: "application", label: "Shop", frame: f, children: [Element(type: "button", label: "Log in", frame: f)])

        let joined = withSystemAlerts(app, springboard: springboard)
        XCTAssertEqual(joined.label, "Shop", "the app stays the root")
        XCTAssertEqual(joined.frame, app.frame)
        XCTAssertEqual(joined.children.map(\.type), ["button", "alert"], "the app's children, then SpringBoard's alerts")
        XCTAssertEqual(joined.children[1], alert, "the alert whole, Allow included")
        XCTAssertFalse(joined.children.contains { $0.label == "Safari" }, "SpringBoard's icons stay out")

        XCTAssertEqual(withSystemAlerts(app, springboard: nil), app)
        XCTAssertEqual(withSystemAlerts(app, springboard: Element(type: "application", frame: f)), app)
    }

    func testIllegalArgumentIsRecognised() {
        XCTAssertTrue(isIllegalArgumentSnapshotError("Error kAXErrorIllegalArgument getting snapshot for element <AXUIElementRef 0x6000025eb660>"))
        XCTAssertFalse(isIllegalArgumentSnapshotError("Application com.example.shop is not running"))
    }

    /// M5's fallback: the first element that branches, found from the
    /// window down through single-child wrappers.
    func testRecoveryElementIsTheFirstBranchingOne() throws {
        // 0: window (1 child) → 1: wrapper (1 child) → 2: content (3 children)
        let children = [1, 1, 3, 0]
        var counted: [Int] = []
        let found = try recoveryElement(from: 0, limit: 60, childCount: { i -> Int in counted.append(i); return children[i] },
                                        firstOtherChild: { i in i + 1 < children.count ? i + 1 : nil })
        XCTAssertEqual(found, 2)
        XCTAssertEqual(counted, [0, 1, 2])
        // Nothing branches: the last element reached.
        XCTAssertEqual(recoveryElement(from: 0, limit: 60, childCount: { _ in 1 }, firstOtherChild: { i in i < 5 ? i + 1 : nil }), 5)
        // A chain that never ends stops at the limit.
        XCTAssertEqual(recoveryElement(from: 0, limit: 60, childCount: { _ in 1 }, firstOtherChild: { i in i + 1 }), 60)
    }

    func testRecoveredTreeKeepsMaestrosOrder() {
        let keyboard = Element(type: "keyboard", frame: f)
        let content = Element(type: "other", label: "content", frame: f)
        let t = recoveredTree(label: "Shop", frame: f, parts: [nil, keyboard, nil, content])
        XCTAssertEqual(t.type, "application")
        XCTAssertEqual(t.label, "Shop")
        XCTAssertEqual(t.children, [keyboard, content])
    }

    /// The record-to-bridge mapping EventBridge.m reads, event for event.
    func testBridgePaths() {
        let r = EventRecord(name: recordTap, interfaceOrientation: 1, paths: [
            [.touch(FlowPoint(x: 1, y: 2), offset: 0), .move(FlowPoint(x: 3, y: 4), offset: 0.1), .lift(offset: 0.15)],
        ])
        let p = r.bridgePaths
        XCTAssertEqual(p.count, 1)
        XCTAssertEqual(p[0].count, 3)
        XCTAssertEqual(p[0][0]["type"] as? String, "touch")
        XCTAssertEqual(p[0][0]["x"] as? Double, 1)
        XCTAssertEqual(p[0][0]["y"] as? Double, 2)
        XCTAssertEqual(p[0][1]["type"] as? String, "move")
        XCTAssertEqual(p[0][1]["offset"] as? Double, 0.1)
        XCTAssertEqual(p[0][2]["type"] as? String, "lift")
        XCTAssertEqual(p[0][2]["offset"] as? Double, 0.15)
        XCTAssertNil(p[0][2]["x"])
    }
}
