import Foundation
import ViewHostJSON
import ViewHostLocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loop behind ``ViewHostSession/changes(features:)``: one event stream after another, resumed with
/// `Last-Event-ID`; long polls while streams are refused; each feature's version delivered at most once.
struct ChangeFeed: Sendable {
    let session: ViewHostSession
    let features: [String]?
    /// Told why, each time a stream failed before delivering anything and the feed is about to try again.
    let onRetry: (@Sendable (ViewHostError) -> Void)?

    /// How one stream ended.
    enum StreamEnd {
        /// The connection failed or ended; `progress` says whether it delivered an event first, `cause` why it
        /// ended when it was a failure (refused, lost, a 5xx, an answer that is no event stream).
        case dropped(progress: Bool, cause: ViewHostError?)
        /// The server sent its final `ended` event with this reason (`deleted`, `expired`, `shutdown`).
        case ended(reason: String)
        /// Streams are refused for now (`429`, `503`): long poll instead.
        case refused(ViewHostError)
        /// Nothing to retry: the session is gone or the token wrong, or the task was cancelled.
        case fatal(ViewHostError)
    }

    /// What the feed keeps between streams.
    final class Progress: Sendable {
        /// The last `id:` received: the stream resumes after it.
        let lastEventID = Locked<String?>(nil)
        /// The server's `retry:`, the least wait before reconnecting.
        let retry = Locked<Duration>(.zero)
        /// feature → the newest change delivered (a patch applies to its JSON).
        private let delivered = Locked<[String: ViewHostChange]>([:])

        /// Whether `change` is newer than what was delivered of its feature; marks it delivered if so.
        func claim(_ change: ViewHostChange) -> Bool {
            delivered.withLock { delivered in
                guard change.version > delivered[change.feature]?.version ?? -1 else { return false }
                delivered[change.feature] = change
                return true
            }
        }

        /// The newest version delivered of `feature`.
        func version(of feature: String) -> Int? {
            delivered.withLock { $0[feature]?.version }
        }

        /// The newest change delivered of `feature`.
        func change(of feature: String) -> ViewHostChange? {
            delivered.withLock { $0[feature] }
        }
    }

    private var transport: HTTPTransport { session.transport }
    private var configuration: ViewHostClient.Configuration { session.transport.configuration }

    func run(into continuation: AsyncThrowingStream<ViewHostChange, any Error>.Continuation) async {
        let progress = Progress()
        var failures = 0
        while !Task.isCancelled {
            switch await stream(progress, continuation) {
            case .fatal(let error):
                continuation.finish(throwing: error.kind == .cancelled ? nil : error)
                return
            case .ended(let reason) where reason != "shutdown":
                continuation.finish(
                    throwing: ViewHostError(
                        kind: .sessionEnded, title: "session ended", detail: "the session was \(reason)"))
                return
            case .ended:
                failures = 1  // the server is stopping: come back after the least wait, then back off
            case .dropped(let delivered, let cause):
                failures = delivered ? 1 : failures + 1
                if !delivered, let cause { onRetry?(cause) }
            case .refused(let refusal):
                let period = max(configuration.fallbackPeriod, .seconds(refusal.retryAfter ?? 0))
                do {
                    try await longPoll(for: period, progress, continuation)
                } catch {
                    continuation.finish(throwing: error.kind == .cancelled ? nil : error)
                    return
                }
                failures = 0
                continue
            }
            let wait = max(
                configuration.reconnectBackoff.delay(afterFailures: failures, random: configuration.random()),
                progress.retry.withLock { $0 })
            do {
                try await transport.sleep(wait)
            } catch {
                break
            }
        }
        continuation.finish()
    }

    /// One event stream, read until it ends.
    private func stream(
        _ progress: Progress, _ continuation: AsyncThrowingStream<ViewHostChange, any Error>.Continuation
    ) async -> StreamEnd {
        // Patches after each feature's first snapshot: the changes alone, applied to the JSON delivered before.
        let query =
            (features.map { [URLQueryItem(name: "features", value: $0.joined(separator: ","))] } ?? [])
            + [URLQueryItem(name: "patches", value: "1")]
        var request: URLRequest
        do {
            request = transport.request(
                "GET", try transport.url(session.path("/stream"), query: query), token: session.token)
        } catch {
            return .fatal(error)
        }
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let id = progress.lastEventID.withLock({ $0 }) { request.setValue(id, forHTTPHeaderField: "Last-Event-ID") }
        var parser = ServerSentEventParser()
        var head: HTTPURLResponse?
        var refusalBody = Data()
        var delivered = false
        do {
            let parts = EventStreamConnection.open(
                request, configuration: HTTPTransport.sessionConfiguration(configuration))
            for try await part in parts {
                switch part {
                case .head(let response):
                    head = response
                    // A page from a proxy or another server where the stream should be: not worth reading.
                    let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no Content-Type"
                    if response.statusCode == 200, !type.lowercased().hasPrefix("text/event-stream") {
                        return .dropped(
                            progress: delivered,
                            cause: .invalidResponse(
                                "the stream answered 200 (\(type)), not an event stream: is \(transport.baseURL) a ViewHost server?",
                                status: 200))
                    }
                case .body(let data) where head?.statusCode != 200:
                    refusalBody.append(data)
                case .body(let data):
                    for event in parser.feed(data) {
                        if event.event == "ended" { return .ended(reason: Self.reason(of: event)) }
                        progress.lastEventID.withLock { $0 = event.id }
                        let change: ViewHostChange?
                        if event.event?.hasSuffix(".patch") == true {
                            change = await patched(event, progress)
                        } else {
                            change = Self.change(from: event)
                        }
                        guard let change else { continue }
                        delivered = true
                        if progress.claim(change) { continuation.yield(change) }
                    }
                    if let retry = parser.retry { progress.retry.withLock { $0 = .milliseconds(retry) } }
                }
            }
        } catch {
            return Task.isCancelled
                ? .fatal(.cancelled)
                : .dropped(progress: delivered, cause: .transport(error, request: request))
        }
        if Task.isCancelled { return .fatal(.cancelled) }
        guard let head, head.statusCode != 200 else {
            return .dropped(
                progress: delivered,
                cause: ViewHostError(kind: .transport, title: "transport", detail: "the event stream ended"))
        }
        let problem = ViewHostError.problem(status: head.statusCode, body: refusalBody, headers: head)
        switch head.statusCode {
        case 429, 503: return .refused(problem)
        case 500...599: return .dropped(progress: false, cause: problem)
        default: return .fatal(problem)
        }
    }

    /// A change from a stream event (`event:` the feature, `data:` its snapshot, `id:` the sequence).
    static func change(from event: ServerSentEvent) -> ViewHostChange? {
        struct Envelope: Decodable { let version: Int }
        guard let feature = event.event, let json = event.data.data(using: .utf8),
            let version = try? JSONDecoder().decode(Envelope.self, from: json).version
        else { return nil }
        return ViewHostChange(feature: feature, version: version, sequence: event.id.flatMap { Int($0) }, json: json)
    }

    /// The change a `FEATURE.patch` event makes: its patch applied to the feature's JSON delivered last when that
    /// is the event's `base` version and the result is its `version`; otherwise (a gap: a version missed or not
    /// held) the whole snapshot, read again. Nil when neither can be had (the stream goes on; a later change or
    /// reconnect catches up).
    private func patched(_ event: ServerSentEvent, _ progress: Progress) async -> ViewHostChange? {
        guard let data = try? JSONParser.parse(Array(event.data.utf8), maxDepth: 256),
            case .string(let feature)? = data["feature"], case .number(let number)? = data["version"]
        else { return nil }
        let version = Int(number)
        let sequence = event.id.flatMap { Int($0) }
        if let held = progress.change(of: feature), data["base"] == .number(Double(held.version)),
            let patch = data["patch"], let operations = try? JSONPatch.operations(patch),
            let base = try? JSONParser.parse(Array(held.json), maxDepth: 256),
            let json = SnapshotPatch.apply(operations, to: base, expecting: version)
        {
            return ViewHostChange(feature: feature, version: version, sequence: sequence, json: json)
        }
        guard let whole = try? await session.fetch(feature: feature, ifNoneMatch: nil, wait: nil) else { return nil }
        return ViewHostChange(feature: feature, version: whole.version, sequence: sequence, json: whole.json)
    }

    /// The reason of a final `ended` event (`{"reason":"deleted"}`).
    static func reason(of event: ServerSentEvent) -> String {
        struct Ended: Decodable { let reason: String }
        return (try? JSONDecoder().decode(Ended.self, from: Data(event.data.utf8)))?.reason ?? "ended"
    }

    /// Long polls every followed feature for about `period`, delivering what changes.
    private func longPoll(
        for period: Duration, _ progress: Progress,
        _ continuation: AsyncThrowingStream<ViewHostChange, any Error>.Continuation
    ) async throws(ViewHostError) {
        let names: [String]
        if let features { names = features } else { names = try await session.info().features.keys.sorted() }
        let wait = min(configuration.longPollWait, period)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for feature in names {
                    group.addTask {
                        try await poll(
                            feature, rounds: max(1, Int((period / wait).rounded(.up))), wait: wait, progress,
                            continuation)
                    }
                }
                try await group.waitForAll()
            }
        } catch {
            throw .transport(error)
        }
    }

    /// Long polls one feature `rounds` times (a `200` does not use up a round).
    private func poll(
        _ feature: String, rounds: Int, wait: Duration, _ progress: Progress,
        _ continuation: AsyncThrowingStream<ViewHostChange, any Error>.Continuation
    ) async throws(ViewHostError) {
        var remaining = rounds
        var failures = 0
        while remaining > 0 {
            let known = progress.version(of: feature).map {
                RawSnapshot(feature: feature, version: $0, etag: "\"\($0)\"", json: Data())
            }
            do {
                if let snapshot = try await session.fetch(
                    feature: feature, ifNoneMatch: known, wait: known == nil ? nil : wait)
                {
                    let change = ViewHostChange(
                        feature: feature, version: snapshot.version, sequence: nil, json: snapshot.json)
                    if progress.claim(change) { continuation.yield(change) }
                } else {
                    remaining -= 1
                }
                failures = 0
            } catch  where error.kind == .transport {
                failures += 1
                remaining -= 1
                try await transport.sleep(
                    configuration.reconnectBackoff.delay(afterFailures: failures, random: configuration.random()))
            }
        }
    }
}
