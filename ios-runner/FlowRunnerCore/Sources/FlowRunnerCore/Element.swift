import Foundation

/// One node of a `hierarchy` or `settle` answer, with PROTOCOL.md's fields.
/// flow maps it as Maestro does: Text = title, else value; Hint =
/// placeholder; Label = label; ID = identifier; Class = type.
public struct Element: Equatable {
    public var type: String
    public var identifier: String
    public var label: String
    public var title: String
    public var value: String
    public var placeholder: String
    public var frame: FlowRect
    public var enabled: Bool
    public var selected: Bool
    public var checked: Bool
    public var hasFocus: Bool
    /// "vertical", "horizontal" or nil.
    public var scrollable: String?
    public var children: [Element]

    public init(type: String, identifier: String = "", label: String = "", title: String = "", value: String = "",
                placeholder: String = "", frame: FlowRect, enabled: Bool = true, selected: Bool = false,
                checked: Bool = false, hasFocus: Bool = false, scrollable: String? = nil, children: [Element] = []) {
        self.type = type; self.identifier = identifier; self.label = label; self.title = title
        self.value = value; self.placeholder = placeholder; self.frame = frame; self.enabled = enabled
        self.selected = selected; self.checked = checked; self.hasFocus = hasFocus
        self.scrollable = scrollable; self.children = children
    }

    public var json: JSON {
        var m: [(String, JSON)] = [
            ("type", .string(type)), ("identifier", .string(identifier)), ("label", .string(label)),
            ("title", .string(title)), ("value", .string(value)), ("placeholder", .string(placeholder)),
            ("frame", .object([("x", .number(frame.x)), ("y", .number(frame.y)),
                               ("w", .number(frame.width)), ("h", .number(frame.height))])),
            ("enabled", .bool(enabled)), ("selected", .bool(selected)), ("checked", .bool(checked)),
            ("hasFocus", .bool(hasFocus)),
        ]
        if let s = scrollable { m.append(("scrollable", .string(s))) }
        if !children.isEmpty { m.append(("children", .array(children.map(\.json)))) }
        return .object(m)
    }

    /// Equal for equal trees, different in practice otherwise: 64-bit
    /// FNV-1a of the element's JSON text, as 16 hex digits.
    public var version: String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in json.text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
