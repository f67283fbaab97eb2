import Foundation

/// One applied event in a session's data-flow log: what happened, where it came from, what caused it, and the
/// version it produced. A bot reply's `causedBy` points at the user's message that triggered it.
public struct LogEntry: Sendable, Equatable, Codable {
    /// The session-wide sequence number.
    public let seq: Int
    /// When it was applied (wall clock).
    public let at: Date
    /// The feature it was routed to.
    public let feature: String
    /// The event's name.
    public let event: String
    /// A short payload summary.
    public let summary: String
    /// Where it came from.
    public let source: EventSource
    /// The sequence number of the event that scheduled or routed it, if any (sequence numbers start at 1).
    public let causedBy: Int?
    /// The feature's version once this event (and its step) was applied.
    public var versionAfter: Int
}
