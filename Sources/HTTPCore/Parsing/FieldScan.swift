/// Collects what the framing of a request depends on while its field lines are validated
/// (RFC 9112 §6.1–6.3, RFC 9110 §7.6.1 and §10.1.1).
struct FieldScan {
    private(set) var contentLength: Int?
    private(set) var hasTransferEncoding = false
    private(set) var chunkedCount = 0
    private(set) var lastCodingIsChunked = false
    private(set) var unsupportedCoding = false
    private(set) var hostCount = 0
    private(set) var expectsContinue = false
    private(set) var connectionClose = false
    private(set) var connectionKeepAlive = false

    mutating func add(_ field: FieldLine) throws(HTTPParserError) {
        let name = field.name
        switch name.count {
        case 4 where ByteClass.equalsIgnoringCase(name, "host"):
            hostCount += 1
        case 6 where ByteClass.equalsIgnoringCase(name, "expect"):
            guard ByteClass.equalsIgnoringCase(field.value, "100-continue") else { throw .unsupportedExpectation }
            expectsContinue = true
        case 10 where ByteClass.equalsIgnoringCase(name, "connection"):
            Self.forEachListElement(field.value) { token in
                if ByteClass.equalsIgnoringCase(token, "close") { connectionClose = true }
                if ByteClass.equalsIgnoringCase(token, "keep-alive") { connectionKeepAlive = true }
            }
        case 14 where ByteClass.equalsIgnoringCase(name, "content-length"):
            try addContentLength(field.value)
        case 17 where ByteClass.equalsIgnoringCase(name, "transfer-encoding"):
            addTransferEncoding(field.value)
        default:
            break
        }
    }

    /// The body framing, once every field has been added.
    func framing(version: HTTPVersion) throws(HTTPParserError) -> HeadParser.Framing {
        guard hostCount <= 1, version == .http1_0 || hostCount == 1 else { throw .invalidHost }
        // RFC 9110 §10.1.1: an HTTP/1.0 client cannot be sent 100 Continue.
        let expectsContinue = expectsContinue && version == .http1_1
        if hasTransferEncoding {
            guard contentLength == nil else { throw .contentLengthWithTransferEncoding }
            guard !unsupportedCoding else { throw .unsupportedTransferEncoding }
            guard version == .http1_1, chunkedCount == 1, lastCodingIsChunked else { throw .invalidTransferEncoding }
            return .init(body: .chunked, expectsContinue: expectsContinue)
        }
        guard let contentLength, contentLength > 0 else { return .init(body: .none, expectsContinue: false) }
        return .init(body: .length(contentLength), expectsContinue: expectsContinue)
    }

    /// A list of identical decimal values is one value (RFC 9110 §8.6); differing values are refused.
    private mutating func addContentLength(_ value: UnsafeRawBufferPointer) throws(HTTPParserError) {
        var failure: HTTPParserError?
        var elements = 0
        Self.forEachListElement(value) { element in
            elements += 1
            guard failure == nil else { return }
            guard let length = Self.decimal(element) else {
                failure = .invalidContentLength
                return
            }
            if let existing = contentLength, existing != length {
                failure = .conflictingContentLength
            }
            contentLength = length
        }
        if let failure { throw failure }
        guard elements > 0 else { throw .invalidContentLength }
    }

    private mutating func addTransferEncoding(_ value: UnsafeRawBufferPointer) {
        hasTransferEncoding = true
        Self.forEachListElement(value) { coding in
            var name = coding
            if let semicolon = coding.firstIndex(of: UInt8(ascii: ";")) {
                name = ByteClass.trimmed(UnsafeRawBufferPointer(rebasing: coding[0..<semicolon]))
            }
            if ByteClass.equalsIgnoringCase(name, "chunked") {
                chunkedCount += 1
                lastCodingIsChunked = true
            } else {
                unsupportedCoding = true
                lastCodingIsChunked = false
            }
        }
    }

    /// 1 to 18 ASCII digits; anything else (signs, spaces inside, hex) is not a length.
    private static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard (1...18).contains(bytes.count) else { return nil }
        var result = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            result = result * 10 + Int(byte - 0x30)
        }
        return result
    }

    /// Calls `body` with each non-empty, trimmed element of a comma-separated list (RFC 9110 §5.6.1).
    static func forEachListElement(_ value: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        for index in 0...value.count where index == value.count || value[index] == UInt8(ascii: ",") {
            let element = ByteClass.trimmed(UnsafeRawBufferPointer(rebasing: value[start..<index]))
            if !element.isEmpty { body(element) }
            start = index + 1
        }
    }
}
