import Foundation
import GRDB
import Synchronization
import ViewHostLocking
import ViewModelCore

/// SQLiteStorage is the embedded durable store: sessions, their journals and snapshots in one SQLite file in WAL
/// mode, through GRDB. It implements ViewModelCore's ``SessionStorage`` seam and knows nothing of HTTP or of any
/// feature.
///
/// One writer (a serial queue, ``JournalWriter``) takes every queued write at once and commits them in one
/// transaction, so events that arrive together share one sync (group commit); readers read concurrently from GRDB's
/// pool and never wait for the writer. With `sync: .full`, a committed entry survives power loss; with `.normal`, a
/// process crash. Records are kept in ``JournalRecordFormat``, values in ``StoredValueFormat`` (docs/JOURNAL.md).
///
/// ```swift
/// let storage = try SQLiteSessionStorage(directory: "data", sync: .full, features: types)
/// let lookup = try storage.load(SessionID("…"))
/// ```
public final class SQLiteSessionStorage: SessionStorage {
    /// How hard a commit syncs (SQLite's `synchronous` in WAL mode).
    public enum Sync: String, Sendable, CaseIterable {
        /// Every commit is synced: what was acknowledged survives power loss.
        case full
        /// Syncs at checkpoints only: what was acknowledged survives a process crash.
        case normal
    }

    /// The database file's name in the data directory.
    public static let fileName = "viewhost.sqlite"

    let pool: DatabasePool
    let path: String
    let features: FeatureTypes
    let writer: JournalWriter<SQLiteStatements>
    let statements: SQLiteStatements
    /// How many of each session's latest inputs are kept for its past versions (0: none).
    public let historyInputs: Int
    let monitor = StorageHealthMonitor()
    /// This process's claim on the data directory, held while the store is open.
    private let lock: DataDirectoryLock
    /// The last copy number a load handed out (``StoredSession/copy``).
    private let copies = Atomic<Int>(0)
    /// The quick check of every page, on a thread of its own after the store opens; ``close()`` waits for it, since
    /// GRDB's pool must not be read while it closes (ThreadSanitizer found the check reading a pool being closed).
    private let pageCheck = DispatchGroup()

    /// Opens (making it when missing) the store in `directory`.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)`` when the directory cannot be made or written;
    ///   ``StorageError/unusable(path:reason:)`` when the file is corrupt, not a ViewHost store, or newer, or when
    ///   its sessions hold feature data `features` cannot read (a feature not registered, a schema version it
    ///   does not migrate from, or a stored shape changed without a new schema version).
    /// - Parameters:
    ///   - directory: The data directory; the store is `viewhost.sqlite` in it.
    ///   - sync: How far a commit waits for the disk.
    ///   - features: The features whose stored data it reads.
    ///   - historyInputs: How many of each session's latest inputs are kept, with the snapshots they need, so its
    ///     past versions can be rebuilt (0: only what a restart needs).
    public init(directory: String, sync: Sync, features: FeatureTypes, historyInputs: Int = 0) throws(StorageError) {
        // A file-size limit (RLIMIT_FSIZE) must make a write fail, not kill the server: then the write's event gets
        // 503 and reads go on, as for a full disk.
        signal(SIGXFSZ, SIG_IGN)
        path = try Self.prepare(directory: directory)
        lock = try DataDirectoryLock(directory: directory)
        self.features = features
        var startFailure: (any Error)?
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(sync == .full ? "FULL" : "NORMAL")")
            // The log is copied into the main file by a connection of its own (LogCheckpointer); the writer's own
            // checkpoint, past four times SQLite's default, is the backstop that bounds the log.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(LogCheckpointer.writerCheckpointPages)")
        }
        let ledger: CommitLedger
        let checkpointer: LogCheckpointer
        do {
            try Self.checkSize(path: path)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrate(pool, path: path)
            let schemas = try Self.checkFeatureSchemas(pool, path: path, features: features)
            try Self.checkAcknowledged(pool, path: path, found: CommitLedger.read(CommitLedger.path(of: path)))
            // Made (when missing) once the one found was checked: a start refused leaves none where there was none.
            ledger = try CommitLedger(database: path)
            startFailure = try Self.checkWritable(pool, path: path, directory: directory, ledgerBegun: ledger.begin())
            // This build's versions are recorded once the store takes writes (a store failing at start records them
            // at its next start; until then, a store it cannot read is still found by the exact check above).
            if startFailure == nil { try Self.recordFeatureSchemas(schemas, features: features, in: pool) }
            checkpointer = try LogCheckpointer(path: path, configuration: configuration)
        } catch let error as StorageError {
            throw error
        } catch  where StoreAudit.isDamage(error) {
            throw .unusable(
                path: path,
                reason: "it is damaged: " + StoreAudit.damage(of: path, error: error)
                    + "; viewhost check says what is lost; restore a backup (docs/OPERATIONS.md)")
        } catch {
            throw .unusable(path: path, reason: Self.describe(error))
        }
        // Everything acknowledged is in the file: the log starts empty, and so does the ledger.
        if (try? pool.writeWithoutTransaction({ try $0.checkpoint(.truncate) })) != nil {
            ledger.reset(walGeneration: nil)
        }
        self.historyInputs = max(0, historyInputs)
        statements = SQLiteStatements(
            pool: pool, path: path, ledger: ledger, wal: WriteAheadLog(database: path), checkpointer: checkpointer,
            monitor: monitor, historyInputs: self.historyInputs)
        writer = JournalWriter(label: "viewhost.sqlite.writer", statements: statements, monitor: monitor)
        statements.scheduleWatch(on: writer)
        Self.checkPagesInBackground(pool, path: path, monitor: monitor, group: pageCheck)
        if let startFailure { writer.fail(startFailure) }
    }

    // MARK: - Reads

    /// Reads session `id`'s newest snapshot and replays the journal records after it, in one read transaction on a
    /// reader connection (never the writer's).
    public func load(_ id: SessionID) throws(StorageError) -> StoredLookup {
        do {
            return try pool.read { db -> StoredLookup in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT token_digest, created_at, last_access, expired_at, ended_by_repair,
                                snapshots.core AS snapshot, snapshots.number AS snapshot_number
                            FROM sessions LEFT JOIN snapshots ON snapshots.session_id = sessions.id
                                AND snapshots.number = (SELECT max(number) FROM snapshots WHERE session_id = sessions.id)
                            WHERE id = ?
                            """, arguments: [id.rawValue])
                else { return .none }
                let token = SessionToken(digest: [UInt8](row["token_digest"] as Data))
                if (row["expired_at"] as Double?) != nil {
                    return row["ended_by_repair"] as Bool ? .lost(token) : .expired(token)
                }
                guard let snapshot = row["snapshot"] as Data? else {
                    throw StorageError.unusable(path: path, reason: "session \(id) has no snapshot")
                }
                let (core, number) = try Self.value(
                    of: id, snapshot: snapshot, number: row["snapshot_number"], features: features, path: path, db)
                return .found(
                    StoredSession(
                        id: id, token: token, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                        lastAccess: Date(timeIntervalSince1970: row["last_access"]), core: core, journalNumber: number,
                        copy: copies.wrappingAdd(1, ordering: .relaxed).newValue))
            }
        } catch let error as StorageError {
            throw error
        } catch let error as StoredFeatureError {
            throw .undecodable(session: id, error)
        } catch ReplayError.undecodable(let error) {
            throw .undecodable(session: id, error)
        } catch {
            // A damaged page found by a read: say so (the log, /readyz), as a write that met it would.
            let health = Self.health(after: error, path: path)
            if case .broken = health { monitor.set(health) }
            throw .failed(reason: "reading session \(id) from \(path): \(Self.describe(error))")
        }
    }

    /// Session `id`'s value: its newest snapshot (`snapshot`, journal number `number`) with the journal's records
    /// after it replayed, and the number of the last.
    /// - Throws: ``StorageError/unusable(path:reason:)`` for a gap in the journal; ``StoredFeatureError`` or
    ///   ``ReplayError`` for data `features` does not decode; what SQLite or the formats throw.
    static func value(
        of id: SessionID, snapshot: Data, number: Int, features: FeatureTypes, path: String, _ db: Database
    ) throws -> (core: SessionCore, number: Int) {
        var core = try features.jsonDecoder().decode(SessionCore.self, from: StoredValueFormat.json(snapshot))
        let inputs = try Row.fetchAll(
            db, sql: "SELECT number, input FROM journal WHERE session_id = ? AND number > ? ORDER BY number",
            arguments: [id.rawValue, number])
        var number = number
        for input in inputs {
            let next: Int = input["number"]
            guard next == number + 1 else {
                throw StorageError.unusable(path: path, reason: "session \(id)'s journal has a gap at \(number + 1)")
            }
            try core.replay(JournalRecordFormat.decode(input["input"] as Data))
            number = next
        }
        return (core, number)
    }

    /// At most `limit` sessions whose earliest timer falls due before `instant`, soonest first (the whole file is this
    /// node's).
    public func sessionsDue(before instant: Date, limit: Int) throws(StorageError) -> [SessionID] {
        do {
            return try pool.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT id FROM sessions WHERE next_due_at < ? AND expired_at IS NULL ORDER BY next_due_at LIMIT ?",
                    arguments: [instant.timeIntervalSince1970, limit])
            }.map(SessionID.init)
        } catch {
            throw .failed(reason: "listing sessions with timers: \(Self.describe(error))")
        }
    }

    /// How many sessions (not tombstones) the store holds.
    public func sessionCount() throws(StorageError) -> Int {
        do {
            return try pool.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE expired_at IS NULL") ?? 0
            }
        } catch {
            throw .failed(reason: "counting sessions: \(Self.describe(error))")
        }
    }

    // MARK: - Writes (through the writer)

    /// Encodes session `session`'s first snapshot here, on the caller's thread, and queues its row on the writer.
    public func create(
        _ session: StoredSession, completion: @escaping @Sendable (Bool) -> Void
    ) throws(UnstorableValue) {
        writer.enqueue(try .create(session, snapshot: StoredValueFormat.encode), completion: completion)
    }

    /// Encodes `entry` here, on the caller's thread (the writer is the one serial step of every event).
    @discardableResult
    public func append(
        _ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void
    ) throws(UnstorableValue) -> Int {
        let write = try JournalWrite.append(entry, fence: 0, snapshot: StoredValueFormat.encode)
        writer.enqueue(write, completion: completion)
        return write.snapshotBytes
    }

    /// Queues the removal of session `id` (a tombstone with `expiredAt`) on the writer, after its queued entries.
    public func remove(_ id: SessionID, expiredAt: Date?, completion: @escaping @Sendable (Bool) -> Void) {
        writer.enqueue(.remove(id, expiredAt: expiredAt), completion: completion)
    }

    /// Queues the last-use times on the writer, which batches them with the journal writes, a few hundred at a time
    /// (``JournalWriter/enqueueAccess(_:)``).
    public func recordAccess(_ times: [(SessionID, Date)]) {
        writer.enqueueAccess(times)
    }

    /// Expires idle stored sessions that are not in memory, forgets old tombstones, and returns free pages.
    public func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int {
        guard !writer.isStopped, writer.mayWrite() else { return 0 }
        return (try? statements.expire(idleBefore: cutoff, forgetBefore: forgetBefore, except: live).count) ?? 0
    }

    /// The file's health: `failing` after a write failed, `broken` once a page check or write found it damaged.
    public var health: StorageHealth { monitor.health }

    /// Calls `handler` whenever the file's health changes.
    public func onHealthChange(_ handler: @escaping @Sendable (StorageHealth) -> Void) {
        monitor.onChange(handler)
    }

    /// The bytes the file's used pages take, as of the last commit (free pages not counted).
    public var usedBytes: Int? { statements.usedBytes.load(ordering: .relaxed) }

    /// The writer's transactions and the writes they carried since start.
    public var commitCounts: (commits: Int, writes: Int) {
        writer.counts.withLock { ($0.batches, $0.writes) }
    }

    /// Writes what is queued, moves everything committed into the main file (a full checkpoint) and closes the
    /// file, so a stopped store is that one file, with no `-wal` or `-shm` beside it; then lets go of the directory.
    public func close() {
        writer.drainAndStop()
        statements.checkpointer.stop()
        // A page check still running is cut short (SQLite's interrupt: its read fails, and it reports nothing),
        // and waited for before the pool closes; interrupted again until it ends, since one that had not started
        // its read yet would miss a single interrupt and run to its end.
        while pageCheck.wait(timeout: .now() + .milliseconds(20)) == .timedOut { pool.interrupt() }
        if (try? pool.writeWithoutTransaction({ try $0.checkpoint(.truncate) })) != nil {
            statements.ledger.reset(walGeneration: nil)
            // Every commit is in the file: no ledger is needed to check it (one deleted now loses nothing), and
            // that is in the file too.
            if (try? pool.write({ try StoreAudit.requireLedger(false, in: $0) })) != nil {
                _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            }
        }
        // The readers first (GRDB closes its writer first, and the last connection to close must be the writer for
        // SQLite to remove the -wal and -shm).
        pool.releaseMemory()
        try? pool.close()
        lock.release()
    }

    // MARK: - Errors

    /// The store's health after `error`: broken when SQLite found the file damaged (it cannot be written safely,
    /// and retrying does not help), failing otherwise (a full disk, an I/O error, a file made read-only).
    static func health(after error: any Error, path: String) -> StorageHealth {
        if StoreAudit.isDamage(error) {
            return .broken(
                "\(path) is damaged: \(StoreAudit.damage(of: path, error: error)); run viewhost check, then restore a backup"
            )
        }
        return .failing("\(path): \(describe(error))")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
        }
        return reason(of: error)
    }

    /// The system's words for the POSIX error under `error` (such as "Permission denied"), else its description.
    static func reason(of error: any Error) -> String {
        var current: NSError? = error as NSError
        while let error = current {
            if error.domain == NSPOSIXErrorDomain, let message = strerror(Int32(error.code)) {
                return String(cString: message)
            }
            current = error.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return (error as NSError).localizedDescription
    }
}
