import Foundation

/// The store seam: where sessions are kept beyond the process. Three kinds exist: none (the memory store; sessions
/// live and die with the process), SQLite (the embedded default) and PostgreSQL (several nodes). A storage sees
/// session rows (id, token digest, times), journal records and whole-value snapshots, never feature types
/// (features never see the storage); it decodes a stored value with the ``FeatureTypes`` it was made with.
///
/// Contract, besides ``SessionJournal``'s:
/// - ``create(_:completion:)`` and ``remove(_:expiredAt:completion:)`` are ordered with the journal's entries:
///   a session's row exists before its first entry is stored, and nothing of it is stored after its removal.
/// - ``load(_:)`` returns the newest durable value: the last snapshot with every later journal record replayed.
///   It may block briefly (a local read); callers keep it off hot paths (a session is loaded once per process).
/// - Errors while serving never crash: a write that fails is reported to its completion, and ``health`` says
///   why until a write succeeds again.
/// - History (``SessionHistoryReading``): the store keeps, besides what ``load(_:)`` needs, the snapshots it took
///   as checkpoints and the journal records after the oldest, bounded by how many inputs it was told to keep
///   (``HistoryRetention``); with none, only what ``load(_:)`` needs.
/// - Contacts (``ContactDirectory``): the store keeps the invitations and contact addresses beside the sessions, in
///   the same database, so every node sees them and they outlive the process as the sessions do; removing a
///   session removes what it owns. A durable store cannot be without them: one kept in the process instead would
///   lose every contact on a restart and split them between nodes.
/// - Participants (``ParticipantDirectory``): likewise the participants of shared sessions and their join
///   invitations, so a participant removed on one node is refused on every other.
public protocol SessionStorage: SessionJournal, SessionHistoryReading, ContactDirectory, ParticipantDirectory {
    /// Stores a new session (its value before any journal entry); calls `completion` once with whether it is
    /// durable.
    /// - Throws: ``UnstorableValue`` when its value cannot be encoded: nothing is stored, and `completion` is not
    ///   called.
    func create(_ session: StoredSession, completion: @escaping @Sendable (Bool) -> Void) throws(UnstorableValue)

    /// The stored session `id`.
    /// - Throws: ``StorageError`` when it cannot be read (the storage is unreadable, or the record is not ours).
    func load(_ id: SessionID) throws(StorageError) -> StoredLookup

    /// Removes session `id`'s value and journal. With `expiredAt`, its token digest is kept as a tombstone (so
    /// its holder is told it expired) for a day; without, nothing is kept (a deleted session is not found).
    func remove(_ id: SessionID, expiredAt: Date?, completion: @escaping @Sendable (Bool) -> Void)

    /// Records when sessions were last used (written behind, batched; a crash may lose the last few seconds).
    func recordAccess(_ times: [(SessionID, Date)])

    /// Expires the stored sessions last used before `cutoff` that are not in memory (the caller expires those),
    /// and forgets tombstones older than `forgetBefore`.
    /// - Returns: How many sessions expired.
    func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int

    /// The sessions whose earliest pending timer falls due before `instant`, soonest first, at most `limit`: those
    /// to load so their timers fire without a request (a session waiting only on a timer leaves memory when memory
    /// is short, and at start none is in memory). A store several nodes share lists only those this node owns or
    /// nobody does.
    func sessionsDue(before instant: Date, limit: Int) throws(StorageError) -> [SessionID]

    /// How the store is doing: `failing` after a write failed (disk full, an I/O error), until one reaches the
    /// disk again; `broken` once it cannot be used safely (a damaged file), until a restart.
    var health: StorageHealth { get }

    /// Calls `handler` whenever ``health`` changes (the app logs each change and answers `/readyz` from it).
    func onHealthChange(_ handler: @escaping @Sendable (StorageHealth) -> Void)

    /// Transactions committed and writes they carried since start: writes per commit is what group commit saves.
    var commitCounts: (commits: Int, writes: Int) { get }

    /// The bytes the stored sessions take, as of the last commit (the app refuses new sessions past its quota);
    /// nil when the store does not say (a shared database).
    var usedBytes: Int? { get }

    /// Writes what is queued and closes the storage (shutdown).
    func close()

    /// Calls `handler` whenever this node loses sessions to another node (a store shared by several nodes);
    /// the caller drops those sessions from memory. Stores of one node never call it.
    func onOwnershipLoss(_ handler: @escaping @Sendable (OwnershipLoss) -> Void)
}

extension SessionStorage {
    /// Whether writes succeed now.
    public var isWritable: Bool { health.isHealthy }

    /// A store that does not say how much it holds.
    public var usedBytes: Int? { nil }

    /// A store of one node: nothing is ever taken over.
    public func onOwnershipLoss(_ handler: @escaping @Sendable (OwnershipLoss) -> Void) {}
}

/// A session as a storage keeps it.
public struct StoredSession: Sendable {
    /// Its id.
    public let id: SessionID
    /// The digest of its secret.
    public let token: SessionToken
    /// When it was made.
    public let createdAt: Date
    /// When it was last used.
    public let lastAccess: Date
    /// Its value.
    public let core: SessionCore
    /// The number of the last journal record `core` includes.
    public let journalNumber: Int
    /// Which copy this is: each load hands out a higher number than every earlier one of the process (0: a session
    /// made here). The copy's journal entries carry it (``JournalEntry/copy``).
    public let copy: Int

    /// Creates a stored session.
    public init(
        id: SessionID, token: SessionToken, createdAt: Date, lastAccess: Date, core: SessionCore, journalNumber: Int,
        copy: Int = 0
    ) {
        self.copy = copy
        self.id = id
        self.token = token
        self.createdAt = createdAt
        self.lastAccess = lastAccess
        self.core = core
        self.journalNumber = journalNumber
    }
}

/// What a storage holds for a session id.
public enum StoredLookup: Sendable {
    /// The session.
    case found(StoredSession)
    /// The session expired; its token digest is kept so its holder can be told so.
    case expired(SessionToken)
    /// The session was ended because acknowledged records of it were lost (`viewhost repair`); its token digest is
    /// kept so its holder can be told that, not that it expired.
    case lost(SessionToken)
    /// Nothing.
    case none
}

/// Why a storage cannot be used, with a one-line reason naming the file.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data directory is missing and cannot be made, or cannot be written (exit 73).
    case cannotCreate(path: String, reason: String)
    /// The file is not a ViewHost store, is corrupt, or was written by a newer version (exit 65).
    case unusable(path: String, reason: String)
    /// A read or write failed while serving.
    case failed(reason: String)
    /// The database cannot be reached (exit 69 at start; 503 while serving).
    case unreachable(reason: String)
    /// There is no store at `path` to read (`backup`, `check`: exit 66).
    case noStore(path: String)
    /// A file to write (a backup's output) cannot be made (exit 73).
    case cannotWrite(path: String, reason: String)
    /// Another server uses the data directory at `path` (exit 75).
    case inUse(path: String, reason: String)
    /// Session `session`'s stored data does not decode with this build's features (a `500` naming the feature, the
    /// member and the stored version; exit 65 from a command).
    case undecodable(session: SessionID, StoredFeatureError)

    /// One line naming the file or the session and the reason, for the log and the exit message.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot use data directory \(path): \(reason)"
        case .unusable(let path, let reason): "\(path): \(reason)"
        case .failed(let reason): "storage failed: \(reason)"
        case .unreachable(let reason): "database unreachable: \(reason)"
        case .noStore(let path): "\(path): no store here (the server has not run with this --data-dir)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .inUse(let path, let reason): "\(path): \(reason)"
        case .undecodable(let session, let error): "session \(session): \(error)"
        }
    }
}
