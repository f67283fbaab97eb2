/// An HTTP status code with its reason phrase (RFC 9110 §15), an open set with the codes this server uses.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase written on the status line.
    public let reasonPhrase: String

    /// Creates a status.
    /// - Parameters:
    ///   - code: The three-digit code, 100...999.
    ///   - reasonPhrase: The phrase for the status line; it must not contain CR or LF.
    public init(code: Int, reasonPhrase: String) {
        precondition((100...999).contains(code), "an HTTP status code has three digits")
        self.code = code
        self.reasonPhrase = reasonPhrase.filter { $0 != "\r" && $0 != "\n" }
    }

    /// The code and the reason phrase as on the status line, such as `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }

    /// Whether a response with this status may carry content (RFC 9110 §6.4.1: 1xx, 204 and 304 never do).
    public var allowsContent: Bool { code >= 200 && code != 204 && code != 304 }

    /// `100 Continue`: the client may send the body it announced with `Expect: 100-continue`.
    public static let `continue` = HTTPStatus(code: 100, reasonPhrase: "Continue")
    /// `200 OK`: the request succeeded.
    public static let ok = HTTPStatus(code: 200, reasonPhrase: "OK")
    /// `201 Created`: a resource was made; `Location` names it.
    public static let created = HTTPStatus(code: 201, reasonPhrase: "Created")
    /// `202 Accepted`: the request was taken and is carried out later.
    public static let accepted = HTTPStatus(code: 202, reasonPhrase: "Accepted")
    /// `204 No Content`: the request succeeded and there is nothing to send.
    public static let noContent = HTTPStatus(code: 204, reasonPhrase: "No Content")
    /// `301 Moved Permanently`: the resource is at `Location` from now on.
    public static let movedPermanently = HTTPStatus(code: 301, reasonPhrase: "Moved Permanently")
    /// `302 Found`: the resource is at `Location` for now.
    public static let found = HTTPStatus(code: 302, reasonPhrase: "Found")
    /// `304 Not Modified`: the client's copy (`If-None-Match`) is current, so no content is sent.
    public static let notModified = HTTPStatus(code: 304, reasonPhrase: "Not Modified")
    /// `400 Bad Request`: the request is malformed.
    public static let badRequest = HTTPStatus(code: 400, reasonPhrase: "Bad Request")
    /// `401 Unauthorized`: credentials are missing or wrong; `WWW-Authenticate` says which are wanted.
    public static let unauthorized = HTTPStatus(code: 401, reasonPhrase: "Unauthorized")
    /// `403 Forbidden`: the request is understood and not allowed.
    public static let forbidden = HTTPStatus(code: 403, reasonPhrase: "Forbidden")
    /// `404 Not Found`: nothing is at the target.
    public static let notFound = HTTPStatus(code: 404, reasonPhrase: "Not Found")
    /// `405 Method Not Allowed`: the target does not take this method; `Allow` lists those it takes.
    public static let methodNotAllowed = HTTPStatus(code: 405, reasonPhrase: "Method Not Allowed")
    /// `406 Not Acceptable`: no representation matches the request's `Accept`.
    public static let notAcceptable = HTTPStatus(code: 406, reasonPhrase: "Not Acceptable")
    /// `408 Request Timeout`: the request did not arrive in time, so the connection is closed.
    public static let requestTimeout = HTTPStatus(code: 408, reasonPhrase: "Request Timeout")
    /// `409 Conflict`: the request conflicts with the resource's current state.
    public static let conflict = HTTPStatus(code: 409, reasonPhrase: "Conflict")
    /// `410 Gone`: the target existed and is gone for good.
    public static let gone = HTTPStatus(code: 410, reasonPhrase: "Gone")
    /// `411 Length Required`: a body came without a length the server can use.
    public static let lengthRequired = HTTPStatus(code: 411, reasonPhrase: "Length Required")
    /// `412 Precondition Failed`: a precondition the request set does not hold.
    public static let preconditionFailed = HTTPStatus(code: 412, reasonPhrase: "Precondition Failed")
    /// `413 Content Too Large`: the body is larger than the server takes.
    public static let contentTooLarge = HTTPStatus(code: 413, reasonPhrase: "Content Too Large")
    /// `414 URI Too Long`: the request target is longer than the server reads.
    public static let uriTooLong = HTTPStatus(code: 414, reasonPhrase: "URI Too Long")
    /// `415 Unsupported Media Type`: the body's type or coding is not one the target takes.
    public static let unsupportedMediaType = HTTPStatus(code: 415, reasonPhrase: "Unsupported Media Type")
    /// `417 Expectation Failed`: the `Expect` field asks for something the server does not do.
    public static let expectationFailed = HTTPStatus(code: 417, reasonPhrase: "Expectation Failed")
    /// `422 Unprocessable Content`: the body is well-formed but its content is refused.
    public static let unprocessableContent = HTTPStatus(code: 422, reasonPhrase: "Unprocessable Content")
    /// `429 Too Many Requests` (RFC 6585): over a rate limit; `Retry-After` says when to try again.
    public static let tooManyRequests = HTTPStatus(code: 429, reasonPhrase: "Too Many Requests")
    /// `431 Request Header Fields Too Large` (RFC 6585): the header section is larger than the server reads.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(
        code: 431, reasonPhrase: "Request Header Fields Too Large")
    /// `500 Internal Server Error`: the server failed for a reason of its own.
    public static let internalServerError = HTTPStatus(code: 500, reasonPhrase: "Internal Server Error")
    /// `501 Not Implemented`: the server does not support what the request needs.
    public static let notImplemented = HTTPStatus(code: 501, reasonPhrase: "Not Implemented")
    /// `503 Service Unavailable`: the server cannot answer now (for example its store is down); retry later.
    public static let serviceUnavailable = HTTPStatus(code: 503, reasonPhrase: "Service Unavailable")
    /// `505 HTTP Version Not Supported`: the request's HTTP version is not one the server speaks.
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reasonPhrase: "HTTP Version Not Supported")
}
