import Foundation

/// A delayed event a feature asked for and that has not fired yet: part of the session's value, so a restored
/// session still fires it (at once, if it fell due while the server was down).
struct PendingTimer<Event: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The timer's session-wide number.
    let id: Int
    /// When it falls due (wall clock).
    let dueAt: Date
    /// What it delivers.
    let event: Event
    /// How the log shows its source (`timer` or `simulator`).
    let source: EventSource
    /// The sequence number of the event that scheduled it.
    let causedBy: Int

    enum CodingKeys: String, CodingKey {
        case id, dueAt, event, source, causedBy
    }

    init(id: Int, dueAt: Date, event: Event, source: EventSource, causedBy: Int) {
        self.id = id
        self.dueAt = dueAt
        self.event = event
        self.source = source
        self.causedBy = causedBy
    }

    /// A timer stored with `decodeEvent` reading its event (an older schema's event, migrated).
    init(from decoder: any Decoder, decodeEvent: (any Decoder) throws -> Event) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        dueAt = try container.decode(Date.self, forKey: .dueAt)
        event = try decodeEvent(container.superDecoder(forKey: .event))
        source = try container.decode(EventSource.self, forKey: .source)
        causedBy = try container.decode(Int.self, forKey: .causedBy)
    }
}

/// A timer the session's shell must start: its number, when it falls due, and how long that is from the event that
/// scheduled it (real time, the simulated delay divided by the simulation speed).
public struct TimerStart: Sendable, Equatable {
    /// The timer's session-wide number.
    public let id: Int
    /// When it falls due (wall clock).
    public let dueAt: Date
    /// How long after the scheduling event it falls due; nil for a timer restored from a stored session, which
    /// falls due at ``dueAt``.
    public let delay: Duration?
}

/// Outside work the shell must run, for one feature, logged as caused by `causedBy`.
public struct PendingRequest: Sendable {
    /// The request's session-wide number (its answer names it).
    public let id: Int
    /// The feature that asked.
    public let feature: String
    /// The request (the feature's `Request` type).
    public let request: any Sendable
    /// The sequence number of the event that asked.
    public let causedBy: Int
}

/// A request a feature made that has not been answered yet: part of the session's value, so a restored session
/// asks again for what it was waiting for.
struct PendingWork<Request: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    let id: Int
    let request: Request
    let causedBy: Int
}
