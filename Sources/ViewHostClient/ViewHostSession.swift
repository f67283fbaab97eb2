import Foundation
import ViewHostAPI
import ViewHostLocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One session on the server: read its snapshots, send its features' intents, invoke the actions its snapshots
/// offer, follow its changes. Made by ``ViewHostClient/createSession(features:timeZone:locale:)`` or reopened
/// with ``ViewHostClient/session(id:token:)``.
///
/// Snapshots are cached with their `ETag`: a read asks `If-None-Match` and a `304` answers from the cache. Every
/// logical send carries a fresh `Idempotency-Key`, reused when the send is retried after a network error (or when
/// the server asks to retry), so a retried send applies once. All calls are `@concurrent` (never on the caller's
/// actor) and end with ``ViewHostError/Kind/cancelled`` when their task is cancelled.
public final class ViewHostSession: Sendable {
    /// The session's id.
    public let id: String
    /// The session's token (sent as `Authorization: Bearer`).
    public let token: String
    /// When the session expires unless used, as the server said at creation (ISO 8601); nil when reopened.
    public let expiresAt: String?
    let transport: HTTPTransport
    /// feature → the newest snapshot read, for `If-None-Match`.
    private let cache = Locked<[String: RawSnapshot]>([:])

    init(id: String, token: String, expiresAt: String?, transport: HTTPTransport) {
        self.id = id
        self.token = token
        self.expiresAt = expiresAt
        self.transport = transport
    }

    /// `/v1/sessions/{id}` plus `suffix`, the id as one path segment.
    func path(_ suffix: String = "") -> String {
        "/v1/sessions/\(HTTPTransport.segment(id))\(suffix)"
    }

    /// `/v1/sessions/{id}/{feature}` plus `suffix`, the feature's name as one path segment.
    func path(feature: String, _ suffix: String = "") -> String {
        path("/\(HTTPTransport.segment(feature))\(suffix)")
    }

    // MARK: Reading

    /// The feature's snapshot, typed: `try await session.snapshot(ChatSnapshot.self)`.
    @concurrent
    public func snapshot<Snapshot: FeatureSnapshot>(
        _ type: Snapshot.Type
    ) async throws(ViewHostError) -> Versioned<Snapshot> {
        let raw = try await snapshot(feature: Snapshot.feature)
        return try Versioned.decode(type, from: raw.json, status: 200)
    }

    /// The feature's snapshot as served (`GET /v1/sessions/{id}/{feature}`), revalidated with `If-None-Match`.
    @concurrent
    public func snapshot(feature: String) async throws(ViewHostError) -> RawSnapshot {
        let cached = cache.withLock { $0[feature] }
        return try await fetch(feature: feature, ifNoneMatch: cached, wait: nil) ?? cached!
    }

    /// One conditional read: the snapshot when newer than `known` (or when nothing is known), nil on `304`.
    /// With `wait`, a long poll: the server holds the request until a newer version exists or the wait ends.
    /// Holding a snapshot with its JSON, the client accepts a patch from it (`application/json-patch+json`): the
    /// newer version comes as the changes alone, applied here and checked against the version the server names;
    /// on any mismatch the whole snapshot is read instead.
    func fetch(feature: String, ifNoneMatch known: RawSnapshot?, wait: Duration?) async throws(ViewHostError)
        -> RawSnapshot?
    {
        let query = wait.map { [URLQueryItem(name: "wait", value: String(Int($0.seconds.rounded(.up))))] } ?? []
        var request = transport.request("GET", try transport.url(path(feature: feature), query: query), token: token)
        if let known { request.setValue(known.etag, forHTTPHeaderField: "If-None-Match") }
        if let known, !known.json.isEmpty {
            request.setValue("\(SnapshotPatch.mediaType), application/json", forHTTPHeaderField: "Accept")
        }
        if let wait { request.timeoutInterval = wait.seconds + transport.configuration.idleTimeout.seconds }
        let (data, response) = try await transport.expecting([200, 304], request)
        if response.statusCode == 304 {
            guard known != nil else { throw .invalidResponse("304 without a cached snapshot", status: 304) }
            return nil
        }
        let etag = response.value(forHTTPHeaderField: "ETag")
        var json = data
        if SnapshotPatch.isPatch(response.value(forHTTPHeaderField: "Content-Type")) {
            guard let known, let version = etag.flatMap(Self.version(ofTag:)),
                let patched = SnapshotPatch.apply(data, to: known.json, expecting: version)
            else { return try await fetch(feature: feature, ifNoneMatch: nil, wait: nil) }
            json = patched
        }
        struct Envelope: Decodable { let version: Int }
        let version = try transport.decode(Envelope.self, from: json, status: 200).version
        let snapshot = RawSnapshot(feature: feature, version: version, etag: etag ?? "\"\(version)\"", json: json)
        keep(snapshot)
        return snapshot
    }

    /// Keeps `snapshot` as the newest of its feature, unless a newer one is kept.
    func keep(_ snapshot: RawSnapshot) {
        cache.withLock { cache in
            if (cache[snapshot.feature]?.version ?? -1) <= snapshot.version { cache[snapshot.feature] = snapshot }
        }
    }

    /// The version an entity tag names (`"7"` or `W/"7"`; `"7.ID"`, a member's own view of a feature whose snapshot
    /// depends on its viewer).
    static func version(ofTag tag: String) -> Int? {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        guard opaque.count >= 3, opaque.first == "\"", opaque.last == "\"" else { return nil }
        var inner = opaque.dropFirst().dropLast()
        if let dot = inner.firstIndex(of: ".") {
            let viewer = inner[inner.index(after: dot)...]
            guard !viewer.isEmpty, viewer.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            inner = inner[..<dot]
        }
        return Int(inner)
    }

    /// The session's features and their versions (`GET /v1/sessions/{id}`).
    @concurrent
    public func info() async throws(ViewHostError) -> SessionInfo {
        let (data, _) = try await transport.expecting(
            [200], transport.request("GET", try transport.url(path()), token: token))
        return try transport.decode(SessionInfo.self, from: data, status: 200)
    }

    /// Ends the session (`DELETE /v1/sessions/{id}`); later calls get `404`.
    @concurrent
    public func delete() async throws(ViewHostError) {
        _ = try await transport.expecting([204], transport.request("DELETE", try transport.url(path()), token: token))
        cache.withLock { $0.removeAll() }
    }

    // MARK: Writing

    /// Sends one intent to its feature: `try await session.send(ChatIntent.addChat)`.
    @discardableResult
    @concurrent
    public func send<Intent: FeatureIntent>(_ intent: Intent) async throws(ViewHostError) -> SendReceipt {
        try await post(path(feature: Intent.feature, "/events"), body: try JSONValue.encode(intent))
    }

    /// Sends intents as one batch, applied in order, all or none.
    @discardableResult
    @concurrent
    public func send<Intent: FeatureIntent>(_ intents: [Intent]) async throws(ViewHostError) -> SendReceipt {
        try await post(path(feature: Intent.feature, "/events"), body: try JSONValue.encode(intents))
    }

    /// Sends one event given as fields (`["type": "send", "text": "Hi"]`) to a feature by name.
    @discardableResult
    @concurrent
    public func send(feature: String, event: [String: String]) async throws(ViewHostError) -> SendReceipt {
        try await post(path(feature: feature, "/events"), body: try JSONValue.encode(event))
    }

    /// Sends one event given as fields of any JSON scalar (`["type": "vote", "card": "c1", "votes": 3]`) to a
    /// feature by name.
    @discardableResult
    @concurrent
    public func send(feature: String, event: [String: ActionValue]) async throws(ViewHostError) -> SendReceipt {
        try await post(path(feature: feature, "/events"), body: try JSONValue.encode(event))
    }

    /// Invokes an action a snapshot offers, as it is: posts its body, with its `{param}` placeholders filled from
    /// `parameters` (strings, as a text field gives them, converted to what each placeholder takes: `"3"` posts `3`
    /// for an integer), to its `href`. A disabled action is posted too; the server answers `409` with what is allowed.
    @discardableResult
    @concurrent
    public func perform(
        _ action: ActionDescriptor, filling parameters: [String: String]
    ) async throws(ViewHostError) -> SendReceipt {
        try await perform(action, filling: parameters.mapValues(ActionValue.string))
    }

    /// Invokes an action a snapshot offers, its placeholders filled from `parameters` of any JSON scalar
    /// (`["votes": 3]`; a string is converted to what the placeholder takes).
    @discardableResult
    @concurrent
    public func perform(
        _ action: ActionDescriptor, filling parameters: [String: ActionValue] = [:]
    ) async throws(ViewHostError) -> SendReceipt {
        guard let href = action.href else {
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request",
                detail: "the '\(action.event)' action has no href (it was not read from a served snapshot)")
        }
        guard action.target == .events else {
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request",
                detail: "the '\(action.event)' action creates an invitation: use invite(_:filling:)")
        }
        switch action.body(filling: parameters) {
        case .success(let body): return try await post(href, body: try JSONValue.encode(body))
        case .failure(let problem):
            throw ViewHostError(
                kind: .invalidRequest, title: "invalid request",
                detail: problem.expected == nil
                    ? "the '\(action.event)' action needs a value for {\(problem.name)}"
                    : "the '\(action.event)' action's {\(problem.name)} \(problem.reason)")
        }
    }

    /// One logical send: a new `Idempotency-Key`, kept for every retry.
    private func post(_ path: String, body: Data) async throws(ViewHostError) -> SendReceipt {
        let configuration = transport.configuration
        var request = transport.request("POST", try transport.url(path), token: token, body: body)
        request.setValue(configuration.makeIdempotencyKey(), forHTTPHeaderField: "Idempotency-Key")
        var failures = 0
        while true {
            do {
                let (data, response) = try await transport.expecting([202], request)
                var receipt = try transport.decode(SendReceipt.self, from: data, status: 202)
                receipt.replayed = response.value(forHTTPHeaderField: "Idempotent-Replayed") == "true"
                return receipt
            } catch {
                failures += 1
                guard error.isRetryable, failures < configuration.sendAttempts else { throw error }
                let wait =
                    error.retryAfter.map { Duration.seconds($0) }
                    ?? configuration.sendBackoff.delay(afterFailures: failures, random: configuration.random())
                try await transport.sleep(wait)
            }
        }
    }

    // MARK: Following

    /// The session's changes as they happen: first the current snapshot of each feature, then every change.
    ///
    /// It reads the event stream (`GET …/stream`) and reconnects by itself with `Last-Event-ID` and backoff when
    /// the connection drops or the server restarts; while streams are refused (`429`, `503`) it long polls each
    /// feature instead, and tries a stream again later. A feature's version is delivered at most once and never
    /// older than one delivered before. The sequence ends when the iterating task is cancelled, and throws a
    /// ``ViewHostError`` when the session ends (``ViewHostError/Kind/sessionEnded``) or the server refuses it
    /// for good (`401`, `404`, `410`).
    /// - Parameters:
    ///   - features: The features to follow (nil: all of the session's).
    ///   - onRetry: Told why each time a stream fails before delivering anything (the server is down, answers
    ///     `5xx`, or answers something that is no event stream) and the feed is about to try again: the sequence
    ///     itself goes on, so this is how a caller sees trouble and decides to give up (by cancelling).
    /// - Returns: The changes, oldest first.
    public func changes(
        features: [String]? = nil, onRetry: (@Sendable (ViewHostError) -> Void)? = nil
    ) -> AsyncThrowingStream<ViewHostChange, any Error> {
        let (changes, continuation) = AsyncThrowingStream.makeStream(of: ViewHostChange.self)
        let feed = ChangeFeed(session: self, features: features, onRetry: onRetry)
        let task = Task.detached { await feed.run(into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return changes
    }
}
