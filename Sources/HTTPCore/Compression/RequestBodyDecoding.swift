/// Undoes a request's `Content-Encoding` (RFC 9110 §8.4) before the body is parsed.
///
/// Only gzip is decoded, and only as the one coding: a list such as `gzip, br` means several codings were applied
/// in turn, which this server does not unwind.
public enum RequestBodyDecoding {
    /// Returns the body with its content coding removed.
    /// - Parameters:
    ///   - contentEncoding: The request's `Content-Encoding` value (several fields joined with `, `), or `nil`.
    ///   - body: The body as received, after transfer decoding (chunked).
    ///   - limit: The largest decoded size accepted, in bytes.
    /// - Returns: `body` itself for no coding, an empty value or `identity`; the inflated body for `gzip` or
    ///   `x-gzip` (case-insensitive, RFC 9110 §8.4.1.3).
    /// - Throws: ``CompressionError/unsupportedCoding(_:)`` for any other coding or a list of codings (answer `415`
    ///   with `Accept-Encoding: gzip`, RFC 9110 §15.5.16); the errors of ``Gzip/decompress(_:limit:)`` for gzip.
    public static func decode(contentEncoding: String?, body: [UInt8], limit: Int) throws(CompressionError) -> [UInt8] {
        guard let contentEncoding else { return body }
        let coding = contentEncoding.trimmingOWS()
        switch coding.lowercased() {
        case "", "identity":
            return body
        case "gzip", "x-gzip":
            return try Gzip.decompress(body, limit: limit)
        default:
            throw .unsupportedCoding(String(coding))
        }
    }
}
