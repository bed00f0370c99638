import XCTest

/// Reads an app's accessibility tree in one snapshot (a single round trip
/// to the app, where walking XCUIElement queries costs one per node) and
/// converts it to the protocol's elements.
enum Hierarchy {
    static func read(_ app: XCUIApplication, maxDepth: Int) throws -> Element {
        let snapshot: XCUIElementSnapshot
        do {
            snapshot = try app.snapshot()
        } catch {
            throw RunnerError.commandFailed("cannot read the screen of \(app.description): \(error.localizedDescription)",
                                           hint: "the app may be launching or gone: wait for it, or relaunch it")
        }
        return element(snapshot, depth: 0, maxDepth: max(1, maxDepth))
    }

    static func element(_ s: XCUIElementSnapshot, depth: Int, maxDepth: Int) -> Element {
        let type = typeName(s.elementType)
        let value = text(s.value)
        var scrollable: String?
        switch s.elementType {
        case .scrollView, .table, .collectionView:
            // A snapshot does not say which way a view scrolls; tables and
            // collections of phone apps overwhelmingly scroll vertically.
            scrollable = "vertical"
        default:
            break
        }
        var children: [Element] = []
        if depth + 1 < maxDepth {
            children = s.children.map { element($0, depth: depth + 1, maxDepth: maxDepth) }
        }
        return Element(
            type: type,
            identifier: s.identifier,
            label: s.label,
            title: s.title,
            value: value,
            placeholder: s.placeholderValue ?? "",
            frame: FlowRect(x: Double(s.frame.origin.x), y: Double(s.frame.origin.y),
                        width: Double(s.frame.size.width), height: Double(s.frame.size.height)),
            enabled: s.isEnabled,
            selected: s.isSelected,
            checked: (s.elementType == .switch || s.elementType == .toggle) && value == "1",
            hasFocus: hasKeyboardFocus(s),
            scrollable: scrollable,
            children: children
        )
    }

    static let keyboardFocus = NSSelectorFromString("hasKeyboardFocus")

    /// Whether the element holds the keyboard focus (the text field typing
    /// goes to). XCUIElementAttributes.hasFocus exists on tvOS only; on iOS
    /// the snapshot object answers the private hasKeyboardFocus, asked only
    /// after checking that it does, so an XCTest without it reads false.
    static func hasKeyboardFocus(_ s: XCUIElementSnapshot) -> Bool {
        guard let object = s as? NSObject, object.responds(to: keyboardFocus) else { return false }
        return (object.value(forKey: "hasKeyboardFocus") as? NSNumber)?.boolValue ?? false
    }

    /// An element's value as text: switches report NSNumber 0/1, sliders a
    /// percentage string, text fields their text.
    static func text(_ v: Any?) -> String {
        switch v {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return ""
        }
    }

    /// XCUIElement.ElementType's name, as its Swift case is spelled; types
    /// iOS apps do not show are "other".
    static func typeName(_ t: XCUIElement.ElementType) -> String {
        switch t {
        case .any: return "any"
        case .other: return "other"
        case .application: return "application"
        case .group: return "group"
        case .window: return "window"
        case .sheet: return "sheet"
        case .alert: return "alert"
        case .button: return "button"
        case .radioButton: return "radioButton"
        case .checkBox: return "checkBox"
        case .popover: return "popover"
        case .keyboard: return "keyboard"
        case .key: return "key"
        case .navigationBar: return "navigationBar"
        case .tabBar: return "tabBar"
        case .toolbar: return "toolbar"
        case .statusBar: return "statusBar"
        case .table: return "table"
        case .tableRow: return "tableRow"
        case .collectionView: return "collectionView"
        case .slider: return "slider"
        case .pageIndicator: return "pageIndicator"
        case .progressIndicator: return "progressIndicator"
        case .activityIndicator: return "activityIndicator"
        case .segmentedControl: return "segmentedControl"
        case .picker: return "picker"
        case .pickerWheel: return "pickerWheel"
        case .switch: return "switch"
        case .toggle: return "toggle"
        case .link: return "link"
        case .image: return "image"
        case .icon: return "icon"
        case .searchField: return "searchField"
        case .scrollView: return "scrollView"
        case .staticText: return "staticText"
        case .textField: return "textField"
        case .secureTextField: return "secureTextField"
        case .datePicker: return "datePicker"
        case .textView: return "textView"
        case .menu: return "menu"
        case .menuItem: return "menuItem"
        case .map: return "map"
        case .webView: return "webView"
        case .cell: return "cell"
        case .stepper: return "stepper"
        case .tab: return "tab"
        default: return "other"
        }
    }
}
