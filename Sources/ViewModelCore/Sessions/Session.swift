import Foundation
import Synchronization

/// One user's session: its feature models, their versions, timers and data-flow log.
///
/// Sessions are mutex-guarded, not actors: every event (client, timer, simulator or provider) is applied
/// synchronously under the session's lock, one at a time, in arrival order. That serialises a session as an
/// actor would, but lets the HTTP layer answer a POST on its event-loop thread without a task hop, and lets
/// tests drive timers deterministically. Reads take the lock only to pick up the newest cached representation;
/// they never wait behind queued events, because there is no queue.
public final class Session: Sendable {
    private struct Waiter {
        let id: Int
        let feature: String
        let afterVersion: Int
        let continuation: CheckedContinuation<Int?, Never>
    }

    private struct Core {
        var hosts: [any AnyFeatureHost]
        var sequence = 0
        var random: RandomSource
        var nextTimerValue = 1
        var timers: [Int: ScheduledTimer] = [:]
        var log: EventLog
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var observers: [Int: @Sendable (SessionChange) -> Void] = [:]
        var nextObserverID = 0
        var closed = false

        func host(named name: String) -> (any AnyFeatureHost)? {
            hosts.first { $0.name == name }
        }
    }

    /// Side effects to carry out after the lock is released.
    private struct Notifications {
        var effects: [@Sendable () async -> Void] = []
        var changes: [SessionChange] = []
        var waiters: [(CheckedContinuation<Int?, Never>, Int?)] = []
        var observers: [@Sendable (SessionChange) -> Void] = []
    }

    public let id: SessionID
    public let token: SessionToken
    public let createdAt: Date
    public let timeZone: TimeZone
    public let locale: String
    /// The feature names, in registration order.
    public let featureNames: [String]
    private let scheduler: any TimerScheduling
    private let effects: any EffectRunning
    private let core: Mutex<Core>
    private let ledger = Mutex(IdempotencyLedger())
    private let lastAccessMilliseconds: Atomic<Int64>
    /// `core.closed`, readable without the lock (streams ask on every write).
    private let closedFlag = Atomic<Bool>(false)

    /// Creates a session.
    /// - Parameters:
    ///   - id: Its id.
    ///   - token: Its secret.
    ///   - environment: Scheduler, random source, time zone, locale.
    ///   - features: Its feature models.
    public init(
        id: SessionID, token: SessionToken, environment: SessionEnvironment, features: sending [SessionFeature]
    ) {
        self.id = id
        self.token = token
        self.scheduler = environment.scheduler
        self.effects = environment.effects
        self.createdAt = environment.scheduler.now
        self.timeZone = environment.timeZone
        self.locale = environment.locale
        self.featureNames = features.map(\.name)
        self.core = Mutex(
            Core(hosts: features.map(\.host), random: environment.random, log: EventLog(capacity: environment.logCapacity)))
        self.lastAccessMilliseconds = Atomic(Int64(createdAt.timeIntervalSince1970 * 1000))
    }

    // MARK: - Events

    /// Applies `events` to the feature `key`, in order, each as one step.
    /// - Returns: The feature's version and the last sequence number, or nil when the session is closed or has
    ///   no such feature.
    @discardableResult
    public func send<Model: FeatureModel>(
        _ events: [Model.Event], to key: FeatureKey<Model>, source: EventSource = .client
    ) -> SendReceipt? {
        var notifications = Notifications()
        let receipt = core.withLock { core -> SendReceipt? in
            guard !core.closed, let host = core.host(named: key.name) else { return nil }
            for event in events {
                applyStep(host: host, event: event, source: source, causedBy: nil, core: &core, into: &notifications)
            }
            return SendReceipt(version: host.version, sequence: core.sequence)
        }
        deliver(notifications)
        return receipt
    }

    /// Applies one event that a timer delivers.
    private func deliverTimer(id: Int, feature: String, event: any Sendable, source: EventSource, causedBy: Int) {
        var notifications = Notifications()
        core.withLock { core in
            guard !core.closed, core.timers.removeValue(forKey: id) != nil, let host = core.host(named: feature) else {
                return
            }
            applyStep(host: host, event: event, source: source, causedBy: causedBy, core: &core, into: &notifications)
        }
        deliver(notifications)
    }

    /// Applies one event and the follow-ups it routes, then bumps the versions of the features that changed.
    private func applyStep(
        host: any AnyFeatureHost, event: any Sendable, source: EventSource, causedBy: Int?, core: inout Core,
        into notifications: inout Notifications
    ) {
        let now = scheduler.now
        var queue: [(event: any Sendable, source: EventSource, causedBy: Int?)] = [(event, source, causedBy)]
        var entries: [LogEntry] = []
        var changed = false
        var processed = 0
        while !queue.isEmpty, processed < 256 {  // a runaway loop of follow-ups is cut, not spun forever
            let item = queue.removeFirst()
            processed += 1
            core.sequence += 1
            let sequence = core.sequence
            let step = host.apply(
                erased: item.event, now: now, source: item.source, sequence: sequence, timeZone: timeZone,
                locale: locale, random: core.random, nextTimerValue: core.nextTimerValue)
            core.random = step.random
            core.nextTimerValue = step.nextTimerValue
            changed = changed || step.changed
            entries.append(
                LogEntry(
                    seq: sequence, at: now, feature: host.name, event: step.description.name,
                    summary: step.description.summary, source: item.source, causedBy: item.causedBy,
                    versionAfter: host.version))
            for scheduled in step.scheduled {
                let feature = host.name
                let timerID = scheduled.id.value
                let event = scheduled.event
                let timerSource = scheduled.source
                core.timers[timerID] = scheduler.schedule(after: scheduled.delay) { [weak self] in
                    self?.deliverTimer(id: timerID, feature: feature, event: event, source: timerSource, causedBy: sequence)
                }
            }
            // After scheduling: a model may cancel, in the same step, a timer it has just scheduled.
            for timer in step.cancelled {
                core.timers.removeValue(forKey: timer.value)?.cancel()
            }
            for followUp in step.followUps {
                queue.append((followUp.event, followUp.source, sequence))
            }
            for effect in step.effects {
                let feature = host.name
                let work = effect.work
                let effectSource = effect.source
                notifications.effects.append { [weak self] in
                    let event = await work()
                    self?.deliverEffect(feature: feature, event: event, source: effectSource, causedBy: sequence)
                }
            }
        }
        if changed {
            host.version += 1
            host.lastChangeSequence = core.sequence
            host.versionBumped()
            for index in entries.indices { entries[index].versionAfter = host.version }
        }
        for entry in entries { core.log.append(entry) }
        guard changed else { return }
        notifications.changes.append(SessionChange(sequence: core.sequence, versions: [host.name: host.version]))
        notifications.observers = Array(core.observers.values)
        var remaining: [Waiter] = []
        for waiter in core.waiters {
            if waiter.feature == host.name, host.version > waiter.afterVersion {
                notifications.waiters.append((waiter.continuation, host.version))
            } else {
                remaining.append(waiter)
            }
        }
        core.waiters = remaining
    }

    /// Applies the event an effect returned.
    private func deliverEffect(feature: String, event: any Sendable, source: EventSource, causedBy: Int) {
        var notifications = Notifications()
        core.withLock { core in
            guard !core.closed, let host = core.host(named: feature) else { return }
            applyStep(host: host, event: event, source: source, causedBy: causedBy, core: &core, into: &notifications)
        }
        deliver(notifications)
    }

    private func deliver(_ notifications: Notifications) {
        for effect in notifications.effects { effects.run(effect) }
        for (continuation, version) in notifications.waiters { continuation.resume(returning: version) }
        for change in notifications.changes {
            for observer in notifications.observers { observer(change) }
        }
    }

    // MARK: - Reads

    /// The current version of each feature.
    public var versions: [String: Int] {
        core.withLock { core in Dictionary(uniqueKeysWithValues: core.hosts.map { ($0.name, $0.version) }) }
    }

    /// The current version of `feature`, or nil when there is no such feature.
    public func version(of feature: String) -> Int? {
        core.withLock { $0.host(named: feature)?.version }
    }

    /// The newest view model of `key` with its version.
    public func viewModel<Model: FeatureModel>(of key: FeatureKey<Model>) -> (version: Int, value: Model.Snapshot)? {
        core.withLock { core in
            guard let host = core.host(named: key.name) as? FeatureHost<Model> else { return nil }
            return (host.version, host.viewModel())
        }
    }

    /// The newest app-level representation of `feature` (such as its encoded JSON), made by `make` at most
    /// once per version; `make` runs outside the lock, so readers never hold up events.
    /// - Parameters:
    ///   - feature: The feature name.
    ///   - make: Turns a version and its view model into the representation.
    /// - Returns: The version, the sequence number of the step that produced it, and its representation; nil when
    ///   there is no such feature.
    public func representation<Value: Sendable>(
        of feature: String, make: (Int, any ViewModel) -> Value
    ) -> (version: Int, sequence: Int, value: Value)? {
        let current = core.withLock { core -> (Int, Int, Value?, (any ViewModel)?)? in
            guard let host = core.host(named: feature) else { return nil }
            if let cached = host.representation, cached.version == host.version, let value = cached.value as? Value {
                return (host.version, host.lastChangeSequence, value, nil)
            }
            return (host.version, host.lastChangeSequence, nil, host.erasedViewModel())
        }
        guard let (version, sequence, cached, viewModel) = current else { return nil }
        if let cached { return (version, sequence, cached) }
        let value = make(version, viewModel!)
        core.withLock { core in
            guard let host = core.host(named: feature), host.version == version else { return }
            host.representation = (version, value)
        }
        return (version, sequence, value)
    }

    /// The features changed after session sequence `sequence`, oldest change first, with the sequence of their
    /// latest change. A `sequence` this session never reached (a client from before a restart) counts as 0.
    public func features(changedAfter sequence: Int) -> [(feature: String, sequence: Int)] {
        core.withLock { core in
            let since = sequence > core.sequence ? 0 : sequence
            return core.hosts.filter { $0.lastChangeSequence > since || (since == 0 && $0.lastChangeSequence == 0) }
                .map { ($0.name, $0.lastChangeSequence) }
                .sorted { $0.1 < $1.1 }
        }
    }

    /// Waits until `feature` has a version newer than `version`, or `timeout` passes.
    /// - Returns: The newer version, or nil on timeout, cancellation or close.
    public func waitForVersion(of feature: String, after version: Int, timeout: Duration) async -> Int? {
        let waiterID = core.withLock { core -> Int in
            core.nextWaiterID += 1
            return core.nextWaiterID
        }
        return await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                        let immediate = self.core.withLock { core -> Int?? in
                            guard !core.closed, let host = core.host(named: feature) else { return .some(nil) }
                            if host.version > version { return .some(host.version) }
                            core.waiters.append(
                                Waiter(id: waiterID, feature: feature, afterVersion: version, continuation: continuation))
                            return .none
                        }
                        if let immediate { continuation.resume(returning: immediate) }
                    }
                } onCancel: {
                    self.removeWaiter(waiterID)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private func removeWaiter(_ id: Int) {
        let continuation = core.withLock { core -> CheckedContinuation<Int?, Never>? in
            guard let index = core.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return core.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }

    /// The log entries after `sequence`, oldest first, and the oldest sequence still held.
    public func log(after sequence: Int) -> (entries: [LogEntry], oldest: Int?) {
        core.withLock { core in (core.log.entries(after: sequence), core.log.oldestSequence) }
    }

    /// The newest session-wide sequence number.
    public var sequence: Int { core.withLock { $0.sequence } }

    // MARK: - Observation

    /// Calls `observer` after every step that changed a feature, outside the lock, on the thread that applied it.
    /// - Returns: A token for ``removeObserver(_:)``.
    public func addObserver(_ observer: @escaping @Sendable (SessionChange) -> Void) -> Int {
        core.withLock { core in
            core.nextObserverID += 1
            core.observers[core.nextObserverID] = observer
            return core.nextObserverID
        }
    }

    /// Stops calling an observer.
    public func removeObserver(_ token: Int) {
        core.withLock { core in _ = core.observers.removeValue(forKey: token) }
    }

    /// Calls `recorder` with every new version of `key`'s view model, in order, synchronously (presentation tests).
    public func record<Model: FeatureModel>(
        _ key: FeatureKey<Model>, _ recorder: @escaping @Sendable (Int, Model.Snapshot) -> Void
    ) {
        core.withLock { core in
            (core.host(named: key.name) as? FeatureHost<Model>)?.addRecorder(recorder)
        }
    }

    /// Runs `body` with the session's idempotency ledger locked, so two retries with one key cannot both apply.
    /// `body` may send events; nothing that holds the session's event lock ever takes the ledger's.
    public func withIdempotencyLedger<Result, Failure: Error>(
        _ body: (inout IdempotencyLedger) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try ledger.withLock { ledger throws(Failure) in try body(&ledger) }
    }

    // MARK: - Lifetime

    /// Marks the session as used now (for the idle TTL).
    public func touch(at date: Date) {
        lastAccessMilliseconds.store(Int64(date.timeIntervalSince1970 * 1000), ordering: .relaxed)
    }

    /// When the session was last used.
    public var lastAccess: Date {
        Date(timeIntervalSince1970: Double(lastAccessMilliseconds.load(ordering: .relaxed)) / 1000)
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// Ends the session: cancels its timers, wakes its waiters, drops its observers.
    /// Observers hear it once more, with a change whose `isClose` is set (so open streams end now, not at their
    /// next heartbeat); closing twice does nothing the second time.
    public func close() {
        let closing = core.withLock { core -> (timers: [ScheduledTimer], waiters: [Waiter], observers: [@Sendable (SessionChange) -> Void], sequence: Int)? in
            guard !core.closed else { return nil }
            core.closed = true
            closedFlag.store(true, ordering: .releasing)
            defer {
                core.timers.removeAll()
                core.waiters.removeAll()
                core.observers.removeAll()
            }
            return (Array(core.timers.values), core.waiters, Array(core.observers.values), core.sequence)
        }
        guard let closing else { return }
        for timer in closing.timers { timer.cancel() }
        for waiter in closing.waiters { waiter.continuation.resume(returning: nil) }
        let change = SessionChange(sequence: closing.sequence, versions: [:], isClose: true)
        for observer in closing.observers { observer(change) }
    }
}
