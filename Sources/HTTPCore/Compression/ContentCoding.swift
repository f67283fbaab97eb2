/// A content coding this server can send (RFC 9110 §8.4.1): the one written in `Content-Encoding`.
public enum ContentCoding: String, Sendable, Hashable, CaseIterable {
    /// gzip (RFC 1952, RFC 9110 §8.4.1.3). Its raw value is the `Content-Encoding` token.
    case gzip
    /// No coding: the content as it is. Never written as a `Content-Encoding` value.
    case identity
}
