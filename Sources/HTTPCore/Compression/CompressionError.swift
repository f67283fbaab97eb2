/// Why gzip data could not be produced or read, or why a request's content coding is refused.
///
/// HTTPCore does not map these to statuses (the ViewHost library does). The natural answers are `413` for ``tooLarge(limit:)``,
/// `400` for ``corrupt(_:)``, and `415` with `Accept-Encoding: gzip` for ``unsupportedCoding(_:)``
/// (RFC 9110 §15.5.16, §12.5.3).
public enum CompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The inflated output would be larger than `limit` bytes; inflating stopped before going past it.
    case tooLarge(limit: Int)
    /// The data is not a valid gzip stream: a bad header, a bad block, a truncated stream, a CRC or length trailer
    /// that does not match, or bytes after the last member. The text says which, with zlib's message when it has one.
    case corrupt(String)
    /// The request names a content coding this server does not decode (only `gzip` and `x-gzip` are decoded, and
    /// only one coding at a time).
    case unsupportedCoding(String)
    /// zlib could not set up a stream (out of memory, or parameters it refused).
    case zlib(String)

    /// One sentence for the client's `problem+json` detail and the log, naming the limit or zlib's reason.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "The decompressed content is larger than the limit of \(limit) bytes."
        case .corrupt(let reason): "The gzip data is corrupt: \(reason)."
        case .unsupportedCoding(let coding): "The content coding '\(coding)' is not supported; only gzip is."
        case .zlib(let reason): "zlib failed: \(reason)."
        }
    }
}
