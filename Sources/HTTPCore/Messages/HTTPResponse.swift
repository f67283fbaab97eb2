/// A response: status, header fields and a body.
///
/// The server owns the framing fields: it writes `Date`, `X-Request-Id`, `Content-Length` or
/// `Transfer-Encoding`, and `Connection` itself, and drops those names if a handler sets them.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields other than the framing fields the server writes.
    public var headers: HTTPHeaders
    /// The body.
    public var body: HTTPResponseBody
    /// The gzip of a `.bytes` body made ahead of time (an app caches it per immutable version); the server calls
    /// it only when it gzips this response, instead of compressing the body again.
    public var precompressedGzip: (@Sendable () -> [UInt8])?
    /// For a `304 Not Modified`: the content type and length of the representation it stands for, so the server
    /// sends the `Vary: Accept-Encoding` its `200` would have carried (RFC 9110 §15.4.5: a 304 repeats `Vary`).
    public var notModifiedRepresentation: NotModifiedRepresentation?

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status, 200 by default.
    ///   - headers: Header fields.
    ///   - body: The body, empty by default.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: HTTPResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body and its content type.
    /// - Parameters:
    ///   - status: The status.
    ///   - contentType: The `Content-Type` value.
    ///   - bytes: The body.
    ///   - headers: More header fields.
    public init(status: HTTPStatus = .ok, contentType: String, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        var allHeaders = headers
        allHeaders.add(.contentType, contentType)
        self.init(status: status, headers: allHeaders, body: .bytes(bytes))
    }
}

/// The body of a response.
public enum HTTPResponseBody: Sendable {
    /// No content; `Content-Length: 0` where the status allows content.
    case empty
    /// Content of known length, written in one go with the head where it fits.
    case bytes([UInt8])
    /// Content produced over time, sent with chunked framing (close-delimited for HTTP/1.0 clients).
    case stream(HTTPBodyStream)
    /// Content pulled from a source on the connection's loop, framed like ``stream(_:)`` (no task per response).
    case source(any HTTPBodySource)

    /// The length of the content when it is known up front.
    var knownLength: Int? {
        switch self {
        case .empty: 0
        case .bytes(let bytes): bytes.count
        case .stream, .source: nil
        }
    }
}

/// Content produced over time: the server calls `produce` once, on a task of its own, with a writer for
/// this response. The response ends when `produce` returns or throws; the task is cancelled when the client
/// goes away or the server drains.
public struct HTTPBodyStream: Sendable {
    /// Writes the content through the writer.
    public let produce: @Sendable (HTTPBodyWriter) async throws -> Void

    /// Creates a stream.
    /// - Parameter produce: Writes the content; it should return promptly once its task is cancelled.
    public init(produce: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
        self.produce = produce
    }
}

/// What a `304 Not Modified` stands for: enough of its representation to apply the same content-coding rules.
public struct NotModifiedRepresentation: Sendable, Hashable {
    /// The representation's `Content-Type`.
    public var contentType: String
    /// Its length in bytes, uncoded.
    public var length: Int

    /// Creates the description of a representation from its `Content-Type` and its uncoded length in bytes.
    public init(contentType: String, length: Int) {
        self.contentType = contentType
        self.length = length
    }
}
