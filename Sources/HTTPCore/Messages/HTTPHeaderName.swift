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

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { rawName }

    public static func == (lhs: HTTPHeaderName, rhs: HTTPHeaderName) -> Bool {
        lhs.lowercased == rhs.lowercased
    }

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

    public static let accept: HTTPHeaderName = "Accept"
    public static let acceptEncoding: HTTPHeaderName = "Accept-Encoding"
    public static let accessControlAllowHeaders: HTTPHeaderName = "Access-Control-Allow-Headers"
    public static let accessControlAllowMethods: HTTPHeaderName = "Access-Control-Allow-Methods"
    public static let accessControlAllowOrigin: HTTPHeaderName = "Access-Control-Allow-Origin"
    public static let accessControlExposeHeaders: HTTPHeaderName = "Access-Control-Expose-Headers"
    public static let accessControlMaxAge: HTTPHeaderName = "Access-Control-Max-Age"
    public static let accessControlRequestMethod: HTTPHeaderName = "Access-Control-Request-Method"
    public static let allow: HTTPHeaderName = "Allow"
    public static let authorization: HTTPHeaderName = "Authorization"
    public static let cacheControl: HTTPHeaderName = "Cache-Control"
    public static let connection: HTTPHeaderName = "Connection"
    public static let contentEncoding: HTTPHeaderName = "Content-Encoding"
    public static let contentLength: HTTPHeaderName = "Content-Length"
    public static let contentSecurityPolicy: HTTPHeaderName = "Content-Security-Policy"
    public static let contentType: HTTPHeaderName = "Content-Type"
    public static let cookie: HTTPHeaderName = "Cookie"
    public static let date: HTTPHeaderName = "Date"
    public static let etag: HTTPHeaderName = "ETag"
    public static let expect: HTTPHeaderName = "Expect"
    public static let forwarded: HTTPHeaderName = "Forwarded"
    public static let host: HTTPHeaderName = "Host"
    public static let idempotencyKey: HTTPHeaderName = "Idempotency-Key"
    public static let ifNoneMatch: HTTPHeaderName = "If-None-Match"
    public static let lastEventID: HTTPHeaderName = "Last-Event-ID"
    public static let location: HTTPHeaderName = "Location"
    public static let origin: HTTPHeaderName = "Origin"
    public static let retryAfter: HTTPHeaderName = "Retry-After"
    public static let setCookie: HTTPHeaderName = "Set-Cookie"
    public static let transferEncoding: HTTPHeaderName = "Transfer-Encoding"
    public static let vary: HTTPHeaderName = "Vary"
    public static let wwwAuthenticate: HTTPHeaderName = "WWW-Authenticate"
    public static let xContentTypeOptions: HTTPHeaderName = "X-Content-Type-Options"
    public static let xForwardedFor: HTTPHeaderName = "X-Forwarded-For"
    public static let xRequestID: HTTPHeaderName = "X-Request-Id"
}
