/// Whether a response should be gzipped: pure rules over the request, the response head and the configuration.
///
/// Whoever applies them must also send `Vary: Accept-Encoding` on every response whose coding could have depended
/// on the request's `Accept-Encoding` (RFC 9110 §12.5.5), gzipped or not, so caches keep the variants apart.
public enum ResponseCompression {
    /// Decides whether to gzip one response.
    ///
    /// No for: a negotiated coding other than gzip; `HEAD` (there is no content to code); a status without content
    /// (1xx, 204, 304, RFC 9110 §6.4.1) or `206 Partial Content` (its ranges count bytes of the uncoded
    /// representation); content that already has a `Content-Encoding`; a type that does not compress well (see
    /// ``isCompressible(contentType:)``); and a body shorter than `threshold`, where the gzip header and trailer
    /// (18 bytes) and the CPU cost more than they save. A stream (no length) of a compressible type is compressed
    /// whatever its eventual size.
    /// - Parameters:
    ///   - coding: The coding from ``ContentCodingNegotiation/preferredCoding(acceptEncoding:)``.
    ///   - method: The request method.
    ///   - status: The response status.
    ///   - hasContentEncoding: Whether the response already carries a `Content-Encoding` field.
    ///   - contentType: The response's `Content-Type` value, or `nil` when it has none.
    ///   - contentLength: The body length in bytes, or `nil` for a streamed body.
    ///   - threshold: The smallest body length, in bytes, worth compressing.
    /// - Returns: Whether to gzip the body and send `Content-Encoding: gzip`.
    public static func shouldCompress(
        coding: ContentCoding?, method: HTTPMethod, status: HTTPStatus, hasContentEncoding: Bool,
        contentType: String?, contentLength: Int?, threshold: Int
    ) -> Bool {
        guard coding == .gzip, method != .head else { return false }
        return shouldCompress(
            status: status, hasContentEncoding: hasContentEncoding, contentLength: contentLength,
            threshold: threshold, isCompressibleType: isCompressible(contentType: contentType))
    }

    /// The rules of ``shouldCompress(coding:method:status:hasContentEncoding:contentType:contentLength:threshold:)``
    /// that depend on the response alone (a GET that accepts gzip), with the type already judged; the type check
    /// is an autoclosure so it runs only when the cheaper rules pass.
    static func shouldCompress(
        status: HTTPStatus, hasContentEncoding: Bool, contentLength: Int?, threshold: Int,
        isCompressibleType: @autoclosure () -> Bool
    ) -> Bool {
        guard status.allowsContent, status.code != 206, !hasContentEncoding else { return false }
        if let contentLength, contentLength < threshold { return false }
        return isCompressibleType()
    }

    /// Whether content of this media type is text-like and worth gzipping.
    ///
    /// Yes for `text/*` (including `text/event-stream`), JSON, JavaScript and XML, and for any `+json` or `+xml`
    /// type (`application/problem+json`, `image/svg+xml`). No for everything else, notably images, audio, video,
    /// archives and `application/octet-stream`, which are already compressed or opaque, and for a missing type.
    /// Parameters such as `charset` are ignored; the comparison is case-insensitive (RFC 9110 §8.3.1).
    /// - Parameter contentType: A `Content-Type` value, or `nil`.
    /// - Returns: Whether gzip is likely to pay off.
    public static func isCompressible(contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { isCompressible(contentType: UnsafeRawBufferPointer($0)) }
    }

    /// ``isCompressible(contentType:)`` over the value's bytes, without building a string: it runs for every
    /// response the server writes.
    static func isCompressible(contentType value: UnsafeRawBufferPointer) -> Bool {
        var end = 0
        while end < value.count, value[end] != UInt8(ascii: ";") { end += 1 }
        guard end > 0 else { return false }
        return withUnsafeTemporaryAllocation(byteCount: end, alignment: 1) { essence in
            // The essence: the bytes before any parameter, lower-cased, without whitespace.
            var count = 0
            var slash = -1
            for index in 0..<end {
                let byte = value[index]
                if ByteClass.isWhitespace(byte) { continue }
                if byte == UInt8(ascii: "/"), slash < 0 { slash = count }
                essence[count] = ByteClass.lower(byte)
                count += 1
            }
            guard slash > 0, slash < count - 1 else { return false }
            let type = UnsafeRawBufferPointer(rebasing: essence[0..<slash])
            let subtype = UnsafeRawBufferPointer(rebasing: essence[(slash + 1)..<count])
            if ByteClass.equalsIgnoringCase(type, "text") { return true }
            if hasSuffix(subtype, "+json") || hasSuffix(subtype, "+xml") { return true }
            guard ByteClass.equalsIgnoringCase(type, "application") else { return false }
            return compressibleApplicationSubtypes.contains { ByteClass.equalsIgnoringCase(subtype, $0) }
        }
    }

    private static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard bytes.count >= length else { return false }
        return ByteClass.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - length)...]), suffix)
    }

    /// `application/` subtypes that are text in all but name.
    private static let compressibleApplicationSubtypes: [StaticString] = [
        "json", "javascript", "x-javascript", "ecmascript", "xml", "x-ndjson", "ndjson",
    ]
}
