import Foundation
import ViewHostAPI

/// One session as a value: every feature's state and version, the session-wide sequence, the data-flow log ring,
/// the pending timers, the deliveries to contacts not yet acknowledged, and the idempotency keys. Pure: ``apply(_:to:source:at:observe:)``, ``fireTimer(_:at:observe:)`` and
/// ``applyAnswer(_:toRequest:at:observe:)`` change it and return what changed and the effects to run; nothing here
/// reads a clock, draws from the system, or touches the world. Applying the same inputs at the same instants to
/// equal cores gives equal cores, byte for byte.
public struct SessionCore: Sendable {
    /// What the session was made with, kept once for every copy of the core (and, through `InitialFeatures`, for
    /// every session made with the same settings).
    let sharedSettings: SharedSettings
    /// What the session was made with.
    public var settings: SessionSettings { sharedSettings.value }
    var slots: [any AnyFeatureSlot]
    /// The feature names, in order (`slots`' names, kept so that every session made with the same features
    /// shares one array).
    public let featureNames: [String]
    var counters: SessionCounters
    /// The data-flow log ring.
    public internal(set) var log: EventLog
    /// Idempotency keys with their first answers, and the ids of events already applied.
    public var idempotency: IdempotencyLedger

    /// A new session core.
    /// - Parameters:
    ///   - settings: Time zone, locale, simulation speed, log size.
    ///   - random: The session's random draws (seeded for repeatable bot choices).
    ///   - features: Each feature's initial state, in the order snapshots list them.
    public init(settings: SessionSettings, random: RandomSource, features: [InitialFeature]) {
        self.init(settings: settings, random: random, features: InitialFeatures(features))
    }

    /// A new session core whose features start as `features`, which every core made from them shares until it
    /// changes a feature (copy on write): an idle session holds no copy of its features' initial states.
    /// - Parameters:
    ///   - settings: Time zone, locale, simulation speed, log size.
    ///   - random: The session's random draws (seeded for repeatable bot choices).
    ///   - features: Each feature's initial state, in the order snapshots list them.
    public init(settings: SessionSettings, random: RandomSource, features: InitialFeatures) {
        sharedSettings = features.sharedSettings(for: settings)
        slots = features.slots
        featureNames = features.names
        counters = SessionCounters(random: random)
        log = EventLog(capacity: settings.logCapacity, names: features.names)
        idempotency = IdempotencyLedger()
    }

    /// The newest session-wide sequence number.
    public var sequence: Int { counters.sequence }

    /// The current version of `feature`, or nil when there is no such feature.
    public func version(of feature: String) -> Int? {
        slot(named: feature).map { slots[$0].version }
    }

    /// The sequence number of the step that produced `feature`'s current version (0 for the first).
    public func lastChangeSequence(of feature: String) -> Int? {
        slot(named: feature).map { slots[$0].lastChangeSequence }
    }

    /// The state of `key`'s feature.
    public func state<F: Feature>(of key: FeatureKey<F>) -> F.State? {
        slot(named: key.name).flatMap { (slots[$0] as? FeatureSlot<F>)?.state }
    }

    /// The snapshot of `feature`'s current state as `viewer` sees it (by default the owner, whose view every viewer
    /// gets of a feature that does not depend on its viewer), with its version.
    public func snapshot(of feature: String, viewer: Viewer = .owner) -> (version: Int, viewModel: any ViewModel)? {
        slot(named: feature).map { (slots[$0].version, slots[$0].snapshot(settings: settings, viewer: viewer)) }
    }

    /// Whether `feature`'s snapshot depends on who is looking (it is a ``ViewerDependentFeature``); false for a
    /// feature the session does not have.
    public func dependsOnViewer(_ feature: String) -> Bool {
        slot(named: feature).map { type(of: slots[$0]).dependsOnViewer } ?? false
    }

    /// `feature`'s current version as a value that outlives later changes: its version, the sequence of the step
    /// that produced it, and a function that builds its snapshot (holding the state as it is now).
    func keptVersion(of feature: String) -> KeptVersion? {
        slot(named: feature).map {
            KeptVersion(
                version: slots[$0].version, sequence: slots[$0].lastChangeSequence,
                make: slots[$0].snapshotMaker(settings: settings))
        }
    }

    /// Every pending timer, by number.
    public var pendingTimers: [TimerStart] { slots.flatMap(\.timerStarts).sorted { $0.id < $1.id } }

    /// When the earliest pending timer falls due, or the earliest pending delivery was decided (what a store keeps
    /// to find sessions with work due, so one whose deliveries wait is loaded after a restart, and claimed by a live
    /// node when its owner died), found without listing the timers: every journaled input that starts or cancels
    /// one asks, under the session's lock, and a chat whose partner is busy holds a hundred.
    public var nextTimerDue: Date? {
        let timer = slots.lazy.compactMap(\.earliestTimerDue).min()
        guard let delivery = slots.lazy.compactMap(\.earliestDeliveryAt).min() else { return timer }
        return min(timer ?? delivery, delivery)
    }

    // MARK: - Applying

    /// Applies client (or start) events to `key`'s feature, each as one step, all or nothing: when one is refused,
    /// the core is left as it was. Only `client` events are checked.
    /// - Parameters:
    ///   - events: The feature's events, in order.
    ///   - key: The feature.
    ///   - source: Who sent them (`client`, `view`…).
    ///   - now: The instant they are applied at.
    ///   - observe: Told of each new version with a way to build its snapshot (nil: nobody asks).
    /// - Returns: What the events did: the version and sequence after them, the changes, and the timers started and
    ///   cancelled.
    /// - Throws: ``SessionRefusal/refused(_:index:)`` for the first event the state cannot apply, with its index.
    public mutating func apply<F: Feature>(
        _ events: [F.Event], to key: FeatureKey<F>, source: EventSource, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) throws(SessionRefusal) -> SessionStep {
        guard let index = slot(named: key.name) else { throw .noSuchFeature(key.name) }
        return try applyEvents(
            events.map { $0 as any Sendable }, slot: index, source: source, at: now, observe: observe)
    }

    /// The erased form of ``apply(_:to:source:at:observe:)``.
    /// - Parameters:
    ///   - events: The feature's events, in order.
    ///   - index: The feature's slot.
    ///   - source: Where they came from.
    ///   - now: The instant they are applied at.
    ///   - participant: For a client's events, who sent them (``Participant/ownerID`` for the owner).
    ///   - observe: Told of every version each event makes (nil: nobody asks).
    ///   - maxPendingDeliveries: The most deliveries the session may have waiting for their receivers: with that
    ///     many waiting nothing is applied, and a batch that would leave more (and more than before) is refused
    ///     whole (nil: no bound, as for a replay, which applies what was accepted).
    /// - Returns: What applying them did.
    /// - Throws: ``SessionRefusal`` when the state refuses the first event or deliveries are waiting.
    mutating func applyEvents(
        _ events: [any Sendable], slot index: Int, source: EventSource, at now: Date, participant: String? = nil,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?,
        maxPendingDeliveries: Int? = nil
    ) throws(SessionRefusal) -> SessionStep {
        let waiting = maxPendingDeliveries == nil ? 0 : pendingDeliveryCount
        if let limit = maxPendingDeliveries, waiting >= limit { throw .tooManyDeliveries(limit: limit) }
        if events.count == 1 {
            // The common case: the check refuses before anything changes, so no copy is needed.
            return try applyChecked(
                events, slot: index, source: source, now: now, participant: participant, observe: observe)
        }
        // A batch: all or nothing, applied to a copy. Observers (a test host, a session's recorders) are told of its
        // versions only once the whole batch is accepted: a step of a batch refused later was never a version.
        var attempt = self
        let seen = observe.map { _ in ObservedVersions() }
        let step = try attempt.applyChecked(
            events, slot: index, source: source, now: now, participant: participant, observe: seen?.record)
        if let limit = maxPendingDeliveries {
            let after = attempt.pendingDeliveryCount
            if after > limit, after > waiting { throw .tooManyDeliveries(limit: limit) }
        }
        self = attempt
        if let observe, let seen { seen.replay(to: observe) }
        return step
    }

    private mutating func applyChecked(
        _ events: [any Sendable], slot index: Int, source: EventSource, now: Date, participant: String?,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)?
    ) throws(SessionRefusal) -> SessionStep {
        var output = StepOutput(observe: observe)
        for position in events.indices {
            if source == .client {
                do {
                    try slots[index].check(first: events[position])
                } catch {
                    throw .refused(error, index: position)
                }
            }
            slots[index].step(
                erased: events[position], source: source, causedBy: nil, now: now, settings: settings,
                counters: &counters, output: &output, participant: participant)
        }
        return finish(output, slot: index)
    }

    /// Fires pending timer `id`: its event is applied as a step, logged as caused by the event that scheduled it.
    /// - Returns: The step, or nil when no feature has that timer (it fired or was cancelled already).
    public mutating func fireTimer(
        _ id: Int, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) -> SessionStep? {
        var output = StepOutput(observe: observe)
        for index in slots.indices {
            if slots[index].fire(timer: id, now: now, settings: settings, counters: &counters, output: &output) {
                return finish(output, slot: index)
            }
        }
        return nil
    }

    /// Applies the event request `id`'s outside work answered with (source `provider`), as a step of its own,
    /// logged as caused by the event that asked.
    /// - Returns: The step, or nil when no feature waits for that request (answered already, or unknown).
    public mutating func applyAnswer(
        _ event: any Sendable, toRequest id: Int, at now: Date,
        observe: ((_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void)? = nil
    ) -> SessionStep? {
        var output = StepOutput(observe: observe)
        for index in slots.indices {
            if slots[index].answer(
                request: id, with: event, now: now, settings: settings, counters: &counters, output: &output)
            {
                return finish(output, slot: index)
            }
        }
        return nil
    }

    /// Every request not answered yet, by number.
    public var pendingRequests: [PendingRequest] { slots.flatMap(\.pendingRequests).sorted { $0.id < $1.id } }

    mutating func finish(_ output: StepOutput, slot index: Int) -> SessionStep {
        for entry in output.entries { log.append(entry) }
        let slot = slots[index]
        return SessionStep(
            feature: slot.name, version: slot.version, sequence: counters.sequence, changes: output.changes,
            timersStarted: output.timersStarted, timersCancelled: output.timersCancelled, requests: output.requests,
            deliveries: output.deliveries, outboxChanged: output.outboxChanged)
    }

    /// The features changed after session sequence `sequence`, oldest change first, with the sequence of their
    /// latest change. A `sequence` this session never reached (a client from before a reset) counts as 0.
    public func features(changedAfter sequence: Int) -> [(feature: String, sequence: Int)] {
        let since = sequence > counters.sequence ? 0 : sequence
        return slots.filter { $0.lastChangeSequence > since || (since == 0 && $0.lastChangeSequence == 0) }
            .map { ($0.name, $0.lastChangeSequence) }
            .sorted { $0.1 < $1.1 }
    }

    /// The index of feature `name`'s slot. Read from ``featureNames`` (the slots' names, in order): asking each slot
    /// its name copied every slot passed over, an erased value, on each event.
    func slot(named name: String) -> Int? {
        featureNames.firstIndex(of: name)
    }
}

extension SessionCore: Equatable {
    /// Cores are equal when every part is: settings, features (state, version, timers), counters, log and keys.
    public static func == (lhs: SessionCore, rhs: SessionCore) -> Bool {
        lhs.settings == rhs.settings && lhs.counters == rhs.counters && lhs.log == rhs.log
            && lhs.idempotency == rhs.idempotency && lhs.slots.count == rhs.slots.count
            && zip(lhs.slots, rhs.slots).allSatisfy { $0.isEqual(to: $1) }
    }
}

/// A feature and its state when a session is made.
public struct InitialFeature: Sendable {
    let slot: any AnyFeatureSlot

    /// `key`'s feature, starting in `state`.
    public init<F: Feature>(_ key: FeatureKey<F>, state: F.State) {
        slot = FeatureSlot<F>(state: state)
    }
}

/// Why events were not applied.
public enum SessionRefusal: Error, Equatable, Sendable {
    /// The session has no such feature.
    case noSuchFeature(String)
    /// The state cannot apply the event at `index` of the batch; nothing was applied.
    case refused(EventRefusal, index: Int)
    /// The session has `limit` deliveries waiting for their receivers, or the batch would leave more than that;
    /// nothing was applied.
    case tooManyDeliveries(limit: Int)
}

/// What one application changed, and the effects the shell must carry out.
public struct SessionStep: Sendable {
    /// The feature the events went to.
    public let feature: String
    /// That feature's version after the step.
    public let version: Int
    /// The newest session-wide sequence number after the step.
    public let sequence: Int
    /// One change per step that grew a feature's version, in order (empty when nothing visible changed).
    public let changes: [SessionChange]
    /// Timers to start.
    public let timersStarted: [TimerStart]
    /// Timers to cancel.
    public let timersCancelled: [Int]
    /// Outside work to run.
    public let requests: [PendingRequest]
    /// The deliveries to contacts it made: the highest number it gave each address (they go out once it is durable).
    public let deliveries: [ContactAddress: Int]
    /// Whether it added a delivery to the outbox or took one out (the session's next due instant may move).
    let outboxChanged: Bool
}

extension SessionCore {
    /// The timers `key`'s feature scheduled that have not fired, earliest first (ties by number).
    public func timers<F: Feature>(of key: FeatureKey<F>) -> [FeatureTimer<F.Event>] {
        guard let index = slot(named: key.name), let slot = slots[index] as? FeatureSlot<F> else { return [] }
        return slot.timers.inDueOrder
            .map { FeatureTimer(id: $0.id, dueAt: $0.dueAt, event: $0.event, source: $0.source, causedBy: $0.causedBy) }
    }

    /// The requests `key`'s feature made that have not been answered, oldest first.
    public func requests<F: Feature>(of key: FeatureKey<F>) -> [FeatureRequest<F.Request>] {
        guard let index = slot(named: key.name), let slot = slots[index] as? FeatureSlot<F> else { return [] }
        return slot.requests.map { FeatureRequest(id: $0.id, request: $0.request, causedBy: $0.causedBy) }
    }
}

/// A timer a feature scheduled and that has not fired yet, with the event it delivers.
public struct FeatureTimer<Event: Equatable & Sendable>: Equatable, Sendable {
    /// The timer's session-wide number.
    public let id: Int
    /// When it falls due (wall clock: the event's instant plus the delay divided by the simulation speed).
    public let dueAt: Date
    /// What it delivers.
    public let event: Event
    /// How the log shows its source (`timer` or `simulator`).
    public let source: EventSource
    /// The sequence number of the event that scheduled it.
    public let causedBy: Int

    /// Creates a timer (tests compare with these).
    public init(id: Int, dueAt: Date, event: Event, source: EventSource = .timer, causedBy: Int) {
        self.id = id
        self.dueAt = dueAt
        self.event = event
        self.source = source
        self.causedBy = causedBy
    }
}

/// Outside work a feature asked for that has not been answered yet.
public struct FeatureRequest<Request: Equatable & Sendable>: Equatable, Sendable {
    /// The request's session-wide number (its answer names it).
    public let id: Int
    /// The request.
    public let request: Request
    /// The sequence number of the event that asked.
    public let causedBy: Int

    /// Creates a request (tests compare with these).
    public init(id: Int, request: Request, causedBy: Int) {
        self.id = id
        self.request = request
        self.causedBy = causedBy
    }
}

/// The versions a batch made, each with the builder of its snapshot (holding the state as that version had it), held
/// until the batch is accepted. Confined to one application, on one thread (a class only so the observer closure can
/// append to it).
private final class ObservedVersions {
    private var versions: [(feature: String, version: Int, snapshot: SnapshotBuilder)] = []

    /// Holds a version and its builder (nothing is built unless an observer asks).
    func record(_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) {
        versions.append((feature, version, snapshot))
    }

    /// Tells `observe` of every version held, in order.
    func replay(to observe: (_ feature: String, _ version: Int, _ snapshot: SnapshotBuilder) -> Void) {
        for held in versions { observe(held.feature, held.version, held.snapshot) }
    }
}
