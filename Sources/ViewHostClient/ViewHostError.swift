import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every failure of the client, as one type: a problem answer of the server (RFC 9457, with its status, title,
/// detail and, for `409` and `422`, the allowed event types), or a failure on the way (the network, an answer that
/// is not what the API promises, a request the client could not build, the session's end, cancellation).
///
/// ```swift
/// do {
///     try await session.send(LoginIntent.login)
/// } catch {
///     print(error.status ?? 0, error.detail, error.allowed)  // 409 "…disabled…" ["setUsername", "setPassword"]
/// }
/// ```
public struct ViewHostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: String, Sendable, Equatable {
        /// The server answered with an error status (``ViewHostError/status`` says which).
        case problem
        /// The request did not get an answer: connection refused or lost, timed out, DNS.
        case transport
        /// The answer is not what the API promises (a body that does not decode, an unexpected status).
        case invalidResponse
        /// The client could not build the request (an action's placeholder without a value, an unencodable body).
        case invalidRequest
        /// The session ended (deleted or expired) while a change stream followed it.
        case sessionEnded
        /// The calling task was cancelled.
        case cancelled
    }

    /// One invalid field of a `422` answer.
    public struct FieldError: Codable, Sendable, Equatable {
        /// The field, such as `type` or `Idempotency-Key`.
        public var field: String
        /// What is wrong with it.
        public var message: String
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The HTTP status for ``Kind/problem`` (and ``Kind/invalidResponse`` when there was one); nil otherwise.
    public var status: Int?
    /// The problem's `type` URI (`about:blank` for the server's own problems).
    public var type: String
    /// A short summary: the problem's title, such as `Conflict`, or the kind of failure.
    public var title: String
    /// What happened, in a sentence.
    public var detail: String
    /// For `409` (the state cannot apply the event) and `422` (unknown event type or field): what is allowed.
    public var allowed: [String]
    /// The invalid fields of a `422` (or `400`) answer.
    public var fieldErrors: [FieldError]
    /// The answer's `Retry-After` in seconds, when it had one (`429`, `503`, `409` while a key is in flight).
    public var retryAfter: Int?

    /// Creates an error; the client makes these, tests may too.
    public init(
        kind: Kind, status: Int? = nil, type: String = "about:blank", title: String, detail: String,
        allowed: [String] = [], fieldErrors: [FieldError] = [], retryAfter: Int? = nil
    ) {
        self.kind = kind
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.allowed = allowed
        self.fieldErrors = fieldErrors
        self.retryAfter = retryAfter
    }

    /// One line: `409 Conflict: …` for a problem, `transport: …` otherwise.
    public var description: String {
        let head = status.map { "\($0) \(title)" } ?? title
        return detail.isEmpty ? head : "\(head): \(detail)"
    }
}

extension ViewHostError {
    /// The error for a non-2xx answer: its problem document when the body is one, else the status alone.
    static func problem(status: Int, body: Data, headers: HTTPURLResponse?) -> ViewHostError {
        struct Problem: Decodable {
            var type: String?
            var title: String?
            var detail: String?
            var allowed: [String]?
            var errors: [FieldError]?
        }
        let retryAfter = headers?.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
        let problem = try? JSONDecoder().decode(Problem.self, from: body)
        return ViewHostError(
            kind: .problem, status: status, type: problem?.type ?? "about:blank",
            title: problem?.title ?? HTTPURLResponse.localizedString(forStatusCode: status).capitalized,
            detail: problem?.detail ?? "", allowed: problem?.allowed ?? [], fieldErrors: problem?.errors ?? [],
            retryAfter: retryAfter)
    }

    /// The error for a failure below HTTP (`URLError` and the like), or for cancellation, in words: Linux's
    /// Foundation describes a `URLError` only as "NSURLErrorDomain error -1001".
    /// - Parameters:
    ///   - error: What failed below HTTP.
    ///   - request: The request that failed: its timeout is named when it ran out, its server always.
    /// - Returns: ``cancelled`` for a cancellation, the error itself when it is a ``ViewHostError``, else a transport
    ///   error in words.
    static func transport(_ error: any Error, request: URLRequest? = nil) -> ViewHostError {
        if error is CancellationError || (error as? URLError)?.code == .cancelled {
            return .cancelled
        }
        if let error = error as? ViewHostError { return error }
        guard let error = error as? URLError else {
            return ViewHostError(kind: .transport, title: "transport", detail: "\(error)")
        }
        let url = error.failingURL ?? request?.url
        let host = url.flatMap { url in url.host.map { "\($0)\(url.port.map { ":\($0)" } ?? "")" } }
        let server = host.map { "the server at \($0)" } ?? "the server"
        let detail =
            switch error.code {
            case .timedOut:
                request.map {
                    "timed out after \(Int($0.timeoutInterval.rounded())) s without an answer from \(server)"
                }
                    ?? "timed out waiting for \(server)"
            case .cannotConnectToHost: "cannot connect to \(server) (is it running?)"
            case .cannotFindHost, .dnsLookupFailed: "cannot find the host of \(server)"
            case .networkConnectionLost: "the connection to \(server) was lost"
            case .notConnectedToInternet: "no network"
            case .badServerResponse: "\(server) did not answer in HTTP"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
                "the TLS connection to \(server) failed (URLError \(error.code.rawValue))"
            default: "\(error.localizedDescription) (URLError \(error.code.rawValue))"
            }
        return ViewHostError(kind: .transport, title: "transport", detail: detail)
    }

    /// The task was cancelled.
    static let cancelled = ViewHostError(kind: .cancelled, title: "cancelled", detail: "the task was cancelled")

    /// An answer that does not match the API.
    static func invalidResponse(_ detail: String, status: Int? = nil) -> ViewHostError {
        ViewHostError(kind: .invalidResponse, status: status, title: "invalid response", detail: detail)
    }

    /// Whether retrying the same request (with the same `Idempotency-Key`) may succeed: no answer came, the
    /// server did not receive the whole request (`408`), a proxy found no server behind it (`502`, `504`, or a
    /// `503` while a deploy switches nodes), the server is stopping or its store is away (`503`), or it said to
    /// come back (`409` while the key is in flight, `429` with `Retry-After`). The key makes each retry safe: a
    /// send the server applied before the answer was lost is answered again, never applied twice.
    ///
    /// `408` matters on Linux: when a reused keep-alive connection dies after a request went out, libcurl (under
    /// swift-corelibs-foundation's `URLSession`) sends it again by itself, and that repeat can lack its body; the
    /// server then answers `408` once its body timeout passes.
    var isRetryable: Bool {
        switch kind {
        case .transport: true
        case .problem where status == 408 || status == 502 || status == 503 || status == 504: true
        case .problem: (status == 409 || status == 429) && retryAfter != nil
        default: false
        }
    }
}
