/// How a durable store is doing, as `/readyz` and the log tell it. Each reason is one line naming the file (or
/// the database) and what is wrong.
public enum StorageHealth: Sendable, Equatable, CustomStringConvertible {
    /// Writes succeed.
    case healthy
    /// Writes fail for now (the disk is full, an I/O error, files the server may not write, the database cannot be
    /// reached): each write that cannot be kept is refused (`503`), reads go on, and a small write is tried every
    /// few seconds; the store is healthy again once one succeeds.
    case failing(String)
    /// The store cannot be used safely any more (its file is damaged, its write-ahead log was deleted): writes are
    /// refused until an operator repairs it and restarts the server. It never clears by itself.
    case broken(String)

    /// Whether writes succeed.
    public var isHealthy: Bool { self == .healthy }

    /// `healthy`, or the state and its reason, as `/readyz` and the log say it.
    public var description: String {
        switch self {
        case .healthy: "healthy"
        case .failing(let reason): "failing: \(reason)"
        case .broken(let reason): "broken: \(reason)"
        }
    }
}
