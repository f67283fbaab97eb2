import Foundation
import HTTPCore
import ViewModelCore

/// `GET /v1/sessions/{id}/stream`: server-sent events (the HTML standard's `text/event-stream`). Each change of a
/// feature is one event: `id:` the session-wide sequence number of that change, `event:` the feature, `data:` its
/// snapshot (the cached bytes). On connect it sends every feature's snapshot, or with `Last-Event-ID` only those
/// changed since; `?features=chat,weather` filters (API.md, "Live updates").
enum StreamRoutes {
    static func register(on router: inout MeteredRouter, registry: SessionRegistry, limiter: StreamLimiter, heartbeat: Duration) {
        router.on(.get, "/v1/sessions/:id/stream") { request, context in
            let session = try registry.authenticate(request, id: context.parameters["id"] ?? "")
            let features = try selectedFeatures(request, session: session)
            let lastEventID = try lastEventID(request)
            if let refusal = limiter.claim(session.id) {
                switch refusal {
                case .perSession:
                    throw HTTPError(
                        .tooManyRequests,
                        detail: "This session already has \(limiter.maxPerSession) open streams; close one first.",
                        headers: [.retryAfter: "5"])
                case .total:
                    throw HTTPError(
                        .serviceUnavailable, detail: "The server has as many open streams as it may; retry later.",
                        headers: [.retryAfter: "5"])
                }
            }
            // The place is given back when the stream ends, or when its body is dropped unstarted: HTTPCore answers
            // a HEAD with the head alone and never starts the body (the place's deinit gives it back then).
            let place = StreamLimiter.Place(limiter: limiter, session: session.id)
            let source = SessionEventSource(
                session: session, features: features, lastEventID: lastEventID, heartbeat: heartbeat, place: place,
                keepAlive: { registry.keepAlive(session) })
            return .response(
                HTTPResponse(
                    headers: [
                        .contentType: "text/event-stream", .cacheControl: "private, no-cache",
                        "X-Accel-Buffering": "no",
                    ],
                    body: .source(source)))
        }
    }

    private static func selectedFeatures(_ request: HTTPRequest, session: Session) throws(AppError) -> Set<String> {
        guard let list = request.queryValue("features") else { return Set(session.featureNames) }
        var selected = Set<String>()
        for name in list.split(separator: ",").map({ String($0.trimmingOWS()) }) where !name.isEmpty {
            guard session.featureNames.contains(name) else {
                throw .invalidField(
                    "features", reason: "names '\(name)', which this session does not have (it has \(session.featureNames.joined(separator: ", ")))",
                    status: .badRequest)
            }
            selected.insert(name)
        }
        guard !selected.isEmpty else {
            throw .invalidField("features", reason: "must name at least one feature", status: .badRequest)
        }
        return selected
    }

    /// `Last-Event-ID` as a sequence number; anything else counts as "never connected" (0: send everything).
    static func lastEventID(_ request: HTTPRequest) throws(AppError) -> Int {
        guard let text = request.headers[.lastEventID]?.trimmingOWS(), !text.isEmpty else {
            return 0
        }
        return Int(text).map { max(0, $0) } ?? 0
    }
}
