/// Parses a complete request head: the request line (RFC 9112 §3) and the field lines (RFC 9112 §5), and
/// decides the message framing (RFC 9112 §6).
enum HeadParser {
    /// How the body of a request is delimited.
    enum Body: Equatable {
        case none
        case length(Int)
        case chunked
    }

    struct Framing {
        var body: Body
        var expectsContinue: Bool
    }

    /// Parses `head`: the request line and every field line, each with its CRLF, without the final empty line.
    /// - Parameters:
    ///   - head: The head bytes.
    ///   - requestLineEnd: The offset of the request line's CR.
    /// - Returns: The request (without body) and its framing.
    /// - Throws: ``HTTPParserError`` for a head that must be refused.
    static func parse(
        _ head: UnsafeRawBufferPointer, requestLineEnd: Int
    ) throws(HTTPParserError) -> (request: HTTPRequest, framing: Framing) {
        let line = try RequestLine.parse(UnsafeRawBufferPointer(rebasing: head[0..<requestLineEnd]))
        var fields = FieldScan()
        var lineStart = requestLineEnd + 2
        while lineStart < head.count {
            // Lines end at LF, which the scan checked always follows a CR. A CR anywhere else stays in the line
            // for FieldLine to refuse: ending the line at a bare CR would turn the rest of a value into a field
            // line of its own (`X: a\r_Content-Length: 5`), one its sender never wrote, which is request smuggling.
            var lineFeed = lineStart
            while head[lineFeed] != 0x0A { lineFeed += 1 }
            try fields.add(FieldLine.validate(UnsafeRawBufferPointer(rebasing: head[lineStart..<(lineFeed - 1)])))
            lineStart = lineFeed + 1
        }
        let framing = try fields.framing(version: line.version)
        let keepAlive =
            switch line.version {
            case .http1_1: !fields.connectionClose
            case .http1_0: fields.connectionKeepAlive && !fields.connectionClose
            }
        let request = HTTPRequest(
            method: line.method, version: line.version, head: Array(head), headersStart: requestLineEnd + 2,
            targetRange: line.target, pathRange: line.path, queryRange: line.query, keepAlive: keepAlive)
        return (request, framing)
    }
}

/// The parts of a request line, as offsets into the head.
struct RequestLine {
    var method: HTTPMethod
    var version: HTTPVersion
    var target: Range<Int>
    var path: Range<Int>
    var query: Range<Int>?

    /// Parses `method SP request-target SP HTTP-version` (RFC 9112 §3), CRLF excluded.
    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParserError) -> RequestLine {
        var methodEnd = 0
        while methodEnd < line.count, ByteClass.isToken(line[methodEnd]) { methodEnd += 1 }
        guard methodEnd > 0, methodEnd < line.count, line[methodEnd] == 0x20 else { throw .malformedRequestLine }
        let targetStart = methodEnd + 1
        var targetEnd = targetStart
        while targetEnd < line.count, ByteClass.isTarget(line[targetEnd]) { targetEnd += 1 }
        guard targetEnd > targetStart, targetEnd < line.count, line[targetEnd] == 0x20 else {
            throw .malformedRequestLine
        }
        let version = try parseVersion(UnsafeRawBufferPointer(rebasing: line[(targetEnd + 1)...]))
        let method = HTTPMethod.parse(UnsafeRawBufferPointer(rebasing: line[0..<methodEnd]))
        guard method != .connect else { throw .unsupportedMethod }
        let (path, query) = try parseTarget(line, targetStart..<targetEnd, method: method)
        return RequestLine(method: method, version: version, target: targetStart..<targetEnd, path: path, query: query)
    }

    private static func parseVersion(_ bytes: UnsafeRawBufferPointer) throws(HTTPParserError) -> HTTPVersion {
        if bytes.elementsEqual("HTTP/1.1".utf8) { return .http1_1 }
        if bytes.elementsEqual("HTTP/1.0".utf8) { return .http1_0 }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if bytes.count == 8, bytes.starts(with: "HTTP/".utf8), isDigit(bytes[5]), bytes[6] == UInt8(ascii: "."),
            isDigit(bytes[7])
        {
            throw .unsupportedVersion
        }
        throw .malformedRequestLine
    }

    /// Splits the target into path and query: origin-form, absolute-form (RFC 9112 §3.2.2: a server MUST accept
    /// it) or asterisk-form for OPTIONS. Fragments are never sent by conforming clients and are refused.
    private static func parseTarget(
        _ line: UnsafeRawBufferPointer, _ target: Range<Int>, method: HTTPMethod
    ) throws(HTTPParserError) -> (path: Range<Int>, query: Range<Int>?) {
        if line[target.lowerBound] == UInt8(ascii: "*") {
            guard target.count == 1, method == .options else { throw .invalidTarget }
            return (target, nil)
        }
        var pathStart = target.lowerBound
        if line[pathStart] != UInt8(ascii: "/") {
            guard let authorityEnd = absoluteFormPathStart(line, target) else { throw .invalidTarget }
            pathStart = authorityEnd
        }
        var index = pathStart
        while index < target.upperBound, line[index] != UInt8(ascii: "?") {
            guard line[index] != UInt8(ascii: "#") else { throw .invalidTarget }
            index += 1
        }
        let path = pathStart..<index
        guard index < target.upperBound else { return (path, nil) }
        let query = (index + 1)..<target.upperBound
        for position in query where line[position] == UInt8(ascii: "#") { throw .invalidTarget }
        return (path, query)
    }

    /// For `http://authority/path` or `https://…`, the offset where the path (or query) starts.
    private static func absoluteFormPathStart(_ line: UnsafeRawBufferPointer, _ target: Range<Int>) -> Int? {
        let text = UnsafeRawBufferPointer(rebasing: line[target])
        let schemeLength: Int
        if text.count >= 7, ByteClass.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: text[0..<7]), "http://") {
            schemeLength = 7
        } else if text.count >= 8,
            ByteClass.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: text[0..<8]), "https://")
        {
            schemeLength = 8
        } else {
            return nil
        }
        var index = target.lowerBound + schemeLength
        guard index < target.upperBound else { return nil }  // an absolute-form target needs an authority
        while index < target.upperBound, line[index] != UInt8(ascii: "/"), line[index] != UInt8(ascii: "?") {
            index += 1
        }
        return index
    }
}

/// One validated field line, as offsets into that line.
struct FieldLine {
    var name: UnsafeRawBufferPointer
    var value: UnsafeRawBufferPointer

    /// Checks `name ":" OWS value OWS` (RFC 9112 §5): a token name directly followed by the colon, and a value
    /// of visible characters, SP, HTAB and obs-text only.
    static func validate(_ line: UnsafeRawBufferPointer) throws(HTTPParserError) -> FieldLine {
        guard let first = line.first else { throw .invalidHeaderName }
        guard !ByteClass.isWhitespace(first) else { throw .obsoleteLineFolding }
        var colon = 0
        while colon < line.count, ByteClass.isToken(line[colon]) { colon += 1 }
        guard colon > 0, colon < line.count, line[colon] == UInt8(ascii: ":") else { throw .invalidHeaderName }
        let value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
        for byte in value where !ByteClass.isFieldValue(byte) { throw .invalidHeaderValue }
        return FieldLine(name: UnsafeRawBufferPointer(rebasing: line[0..<colon]), value: ByteClass.trimmed(value))
    }
}
