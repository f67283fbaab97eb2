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
            // The place is given back when the stream ends, or when its body is dropped unrun: HTTPCore answers a
            // HEAD with the head alone and never starts the body, which used to keep the place forever.
            let place = StreamLimiter.Place(limiter: limiter, session: session.id)
            let stream = HTTPBodyStream { writer in
                defer { place.release() }
                try await run(
                    writer: writer, session: session, features: features, after: lastEventID, heartbeat: heartbeat,
                    keepAlive: { registry.keepAlive(session) })
            }
            return .response(
                HTTPResponse(
                    headers: [
                        .contentType: "text/event-stream", .cacheControl: "private, no-cache",
                        "X-Accel-Buffering": "no",
                    ],
                    body: .stream(stream)))
        }
    }

    private static func run(
        writer: HTTPBodyWriter, session: Session, features: Set<String>, after lastEventID: Int, heartbeat: Duration,
        keepAlive: () -> Void
    ) async throws {
        let subscriber = StreamSubscriber(features: features)
        let observer = session.addObserver { change in subscriber.markChanged(change.versions.keys) }
        defer { session.removeObserver(observer) }
        // The reconnection delay the client should wait, once, then the snapshots it is missing.
        try await writer.write(Array("retry: 2000\n\n".utf8))
        let missing = session.features(changedAfter: lastEventID).map(\.feature).filter(features.contains)
        var written: [String: Int] = [:]
        try await write(Set(missing), of: session, to: writer, written: &written)
        while true {
            switch await subscriber.next(heartbeat: heartbeat) {
            case .cancelled:
                return
            case .heartbeat:
                try await writer.write(Array(": keepalive\n\n".utf8))
            case .changed(let changed):
                try await write(changed, of: session, to: writer, written: &written)
            }
            keepAlive()  // the client is still there, reading: the session is in use
            if Task.isCancelled || session.isClosed { return }
        }
    }

    /// Writes the newest snapshot of each feature, in the order they changed, skipping a feature whose newest
    /// change this stream has already written (`written`: feature → sequence). Without that check a change was
    /// sometimes sent twice: the stream may write a version before the session's observer call for that same
    /// version arrives (observers run after the session's lock is released), and that call marks it dirty again.
    private static func write(
        _ features: Set<String>, of session: Session, to writer: HTTPBodyWriter, written: inout [String: Int]
    ) async throws {
        var events: [(sequence: Int, bytes: [UInt8])] = []
        for feature in features {
            guard let (_, sequence, snapshot) = session.representation(of: feature, make: { version, viewModel in
                SnapshotEncoder.encode(feature: feature, version: version, viewModel: viewModel, sessionID: session.id)
            }) else { continue }
            if let last = written[feature], last >= sequence { continue }
            written[feature] = sequence
            var event = Array("id: \(sequence)\nevent: \(feature)\ndata: ".utf8)
            event.append(contentsOf: snapshot.body)  // compact JSON: never a newline inside
            event.append(contentsOf: "\n\n".utf8)
            events.append((sequence, event))
        }
        for event in events.sorted(by: { $0.sequence < $1.sequence }) {
            try await writer.write(event.bytes)
        }
    }

    private static func selectedFeatures(_ request: HTTPRequest, session: Session) throws(AppError) -> Set<String> {
        guard let list = request.queryValue("features") else { return Set(session.featureNames) }
        var selected = Set<String>()
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
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
    private static func lastEventID(_ request: HTTPRequest) throws(AppError) -> Int {
        guard let text = request.headers[.lastEventID]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return 0
        }
        return Int(text).map { max(0, $0) } ?? 0
    }
}
