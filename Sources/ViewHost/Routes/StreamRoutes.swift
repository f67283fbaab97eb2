import Foundation
import HTTPCore
import ViewModelCore

/// `GET /v1/sessions/{id}/stream`: server-sent events (the HTML standard's `text/event-stream`). Each change of a
/// feature is one event: `id:` the session-wide sequence number of that change, `event:` the feature, `data:` its
/// snapshot (the cached bytes). On connect it sends every feature's snapshot, or with `Last-Event-ID` only those
/// changed since; `?features=chat,weather` filters (API.md, "Live updates"); `?patches=1` sends each feature's
/// later changes as patches from the version sent before (`event: chat.patch`, `data: {"base":…,"patch":[…]}`).
/// In a shared session a member's stream carries the features it was invited to, and every stream is told when a
/// participant comes online or goes offline (`event: presence`, `data: {"id","name","online","since"}`, no `id:`:
/// presence is no version, and `Last-Event-ID` never counts it). A member's stream carries its own view of a feature
/// whose snapshot depends on its viewer, and its patches run between two of its own views.
enum StreamRoutes {
    static func register(
        on router: inout MeteredRouter, registry: SessionRegistry, limiter: StreamLimiter, heartbeat: Duration
    ) {
        let resolver = SessionResolver(registry: registry)
        // A member streams the features it was invited to, and its stream ends when it is removed.
        router.on(.get, "/v1/sessions/:id/stream", session: resolver, members: .allowed) {
            request, context, session, member in
            let features = try selectedFeatures(request, session: session, visible: member?.features)
            let lastEventID = try lastEventID(request)
            let patches = try patchMode(request)
            let viewer = member?.id ?? Participant.ownerID
            if let refusal = limiter.claim(session.id, participant: viewer) {
                switch refusal {
                case .perParticipant:
                    throw HTTPError(
                        .tooManyRequests,
                        detail: "This participant already has \(Self.openStreams(limiter.maxPerParticipant)) of this "
                            + "session (streams.maxPerParticipant); close one first.",
                        headers: [.retryAfter: "5"])
                case .perSession:
                    throw HTTPError(
                        .tooManyRequests,
                        detail: "This session already has \(Self.openStreams(limiter.maxPerSession)); close one first.",
                        headers: [.retryAfter: "5"])
                case .total:
                    throw HTTPError(
                        .serviceUnavailable, detail: "The server has as many open streams as it may; retry later.",
                        headers: [.retryAfter: "5"])
                }
            }
            // The place is given back when the stream ends, or when its body is dropped unstarted: HTTPCore answers
            // a HEAD with the head alone and never starts the body (the place's deinit gives it back then).
            let closed = registry.participants.streamOpened(
                by: viewer, name: member?.name ?? Participant.ownerID, of: session.id, now: registry.scheduler.now,
                clock: registry.scheduler)
            let place = StreamLimiter.Place(
                limiter: limiter, session: session.id, participant: viewer, onRelease: closed)
            var viewers: [String: Viewer] = [:]
            for feature in features {
                if let own = registry.features.ownViewer(of: feature, for: member) { viewers[feature] = own }
            }
            let source = SessionEventSource(
                session: session, features: features, lastEventID: lastEventID, patches: patches, viewers: viewers,
                heartbeat: heartbeat, place: place,
                keepAlive: { registry.keepAlive(session) })
            registry.participants.opened(source, by: viewer, of: session.id)
            return .response(
                HTTPResponse(
                    headers: [
                        .contentType: "text/event-stream", .cacheControl: "private, no-cache",
                        "X-Accel-Buffering": "no",
                    ],
                    body: .source(source)))
        }
    }

    /// `?patches=1`: changes after each feature's first snapshot go as `FEATURE.patch` events, each with its
    /// `base` version (`0`, or no parameter: whole snapshots).
    private static func patchMode(_ request: HTTPRequest) throws(AppError) -> Bool {
        switch try QueryParameter.single("patches", of: request) {
        case nil, "0": return false
        case "1": return true
        default:
            throw .invalidField("patches", reason: "must be 1 (patches) or 0 (whole snapshots)", status: .badRequest)
        }
    }

    /// "1 open stream", "2 open streams".
    static func openStreams(_ count: Int) -> String {
        count == 1 ? "1 open stream" : "\(count) open streams"
    }

    /// `?features=chat,weather`: one or more of the session's features, comma-separated, nothing else (no empty
    /// names, no spaces), as the OpenAPI document's `style: form, explode: false` array says.
    /// `visible`: the features a member was invited to (nil: the owner, who sees them all); the others are not
    /// the session's for it.
    private static func selectedFeatures(_ request: HTTPRequest, session: Session, visible: [String]?)
        throws(AppError) -> Set<String>
    {
        let names = session.featureNames.filter { visible?.contains($0) ?? true }
        guard let list = try QueryParameter.single("features", of: request) else { return Set(names) }
        guard list.utf8.count <= 256 else {
            throw .invalidField("features", reason: "is longer than 256 bytes", status: .badRequest)
        }
        var selected = Set<String>()
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard names.contains(name) else {
                throw .invalidField(
                    "features",
                    reason:
                        "must list one or more of this session's features (\(names.joined(separator: ", "))), "
                        + "comma-separated; '\(name)' is not one",
                    status: .badRequest)
            }
            selected.insert(name)
        }
        return selected
    }

    /// `Last-Event-ID`: the sequence number of the last event a client saw, 1 to 18 digits (`^[0-9]{1,18}$`);
    /// absent means "never connected" (send everything). Anything else is a 400: a client that sends its own
    /// ids would otherwise silently get every snapshot again.
    static func lastEventID(_ request: HTTPRequest) throws(AppError) -> Int {
        guard let text = request.headers[.lastEventID] else { return 0 }
        guard let value = SequenceNumber.parse(text) else {
            throw .invalidField(
                "Last-Event-ID", reason: "must be a sequence number from this stream (1 to 18 digits)",
                status: .badRequest)
        }
        return value
    }
}
