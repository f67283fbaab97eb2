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
    /// The sequence number of the event that scheduled or routed it, if any.
    public let causedBy: Int?
    /// The feature's version once this event (and its step) was applied.
    public var versionAfter: Int
}

/// A bounded ring of log entries that grows only as entries arrive, so idle sessions stay small.
public struct EventLog: Sendable, Equatable, Codable {
    private(set) var entries: [LogEntry] = []
    private var start = 0
    /// The most entries kept.
    public let capacity: Int

    /// An empty log that keeps `capacity` entries.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ entry: LogEntry) {
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// Entries with `seq > since`, oldest first.
    public func entries(after since: Int) -> [LogEntry] {
        let ordered = start == 0 ? entries : Array(entries[start...] + entries[..<start])
        return ordered.filter { $0.seq > since }
    }

    /// The entry with sequence number `sequence`, if the ring still holds it (entries are numbered one after
    /// another, so it is found without a search).
    public func entry(sequence: Int) -> LogEntry? {
        guard let oldest = oldestSequence else { return nil }
        let offset = sequence - oldest
        guard offset >= 0, offset < entries.count else { return nil }
        let entry = entries[(start + offset) % entries.count]
        return entry.seq == sequence ? entry : nil
    }

    /// The oldest sequence number still held, or nil when empty.
    public var oldestSequence: Int? {
        entries.isEmpty ? nil : entries[start].seq
    }
}
