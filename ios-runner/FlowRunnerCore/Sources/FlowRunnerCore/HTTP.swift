import Foundation

/// One HTTP/1.1 request as the runner reads it: one per connection.
public struct HTTPRequest: Equatable {
    public var method: String
    public var path: String
    public var headers: [(String, String)]
    public var body: Data

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.path == b.path && a.body == b.body &&
            a.headers.map { $0.0 + ":" + $0.1 } == b.headers.map { $0.0 + ":" + $0.1 }
    }
}

/// An HTTP status the runner answers with before any command runs.
public struct HTTPStatus: Error, Equatable {
    public let code: Int
    public let reason: String
}

/// Reads a request from bytes as they arrive. `feed` returns the request
/// once its head and Content-Length bytes of body are in, nil while more
/// is needed, and throws the status to answer for a request it will not
/// serve (malformed, too large, not POST /command).
public struct HTTPRequestReader {
    var buffer = Data()
    var head: (method: String, path: String, headers: [(String, String)], length: Int, bodyStart: Int)?
    /// The most a request head may take.
    let maxHead = 64 << 10

    public init() {}

    public mutating func feed(_ bytes: Data) throws -> HTTPRequest? {
        buffer.append(bytes)
        if head == nil {
            guard let end = headEnd() else {
                if buffer.count > maxHead { throw HTTPStatus(code: 431, reason: "Request Header Fields Too Large") }
                return nil
            }
            head = try parseHead(buffer.prefix(end.headLength), bodyStart: end.bodyStart)
        }
        guard let h = head else { return nil }
        if buffer.count - h.bodyStart < h.length { return nil }
        let start = buffer.startIndex + h.bodyStart
        let body = buffer.subdata(in: start..<start + h.length)
        return HTTPRequest(method: h.method, path: h.path, headers: h.headers, body: body)
    }

    /// Where the head ends: CRLF CRLF (or a bare LF LF, which clients that
    /// write by hand send).
    func headEnd() -> (headLength: Int, bodyStart: Int)? {
        let b = [UInt8](buffer)
        var i = 0
        while i < b.count {
            if b[i] == 0x0A {
                if i + 1 < b.count, b[i + 1] == 0x0A { return (i, i + 2) }
                if i + 2 < b.count, b[i + 1] == 0x0D, b[i + 2] == 0x0A { return (i, i + 3) }
            }
            i += 1
        }
        return nil
    }

    func parseHead(_ data: Data, bodyStart: Int) throws -> (method: String, path: String, headers: [(String, String)], length: Int, bodyStart: Int) {
        // Lines are split on bytes: in a Swift String "\r\n" is one
        // Character, so splitting the text on "\n" would not split at all.
        var lines: [String] = []
        for raw in [UInt8](data).split(separator: 0x0A, omittingEmptySubsequences: false) {
            let bytes = raw.last == 0x0D ? raw.dropLast() : raw
            guard let line = String(bytes: bytes, encoding: .utf8) else { throw HTTPStatus(code: 400, reason: "Bad Request") }
            lines.append(line)
        }
        guard !lines.isEmpty else { throw HTTPStatus(code: 400, reason: "Bad Request") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { throw HTTPStatus(code: 400, reason: "Bad Request") }
        var headers: [(String, String)] = []
        var length = 0
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPStatus(code: 400, reason: "Bad Request") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
            switch name.lowercased() {
            case "content-length":
                guard let n = Int(value), n >= 0 else { throw HTTPStatus(code: 400, reason: "Bad Request") }
                length = n
            case "transfer-encoding":
                // flow's client always sends a length; chunked bodies are refused.
                throw HTTPStatus(code: 411, reason: "Length Required")
            default: break
            }
        }
        let method = String(requestLine[0]), path = String(requestLine[1])
        guard path == "/command" else { throw HTTPStatus(code: 404, reason: "Not Found") }
        guard method == "POST" else { throw HTTPStatus(code: 405, reason: "Method Not Allowed") }
        guard length <= maxBodyBytes else { throw HTTPStatus(code: 413, reason: "Payload Too Large") }
        return (method, path, headers, length, bodyStart)
    }
}

/// A complete HTTP/1.1 response that closes the connection.
public func httpResponse(status: Int = 200, reason: String = "OK", contentType: String = "application/json", body: Data) -> Data {
    var head = "HTTP/1.1 \(status) \(reason)\r\n"
    head += "Content-Type: \(contentType)\r\n"
    head += "Content-Length: \(body.count)\r\n"
    head += "Connection: close\r\n\r\n"
    var out = Data(head.utf8)
    out.append(body)
    return out
}
