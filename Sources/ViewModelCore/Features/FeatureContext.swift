import Foundation

/// What a feature model may do while it applies an event: read the time, draw random numbers, schedule
/// delayed events, route follow-up events, and say that its view model changed. Side effects are collected
/// and carried out by the host after `apply` returns, so a model never re-enters itself.
public struct FeatureContext<Event: Sendable> {
    /// A delayed event the model asked for.
    struct ScheduledEvent {
        let id: TimerID
        let delay: Duration
        let event: Event
        let source: EventSource
    }

    /// The wall-clock time of this event (message dates, "last received" times).
    public let now: Date
    /// Where the event being applied came from.
    public let source: EventSource
    /// The session-wide sequence number of the event being applied.
    public let sequence: Int
    /// The session's time zone (for rendering dates).
    public let timeZone: TimeZone
    /// The session's locale identifier, such as `en_US` or `zh-Hans`.
    public let locale: String
    /// The session's random source (seeded when the configuration gives a seed).
    public var random: RandomSource
    private(set) var changed = false
    private(set) var scheduled: [ScheduledEvent] = []
    private(set) var cancelled: [TimerID] = []
    /// A follow-up event (structs, not tuples: generic tuple arrays cost a metadata lookup per element).
    struct FollowUp {
        let event: Event
        let source: EventSource
    }

    /// Asynchronous work whose result is applied later.
    struct Effect {
        let work: @Sendable () async -> Event
        let source: EventSource
    }

    private(set) var followUps: [FollowUp] = []
    private(set) var effects: [Effect] = []
    private(set) var nextTimerValue: Int

    /// Creates a context; tests of a model in isolation may make one directly.
    /// - Parameters:
    ///   - now: The wall-clock time.
    ///   - source: Where the event came from.
    ///   - sequence: The event's sequence number.
    ///   - timeZone: The session's time zone.
    ///   - locale: The session's locale identifier.
    ///   - random: The random source.
    ///   - firstTimerID: The id the first scheduled event gets.
    public init(
        now: Date, source: EventSource = .client, sequence: Int = 1, timeZone: TimeZone = .gmt,
        locale: String = "en_US", random: RandomSource = .seeded(0), firstTimerID: Int = 1
    ) {
        self.now = now
        self.source = source
        self.sequence = sequence
        self.timeZone = timeZone
        self.locale = locale
        self.random = random
        self.nextTimerValue = firstTimerID
    }

    /// Whether ``markChanged()`` was called.
    public var didChange: Bool { changed }

    /// The events scheduled so far, with their delays, in order.
    public var scheduledEvents: [(id: TimerID, delay: Duration, event: Event, source: EventSource)] {
        scheduled.map { ($0.id, $0.delay, $0.event, $0.source) }
    }

    /// The follow-up events routed so far, in order.
    public var routedEvents: [(event: Event, source: EventSource)] {
        followUps.map { ($0.event, $0.source) }
    }

    /// The timers cancelled so far.
    public var cancelledTimers: [TimerID] { cancelled }

    /// Says the view model may have changed: the feature's version grows once this event is applied.
    public mutating func markChanged() {
        changed = true
    }

    /// Delivers `event` to this feature after `delay` of simulated time (divided by the simulation speed).
    /// - Returns: An id to cancel it with.
    @discardableResult
    public mutating func schedule(_ event: Event, after delay: Duration, source: EventSource = .timer) -> TimerID {
        let id = TimerID(value: nextTimerValue)
        nextTimerValue += 1
        scheduled.append(ScheduledEvent(id: id, delay: delay, event: event, source: source))
        return id
    }

    /// Cancels a scheduled event that has not been delivered yet.
    public mutating func cancel(_ id: TimerID) {
        cancelled.append(id)
    }

    /// Runs `work` outside the session's lock (a provider call) and applies the event it returns to this feature,
    /// as a step of its own, logged as caused by this event. Results may arrive in any order; a model that must
    /// keep only the latest answer tags its requests and ignores stale ones.
    public mutating func perform(_ work: @escaping @Sendable () async -> Event, source: EventSource = .provider) {
        effects.append(Effect(work: work, source: source))
    }

    /// The effects requested so far, in order.
    public var performedEffects: [(work: @Sendable () async -> Event, source: EventSource)] {
        effects.map { ($0.work, $0.source) }
    }

    /// Applies `event` right after this one, in the same step (one version bump for both), logged as caused by
    /// this event. Use it where the original calls back into a router synchronously.
    public mutating func route(_ event: Event, source: EventSource) {
        followUps.append(FollowUp(event: event, source: source))
    }
}

/// Identifies a scheduled event within its session.
public struct TimerID: Hashable, Sendable {
    let value: Int
}

/// Where an event came from, as the data-flow log shows it.
public enum EventSource: String, Sendable, Codable, Equatable {
    /// Posted by a client.
    case client
    /// A delay of the app itself ran out (a simulated round trip, a send completing).
    case timer
    /// The simulated other side (bot replies, read receipts, push notifications).
    case simulator
    /// An outside provider answered (geocoding, weather).
    case provider
    /// The screen showed a view model and reacted (`afterShowingMessages`).
    case view
}
