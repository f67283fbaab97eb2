import Foundation
import HTTPCore
import Logging
import ViewHostCrypto
import ViewHostJSON
import ViewModelCore

/// `POST /v1/sessions/{id}/{feature}/events`: one event object or an array of them, applied to the feature in
/// order, all or nothing: `202 {"accepted":N,"version":V}` once applied, `409` when the state cannot apply one
/// (nothing applied). `Idempotency-Key` (the IETF draft: bound to the session, method, path and body) and an
/// event's own `"id"` make retries safe.
enum EventRoutes {
    static let maxEventsPerRequest = 100

    static func register<C: Clock>(
        on router: inout MeteredRouter, registry: SessionRegistry, metrics: AppMetrics, limits: RequestRateLimits<C>
    ) where C.Duration == Duration {
        let resolver = SessionResolver(registry: registry)
        // A member posts to the features it was invited to; each event is attributed to who sent it.
        router.on(.post, "/v1/sessions/:id/:feature/events", session: resolver, members: .invitedFeature) {
            request, context, session, member in
            let feature = context.parameters["feature"] ?? ""
            guard session.featureNames.contains(feature), let definition = registry.definition(named: feature) else {
                throw AppError.featureNotFound(feature, available: session.featureNames)
            }
            let key = try idempotencyKey(request)
            let objects = try eventObjects(RequestBody.json(request))
            try limits.admitEvents(objects.count, session: session.id.rawValue, member: member?.id)
            let claim = key.map { (key: $0, fingerprint: fingerprint(of: request)) }
            let count = objects.count
            /// Applies the events to `session`'s feature; `202` once the store keeps them.
            @Sendable func submit(to session: Session) throws -> HTTPHandlerResult {
                let (outcome, durable) = try definition.submit(session, objects, claim, member?.id)
                // 202 only once the store keeps what was applied (at once with the memory store).
                // The 202 is made here, on the request's loop, while the commit is pending: the callback runs on
                // the store's one writer thread, whose every microsecond delays the next batch of every session.
                let response = accepted(outcome)
                guard let durable else {
                    countAccepted(outcome, events: count, feature: feature, metrics: metrics)
                    return .response(response)
                }
                // Answered from the commit's callback: no task per event (a task, and the hops to the cooperative
                // pool and back, were a tenth of a durable event's CPU).
                return .later { answer in
                    durable.whenResolved { result in
                        switch result {
                        case .success:
                            countAccepted(outcome, events: count, feature: feature, metrics: metrics)
                            answer(.success(response))
                        case .failure(let error): answer(.failure(AppError(error, batch: count > 1)))
                        }
                    }
                }
            }
            do {
                return try submit(to: session)
            } catch AppError.unstorable(let value) {
                // A fault of the feature, not of the request: said once, in the log, with what it was.
                context.logger.error(
                    "events that cannot be stored were refused",
                    metadata: ["feature": "\(value.feature)", "field": "\(value.field)", "reason": "\(value.reason)"])
                throw AppError.unstorable(value)
            } catch AppError.sessionUnavailable {
                // The copy this request found was dropped before anything was applied: the events go to the durable
                // value, loaded again (or to the node that owns the session now). The request was read and counted
                // once; only the submit is done again.
                let reload = registry.reloading(session, for: request)
                return .deferred {
                    try await resolver.reach(.load(reload), for: request, context: context) { durable in
                        try await submit(to: durable).response()
                    }
                }
            }
        }
    }

    /// Counts the events of an answer that applied them (not of one given again), once they are kept.
    private static func countAccepted(_ outcome: SubmitOutcome, events count: Int, feature: String, metrics: AppMetrics)
    {
        if case .applied = outcome { metrics.eventsAccepted(count, feature: feature) }
    }

    /// `202 {"accepted":N,"version":V}`, with `Idempotent-Replayed: true` for a key's first answer given again.
    private static func accepted(_ outcome: SubmitOutcome) -> HTTPResponse {
        var headers: HTTPHeaders = [.cacheControl: "no-store"]
        let answer: IdempotencyLedger.Answer
        switch outcome {
        case .applied(let applied):
            answer = applied
        case .replayed(let first):
            answer = first
            headers.add("Idempotent-Replayed", "true")
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("accepted")
        writer.integer(answer.accepted)
        writer.key("version")
        writer.integer(answer.version)
        writer.endObject()
        return HTTPResponse(status: .accepted, contentType: "application/json", bytes: writer.bytes, headers: headers)
    }

    /// What an `Idempotency-Key` is bound to besides its session: the method, the path and the body.
    private static func fingerprint(of request: HTTPRequest) -> String {
        Digest.hex(Digest.sha256(Array("\(request.method.rawValue) \(request.path)\n".utf8), request.body))
    }

    /// The `Idempotency-Key`, if sent: 1 to 255 visible ASCII characters.
    static func idempotencyKey(_ request: HTTPRequest) throws(AppError) -> String? {
        guard let key = request.headers[.idempotencyKey] else { return nil }
        guard isKey(key) else {
            throw .invalidField(
                "Idempotency-Key", reason: "must be 1 to 255 visible ASCII characters", status: .badRequest)
        }
        return key
    }

    /// Whether `text` is 1 to 255 visible ASCII characters (`^[!-~]{1,255}$`), what keys and event ids take.
    static func isKey(_ text: String) -> Bool { IdempotencyLedger.isKey(text) }

    /// One event object, or an array of 1 to 100 of them, each checked to be an object with an optional string
    /// `id`.
    static func eventObjects(_ value: JSONValue) throws(AppError) -> [EventFields] {
        let items: [(JSONValue, String)]
        switch value {
        case .object:
            items = [(value, "")]
        case .array(let elements):
            guard !elements.isEmpty else { throw .invalidEvent(.emptyBatch) }
            guard elements.count <= maxEventsPerRequest else { throw .tooManyEvents(limit: maxEventsPerRequest) }
            items = elements.enumerated().map { ($1, "[\($0)].") }
        default:
            throw .invalidEvent(.notAnObject(""))
        }
        var objects: [EventFields] = []
        objects.reserveCapacity(items.count)
        for (item, prefix) in items {
            guard case .object(let members) = item else { throw .invalidEvent(.notAnObject(String(prefix.dropLast()))) }
            let fields = EventFields(members: members, pathPrefix: prefix)
            // `null` counts as no id. An id is kept as an idempotency key, so it takes what the header takes.
            if let id = fields.value("id"), id != .null {
                guard case .string(let text) = id else {
                    throw .invalidEvent(.wrongType(fields.path("id"), expected: "a string", got: id.typeName))
                }
                guard isKey(text) else {
                    throw .invalidEvent(
                        .invalidValue(fields.path("id"), reason: "must be 1 to 255 visible ASCII characters"))
                }
            }
            objects.append(fields)
        }
        return objects
    }
}
