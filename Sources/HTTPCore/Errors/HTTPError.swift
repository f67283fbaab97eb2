/// A plain HTTP error: a status, a one-sentence detail, and optionally the fields at fault.
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The status the error answers with.
    public let status: HTTPStatus
    /// Extra fields for the answer, such as `Allow` with a 405.
    public let headers: HTTPHeaders
    /// A sentence for the client, ending with a period.
    public let detail: String
    /// The request fields at fault, for validation errors.
    public let errors: [ProblemDetails.FieldError]
    /// A URI reference that names the problem type, `about:blank` when the status says it all.
    public let type: String

    /// Creates an error.
    /// - Parameters:
    ///   - status: The status.
    ///   - detail: What went wrong, for the client.
    ///   - type: The problem type URI.
    ///   - errors: Fields at fault.
    ///   - headers: Extra header fields.
    public init(
        _ status: HTTPStatus, detail: String, type: String = "about:blank",
        errors: [ProblemDetails.FieldError] = [], headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.detail = detail
        self.type = type
        self.errors = errors
        self.headers = headers
    }

    /// The problem document: `type`, the status, `detail` and the fields at fault.
    public var problem: ProblemDetails {
        ProblemDetails(type: type, status: status, detail: detail, errors: errors)
    }

    /// The code and the detail, for logs and test failures: "404 No resource exists at /x."
    public var description: String { "\(status.code) \(detail)" }
}
