import Foundation

/// One node of an XCUIElementSnapshot as the XCTest side copies it out:
/// plain values, so that the mapping to the protocol's elements is tested
/// here without XCTest. elementType is XCUIElement.ElementType's raw value;
/// value is the snapshot's value, whatever its type.
public struct SnapshotRecord {
    public var elementType: UInt
    public var identifier: String
    public var label: String
    public var title: String
    public var value: Any?
    public var placeholder: String?
    public var frame: FlowRect
    public var enabled: Bool
    public var selected: Bool
    public var hasFocus: Bool
    public var children: [SnapshotRecord]

    public init(elementType: UInt, identifier: String = "", label: String = "", title: String = "", value: Any? = nil,
                placeholder: String? = nil, frame: FlowRect, enabled: Bool = true, selected: Bool = false,
                hasFocus: Bool = false, children: [SnapshotRecord] = []) {
        self.elementType = elementType; self.identifier = identifier; self.label = label; self.title = title
        self.value = value; self.placeholder = placeholder; self.frame = frame; self.enabled = enabled
        self.selected = selected; self.hasFocus = hasFocus; self.children = children
    }
}

/// XCUIElement.ElementType raw values the mapping treats specially
/// (XCTest's XCUIElementTypes.h).
public enum ElementTypeRaw {
    public static let application: UInt = 2
    public static let window: UInt = 4
    public static let alert: UInt = 7
    public static let keyboard: UInt = 19
    public static let table: UInt = 26
    public static let collectionView: UInt = 32
    public static let `switch`: UInt = 40
    public static let toggle: UInt = 41
    public static let scrollView: UInt = 46
}

/// XCUIElement.ElementType's names as its Swift cases are spelled, by raw
/// value (XCUIElementTypes.h numbers them 0 to 82 in this order). Types iOS
/// apps do not show (macOS's drawers, menus bars, rulers …) are "other".
let elementTypeNames: [UInt: String] = [
    0: "any", 1: "other", 2: "application", 3: "group", 4: "window", 5: "sheet", 7: "alert", 9: "button",
    10: "radioButton", 12: "checkBox", 18: "popover", 19: "keyboard", 20: "key", 21: "navigationBar",
    22: "tabBar", 24: "toolbar", 25: "statusBar", 26: "table", 27: "tableRow", 32: "collectionView",
    33: "slider", 34: "pageIndicator", 35: "progressIndicator", 36: "activityIndicator",
    37: "segmentedControl", 38: "picker", 39: "pickerWheel", 40: "switch", 41: "toggle", 42: "link",
    43: "image", 44: "icon", 45: "searchField", 46: "scrollView", 48: "staticText", 49: "textField",
    50: "secureTextField", 51: "datePicker", 52: "textView", 53: "menu", 54: "menuItem", 57: "map",
    58: "webView", 75: "cell", 79: "stepper", 80: "tab",
]

public func elementTypeName(_ raw: UInt) -> String {
    elementTypeNames[raw] ?? "other"
}

/// A snapshot value as text: switches report NSNumber 0/1, sliders a
/// percentage string, text fields their text; anything else is no text.
public func snapshotValueText(_ v: Any?) -> String {
    switch v {
    case let s as String: return s
    case let n as NSNumber: return n.stringValue
    default: return ""
    }
}

/// A snapshot as the protocol's element tree, at most maxDepth levels (the
/// root is level 1; at least the root). A switch or toggle whose value is 1
/// is checked; scroll views, tables and collections scroll vertically (a
/// snapshot does not say which way, and those of phone apps overwhelmingly
/// scroll vertically).
public func element(_ s: SnapshotRecord, maxDepth: Int) -> Element {
    element(s, depth: 0, maxDepth: max(1, maxDepth))
}

func element(_ s: SnapshotRecord, depth: Int, maxDepth: Int) -> Element {
    let value = snapshotValueText(s.value)
    var scrollable: String?
    switch s.elementType {
    case ElementTypeRaw.scrollView, ElementTypeRaw.table, ElementTypeRaw.collectionView:
        scrollable = "vertical"
    default:
        break
    }
    var children: [Element] = []
    if depth + 1 < maxDepth {
        children = s.children.map { element($0, depth: depth + 1, maxDepth: maxDepth) }
    }
    return Element(
        type: elementTypeName(s.elementType),
        identifier: s.identifier,
        label: s.label,
        title: s.title,
        value: value,
        placeholder: s.placeholder ?? "",
        frame: s.frame,
        enabled: s.enabled,
        selected: s.selected,
        checked: (s.elementType == ElementTypeRaw.switch || s.elementType == ElementTypeRaw.toggle) && value == "1",
        hasFocus: s.hasFocus,
        scrollable: scrollable,
        children: children
    )
}

/// SpringBoard's alerts (permission, notification and tracking prompts)
/// put beside the app's tree, after its children (drawn over them, and
/// where flow's fake runner puts them), so that `tapOn: "Allow"` finds the
/// button although it belongs to another process: Maestro returns
/// SpringBoard's tree beside the app's for the same reason. Only the alerts
/// come: SpringBoard's icons and status bar would match selectors the app
/// never showed. The app's tree stays the root (flow reads the app's frame
/// there). A SpringBoard that could not be read, or shows no alert, leaves
/// the app's tree as it is.
public func withSystemAlerts(_ app: Element, springboard: Element?) -> Element {
    guard let springboard = springboard else { return app }
    let alerts = alertSubtrees(springboard)
    if alerts.isEmpty { return app }
    var out = app
    out.children = app.children + alerts
    return out
}

/// Every alert of a tree, outermost only (an alert's own children stay in it).
func alertSubtrees(_ e: Element) -> [Element] {
    if e.type == "alert" { return [e] }
    return e.children.flatMap(alertSubtrees)
}

/// Whether a snapshot error is the one deep trees raise: the accessibility
/// server refuses a tree it cannot serialize with kAXErrorIllegalArgument
/// (Maestro's ViewHierarchyHandler recovers from exactly this one).
public func isIllegalArgumentSnapshotError(_ message: String) -> Bool {
    message.contains("kAXErrorIllegalArgument")
}

/// Maestro's recovery element: from the app's first child (its window),
/// down through single-child wrappers, the first element that branches, or
/// the last one when nothing branches; at most limit steps, so that a
/// cyclic or endless answer cannot hold the main thread.
public func recoveryElement<E>(from start: E, limit: Int, childCount: (E) throws -> Int,
                               firstOtherChild: (E) -> E?) rethrows -> E {
    var e = start
    var steps = 0
    while steps < limit, try childCount(e) <= 1, let next = firstOtherChild(e) {
        e = next
        steps += 1
    }
    return e
}

/// The tree answered when the app's own snapshot failed and its parts were
/// read apart (Maestro's order: a window's single custom element, the
/// keyboard, an alert, then the recovered content), under an application
/// element with the app's frame and label.
public func recoveredTree(label: String, frame: FlowRect, parts: [Element?]) -> Element {
    Element(type: "application", label: label, frame: frame, children: parts.compactMap { $0 })
}

extension EventRecord {
    /// The record as FlowPerformEventRecord (EventBridge.h) takes it: one
    /// array per finger of events, each {type, offset, x, y} in native
    /// portrait points (no point for a lift).
    public var bridgePaths: [[[String: Any]]] {
        paths.map { events in
            events.map { e -> [String: Any] in
                switch e {
                case let .touch(p, o): return ["type": "touch", "offset": o, "x": p.x, "y": p.y]
                case let .move(p, o): return ["type": "move", "offset": o, "x": p.x, "y": p.y]
                case let .lift(o): return ["type": "lift", "offset": o]
                }
            }
        }
    }
}
