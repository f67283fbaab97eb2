import HTTPCore
import ViewModelCore

/// The app's own refusals, each with its status and a problem document (RFC 9457).
enum AppError: HTTPResponseError, Sendable {
    /// No token came with a request that needs one.
    case missingToken
    /// No such session, or the token is another session's (never say which).
    case sessionNotFound
    /// The session expired (asked with its own token).
    case sessionExpired
    /// The session was ended by a repair of the store because changes it had acknowledged were lost (asked with its
    /// own token).
    case sessionLost
    /// The session has no such feature.
    case featureNotFound(String, available: [String])
    /// The live-session cap is reached.
    case tooManySessions
    /// The durable store is at its size limit (`store.maxMegabytes`): no new session until idle ones expire.
    case storeFull(megabytes: Int)
    /// The body is not JSON.
    case unsupportedMediaType(String?)
    /// The body is not valid JSON.
    case invalidJSON(String)
    /// The body is valid JSON but an event in it is not acceptable.
    case invalidEvent(EventDecodingError)
    /// A request field (query or body) is invalid.
    case invalidField(String, reason: String, status: HTTPStatus)
    /// Too many events in one request.
    case tooManyEvents(limit: Int)
    /// The state cannot apply an event now; nothing was applied. `index` is its place in a batch, if any.
    case eventRefused(EventRefusal, index: Int?)
    /// The `Idempotency-Key` came before with a different request.
    case idempotencyKeyReused
    /// The `Idempotency-Key`'s first request is still being applied.
    case idempotencyKeyInFlight
    /// The store could not keep the request's events: nothing is acknowledged; retry later.
    case storageUnavailable
    /// The session's copy in memory was dropped while the request held it (the store could not keep one of its
    /// inputs, or another node took it over); the store keeps the session, nothing of this request was applied.
    /// Routes load it again and answer from that; a client sees this only when that fails too.
    case sessionUnavailable
    /// The server is stopping: the session's copy here has ended, the store keeps it.
    case shuttingDown
    /// The session is in the store but cannot be read from it now (the cause is logged).
    case sessionUnreadable
    /// The session's stored data does not decode with this build's features: no retry helps (the feature, the
    /// member and the stored version are said, and logged).
    case sessionUndecodable(StoredFeatureError)
    /// A client or session is over its rate (``RequestRateLimits``); the request changed nothing.
    case rateLimited(String, retryAfter: Duration)
    /// A feature has not reached the version asked for (yet).
    case versionNotReached(feature: String, version: Int, latest: Int)
    /// A feature's version is older than the history the session keeps.
    case versionNotHeld(feature: String, version: Int, oldest: Int)
    /// A journal export posted to be imported does not read back; nothing was kept.
    case journalRejected(JournalImportError)
    /// A request another node forwarded here for a session a third node owns (its route was stale): the forwarding
    /// node looks the owner up again. Never sent to clients.
    case misdirected(owner: String)
    /// A hop to a node that is stopping (``HopDeparture``): the forwarding node takes the session over at once.
    /// Never sent to clients.
    case handedOver(node: String)
    /// The node that owns the session did not answer a forwarded request (it may have applied it).
    case ownerUnreachable(node: String)
    /// A request on the internal listener without the cluster's secret.
    case hopRefused
    /// A request on the public listener that carries the field of a hop between nodes (``ClusterHop/field``),
    /// whatever its value: hops are taken on the internal listener only.
    case hopOnPublicListener
    /// A value cannot be stored: the request's events (nothing applied), or the session's (it stopped).
    case unstorable(UnstorableValue)

    /// The answer for a session's refusal to apply a request's events: an ended session is `404` only when it was
    /// deleted, `410` when it expired, and `503` while the store still keeps it (never `404` for a session that
    /// exists).
    init(_ error: SessionError, batch: Bool) {
        switch error {
        case .ended(.deleted): self = .sessionNotFound
        case .ended(.expired): self = .sessionExpired
        case .ended(.shutdown): self = .shuttingDown
        case .ended(.unavailable): self = .sessionUnavailable
        case .noSuchFeature(let name): self = .featureNotFound(name, available: [])
        case .refused(let refusal, let index): self = .eventRefused(refusal, index: batch ? index : nil)
        case .keyReused: self = .idempotencyKeyReused
        case .keyInFlight: self = .idempotencyKeyInFlight
        case .unavailable: self = .storageUnavailable
        case .unstorable(let value): self = .unstorable(value)
        case .deliveriesWaiting(let limit):
            self = .rateLimited(
                "This session has \(limit) deliveries waiting for their receivers (deliveries.maxPending), or these "
                    + "events would leave more; nothing was applied: retry once they arrive.",
                retryAfter: .seconds(1))
        case .ended(.unstorable): self = .sessionUnavailable  // thrown as unstorable(_:), with what
        default: self = .sessionUnavailable  // the deprecated `closed`, never thrown
        }
    }

    var status: HTTPStatus {
        switch self {
        case .missingToken: .unauthorized
        case .sessionNotFound, .featureNotFound, .versionNotReached: .notFound
        case .sessionExpired, .sessionLost, .versionNotHeld: .gone
        case .tooManySessions, .storeFull: .serviceUnavailable
        case .unsupportedMediaType: .unsupportedMediaType
        case .invalidJSON: .badRequest
        case .invalidEvent, .journalRejected: .unprocessableContent
        case .invalidField(_, _, let status): status
        case .tooManyEvents: .contentTooLarge
        case .eventRefused, .idempotencyKeyInFlight: .conflict
        case .idempotencyKeyReused: .unprocessableContent
        case .storageUnavailable, .sessionUnavailable, .shuttingDown, .sessionUnreadable, .ownerUnreachable:
            .serviceUnavailable
        case .sessionUndecodable: .internalServerError
        case .misdirected, .handedOver: HTTPStatus(code: 421, reasonPhrase: "Misdirected Request")
        case .hopRefused, .hopOnPublicListener: .forbidden
        case .rateLimited: .tooManyRequests
        case .unstorable: .internalServerError
        }
    }

    var headers: HTTPHeaders {
        switch self {
        case .missingToken: [.wwwAuthenticate: "Bearer realm=\"viewhost\""]
        case .tooManySessions: [.retryAfter: "30"]
        case .storeFull: [.retryAfter: "60"]
        case .storageUnavailable: [.retryAfter: "5"]
        case .sessionUnavailable, .shuttingDown, .ownerUnreachable: [.retryAfter: "1"]
        case .sessionUnreadable: [.retryAfter: "5"]
        case .idempotencyKeyInFlight: [.retryAfter: "1"]
        case .rateLimited(_, let wait):
            // Whole seconds, rounded up (RFC 9110 §10.2.3), so a client that waits that long is let in.
            [
                .retryAfter:
                    "\(max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up))))"
            ]
        case .unsupportedMediaType: ["Accept-Post": "application/json"]
        case .handedOver: [ClusterHop.handOffField: "1"]
        default: HTTPHeaders()
        }
    }

    var problem: ProblemDetails {
        switch self {
        case .missingToken:
            ProblemDetails(
                status: status,
                detail:
                    "This request needs the session's token: 'Authorization: Bearer TOKEN' or its cookie, "
                    + "viewhost_session_ID.")
        case .sessionNotFound:
            ProblemDetails(status: status, detail: "No session with this id exists for this token.")
        case .sessionExpired:
            ProblemDetails(status: status, detail: "This session expired after being idle; create a new one.")
        case .sessionLost:
            ProblemDetails(
                status: status,
                detail: "This session was ended by a repair of the server's store: changes it had acknowledged were "
                    + "lost, so it cannot go on; create a new one.")
        case .featureNotFound(let name, let available):
            ProblemDetails(
                status: status, detail: "This session has no feature '\(name)'.", lists: ["available": available])
        case .tooManySessions:
            ProblemDetails(status: status, detail: "The server holds as many sessions as it may; retry later.")
        case .storeFull(let megabytes):
            ProblemDetails(
                status: status,
                detail:
                    "The session store is at its size limit (store.maxMegabytes = \(megabytes)), so no new session can "
                    + "be made until idle ones expire; existing sessions go on. Retry later.")
        case .unsupportedMediaType(let type):
            ProblemDetails(
                status: status,
                detail: "The body must be application/json (got \(type.map { "'\($0)'" } ?? "no Content-Type")).")
        case .invalidJSON(let reason):
            ProblemDetails(status: status, detail: "The body is not valid JSON: \(reason).")
        case .invalidEvent(let error):
            Self.problem(for: error, status: status)
        case .invalidField(let field, let reason, _):
            ProblemDetails(
                status: status, detail: "'\(field)' \(reason).", errors: [.init(field: field, message: reason)])
        case .tooManyEvents(let limit):
            ProblemDetails(status: status, detail: "A request may carry at most \(limit) events.")
        case .eventRefused(let refusal, let index):
            ProblemDetails(
                status: status,
                detail: (index.map { "The event at [\($0)] was refused, so none was applied: " } ?? "")
                    + refusal.reason,
                lists: ["allowed": refusal.allowed])
        case .idempotencyKeyReused:
            ProblemDetails(
                status: status,
                detail: "This Idempotency-Key was used with a different request; use a new key for a new request.",
                errors: [.init(field: "Idempotency-Key", message: "was used with a different request")])
        case .idempotencyKeyInFlight:
            ProblemDetails(
                status: status,
                detail: "The first request with this Idempotency-Key is still being applied; retry it in a moment.")
        case .storageUnavailable:
            ProblemDetails(
                status: status,
                detail:
                    "The server could not store this request, so it was not applied; retry it later (same Idempotency-Key)."
            )
        case .sessionUnavailable:
            ProblemDetails(
                status: status,
                detail:
                    "This session could not be loaded from the store just now, so nothing was applied; retry it in a moment."
            )
        case .shuttingDown:
            ProblemDetails(
                status: status, detail: "The server is shutting down, so nothing was applied; retry it in a moment.")
        case .sessionUnreadable:
            ProblemDetails(
                status: status,
                detail:
                    "This session could not be read from the store, so nothing was applied; the server logged why. Retry later."
            )
        case .sessionUndecodable(let error):
            // The member and the kind of fault, never the stored value (a decoder's words may quote it).
            ProblemDetails(
                status: status,
                detail: "This session's stored data does not decode with this server's build, so nothing was "
                    + "applied and retrying will not help: feature '\(error.feature)', \(error.field), stored by "
                    + "schema version \(error.storedVersion) (this build reads version \(error.currentVersion)) "
                    + "\(error.reason). The server logged it; the app's feature must migrate this data.",
                errors: [.init(field: error.field, message: error.reason)],
                integers: ["storedVersion": error.storedVersion, "schemaVersion": error.currentVersion])
        case .rateLimited(let detail, _):
            ProblemDetails(status: status, detail: detail)
        case .versionNotReached(let feature, let version, let latest):
            ProblemDetails(
                status: status, detail: "'\(feature)' has not reached version \(version); it is at version \(latest).",
                integers: ["latestVersion": latest])
        case .versionNotHeld(let feature, let version, let oldest):
            ProblemDetails(
                status: status,
                detail: "Version \(version) of '\(feature)' is no longer kept; the oldest version held is \(oldest).",
                integers: ["oldestVersion": oldest])
        case .misdirected(let owner):
            ProblemDetails(status: status, detail: "This node does not own the session; node \(owner) does.")
        case .handedOver(let node):
            ProblemDetails(status: status, detail: "Node \(node) is stopping and hands this session over: take it.")
        case .ownerUnreachable(let node):
            ProblemDetails(
                status: status,
                detail: "The node holding this session (\(node)) did not answer, so whether the request was applied is "
                    + "not known; retry it in a moment (same Idempotency-Key).")
        case .hopRefused:
            ProblemDetails(
                status: status, detail: "This listener takes requests from the cluster's nodes only (ViewHost-Hop).")
        case .hopOnPublicListener:
            ProblemDetails(
                status: status,
                detail: "This listener takes no requests between the cluster's nodes (ViewHost-Hop): those go to the "
                    + "internal listener. Send the request without that field.")
        case .journalRejected(let error):
            ProblemDetails(
                status: status,
                detail: "The journal was not imported, and nothing was kept: line \(error.line): \(error.reason).",
                errors: [.init(field: "line \(error.line)", message: error.reason)], integers: ["line": error.line])
        case .unstorable(let value):
            ProblemDetails(
                status: status,
                detail:
                    "Feature '\(value.feature)' made a value the server cannot store (\(value.field.isEmpty ? "its value" : value.field): "
                    + "\(value.reason)); nothing of it was kept. This is a fault of the feature, not of the request.",
                errors: [.init(field: value.field, message: value.reason)])
        }
    }

    private static func problem(for error: EventDecodingError, status: HTTPStatus) -> ProblemDetails {
        switch error {
        case .notAnObject(let path):
            let where_ = path.isEmpty ? "The body" : "'\(path)'"
            return ProblemDetails(
                status: status, detail: "\(where_) must be an event object or an array of event objects.",
                errors: [.init(field: path.isEmpty ? "body" : path, message: "must be an object")])
        case .missingField(let field):
            return ProblemDetails(
                status: status, detail: "The event field '\(field)' is missing.",
                errors: [.init(field: field, message: "is required")])
        case .wrongType(let field, let expected, let got):
            return ProblemDetails(
                status: status, detail: "The event field '\(field)' must be \(expected), not \(got).",
                errors: [.init(field: field, message: "must be \(expected)")])
        case .invalidValue(let field, let reason):
            return ProblemDetails(
                status: status, detail: "The event field '\(field)' \(reason).",
                errors: [.init(field: field, message: reason)])
        case .unknownType(let field, let type, let allowed):
            return ProblemDetails(
                status: status,
                detail: "Unknown event type '\(type)'; allowed types: \(allowed.joined(separator: ", ")).",
                errors: [.init(field: field, message: "must be one of the allowed types")], lists: ["allowed": allowed])
        case .unexpectedField(let field, let allowed):
            return ProblemDetails(
                status: status,
                detail: "The event field '\(field)' is not known for this type"
                    + (allowed.isEmpty
                        ? "; it takes no fields." : "; its fields: \(allowed.joined(separator: ", ")))."),
                errors: [.init(field: field, message: "is not a field of this event")], lists: ["allowed": allowed])
        case .notAllowed(let field, let value, let allowed):
            return ProblemDetails(
                status: status,
                detail: "The event field '\(field)' must be one of \(allowed.joined(separator: ", ")), not '\(value)'.",
                errors: [.init(field: field, message: "must be one of the allowed values")], lists: ["allowed": allowed]
            )
        case .emptyBatch:
            return ProblemDetails(
                status: status, detail: "The array of events is empty.",
                errors: [.init(field: "body", message: "must hold at least one event")])
        }
    }
}
