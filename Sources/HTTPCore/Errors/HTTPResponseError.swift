/// An error that chooses its own HTTP answer (after hummingbird's `HTTPResponseError`).
///
/// Handlers throw these; the server answers with ``problem`` as `application/problem+json` (RFC 9457),
/// the ``status`` and any extra ``headers``. Any other error becomes a `500` with a generic detail, and its
/// text goes to the log only.
public protocol HTTPResponseError: Error {
    /// The status to answer with.
    var status: HTTPStatus { get }
    /// Extra header fields, such as `Allow` or `WWW-Authenticate`.
    var headers: HTTPHeaders { get }
    /// The problem document.
    var problem: ProblemDetails { get }
}

extension HTTPResponseError {
    /// No extra fields, unless the error gives its own.
    public var headers: HTTPHeaders { HTTPHeaders() }

    /// A problem with the status and the error's own text (its `description`) as detail, unless it makes its own.
    public var problem: ProblemDetails {
        ProblemDetails(status: status, detail: Self.description(of: self))
    }

    /// The error's own text, when it has one (taken as `Any`: a cast from `Self` is said to always succeed).
    private static func description(of error: Any) -> String? {
        (error as? any CustomStringConvertible)?.description
    }

    /// The response this error answers with.
    public var response: HTTPResponse {
        var response = problem.response
        for field in headers { response.headers.add(HTTPHeaderName(field.name), field.value) }
        return response
    }
}

extension HTTPParserError: HTTPResponseError {}
