import HTTPCore
import Logging

/// The access log (config `log.access`): one `info` line per request the router answers, with the method, the
/// route's pattern (never the path itself, so no id or query value is logged; tokens and cookies travel in
/// headers, which are never logged), the status, the body's bytes (before gzip; none for a stream), the time the
/// app took, the request and session ids, and the client's address (behind a trusted proxy, the one it forwarded).
/// Refusals by a limit (`408`, `413`, `414`, `429`, `431`, `503`) also go to the rate-limited ``RefusalLog`` with
/// their reason.
struct AccessLog: Sendable {
    /// Statuses that mean a limit refused the request.
    static let limitStatuses: Set<Int> = [408, 413, 414, 429, 431, 503]

    let logger: Logger
    let isEnabled: Bool
    let refusals: RefusalLog<ContinuousClock>

    init(logger: Logger, isEnabled: Bool) {
        self.logger = logger
        self.isEnabled = isEnabled
        self.refusals = RefusalLog(logger: logger, clock: ContinuousClock())
    }

    /// Logs one answered request.
    /// - Parameters:
    ///   - outcome: The response, or the error that became one.
    ///   - request: The request answered.
    ///   - route: The pattern of the route that answered it (`unmatched` when none did).
    ///   - context: The request's id, peer and route parameters.
    ///   - start: When the request reached the router, for the duration.
    func record(
        _ outcome: Result<HTTPResponse, any Error>, request: HTTPRequest, route: String, context: HTTPRequestContext,
        since start: ContinuousClock.Instant
    ) {
        let status: Int
        var bytes: Int?
        var sessionID = context.parameters["id"]
        switch outcome {
        case .success(let response):
            status = response.status.code
            switch response.body {
            case .empty: bytes = 0
            case .bytes(let body): bytes = body.count
            case .stream, .source: bytes = nil
            }
            if sessionID == nil, status == 201, let location = response.headers[.location] {
                sessionID = location.split(separator: "/").last.map(String.init)  // the session just created
            }
            if Self.limitStatuses.contains(status) {
                refusals.record(
                    status: status, reason: "\(response.status.reasonPhrase) from \(route)",
                    requestID: context.requestID,
                    peer: context.clientAddress?.description)
            }
        case .failure(let error):
            let problem = (error as? any HTTPResponseError)?.problem
            status = problem?.status.code ?? 500
            if Self.limitStatuses.contains(status) {
                refusals.record(
                    status: status, reason: problem?.detail ?? "\(status)", requestID: context.requestID,
                    peer: context.clientAddress?.description)
            }
        }
        // A level above info (`--log-level warning`) drops the line: its metadata is not built for nothing.
        guard isEnabled, logger.logLevel <= .info else { return }
        let elapsed = start.duration(to: .now).components
        let milliseconds = (Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15 * 1000).rounded() / 1000
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "route": .string(route), "status": .stringConvertible(status),
            "duration-ms": .stringConvertible(milliseconds), "request-id": .string(context.requestID),
        ]
        if let bytes { metadata["bytes"] = .stringConvertible(bytes) }
        if let sessionID { metadata["session-id"] = .string(sessionID) }
        if let client = context.clientAddress { metadata["client"] = .stringConvertible(client) }
        logger.info("request", metadata: metadata)
    }
}
