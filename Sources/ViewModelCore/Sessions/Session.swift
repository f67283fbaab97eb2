import Foundation
import Synchronization
import ViewHostAPI

/// The thin shell around one session's value (``SessionCore``): it feeds the core events one at a time under a
/// mutex, starts and cancels the timers the core asks for, runs the features' requests, and hands every change to
/// the session's ``SnapshotStream``. All logic lives in the core and the features; this type only carries effects
/// out.
///
/// Events are applied synchronously under the lock, in arrival order, so the HTTP layer answers a POST on its
/// event-loop thread without a task hop, and tests drive timers deterministically with a manual scheduler.
public final class Session: Sendable {
    struct Shell {
        var core: SessionCore
        var timers: [Int: ScheduledTimer] = [:]
        var caches = SnapshotCaches()
        var recorders: [String: [@Sendable (Int, any ViewModel) -> Void]] = [:]
        var closed = false

        /// Tells the recorders of each new version, building its snapshot only when a recorder listens.
        var observer: ((String, Int, () -> any ViewModel) -> Void)? {
            guard !recorders.isEmpty else { return nil }
            let recorders = recorders
            return { feature, version, snapshot in
                guard let listening = recorders[feature] else { return }
                let viewModel = snapshot()
                for recorder in listening { recorder(version, viewModel) }
            }
        }
    }

    /// The session's public id.
    public let id: SessionID
    /// Its secret.
    public let token: SessionToken
    /// When it was made.
    public let createdAt: Date
    /// The feature names, in registration order.
    public let featureNames: [String]
    /// Time zone, locale, simulation speed, log size.
    public let settings: SessionSettings
    /// Wakes long polls and event streams on every change.
    public let stream = SnapshotStream()
    let environment: SessionEnvironment
    let shell: Mutex<Shell>
    let lastAccessMilliseconds: Atomic<Int64>
    /// Open event streams and waiting long polls: while any is held, the session does not expire.
    let holds = Atomic<Int>(0)
    /// `shell.closed`, readable without the lock (streams ask on every write).
    let closedFlag = Atomic<Bool>(false)

    /// Wraps `core` in a shell and starts the timers it holds (a restored session's timers that fell due while the
    /// server was down fire at once, in order).
    /// - Parameters:
    ///   - id: Its id.
    ///   - token: Its secret.
    ///   - createdAt: When it was made (default: now).
    ///   - core: Its value.
    ///   - environment: Scheduler and request runner.
    public init(id: SessionID, token: SessionToken, createdAt: Date? = nil, core: SessionCore, environment: SessionEnvironment) {
        self.id = id
        self.token = token
        let createdAt = createdAt ?? environment.scheduler.now
        self.createdAt = createdAt
        self.featureNames = core.featureNames
        self.settings = core.settings
        self.environment = environment
        self.shell = Mutex(Shell(core: core))
        self.lastAccessMilliseconds = Atomic(Int64(environment.scheduler.now.timeIntervalSince1970 * 1000))
        let pending = core.pendingTimers
        if !pending.isEmpty {
            shell.withLock { shell in
                for timer in pending.sorted(by: { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }) {
                    start(timer, in: &shell)
                }
            }
        }
    }

    /// A new session with `features` in their initial states.
    public convenience init(
        id: SessionID, token: SessionToken, environment: SessionEnvironment, settings: SessionSettings = SessionSettings(),
        random: RandomSource = .system(), features: [InitialFeature]
    ) {
        self.init(
            id: id, token: token, core: SessionCore(settings: settings, random: random, features: features),
            environment: environment)
    }

    // MARK: - Events

    /// Applies `events` to `key`'s feature, in order, each as one step; all or nothing.
    /// - Returns: The feature's version and the last sequence number.
    /// - Throws: ``SessionError`` when the session is closed, has no such feature, or refuses an event.
    @discardableResult
    public func send<F: Feature>(
        _ events: [F.Event], to key: FeatureKey<F>, source: EventSource = .client
    ) throws(SessionError) -> SendReceipt {
        let now = environment.scheduler.now
        let (step, effects) = try shell.withLock { shell throws(SessionError) -> (SessionStep, Effects) in
            guard !shell.closed else { throw .closed }
            let step = try Self.apply(events, to: key, source: source, now: now, shell: &shell)
            return (step, carryOut(step, in: &shell))
        }
        deliver(effects)
        return SendReceipt(version: step.version, sequence: step.sequence)
    }

    /// Applies a client request's events to `key`'s feature, honouring its idempotency key (the first answer is
    /// replayed for the same request; a different request with the key is refused) and skipping events whose own
    /// id was applied before, all under the session's lock, so two retries cannot both apply.
    public func submit<F: Feature>(
        _ submission: Submission<F.Event>, to key: FeatureKey<F>
    ) throws(SessionError) -> SubmitOutcome {
        let now = environment.scheduler.now
        let (outcome, effects) = try shell.withLock { shell throws(SessionError) -> (SubmitOutcome, Effects) in
            guard !shell.closed else { throw .closed }
            if let claim = submission.idempotency {
                switch shell.core.idempotency.lookup(key: claim.key, fingerprint: claim.fingerprint, now: now) {
                case .new: break
                case .replay(let answer): return (.replayed(answer), Effects())
                case .mismatch: throw .keyReused
                }
            }
            var seen = Set<String>()
            let fresh = submission.events.indices.filter { index in
                guard let id = submission.eventIDs[index] else { return true }
                return !shell.core.idempotency.hasApplied(eventID: id) && seen.insert(id).inserted
            }
            var effects = Effects()
            let version: Int
            if fresh.isEmpty {
                guard let current = shell.core.version(of: key.name) else { throw .noSuchFeature(key.name) }
                version = current
            } else {
                let step = try Self.apply(
                    fresh.map { submission.events[$0] }, to: key, source: .client, now: now, shell: &shell)
                version = step.version
                effects = carryOut(step, in: &shell)
            }
            for index in fresh {
                if let id = submission.eventIDs[index] { shell.core.idempotency.markApplied(eventID: id) }
            }
            let answer = IdempotencyLedger.Answer(accepted: submission.events.count, version: version)
            if let claim = submission.idempotency {
                shell.core.idempotency.record(key: claim.key, fingerprint: claim.fingerprint, answer: answer, at: now)
            }
            return (.applied(answer), effects)
        }
        deliver(effects)
        return outcome
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
            }
        }
    }

    /// Fires timer `id` (called by the scheduler).
    private func fire(timer id: Int) {
        let now = environment.scheduler.now
        let effects = shell.withLock { shell -> Effects in
            guard !shell.closed, shell.timers.removeValue(forKey: id) != nil,
                let step = shell.core.fireTimer(id, at: now, observe: shell.observer)
            else { return Effects() }
            return carryOut(step, in: &shell)
        }
        deliver(effects)
    }

    /// Applies the event a request answered with (called by the request runner).
    private func answer(_ event: any Sendable, feature: String, causedBy: Int) {
        let now = environment.scheduler.now
        let effects = shell.withLock { shell -> Effects in
            guard !shell.closed,
                let step = shell.core.applyAnswer(
                    event, feature: feature, causedBy: causedBy, at: now, observe: shell.observer)
            else { return Effects() }
            return carryOut(step, in: &shell)
        }
        deliver(effects)
    }

    // MARK: - Effects

    /// What to do once the lock is released.
    struct Effects {
        var changes: [SessionChange] = []
        var requests: [PendingRequest] = []
    }

    /// Starts and cancels the step's timers (under the lock, so a timer never fires before its handle is kept),
    /// and returns what must happen outside the lock.
    private func carryOut(_ step: SessionStep, in shell: inout Shell) -> Effects {
        for timer in step.timersStarted { start(timer, in: &shell) }
        for id in step.timersCancelled { shell.timers.removeValue(forKey: id)?.cancel() }
        return Effects(changes: step.changes, requests: step.requests)
    }

    private func start(_ timer: TimerStart, in shell: inout Shell) {
        let delay = timer.delay ?? .milliseconds(max(0, Int64(timer.dueAt.timeIntervalSince(environment.scheduler.now) * 1000)))
        let id = timer.id
        shell.timers[id] = environment.scheduler.schedule(after: delay) { [weak self] in self?.fire(timer: id) }
    }

    private func deliver(_ effects: Effects) {
        for pending in effects.requests {
            let feature = pending.feature
            let causedBy = pending.causedBy
            environment.requests.start(pending.request, feature: feature) { [weak self] event in
                guard let event else { return }
                self?.answer(event, feature: feature, causedBy: causedBy)
            }
        }
        for change in effects.changes { stream.publish(change) }
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

    /// Creates a submission.
    public init(events: [Event], eventIDs: [String?]? = nil, idempotency: (key: String, fingerprint: String)? = nil) {
        self.events = events
        self.eventIDs = eventIDs ?? Array(repeating: nil, count: events.count)
        self.idempotency = idempotency
    }
}

/// What became of a submission.
public enum SubmitOutcome: Sendable, Equatable {
    /// Applied now (or, for events whose ids were seen, found applied already).
    case applied(IdempotencyLedger.Answer)
    /// The same request came with this key before: its first answer.
    case replayed(IdempotencyLedger.Answer)
}

/// Why a session did not apply events.
public enum SessionError: Error, Equatable, Sendable {
    /// The session has ended.
    case closed
    /// The session has no such feature.
    case noSuchFeature(String)
    /// The state cannot apply the event at `index`; nothing was applied.
    case refused(EventRefusal, index: Int)
    /// The idempotency key came before with a different request.
    case keyReused
}
