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
        guard status.allowsContent, status.code != 206 else { return false }
        guard !hasContentEncoding, isCompressible(contentType: contentType) else { return false }
        guard let contentLength else { return true }
        return contentLength >= threshold
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
        guard let contentType else { return false }
        let essence = contentType.prefix { $0 != ";" }.lowercased().filter { $0 != " " && $0 != "\t" }
        guard let slash = essence.firstIndex(of: "/") else { return false }
        let type = essence[..<slash]
        let subtype = essence[essence.index(after: slash)...]
        guard !type.isEmpty, !subtype.isEmpty else { return false }
        if type == "text" { return true }
        if subtype.hasSuffix("+json") || subtype.hasSuffix("+xml") { return true }
        return type == "application" && compressibleApplicationSubtypes.contains(String(subtype))
    }

    /// `application/` subtypes that are text in all but name.
    private static let compressibleApplicationSubtypes: Set<String> = [
        "json", "javascript", "x-javascript", "ecmascript", "xml", "x-ndjson", "ndjson",
    ]
}
