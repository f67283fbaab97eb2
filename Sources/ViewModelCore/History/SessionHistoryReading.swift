/// Where a session's past is read from: the values kept at its checkpoints and the journal records after the oldest
/// one. Durable stores keep them (``SessionStorage`` refines this); the memory store's sessions keep them in memory
/// (``HeldHistory``). How much is kept is the store's bound: the checkpoint at or before the `historyInputs`-th
/// input back, and everything after it (so at least that many inputs, and fewer than two intervals between snapshots
/// more: ``Session/snapshotInterval(afterSnapshotOf:)``); older checkpoints and records go as new checkpoints are taken.
///
/// Reads are not one transaction: a checkpoint listed may be gone when its value is asked for (compaction ran in
/// between). Callers then read the list again.
public protocol SessionHistoryReading: Sendable {
    /// The checkpoints held for session `id`, oldest first (empty when none is held: a session stored before
    /// history was kept, until its next checkpoint).
    func checkpoints(of id: SessionID) throws(StorageError) -> [HistoryCheckpoint]

    /// The value held at checkpoint `number` of session `id`, or nil when it is no longer held.
    func checkpoint(of id: SessionID, at number: Int) throws(StorageError) -> SessionCore?

    /// Up to `limit` journal records of session `id` numbered after `number`, in order (fewer at the end of the
    /// journal; records gone to compaction are skipped, so a caller checks the first number).
    func records(of id: SessionID, after number: Int, limit: Int) throws(StorageError) -> [JournalRecord]
}
