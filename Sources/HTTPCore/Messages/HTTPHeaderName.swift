/// A header field name (RFC 9110 §5.1): a case-insensitive token, written in the spelling it was created with.
public struct HTTPHeaderName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as written on the wire.
    public let rawName: String
    /// The lower-cased name, used for equality and hashing.
    public let lowercased: String
    /// Whether the server writes this field for every response itself, so a handler's copy is dropped.
    let isServerOwned: Bool

    /// Creates a name.
    /// - Parameter rawName: A token (RFC 9110 §5.6.2); other characters are dropped.
    public init(_ rawName: String) {
        let token = String(decoding: rawName.utf8.filter { ByteClass.isToken($0) }, as: UTF8.self)
        self.rawName = token
        self.lowercased = token.lowercased()
        self.isServerOwned = Self.serverOwned.contains(lowercased)
    }

    /// Fields the server writes for every response.
    private static let serverOwned: Set<String> = [
        "content-length", "transfer-encoding", "connection", "date", "x-request-id",
    ]

    /// Creates a name from a literal, as `init(_:)` does, so a field can be named `"X-Trace"` in place.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The name as written on the wire (`rawName`).
    public var description: String { rawName }

    /// Names are equal ignoring ASCII case (RFC 9110 §5.1).
    public static func == (lhs: HTTPHeaderName, rhs: HTTPHeaderName) -> Bool {
        lhs.lowercased == rhs.lowercased
    }

    /// Hashes the lower-cased name, so names equal ignoring case hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(lowercased)
    }

    /// Whether `bytes` spell this name, ignoring ASCII case.
    func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var lower = lowercased
        return lower.withUTF8 { name in
            guard name.count == bytes.count else { return false }
            for index in 0..<name.count where ByteClass.lower(bytes[index]) != name[index] {
                return false
            }
            return true
        }
    }

    /// `Accept`: the media types a client takes in an answer.
    public static let accept: HTTPHeaderName = "Accept"
    /// `Accept-Encoding`: the content codings (gzip) a client takes.
    public static let acceptEncoding: HTTPHeaderName = "Accept-Encoding"
    /// `Access-Control-Allow-Headers`: the request fields a cross-origin request may carry (CORS).
    public static let accessControlAllowHeaders: HTTPHeaderName = "Access-Control-Allow-Headers"
    /// `Access-Control-Allow-Methods`: the methods a cross-origin request may use (CORS).
    public static let accessControlAllowMethods: HTTPHeaderName = "Access-Control-Allow-Methods"
    /// `Access-Control-Allow-Origin`: the origin allowed to read the answer (CORS).
    public static let accessControlAllowOrigin: HTTPHeaderName = "Access-Control-Allow-Origin"
    /// `Access-Control-Expose-Headers`: the answer's fields a cross-origin script may read (CORS).
    public static let accessControlExposeHeaders: HTTPHeaderName = "Access-Control-Expose-Headers"
    /// `Access-Control-Max-Age`: how many seconds a preflight's answer may be cached (CORS).
    public static let accessControlMaxAge: HTTPHeaderName = "Access-Control-Max-Age"
    /// `Access-Control-Request-Method`: the method a preflight asks about (CORS).
    public static let accessControlRequestMethod: HTTPHeaderName = "Access-Control-Request-Method"
    /// `Allow`: the methods the target takes, sent with 405.
    public static let allow: HTTPHeaderName = "Allow"
    /// `Authorization`: the client's credentials.
    public static let authorization: HTTPHeaderName = "Authorization"
    /// `Cache-Control`: how caches may store the answer.
    public static let cacheControl: HTTPHeaderName = "Cache-Control"
    /// `Connection`: connection options, such as `close`; written by the server.
    public static let connection: HTTPHeaderName = "Connection"
    /// `Content-Encoding`: the coding applied to the content (gzip).
    public static let contentEncoding: HTTPHeaderName = "Content-Encoding"
    /// `Content-Length`: the content's length in bytes; written by the server.
    public static let contentLength: HTTPHeaderName = "Content-Length"
    /// `Content-Security-Policy`: what a page served may load and run.
    public static let contentSecurityPolicy: HTTPHeaderName = "Content-Security-Policy"
    /// `Content-Type`: the content's media type.
    public static let contentType: HTTPHeaderName = "Content-Type"
    /// `Cookie`: the cookies a browser sends back.
    public static let cookie: HTTPHeaderName = "Cookie"
    /// `Date`: when the answer was made; written by the server.
    public static let date: HTTPHeaderName = "Date"
    /// `ETag`: the version of the answer's representation, compared with `If-None-Match`.
    public static let etag: HTTPHeaderName = "ETag"
    /// `Expect`: what a client expects before sending its body (`100-continue`).
    public static let expect: HTTPHeaderName = "Expect"
    /// `Forwarded` (RFC 7239): the client address a trusted proxy saw.
    public static let forwarded: HTTPHeaderName = "Forwarded"
    /// `Host`: the host and port the request is for.
    public static let host: HTTPHeaderName = "Host"
    /// `Idempotency-Key`: a client's key under which a retried request is answered once.
    public static let idempotencyKey: HTTPHeaderName = "Idempotency-Key"
    /// `If-None-Match`: the versions a client holds; a match is answered 304.
    public static let ifNoneMatch: HTTPHeaderName = "If-None-Match"
    /// `Last-Event-ID`: the last event a reconnecting event stream received.
    public static let lastEventID: HTTPHeaderName = "Last-Event-ID"
    /// `Location`: where a made or moved resource is.
    public static let location: HTTPHeaderName = "Location"
    /// `Origin`: the origin of the page that made a request.
    public static let origin: HTTPHeaderName = "Origin"
    /// `Retry-After`: how many seconds to wait before retrying (with 429 and 503).
    public static let retryAfter: HTTPHeaderName = "Retry-After"
    /// `Set-Cookie`: a cookie for the browser to keep.
    public static let setCookie: HTTPHeaderName = "Set-Cookie"
    /// `Transfer-Encoding`: the transfer coding (chunked); written by the server.
    public static let transferEncoding: HTTPHeaderName = "Transfer-Encoding"
    /// `Vary`: the request fields the answer depends on, for caches.
    public static let vary: HTTPHeaderName = "Vary"
    /// `WWW-Authenticate`: the credentials wanted, sent with 401.
    public static let wwwAuthenticate: HTTPHeaderName = "WWW-Authenticate"
    /// `X-Content-Type-Options`: `nosniff` keeps a browser to the declared `Content-Type`.
    public static let xContentTypeOptions: HTTPHeaderName = "X-Content-Type-Options"
    /// `X-Forwarded-For`: the client addresses proxies saw, the older spelling of `Forwarded`.
    public static let xForwardedFor: HTTPHeaderName = "X-Forwarded-For"
    /// `X-Request-Id`: the request's id, in the answer and the log lines; written by the server.
    public static let xRequestID: HTTPHeaderName = "X-Request-Id"
}
