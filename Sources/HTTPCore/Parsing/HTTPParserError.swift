/// Why a request could not be parsed. Each case maps to the status the server answers before it closes the
/// connection; cases are never removed, only deprecated.
public enum HTTPParserError: Error, Sendable, Hashable {
    /// The request line is longer than the limit (RFC 9112 §3).
    case requestLineTooLong
    /// The header section is larger than the limit (RFC 6585 §5).
    case headerSectionTooLarge
    /// There are more header fields than the limit.
    case tooManyHeaderFields
    /// The declared or decoded body is larger than the limit.
    case bodyTooLarge
    /// The request line is not `method SP target SP version`.
    case malformedRequestLine
    /// The request-target is not in a form this server accepts (RFC 9112 §3.2).
    case invalidTarget
    /// The version is well formed but not HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion
    /// A line ends with LF alone, or a CR is not followed by LF.
    case invalidLineEnding
    /// A field name is empty, holds a non-token byte, or has whitespace before the colon (RFC 9112 §5.1).
    case invalidHeaderName
    /// A field value holds a control byte (RFC 9110 §5.5).
    case invalidHeaderValue
    /// A field line starts with whitespace: obsolete line folding (RFC 9112 §5.2).
    case obsoleteLineFolding
    /// An HTTP/1.1 request has no Host field, or has more than one (RFC 9112 §3.2).
    case invalidHost
    /// A Content-Length value is not a decimal number.
    case invalidContentLength
    /// Content-Length fields disagree (RFC 9110 §8.6): a request-smuggling vector.
    case conflictingContentLength
    /// Both Content-Length and Transfer-Encoding are present (RFC 9112 §6.1): a request-smuggling vector.
    case contentLengthWithTransferEncoding
    /// Transfer-Encoding names a coding other than chunked (RFC 9112 §6.1).
    case unsupportedTransferEncoding
    /// Transfer-Encoding does not end in exactly one chunked, or appears in an HTTP/1.0 request.
    case invalidTransferEncoding
    /// A chunk size, extension or terminator is malformed (RFC 9112 §7.1).
    case invalidChunk
    /// Expect names an expectation other than 100-continue (RFC 9110 §10.1.1).
    case unsupportedExpectation
    /// The method is CONNECT, which a server that is not a proxy does not implement.
    case unsupportedMethod

    /// The status the server answers with.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .headerSectionTooLarge, .tooManyHeaderFields: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .contentTooLarge
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferEncoding, .unsupportedMethod: .notImplemented
        case .unsupportedExpectation: .expectationFailed
        default: .badRequest
        }
    }
}

extension HTTPParserError: CustomStringConvertible {
    /// One sentence for the client's `problem+json` detail, saying what about the request was refused.
    public var description: String {
        switch self {
        case .requestLineTooLong: "The request line is longer than the server accepts."
        case .headerSectionTooLarge: "The header section is larger than the server accepts."
        case .tooManyHeaderFields: "The request has more header fields than the server accepts."
        case .bodyTooLarge: "The request body is larger than the server accepts."
        case .malformedRequestLine: "The request line is not 'method SP target SP version'."
        case .invalidTarget: "The request target is not a valid origin, absolute or asterisk form."
        case .unsupportedVersion: "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .invalidLineEnding: "Lines of the request head must end with CRLF."
        case .invalidHeaderName: "A header field name is empty or contains a character that is not allowed."
        case .invalidHeaderValue: "A header field value contains a control character."
        case .obsoleteLineFolding: "Obsolete line folding (a field line starting with whitespace) is not accepted."
        case .invalidHost: "An HTTP/1.1 request needs exactly one Host header field."
        case .invalidContentLength: "The Content-Length value is not a non-negative decimal number."
        case .conflictingContentLength: "The request has Content-Length fields with different values."
        case .contentLengthWithTransferEncoding: "The request has both Content-Length and Transfer-Encoding."
        case .unsupportedTransferEncoding: "Only the chunked transfer coding is supported."
        case .invalidTransferEncoding: "Transfer-Encoding must end in a single chunked coding, in HTTP/1.1 only."
        case .invalidChunk: "The chunked body is malformed."
        case .unsupportedExpectation: "Only the 100-continue expectation is supported."
        case .unsupportedMethod: "The CONNECT method is not supported by this server."
        }
    }
}
