/// A plain HTTP error: a status, a one-sentence detail, and optionally the fields at fault.
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public let status: HTTPStatus
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

    public var problem: ProblemDetails {
        ProblemDetails(type: type, status: status, detail: detail, errors: errors)
    }

    public var description: String { "\(status.code) \(detail)" }
}
