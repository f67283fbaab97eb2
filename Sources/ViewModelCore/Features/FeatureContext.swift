import Foundation

/// What a feature may read and ask for while it applies one event: the event's instant, source and sequence
/// number, the session's settings and random draws (all recorded with the event, so a replay draws nothing twice),
/// and the effects it wants, collected as data and carried out by the session after `apply` returns, so a feature
/// never re-enters itself.
public struct FeatureContext<F: Feature> {
    /// A delayed event the feature asked for.
    struct ScheduledEvent {
        let id: TimerID
        let delay: Duration
        let event: F.Event
        let source: EventSource
    }

    /// An event for the session at a contact's address.
    struct Delivery {
        let event: F.Event
        let to: ContactAddress
    }

    /// A follow-up event, applied right after this one in the same step.
    struct FollowUp {
        let event: F.Event
        let source: EventSource
    }

    /// The wall-clock instant of this event (message dates, "last received" times).
    public let now: Date
    /// Where the event being applied came from.
    public let source: EventSource
    /// The session-wide sequence number of the event being applied.
    public let sequence: Int
    /// For an event another session delivered (source `session`), the address this session knows its sender by
    /// (the one ``Feature/introduced(to:)`` gave); nil for every other event.
    public let sender: ContactAddress?
    /// For an event a client sent (source `client`), who sent it, as its credential says (never its body):
    /// ``Participant/ownerID`` for the session's owner, else the id of the shared session's participant. Nil for
    /// every other event (timers, answers, deliveries, follow-ups).
    public let participant: String?
    /// The session's settings (time zone, locale).
    public let settings: SessionSettings
    /// The session's random draws: a generator whose state belongs to the session and is handed back after the
    /// event, so a replay of the same events draws the same numbers.
    public var random: RandomSource
    private(set) var changed = false
    /// Whether the feature scheduled, cancelled, requested, delivered or routed anything: most events do none of it,
    /// and the slot then skips the five lists, whose generic element types cost a metadata lookup each to walk.
    private(set) var asked = false
    private(set) var scheduled: [ScheduledEvent] = []
    private(set) var cancelled: [TimerID] = []
    private(set) var followUps: [FollowUp] = []
    private(set) var requests: [F.Request] = []
    private(set) var deliveries: [Delivery] = []
    private(set) var nextTimerValue: Int

    /// Creates a context; tests of a feature in isolation may make one directly.
    /// - Parameters:
    ///   - now: The event's instant.
    ///   - source: Where the event came from.
    ///   - sequence: The event's sequence number.
    ///   - settings: The session's settings.
    ///   - random: The random draws.
    ///   - firstTimerID: The id the first scheduled event gets.
    ///   - sender: The contact that delivered the event, for one another session delivered.
    ///   - participant: Who sent a client's event (``Participant/ownerID`` for the owner).
    public init(
        now: Date, source: EventSource = .client, sequence: Int = 1, settings: SessionSettings = SessionSettings(),
        random: RandomSource = .seeded(0), firstTimerID: Int = 1, sender: ContactAddress? = nil,
        participant: String? = nil
    ) {
        self.now = now
        self.source = source
        self.sequence = sequence
        self.sender = sender
        self.participant = participant
        self.settings = settings
        self.random = random
        self.nextTimerValue = firstTimerID
    }

    /// The session's time zone (for rendering dates).
    public var timeZone: TimeZone { settings.timeZone }

    /// The session's locale identifier, such as `en_US` or `zh-Hans`.
    public var locale: String { settings.locale }

    /// Whether ``markChanged()`` was called.
    public var didChange: Bool { changed }

    /// The events scheduled so far, with their delays, in order.
    public var scheduledEvents: [(id: TimerID, delay: Duration, event: F.Event, source: EventSource)] {
        scheduled.map { ($0.id, $0.delay, $0.event, $0.source) }
    }

    /// The follow-up events routed so far, in order.
    public var routedEvents: [(event: F.Event, source: EventSource)] {
        followUps.map { ($0.event, $0.source) }
    }

    /// The timers cancelled so far.
    public var cancelledTimers: [TimerID] { cancelled }

    /// The outside work requested so far, in order.
    public var requestedWork: [F.Request] { requests }

    /// The events delivered to contacts so far, in order.
    public var deliveredEvents: [(event: F.Event, to: ContactAddress)] { deliveries.map { ($0.event, $0.to) } }

    /// Says the view model may have changed: the feature's version grows once this event's step is applied.
    public mutating func markChanged() {
        changed = true
    }

    /// Delivers `event` to this feature after `delay` of simulated time (divided by the session's simulation
    /// speed), logged as caused by this event.
    /// - Returns: An id to cancel it with.
    @discardableResult
    public mutating func schedule(_ event: F.Event, after delay: Duration, source: EventSource = .timer) -> TimerID {
        let id = TimerID(value: nextTimerValue)
        nextTimerValue += 1
        scheduled.append(ScheduledEvent(id: id, delay: delay, event: event, source: source))
        asked = true
        return id
    }

    /// Cancels a scheduled event that has not been delivered yet.
    public mutating func cancel(_ id: TimerID) {
        cancelled.append(id)
        asked = true
    }

    /// Asks for outside work (a provider call). The session runs it outside its lock and applies the event it
    /// answers with as a step of its own, logged as caused by this event (source `provider`). Answers may arrive
    /// in any order; a feature that must keep only the latest tags its requests and ignores stale answers.
    public mutating func request(_ work: F.Request) {
        requests.append(work)
        asked = true
    }

    /// Delivers `event` to this feature in the session at `address` (a contact ``Feature/introduced(to:)`` gave).
    /// It is kept with the session's value, as a pending timer is, from the moment this event is journaled, and
    /// applied there once, as an input of its own (source `session`, ``sender`` naming this session as the receiver
    /// knows it), in the order this session delivered to that address. When it cannot arrive (the other session
    /// ended, its backlog is full, the address leads nowhere from here) ``Feature/undelivered(_:to:because:)`` tells
    /// this feature; when the other feature does not take it (``Feature/accepts(_:from:in:)``), nobody is told.
    public mutating func deliver(_ event: F.Event, to address: ContactAddress) {
        deliveries.append(Delivery(event: event, to: address))
        asked = true
    }

    /// Applies `event` right after this one, in the same step (one version bump for both), logged as caused by
    /// this event. Use it where the original calls back into a router synchronously.
    public mutating func route(_ event: F.Event, source: EventSource) {
        followUps.append(FollowUp(event: event, source: source))
        asked = true
    }
}

/// Identifies a scheduled event within its session.
public struct TimerID: Hashable, Sendable, Codable {
    /// The number, unique within the session.
    public let value: Int

    /// Wraps a number.
    public init(value: Int) {
        self.value = value
    }
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
    /// The screen showed a view model and reacted (`afterShowingMessages`), or the session started a feature.
    case view
    /// Another session: an event it delivered, a contact made, or a delivery that did not arrive.
    case session
}
