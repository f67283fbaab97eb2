/// When a session takes its next snapshot: it counts the inputs since the last one, and after each snapshot a
/// durable store kept it spaces the next by that snapshot's size (``Session/snapshotInterval(afterSnapshotOf:)``).
/// Without a store's answer the spacing stays ``Session/snapshotInterval`` (the memory store's history).
/// The one rule for a live session and for an import storing an exported one. Two 32-bit counts: it lives in
/// every session's shell.
public struct SnapshotSpacing: Sendable {
    private var sinceSnapshot: Int32 = 0
    private var every = Int32(Session.snapshotInterval)

    /// Spacing from a snapshot just taken (or a session just made or loaded).
    public init() {}

    /// Counts one input; whether a snapshot is due with it. A due snapshot not taken (``taken(storedBytes:)``
    /// not called) stays due with the next input.
    public mutating func countInput() -> Bool {
        sinceSnapshot += 1
        return sinceSnapshot >= every
    }

    /// A snapshot was taken with the input just counted.
    /// - Parameter storedBytes: Its size as the store keeps it, once known: the next one comes
    ///   ``Session/snapshotInterval(afterSnapshotOf:)`` inputs later. Nil leaves the spacing as it is.
    public mutating func taken(storedBytes: Int? = nil) {
        sinceSnapshot = 0
        if let storedBytes { stored(bytes: storedBytes) }
    }

    /// The store said a snapshot taken earlier takes `bytes` (it answers after the snapshot was taken, and other
    /// inputs may have been counted since).
    public mutating func stored(bytes: Int) {
        every = Int32(Session.snapshotInterval(afterSnapshotOf: bytes))
    }
}
