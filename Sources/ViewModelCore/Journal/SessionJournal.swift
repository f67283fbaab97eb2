import Foundation

/// Where a session's inputs go to be kept: the durable half of the store seam (memory keeps nothing, SQLite and
/// PostgreSQL keep everything). A journal sees records (session id, record number, input, instant) and now and
/// then the session's whole value as a snapshot; it never sees feature types.
///
/// Contract:
/// - ``append(_:completion:)`` returns at once and calls `completion` exactly once, on any thread: `true` once
///   the entry is durable (committed), `false` when it could not be stored (disk full, I/O error, lost
///   ownership). Entries of one session are committed in the order they were appended, record numbers without
///   gaps; once an entry of a session's copy failed, every later entry of that copy (and of any older copy)
///   fails too; a copy loaded since (a higher ``JournalEntry/copy``) writes again.
/// - Entries of many sessions that arrive together may share one transaction and one sync (group commit).
/// - ``append(_:completion:)`` returns how many bytes the entry's snapshot takes in the store (0 for an entry
///   without one): a session spaces its snapshots by their size (``Session/snapshotInterval(afterSnapshotOf:)``).
public protocol SessionJournal: Sendable {
    /// Stores `entry`; calls `completion` once with whether it is durable.
    /// - Returns: The size in bytes of the entry's snapshot as the store keeps it; 0 when it has none (or the
    ///   journal does not say, which keeps the shortest interval).
    /// - Throws: ``UnstorableValue`` when the entry's snapshot cannot be encoded: nothing is stored, and
    ///   `completion` is not called.
    @discardableResult
    func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) throws(UnstorableValue) -> Int
}

/// One record of a session's journal.
public struct JournalEntry: Sendable {
    /// The session.
    public let session: SessionID
    /// The record's number in the session's journal: 1, 2, 3… without gaps.
    public let number: Int
    /// What was applied.
    public let input: SessionInput
    /// The session's whole value after this input, when the session takes a snapshot with it (so a restore
    /// replays only what follows); nil most of the time.
    public let snapshot: SessionCore?
    /// When the session's earliest pending timer falls due after this input, if it has one.
    public let nextDueAt: Date?
    /// Whether this input changed the session's timers (started, cancelled or fired one), so ``nextDueAt`` may differ
    /// from the entry before: a store writes it down only then.
    public let dueChanged: Bool
    /// When the session was last used.
    public let lastAccess: Date
    /// Which copy of the session made it: the ``StoredSession/copy`` it was loaded as (0 for a session made in this
    /// process). A store refuses the entries of a copy whose entry failed, and of every older copy, so a copy
    /// dropped after a failure never writes behind the one loaded since.
    public let copy: Int

    /// Creates an entry (the session shell makes them; stores' tests too).
    public init(
        session: SessionID, number: Int, input: SessionInput, snapshot: SessionCore?, nextDueAt: Date?,
        dueChanged: Bool = true, lastAccess: Date, copy: Int = 0
    ) {
        self.copy = copy
        self.dueChanged = dueChanged
        self.session = session
        self.number = number
        self.input = input
        self.snapshot = snapshot
        self.nextDueAt = nextDueAt
        self.lastAccess = lastAccess
    }
}
