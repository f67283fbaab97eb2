/// A parsed HTTP/1.1 request: method, target, headers and the whole body.
///
/// The request line and header lines are kept as the received bytes; `path`, `query` and header values are
/// decoded into strings only when asked for, so routing and the common lookups allocate nothing per field.
public struct HTTPRequest: Sendable {
    /// The request method.
    public let method: HTTPMethod
    /// The protocol version of the request line.
    public let version: HTTPVersion
    /// The header fields, in order.
    public internal(set) var headers: HTTPHeaders
    /// The body, decoded from `Content-Length` or chunked framing (empty when there is none).
    public var body: [UInt8]
    /// Trailer fields that followed a chunked body (RFC 9112 §7.1.2), usually empty.
    public var trailers: HTTPHeaders
    /// Whether the client asked to keep the connection open after this request (RFC 9112 §9.3).
    public let keepAlive: Bool

    /// The request line and header bytes; `headers` views the same storage.
    let head: [UInt8]
    let targetRange: Range<Int>
    let pathRange: Range<Int>
    let queryRange: Range<Int>?

    init(
        method: HTTPMethod, version: HTTPVersion, head: [UInt8], headersStart: Int, targetRange: Range<Int>,
        pathRange: Range<Int>, queryRange: Range<Int>?, keepAlive: Bool
    ) {
        self.method = method
        self.version = version
        self.head = head
        self.headers = HTTPHeaders(wireBytes: head, start: headersStart)
        self.targetRange = targetRange
        self.pathRange = pathRange
        self.queryRange = queryRange
        self.keepAlive = keepAlive
        self.body = []
        self.trailers = HTTPHeaders()
    }

    /// Builds a request from parts, for tests and in-process callers; the parser is the usual source.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: An origin-form target such as `/v1/sessions?x=1`.
    ///   - headers: Header fields.
    ///   - body: The body bytes.
    package init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        var head = Array("\(method.rawValue) ".utf8)
        let targetStart = head.count
        head.append(contentsOf: target.utf8)
        let targetEnd = head.count
        head.append(contentsOf: " HTTP/1.1\r\n".utf8)
        let headersStart = head.count
        headers.write(into: &head)
        let question = head[targetStart..<targetEnd].firstIndex(of: UInt8(ascii: "?"))
        self.init(
            method: method, version: .http1_1, head: head, headersStart: headersStart,
            targetRange: targetStart..<targetEnd, pathRange: targetStart..<(question ?? targetEnd),
            queryRange: question.map { ($0 + 1)..<targetEnd }, keepAlive: true)
        self.body = body
    }

    /// The request-target as sent (RFC 9112 §3.2).
    public var target: String { String(decoding: head[targetRange], as: UTF8.self) }

    /// The path of the target, still percent-encoded; `/` for an absolute-form target without a path.
    public var path: String {
        pathRange.isEmpty ? "/" : String(decoding: head[pathRange], as: UTF8.self)
    }

    /// The query of the target without the `?`, still percent-encoded, or nil when there is none.
    public var query: String? {
        queryRange.map { String(decoding: head[$0], as: UTF8.self) }
    }

    /// The decoded value of the first query parameter `name` (`a=1&b=2` form; `+` means space).
    /// - Parameter name: The parameter name, compared after decoding.
    /// - Returns: The decoded value, `""` for a parameter without `=`, or nil when absent.
    public func queryValue(_ name: String) -> String? {
        queryValues(name, atMost: 1).first
    }

    /// The decoded values of query parameter `name`, in order, the first `limit` of them (a route that takes one
    /// asks for two, and refuses a parameter given twice rather than pick one).
    /// - Parameters:
    ///   - name: The parameter name, compared after decoding.
    ///   - limit: The most values returned.
    /// - Returns: Each value, `""` for a parameter without `=`; empty when absent.
    public func queryValues(_ name: String, atMost limit: Int = .max) -> [String] {
        guard let query, limit > 0 else { return [] }
        var values: [String] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentDecoding.decode(parts[0], plusAsSpace: true) == name else { continue }
            values.append(parts.count > 1 ? PercentDecoding.decode(parts[1], plusAsSpace: true) ?? "" : "")
            if values.count == limit { break }
        }
        return values
    }

    /// Calls `body` with the raw path bytes (an empty path is passed as `/`).
    func withPathBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if pathRange.isEmpty {
            return withUnsafeBytes(of: UInt8(ascii: "/")) { body($0) }
        }
        return head.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[pathRange])) }
    }
}

/// Percent-decoding of URI components (RFC 3986 §2.1).
package enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` when asked); nil when an escape is malformed or the result is not UTF-8.
    /// - Parameters:
    ///   - text: The encoded component.
    ///   - plusAsSpace: Whether `+` stands for a space (form encoding in queries).
    /// - Returns: The decoded string, or nil.
    package static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusAsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
