import Foundation

/// One write a durable store's ``JournalWriter`` commits, encoded by the thread that queued it (so the writer, the
/// one serial step of every event, only writes): a session made, a journal record, a session removed, or access
/// times.
public enum JournalWrite: Sendable {
    /// A new session: its row and its first snapshot.
    case create(NewSession)
    /// A journal record, and with it now and then the session's whole value.
    case append(Record)
    /// A session deleted (no `expiredAt`) or expired (a tombstone kept).
    case remove(SessionID, expiredAt: Date?)
    /// When sessions were last used (written behind, batched).
    case access([(SessionID, Date)])

    /// A new session as the store keeps it.
    public struct NewSession: Sendable {
        /// Its id.
        public let id: SessionID
        /// The digest of its secret (never the secret).
        public let token: SessionToken
        /// When it was made.
        public let createdAt: Date
        /// When it was last used, which its idle expiry counts from.
        public let lastAccess: Date
        /// The number of the last journal record the value includes.
        public let journalNumber: Int
        /// When its earliest pending timer falls due.
        public let nextDueAt: Date?
        /// The store's encoding of its value.
        public let snapshot: [UInt8]
        /// Each feature's version in its value (``HistoryCheckpoint/versionsJSON``), kept beside a history
        /// checkpoint.
        public let versions: String
        /// Which copy made it (``StoredSession/copy``).
        public let copy: Int
    }

    /// A journal record as the store keeps it.
    public struct Record: Sendable {
        /// The session it belongs to.
        public let session: SessionID
        /// Its number: 1, 2, 3… without gaps.
        public let number: Int
        /// The input, in ``JournalRecordFormat``.
        public let bytes: [UInt8]
        /// The store's encoding of the session's whole value after this input, when it takes a snapshot.
        public let snapshot: [UInt8]?
        /// With a snapshot, each feature's version in it (``HistoryCheckpoint/versionsJSON``).
        public let versions: String?
        /// When the earliest pending timer falls due, when that changed with this input (else the store keeps what
        /// it has).
        public let nextDueAt: Date??
        /// Which copy made it (``JournalEntry/copy``).
        public let copy: Int
        /// The ownership the session was held under when the record was queued (a store shared by several nodes
        /// refuses a record whose session another node took over since); nil when this node does not own it.
        public let fence: Int64?
    }

    /// `session` as the store keeps it, its value encoded with `snapshot`.
    /// - Throws: What `snapshot` throws: the value cannot be encoded.
    public static func create(
        _ session: StoredSession, snapshot: (SessionCore) throws(UnstorableValue) -> [UInt8]
    ) throws(UnstorableValue) -> JournalWrite {
        .create(
            NewSession(
                id: session.id, token: session.token, createdAt: session.createdAt, lastAccess: session.lastAccess,
                journalNumber: session.journalNumber, nextDueAt: session.core.nextTimerDue,
                snapshot: try snapshot(session.core),
                versions: HistoryCheckpoint(number: session.journalNumber, core: session.core).versionsJSON,
                copy: session.copy))
    }

    /// `entry` as the store keeps it: its input in ``JournalRecordFormat``, its snapshot (if any) encoded with
    /// `snapshot`.
    /// - Throws: What `snapshot` throws: the session's value cannot be encoded.
    public static func append(
        _ entry: JournalEntry, fence: Int64?, snapshot: (SessionCore) throws(UnstorableValue) -> [UInt8]
    ) throws(UnstorableValue) -> JournalWrite {
        let stored = try entry.snapshot.map { core throws(UnstorableValue) in try snapshot(core) }
        return .append(
            Record(
                session: entry.session, number: entry.number, bytes: JournalRecordFormat.encode(entry.input),
                snapshot: stored,
                versions: entry.snapshot.map { HistoryCheckpoint(number: entry.number, core: $0).versionsJSON },
                nextDueAt: entry.dueChanged ? .some(entry.nextDueAt) : .none,
                copy: entry.copy, fence: fence))
    }

    /// What the ledger of acknowledged records notes once it took effect: the session and its last journal
    /// record, or that it was removed (nil for access times).
    public var acknowledged: (session: SessionID, number: Int?)? {
        switch self {
        case .create(let session): (session.id, session.journalNumber)
        case .append(let record): (record.session, record.number)
        case .remove(let id, _): (id, nil)
        case .access: nil
        }
    }

    /// Whether it writes a session or its journal (not only access times): only such a write, succeeding, says the
    /// store takes writes again.
    var isJournalWrite: Bool {
        if case .access = self { return false }
        return true
    }

    /// The session and copy a create or append came from (what a failure poisons).
    var copy: (session: SessionID, copy: Int)? {
        switch self {
        case .create(let session): (session.id, session.copy)
        case .append(let record): (record.session, record.copy)
        case .remove, .access: nil
        }
    }

    /// The size of the session's value it writes (a create's, or a record's snapshot); 0 without one.
    public var snapshotBytes: Int {
        switch self {
        case .create(let session): session.snapshot.count
        case .append(let record): record.snapshot?.count ?? 0
        case .remove, .access: 0
        }
    }

    /// About how many bytes it writes (what bounds a batch).
    var size: Int {
        switch self {
        case .create(let session): 128 + session.snapshot.count
        case .append(let record): 64 + record.bytes.count + (record.snapshot?.count ?? 0)
        case .remove: 64
        case .access(let times): 48 * times.count
        }
    }
}
