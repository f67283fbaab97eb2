import ViewHostLocking
import ViewModelCore

/// The sessions this node owns, with the epoch of each ownership: what a journal write is fenced with. A write
/// carries the epoch its session had when the write was queued, so writes queued by a copy from before a takeover
/// can never pass as the new owner's.
final class PostgresLeases: Sendable {
    private let epochs = Locked<[SessionID: Int64]>([:])

    /// The epoch session `id` is owned under, if this node owns it.
    func epoch(of id: SessionID) -> Int64? {
        epochs.withLock { $0[id] }
    }

    /// Records that this node owns `id` under `epoch`.
    func own(_ id: SessionID, epoch: Int64) {
        epochs.withLock { $0[id] = epoch }
    }

    /// Forgets `id`, if it is still owned under an epoch older than `newer` (or under any, when nil).
    /// - Returns: Whether it was owned and is forgotten.
    @discardableResult
    func release(_ id: SessionID, olderThan newer: Int64? = nil) -> Bool {
        epochs.withLock { epochs in
            guard let epoch = epochs[id], newer.map({ epoch < $0 }) ?? true else { return false }
            epochs[id] = nil
            return true
        }
    }

    /// Forgets every session.
    func releaseAll() {
        epochs.withLock { $0.removeAll() }
    }
}
