import Foundation

/// A JSON value. The runner reads and writes its own JSON instead of
/// JSONSerialization: that one turns `true` and `1` into the same NSNumber
/// on Apple platforms and into different types on Linux, and forgets the
/// order of an object's keys, which Maestro's launch arguments keep.
public indirect enum JSON: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            // Objects are equal as values: key order is free on the wire.
            guard x.count == y.count else { return false }
            for (k, v) in x {
                guard let w = y.first(where: { $0.0 == k })?.1, w == v else { return false }
            }
            return true
        default: return false
        }
    }

    /// The member named key of an object, nil otherwise.
    public subscript(key: String) -> JSON? {
        if case let .object(members) = self {
            return members.first(where: { $0.0 == key })?.1
        }
        return nil
    }

    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    public var numberValue: Double? {
        if case let .number(n) = self { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(b) = self { return b }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case let .array(a) = self { return a }
        return nil
    }

    public var objectValue: [(String, JSON)]? {
        if case let .object(o) = self { return o }
        return nil
    }
}

public struct JSONParseError: Error, Equatable {
    public let offset: Int
    public let reason: String
}

extension JSON {
    /// Parses one JSON text (RFC 8259), nested at most 512 deep.
    public static func parse(_ data: Data) throws -> JSON {
        var p = JSONParser(bytes: [UInt8](data))
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.pos != p.bytes.count {
            throw JSONParseError(offset: p.pos, reason: "trailing characters")
        }
        return v
    }

    public static func parse(_ text: String) throws -> JSON {
        try parse(Data(text.utf8))
    }

    /// Compact JSON text; numbers are written as Go's encoding/json writes
    /// float64 values (integers without a fraction, others shortest).
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    public var data: Data { Data(text.utf8) }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n): out += JSON.format(n)
        case let .string(s): JSON.quote(s, into: &out)
        case let .array(a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case let .object(o):
            out += "{"
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    static func format(_ n: Double) -> String {
        if !n.isFinite { return "null" }
        if n == n.rounded(), abs(n) < 1e15 {
            return String(Int64(n))
        }
        return "\(n)"
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    out += String(format: "\\u%04x", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var pos = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while pos < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[pos]) { pos += 1 }
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: pos, reason: reason) }

    mutating func value(depth: Int) throws -> JSON {
        guard depth < 512 else { throw fail("nested too deep") }
        guard pos < bytes.count else { throw fail("unexpected end") }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            pos += 1
            var members: [(String, JSON)] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                pos += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                // A repeated key keeps the last value, as Go and JavaScript read it.
                members.removeAll(where: { $0.0 == key })
                members.append((key, v))
                skipSpace()
                guard pos < bytes.count else { throw fail("unexpected end") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            pos += 1
            var items: [JSON] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard pos < bytes.count else { throw fail("unexpected end") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else { throw fail("unknown literal") }
        pos += w.count
    }

    mutating func number() throws -> Double {
        let start = pos
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("expected a value") }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("expected a digit") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("expected a digit") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let d = Double(text) else { throw fail("bad number") }
        return d
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    mutating func string() throws -> String {
        pos += 1 // the opening quote
        var scalars = String.UnicodeScalarView()
        var run = pos
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                try appendRun(from: run, to: pos, into: &scalars)
                pos += 1
                return String(scalars)
            }
            if b < 0x20 { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") { pos += 1; continue }
            try appendRun(from: run, to: pos, into: &scalars)
            pos += 1
            guard pos < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    // A high surrogate must pair with a low one.
                    guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(code) else { throw fail("invalid code point") }
                scalars.append(u)
            default:
                throw fail("unknown escape")
            }
            run = pos
        }
    }

    /// Appends the unescaped bytes start..<end, which must be UTF-8.
    func appendRun(from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView) throws {
        guard end > start else { return }
        guard let s = String(bytes: bytes[start..<end], encoding: .utf8) else { throw fail("invalid UTF-8") }
        scalars.append(contentsOf: s.unicodeScalars)
    }

    mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for b in bytes[pos..<pos + 4] {
            v <<= 4
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v |= UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v |= UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v |= UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("bad \\u escape")
            }
        }
        pos += 4
        return v
    }
}
