/// What changed in one step of a session, as observers see it.
public struct SessionChange: Sendable, Equatable {
    /// The session-wide sequence number of the step's last event.
    public let sequence: Int
    /// The features whose version grew, with their new versions.
    public let versions: [String: Int]
    /// Set on the last change an observer gets: the session ended, and why.
    public let end: SessionEnd?

    /// Creates a change.
    public init(sequence: Int, versions: [String: Int], end: SessionEnd? = nil) {
        self.sequence = sequence
        self.versions = versions
        self.end = end
    }

    /// Whether the session ended with this change.
    public var isClose: Bool { end != nil }
}

/// Why a session ended.
public enum SessionEnd: String, Sendable, Equatable, Codable {
    /// It was idle past its time to live.
    case expired
    /// A client deleted it.
    case deleted
    /// The server is stopping.
    case shutdown
    /// The store could not keep what was applied, so this copy of the session was dropped; it loads again from the
    /// store on the next request (a stream ends without a final event, so its client reconnects).
    case unavailable
    /// A value of the session cannot be stored (a feature made a state or an event its encoding refuses): the
    /// session stopped, and every later request is answered `500` naming the feature (``UnstorableValue``).
    case unstorable
}

/// The outcome of applying events to a session.
public struct SendReceipt: Sendable, Equatable {
    /// The feature's version after the events' synchronous part.
    public let version: Int
    /// The sequence number of the last event applied.
    public let sequence: Int

    /// Creates a receipt.
    public init(version: Int, sequence: Int) {
        self.version = version
        self.sequence = sequence
    }
}
