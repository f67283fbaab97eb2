import Foundation
import Synchronization
import ViewHostAPI
import ViewHostLocking

/// The thin shell around one session's value (``SessionCore``): it feeds the core inputs one at a time under a
/// mutex, hands each applied input to the journal (when the store keeps one), and once the input is durable
/// carries out its effects: the requests the features asked for, and the change for the session's
/// ``SnapshotStream``, and the deliveries for the courier to take to other sessions. Timers start at once (a timer
/// that fires is an input of its own, journaled after the one that scheduled it). All logic lives in the core and
/// the features; this type only carries effects out.
///
/// Readers see committed versions only: a version whose input is not durable yet is not served, so no client is
/// ever given a version that a crash could take back.
public final class Session: Sendable {
    struct Shell {
        var core: SessionCore
        var timers: [Int: ScheduledTimer] = [:]
        var caches = SnapshotCaches()
        var recorders: [String: [@Sendable (Int, any ViewModel) -> Void]] = [:]
        var closed: Bool { end != nil }
        /// The inputs on their way to the journal, their order and what waits for their commits.
        var pipeline: CommitPipeline
        /// The newest durable version of `feature`.
        func committedVersion(of feature: String) -> Int? {
            pipeline.readableVersion(of: feature, current: core.version(of: feature))
        }
        /// When the next snapshot (with a journal) or history checkpoint (without) is due.
        var snapshots = SnapshotSpacing()
        /// Why the session ended, once it has (deleted, expired, shutdown, or `unavailable`: this copy was
        /// dropped after a storage failure or for another node, and the store holds the session).
        var end: SessionEnd?
        /// What could not be stored, once the session stopped for it (``SessionEnd/unstorable``).
        var unstorable: Unstorable?

        /// The error a request to the ended session gets.
        func ended(_ end: SessionEnd) -> SessionError {
            if end == .unstorable, let unstorable { return .unstorable(unstorable.value) }
            return .ended(end)
        }
        /// The inputs and checkpoints kept for past versions when no journal keeps them (the memory store).
        var history: HeldHistory?
        /// Per feature and address, the highest number of a delivery whose input is durable: what the courier may
        /// take to its receiver (a delivery is never sent before the input that made it is kept).
        var dispatchable: [String: [ContactAddress: Int]] = [:]

        /// Tells the recorders of each new version, building its snapshot only when a recorder listens.
        var observer: ((String, Int, SnapshotBuilder) -> Void)? {
            guard !recorders.isEmpty else { return nil }
            let recorders = recorders
            return { feature, version, snapshot in
                guard let listening = recorders[feature] else { return }
                let viewModel = snapshot()
                for recorder in listening { recorder(version, viewModel) }
            }
        }
    }

    /// What to do once the lock is released (and, with a journal, once the input is durable).
    struct Effects {
        var changes: [SessionChange] = []
        var requests: [PendingRequest] = []
        /// Per feature, the highest number of the deliveries made, per address.
        var deliveries: [String: [ContactAddress: Int]] = [:]
    }

    /// A store keeps a snapshot of the whole value at least every this many inputs, so a restore replays few (and
    /// the memory store's history keeps a checkpoint as often).
    public static let snapshotInterval = 64

    /// The most inputs a durable store's session lets pass between two snapshots (those of a large value).
    public static let longestSnapshotInterval = 256

    /// How many inputs a session on a durable store lets pass after a snapshot of `bytes` bytes (its size as the
    /// store keeps it) before the next: one per 32 bytes of it, at least ``snapshotInterval`` and at most
    /// ``longestSnapshotInterval``.
    ///
    /// Encoding the whole value is most of what a durable input costs once the value is large: a chat of a few
    /// hundred messages is 75 KB of JSON (9 KB stored, compressed), and encoding it every 64 inputs took a third of
    /// a SQLite server's CPU under a send load. Spacing the snapshots of large values by their size bounds that
    /// cost per input; the price is replaying up to 255 inputs to load such a session or to rebuild one of its
    /// past versions. A small value (a few KB of JSON: every new session) keeps a snapshot every 64.
    public static func snapshotInterval(afterSnapshotOf bytes: Int) -> Int {
        min(longestSnapshotInterval, max(snapshotInterval, bytes / 32))
    }

    /// The session's public id.
    public let id: SessionID
    /// Its secret (the plain token for a new session; only its digest once restored from a store).
    public let token: SessionToken
    /// When it was made.
    public let createdAt: Date
    /// The feature names, in registration order.
    public let featureNames: [String]
    /// Time zone, locale, simulation speed, log size.
    public var settings: SessionSettings { sharedSettings.value }
    private let sharedSettings: SharedSettings
    /// Which copy of the session this is (``StoredSession/copy``): its journal entries carry it.
    let copy: Int
    /// Wakes long polls and event streams on every durable change.
    public let stream = SnapshotStream()
    let environment: SessionEnvironment
    let shell: Locked<Shell>
    let lastAccessMilliseconds: Atomic<Int64>
    /// The last access time the durable store was told of.
    let persistedAccessMilliseconds: Atomic<Int64>
    /// Open event streams and waiting long polls: while any is held, the session does not expire.
    let holds = Atomic<Int>(0)
    /// `shell.closed`, readable without the lock (streams ask on every write).
    let closedFlag = Atomic<Bool>(false)
    /// Whether the durable store holds the session: its creation is committed, or it was loaded from there (then
    /// this copy may leave memory when idle, see ``closeIfIdle()``).
    let storedFlag: Atomic<Bool>

    /// Wraps `core` in a shell, starts the timers it holds (a restored session's timers that fell due while the
    /// server was down fire at once, in order) and asks again for the requests it was waiting for.
    /// - Parameters:
    ///   - id: Its id.
    ///   - token: Its secret.
    ///   - createdAt: When it was made (default: now).
    ///   - lastAccess: When it was last used (default: now).
    ///   - core: Its value.
    ///   - journalNumber: The number of the last journal record `core` includes (0 for a new session).
    ///   - copy: Which copy it is (``StoredSession/copy``; 0 for a new session).
    ///   - isStored: Whether the durable store holds it (loaded from there); a new session is marked stored by
    ///     ``markStored()`` once its creation is committed.
    ///   - environment: Scheduler, request runner and journal.
    ///   - history: Its past, without a journal (an imported session's); by default it starts with `core`, when
    ///     the environment keeps history in memory.
    ///   - startsNow: Whether its timers start now; else ``start()`` starts them.
    public init(
        id: SessionID, token: SessionToken, createdAt: Date? = nil, lastAccess: Date? = nil, core: SessionCore,
        journalNumber: Int = 0, copy: Int = 0, isStored: Bool = false, environment: SessionEnvironment,
        history: HeldHistory? = nil, startsNow: Bool = true
    ) {
        self.id = id
        self.copy = copy
        self.storedFlag = Atomic(isStored)
        self.token = token
        self.createdAt = createdAt ?? environment.scheduler.now
        self.featureNames = core.featureNames
        self.sharedSettings = core.sharedSettings
        self.environment = environment
        var shell = Shell(core: core, pipeline: CommitPipeline(journalNumber: journalNumber))
        if environment.journal == nil, environment.historyInputs > 0 {
            shell.history = history ?? HeldHistory(limit: environment.historyInputs, base: core, number: journalNumber)
        }
        self.shell = Locked(shell)
        let access = Int64((lastAccess ?? environment.scheduler.now).timeIntervalSince1970 * 1000)
        self.lastAccessMilliseconds = Atomic(access)
        self.persistedAccessMilliseconds = Atomic(access)
        if startsNow { start() }
    }

    /// Starts the timers of the core the session was made with (those already due fire at once, in order) and
    /// asks again for what it was waiting for. A restored session starts once it is the one kept in memory, so a
    /// copy loaded at the same time never fires them too.
    public func start() {
        let (requests, deliveries) = shell.withLock { shell -> ([PendingRequest], [String: [ContactAddress: Int]]) in
            for timer in shell.core.pendingTimers.sorted(by: { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }) {
                startTimer(timer, in: &shell)
            }
            return (shell.core.pendingRequests, shell.core.deliveryMarks)
        }
        deliver(Effects(requests: requests, deliveries: deliveries))
    }

    /// A new session with `features` in their initial states.
    public convenience init(
        id: SessionID, token: SessionToken, environment: SessionEnvironment,
        settings: SessionSettings = SessionSettings(),
        random: RandomSource = .system(), features: [InitialFeature]
    ) {
        self.init(
            id: id, token: token, environment: environment, settings: settings, random: random,
            features: InitialFeatures(features))
    }

    /// A new session with `features` in their initial states, shared with every session made from them until it
    /// changes them.
    public convenience init(
        id: SessionID, token: SessionToken, environment: SessionEnvironment,
        settings: SessionSettings = SessionSettings(),
        random: RandomSource = .system(), features: InitialFeatures
    ) {
        self.init(
            id: id, token: token, core: SessionCore(settings: settings, random: random, features: features),
            environment: environment)
    }

    // MARK: - Events

    /// Applies `events` to `key`'s feature, in order, each as one step; all or nothing. With a journal the change
    /// is published once durable; ``committed()`` waits for that.
    /// - Returns: The feature's version and the last sequence number.
    /// - Throws: ``SessionError`` when the session is closed, has no such feature, or refuses an event.
    @discardableResult
    public func send<F: Feature>(
        _ events: [F.Event], to key: FeatureKey<F>, source: EventSource = .client
    ) throws(SessionError) -> SendReceipt {
        let now = environment.scheduler.now
        // Encoded before anything is applied: events that cannot be stored are refused, never kept as nothing.
        let data = try storedForm(of: events, of: F.self)
        let (step, commit) = try shell.withLock { shell throws(SessionError) -> (SessionStep, Commit) in
            if let end = shell.end { throw shell.ended(end) }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            let step = try Self.apply(events, to: key, source: source, now: now, shell: &shell)
            let input: @Sendable () -> SessionInput = {
                .events(feature: key.name, at: now, source: source, events: data)
            }
            return (step, record(.maker(input), step: step, key: nil, waited: false, in: &shell))
        }
        complete(commit)
        return SendReceipt(version: step.version, sequence: step.sequence)
    }

    /// Applies a client request's events to `key`'s feature, honouring its idempotency key (the first answer is
    /// replayed for the same request; a different request with the key is refused, and so is a retry while the
    /// first is not durable yet) and skipping events whose own id was applied before, all under the session's
    /// lock, so two retries cannot both apply.
    /// - Returns: What became of it, and with a journal the ticket to wait on before answering (nil when there is
    ///   nothing to wait for).
    public func submit<F: Feature>(
        _ submission: Submission<F.Event>, to key: FeatureKey<F>
    ) throws(SessionError) -> (outcome: SubmitOutcome, durable: CommitTicket?) {
        let now = environment.scheduler.now
        // Encoded before anything is applied (they are known before the lock): a client's events that cannot be
        // stored are refused, and nothing is applied or journaled.
        let data = try storedForm(of: submission.events, of: F.self)
        let (outcome, commit) = try shell.withLock { shell throws(SessionError) -> (SubmitOutcome, Commit?) in
            if let end = shell.end { throw shell.ended(end) }
            if let key = submission.idempotency?.key, shell.pipeline.isInFlight(key: key) { throw .keyInFlight }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            let (outcome, step, changed) = try shell.core.submit(
                submission, to: key, at: now, observe: shell.observer,
                maxPendingDeliveries: environment.maxPendingDeliveries)
            guard changed else { return (outcome, nil) }
            let input: @Sendable () -> SessionInput = {
                .submission(
                    feature: key.name, at: now, events: data,
                    eventIDs: submission.eventIDs,
                    key: submission.idempotency?.key, fingerprint: submission.idempotency?.fingerprint,
                    participant: submission.participant)
            }
            return (
                outcome, record(.maker(input), step: step, key: submission.idempotency?.key, waited: true, in: &shell)
            )
        }
        guard let commit else { return (outcome, nil) }
        complete(commit)
        return (outcome, commit.ticket)
    }

    private static func apply<F: Feature>(
        _ events: [F.Event], to key: FeatureKey<F>, source: EventSource, now: Date, shell: inout Shell
    ) throws(SessionError) -> SessionStep {
        do {
            return try shell.core.apply(events, to: key, source: source, at: now, observe: shell.observer)
        } catch {
            switch error {
            case .noSuchFeature(let name): throw .noSuchFeature(name)
            case .refused(let refusal, let index): throw .refused(refusal, index: index)
            case .tooManyDeliveries(let limit): throw .deliveriesWaiting(limit: limit)
            }
        }
    }

    /// Fires timer `id` (called by the scheduler).
    func fireTimer(_ id: Int) {
        let now = environment.scheduler.now
        let commit = shell.withLock { shell -> Commit? in
            guard !shell.closed, shell.timers.removeValue(forKey: id) != nil else { return nil }
            if shell.timers.isEmpty { shell.timers = [:] }  // idle sessions keep no table
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            guard let step = shell.core.fireTimer(id, at: now, observe: shell.observer) else { return nil }
            return record(.timer(id: id, at: now), step: step, key: nil, waited: false, firedTimer: true, in: &shell)
        }
        if let commit { complete(commit) }
    }

    /// Applies the event request `request` answered with (called by the request runner). An answer that cannot be
    /// stored stops the session (its value could not be kept as it goes on), and is not applied.
    private func answer(_ event: any Sendable, feature: String, request: Int) {
        let now = environment.scheduler.now
        var data = Data()
        if keepsInputs, let slotType = shell.withLock({ $0.core.slotType(of: feature) }) {
            do throws(UnstorableValue) {
                data = try slotType.encodedEvents([event])
            } catch {
                stop(because: error)
                return
            }
        }
        let encoded = data
        let commit = shell.withLock { shell -> Commit? in
            guard !shell.closed else { return nil }
            shell.pipeline.keepVersionsReadersWaitFor(in: shell.core)
            guard let step = shell.core.applyAnswer(event, toRequest: request, at: now, observe: shell.observer)
            else { return nil }
            let input: @Sendable () -> SessionInput = {
                // Encoded above whenever anything keeps the input (made only then).
                .answer(feature: feature, at: now, request: request, events: encoded)
            }
            return record(.maker(input), step: step, key: nil, waited: false, in: &shell)
        }
        if let commit { complete(commit) }
    }

    /// Whether anything keeps the session's inputs (a journal, or a history in memory), so they must be encoded.
    var keepsInputs: Bool { environment.journal != nil || environment.historyInputs > 0 }

    /// `events` as a journal records them: the feature's events as JSON, with its schema version when it is not 1
    /// (``StoredEvents``), so a later build migrates them from the version they were written in; nothing when
    /// nothing keeps the session's inputs (then no input is made, and nothing reads it).
    /// - Throws: ``SessionError/unstorable(_:)`` naming the event and field that cannot be encoded.
    private func storedForm<F: Feature>(of events: [F.Event], of feature: F.Type) throws(SessionError) -> Data {
        guard keepsInputs else { return Data() }
        do {
            return try StoredEvents<F>.encoded(events)
        } catch {
            throw .unstorable(UnstorableValue(error, feature: F.key.name, in: "events"))
        }
    }

    // MARK: - Requests and changes

    func deliver(_ effects: Effects) {
        for pending in effects.requests {
            let feature = pending.feature
            let request = pending.id
            environment.requests.start(pending.request, feature: feature) { [weak self] event in
                guard let event else { return }
                self?.answer(event, feature: feature, request: request)
            }
        }
        for change in effects.changes { stream.publish(change) }
        if !effects.deliveries.isEmpty { dispatch(effects.deliveries) }
    }
}

/// A client request's events with what makes retries safe.
public struct Submission<Event: Sendable>: Sendable {
    /// The events, in order.
    public var events: [Event]
    /// Each event's own `"id"`, if it has one (an event whose id was applied before is skipped).
    public var eventIDs: [String?]
    /// The request's `Idempotency-Key` and the fingerprint of the request it came with.
    public var idempotency: (key: String, fingerprint: String)?
    /// Who sent it, as its credential says (never its body): a shared session's participant's id, or nil for the
    /// session's owner. The feature reads it as ``FeatureContext/participant``, and the journal records it.
    public var participant: String?

    /// Creates a submission.
    public init(
        events: [Event], eventIDs: [String?]? = nil, idempotency: (key: String, fingerprint: String)? = nil,
        participant: String? = nil
    ) {
        self.events = events
        self.eventIDs = eventIDs ?? Array(repeating: nil, count: events.count)
        self.idempotency = idempotency
        self.participant = participant
    }
}

/// What became of a submission.
public enum SubmitOutcome: Sendable, Equatable {
    /// Applied now (or, for events whose ids were seen, found applied already).
    case applied(IdempotencyLedger.Answer)
    /// The same request came with this key before: its first answer.
    case replayed(IdempotencyLedger.Answer)
}
