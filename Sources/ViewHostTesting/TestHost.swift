import Foundation
import ViewHostAPI
import ViewModelCore

/// A whole session of registered features, in process and without sockets or threads: the features' own code and
/// the library's session core, driven by hand on a manual clock. Send intents and events, then state the new
/// states, snapshots, timers and requests by equality (effects are data, so no mocks); move the clock to fire
/// timers; answer requests yourself or run them with the features' own runners.
///
/// ```swift
/// var host = try TestHost(features: [.notes])
/// try host.send(NoteIntent.add(text: "Milk"), to: NotesApp.key)
/// #expect(host.state(of: NotesApp.key).notes.map(\.text) == ["Milk"])
/// host.advance(by: .seconds(10))                      // a timer of the feature fires
/// #expect(host.timers(of: NotesApp.key).isEmpty)
/// ```
///
/// A session starts as the server starts one: each feature in its initial state, then its start events (source
/// `view`). Client intents go through the feature's `Feature.event(for:)` and `Feature.check(_:in:)`, as posted
/// events do; nothing is journaled or served.
public struct TestHost {
    /// The session's value (every feature's state, the log, the counters).
    public internal(set) var core: SessionCore
    /// The clock: it moves only with ``advance(by:)`` and ``advance(to:)``.
    public internal(set) var now: Date
    var runners: [String: @Sendable (any Sendable) async -> (any Sendable)?]
    var recorded: [String: [(version: Int, snapshot: any ViewModel)]] = [:]

    /// The instant every host starts at unless told otherwise: 2026-01-01 00:00 UTC.
    public static let defaultStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// A session of `features`, as an app registers them.
    /// - Parameters:
    ///   - features: The registrations, in order.
    ///   - settings: Feature settings by key path, as text (every other key at its default).
    ///   - environment: Environment variables the features may read (secrets).
    ///   - session: The session's time zone, locale, simulation speed and log size.
    ///   - start: The clock's first instant.
    ///   - seed: The session's random draws.
    /// - Throws: `SettingError` for a setting a feature cannot use.
    public init(
        features: [FeatureRegistration], settings: [String: String] = [:], environment: [String: String] = [:],
        session: SessionSettings = SessionSettings(), start: Date = TestHost.defaultStart, seed: UInt64 = 0
    ) throws {
        let values = FixedFeatureSettings(settings, environment: environment)
        let hostings = try features.map { try $0.hosting(with: values) }
        var runners: [String: @Sendable (any Sendable) async -> (any Sendable)?] = [:]
        for hosting in hostings { runners[Self.name(of: hosting)] = Self.runner(of: hosting) }
        self.runners = runners
        now = start
        core = SessionCore(
            settings: session, random: .seeded(seed), features: hostings.map { Self.initial(of: $0, settings: session) }
        )
        for hosting in hostings { try startFeature(hosting) }
    }

    /// A session of one feature in `state` (no registration needed), with `requests` running its outside work.
    public init<F: Feature>(
        _ feature: F.Type, state: F.State, session: SessionSettings = SessionSettings(),
        requests: (@Sendable (F.Request) async -> F.Event)? = nil, start: Date = TestHost.defaultStart, seed: UInt64 = 0
    ) {
        now = start
        core = SessionCore(settings: session, random: .seeded(seed), features: [InitialFeature(F.key, state: state)])
        runners = [:]
        if let requests { runners[F.key.name] = Self.erased(requests) }
    }

    // MARK: - Sending

    /// Posts a client's intent to `key`'s feature, as `POST /v1/sessions/{id}/{feature}/events` does: the feature's
    /// event for it, checked against the state, then applied with its follow-ups.
    /// - Returns: What changed.
    /// - Throws: `IntentRejection` (a 422) or `SessionRefusal` (a 409); then nothing changed.
    @discardableResult
    public mutating func send<F: Feature>(_ intent: F.Intent, to key: FeatureKey<F>) throws -> TestStep {
        try send(F.event(for: intent), to: key)
    }

    /// Sends client intents as one batch: all applied, or none.
    @discardableResult
    public mutating func send<F: Feature>(_ intents: [F.Intent], to key: FeatureKey<F>) throws -> TestStep {
        let events = try intents.map { intent throws(IntentRejection) in try F.event(for: intent) }
        return try send(events, to: key)
    }

    /// Sends events of `key`'s feature as they are (a client's are checked; `view`, `timer`… are not).
    @discardableResult
    public mutating func send<F: Feature>(_ events: F.Event..., to key: FeatureKey<F>, source: EventSource = .client)
        throws(SessionRefusal) -> TestStep
    {
        try send(events, to: key, source: source)
    }

    /// Sends events of `key`'s feature as one batch (a client's are checked; `view`, `timer`… are not).
    @discardableResult
    public mutating func send<F: Feature>(_ events: [F.Event], to key: FeatureKey<F>, source: EventSource = .client)
        throws(SessionRefusal) -> TestStep
    {
        var observed: [(String, Int, any ViewModel)] = []
        let step = try core.apply(events, to: key, source: source, at: now) { observed.append(($0, $1, $2())) }
        return record(step, observed)
    }

    // MARK: - Time

    /// Moves the clock by `duration`, firing every timer that falls due on the way, in order, each at its instant.
    /// - Returns: What each fired timer changed, in order.
    @discardableResult
    public mutating func advance(by duration: Duration) -> [TestStep] {
        advance(
            to: now.addingTimeInterval(
                Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18))
    }

    /// Moves the clock to `instant` (never back), firing every timer due by then, in order.
    @discardableResult
    public mutating func advance(to instant: Date) -> [TestStep] {
        var steps: [TestStep] = []
        while let next = core.pendingTimers.filter({ $0.dueAt <= instant }).min(by: {
            ($0.dueAt, $0.id) < ($1.dueAt, $1.id)
        }) {
            now = max(now, next.dueAt)
            var observed: [(String, Int, any ViewModel)] = []
            if let step = core.fireTimer(next.id, at: now, observe: { observed.append(($0, $1, $2())) }) {
                steps.append(record(step, observed))
            }
        }
        now = max(now, instant)
        return steps
    }

    // MARK: - Outside work

    /// Answers `key`'s pending request `request` with `event` (source `provider`), as its runner would.
    /// - Returns: What the answer changed, or nil when no such request is pending.
    @discardableResult
    public mutating func answer<F: Feature>(
        _ request: FeatureRequest<F.Request>, with event: F.Event, of key: FeatureKey<F>
    )
        -> TestStep?
    {
        applyAnswer(event, toRequest: request.id)
    }

    /// Runs `key`'s pending request `request` with its feature's own runner and applies the answer: a request among
    /// several answered out of the order they were made.
    /// - Returns: What the answer changed, or nil when the request is not pending or the feature has no runner.
    @discardableResult
    public mutating func run<F: Feature>(_ request: FeatureRequest<F.Request>, of key: FeatureKey<F>) async -> TestStep?
    {
        guard let runner = runners[key.name], let event = await runner(request.request) else { return nil }
        return applyAnswer(event, toRequest: request.id)
    }

    /// Runs every pending request with its feature's own runner (real outside work: the registration's), and
    /// applies the answers in the order the requests were made; answers' own requests run too.
    /// - Returns: What each answer changed.
    @discardableResult
    public mutating func runRequests() async -> [TestStep] {
        var steps: [TestStep] = []
        while let pending = core.pendingRequests.first(where: { runners[$0.feature] != nil }) {
            guard let event = await runners[pending.feature]?(pending.request),
                let step = applyAnswer(event, toRequest: pending.id)
            else { break }
            steps.append(step)
        }
        return steps
    }

    /// Applies `event` as the answer to pending request `id` now, recording the snapshots it changed.
    /// - Returns: What the answer changed, or nil when no such request is pending.
    private mutating func applyAnswer(_ event: any Sendable, toRequest id: Int) -> TestStep? {
        var observed: [(String, Int, any ViewModel)] = []
        guard let step = core.applyAnswer(event, toRequest: id, at: now, observe: { observed.append(($0, $1, $2())) })
        else { return nil }
        return record(step, observed)
    }

    // MARK: - Reading

    /// `key`'s feature's state.
    public func state<F: Feature>(of key: FeatureKey<F>) -> F.State {
        guard let state = core.state(of: key) else { preconditionFailure("the session has no feature \(key.name)") }
        return state
    }

    /// `key`'s feature's current snapshot, as the server would serve it (without `feature`, `version`, `href`s).
    public func snapshot<F: Feature>(of key: FeatureKey<F>) -> F.Snapshot {
        F.snapshot(of: state(of: key), settings: core.settings)
    }

    /// `key`'s feature's current version.
    public func version<F: Feature>(of key: FeatureKey<F>) -> Int {
        core.version(of: key.name) ?? 0
    }

    /// Every snapshot `key`'s feature showed since the host started, with its version, oldest first (the first
    /// version is not among them: it was never a change; a host read from a journal has every version it holds).
    public func snapshots<F: Feature>(of key: FeatureKey<F>) -> [(version: Int, snapshot: F.Snapshot)] {
        (recorded[key.name] ?? []).compactMap { entry in (entry.snapshot as? F.Snapshot).map { (entry.version, $0) } }
    }

    /// The timers `key`'s feature scheduled that have not fired, earliest first.
    public func timers<F: Feature>(of key: FeatureKey<F>) -> [FeatureTimer<F.Event>] {
        core.timers(of: key)
    }

    /// The requests `key`'s feature made that are not answered, oldest first.
    public func requests<F: Feature>(of key: FeatureKey<F>) -> [FeatureRequest<F.Request>] {
        core.requests(of: key)
    }

    /// The data-flow log (why each version came to be), oldest entry first.
    public var log: [LogEntry] { core.log.entries(after: 0) }

    // MARK: - Shared with TestNetwork

    mutating func record(_ step: SessionStep, _ observed: [(String, Int, any ViewModel)]) -> TestStep {
        for (feature, version, snapshot) in observed { recorded[feature, default: []].append((version, snapshot)) }
        return TestStep(step)
    }

    private mutating func startFeature<H: AnyFeatureHosting>(_ hosting: H) throws {
        let events = hosting.hosting.startEvents
        guard !events.isEmpty else { return }
        try send(events, to: H.Hosted.key, source: .view)
    }

    static func name<H: AnyFeatureHosting>(of hosting: H) -> String {
        H.Hosted.key.name
    }

    private static func initial<H: AnyFeatureHosting>(of hosting: H, settings: SessionSettings) -> InitialFeature {
        InitialFeature(H.Hosted.key, state: hosting.hosting.initialState(settings))
    }

    static func runner<H: AnyFeatureHosting>(of hosting: H) -> (@Sendable (any Sendable) async -> (any Sendable)?)? {
        hosting.hosting.requests.map(erased)
    }

    private static func erased<Request: Sendable, Event: Sendable>(
        _ perform: @escaping @Sendable (Request) async -> Event
    )
        -> @Sendable (any Sendable) async -> (any Sendable)?
    {
        { request in
            guard let request = request as? Request else { return nil }
            return await perform(request)
        }
    }
}
