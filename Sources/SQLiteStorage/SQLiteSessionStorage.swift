import Foundation
import GRDB
import Synchronization
import ViewHostLocking
import ViewModelCore

/// SQLiteStorage is the embedded durable store: sessions, their journals and snapshots in one SQLite file in WAL
/// mode, through GRDB. It implements ViewModelCore's ``SessionStorage`` seam and knows nothing of HTTP or of any
/// feature.
///
/// One writer (a serial queue) takes every queued write at once and commits them in one transaction, so events
/// that arrive together share one sync (group commit); readers read concurrently from GRDB's pool and never wait
/// for the writer. With `sync: .full`, a committed entry survives power loss; with `.normal`, a process crash.
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
    let writer: SQLiteWriter
    /// How many of each session's latest inputs are kept for its past versions (0: none).
    public let historyInputs: Int

    /// Opens (making it when missing) the store in `directory`.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)`` when the directory cannot be made or written;
    ///   ``StorageError/unusable(path:reason:)`` when the file is corrupt, not a ViewHost store, or newer, or when
    ///   its sessions hold feature data `features` cannot read (a feature not registered, or a schema version it
    ///   does not migrate from).
    /// - Parameter historyInputs: How many of each session's latest inputs are kept, with the snapshots they need,
    ///   so its past versions can be rebuilt (0: only what a restart needs).
    public init(directory: String, sync: Sync, features: FeatureTypes, historyInputs: Int = 0) throws(StorageError) {
        // A file-size limit (RLIMIT_FSIZE) must make a write fail, not kill the server: then the write's event gets
        // 503 and reads go on, as for a full disk.
        signal(SIGXFSZ, SIG_IGN)
        path = try Self.prepare(directory: directory)
        self.features = features
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(sync == .full ? "FULL" : "NORMAL")")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrate(pool, path: path)
            try Self.checkFeatureSchemas(pool, path: path, features: features)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unusable(path: path, reason: Self.describe(error))
        }
        self.historyInputs = max(0, historyInputs)
        writer = SQLiteWriter(pool: pool, historyInputs: self.historyInputs)
    }

    /// Makes `directory` when missing and checks it can be written.
    /// - Returns: The database file's path.
    static func prepare(directory: String) throws(StorageError) -> String {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            // Foundation's error says little; the system call says why ("Not a directory", "Permission denied").
            let reason = mkdir(directory, 0o755) == 0 ? Self.reason(of: error) : String(cString: strerror(errno))
            throw .cannotCreate(path: directory, reason: "it is missing and cannot be made: \(reason)")
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw .cannotCreate(path: directory, reason: "it is not writable")
        }
        return (directory as NSString).appendingPathComponent(fileName)
    }

    /// Brings a new or older database up to date; refuses a foreign, newer or corrupt one.
    private static func migrate(_ pool: DatabasePool, path: String) throws {
        let migrator = SQLiteSchema.migrator
        try pool.writeWithoutTransaction { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
            if tables == 0 {
                // A new file: reclaimable free pages (a periodic incremental vacuum returns them to the system).
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                try db.execute(sql: "PRAGMA application_id = \(SQLiteSchema.applicationID)")
            } else if applicationID != SQLiteSchema.applicationID {
                throw StorageError.unusable(path: path, reason: "not a ViewHost store (another application's database)")
            }
            if try migrator.hasBeenSuperseded(db) {
                throw StorageError.unusable(
                    path: path, reason: "written by a newer ViewHost (its schema has migrations this version lacks)")
            }
        }
        try migrator.migrate(pool)
    }

    // MARK: - Reads

    public func load(_ id: SessionID) throws(StorageError) -> StoredLookup {
        defer {
            // Whatever the session's previous copy queued is behind this: it may write again.
            writer.enqueue(.reset(id)) { _ in }
        }
        do {
            return try pool.read { db -> StoredLookup in
                guard let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT token_digest, created_at, last_access, expired_at, last_number,
                            snapshots.core AS snapshot, snapshots.number AS snapshot_number
                        FROM sessions LEFT JOIN snapshots ON snapshots.session_id = sessions.id
                            AND snapshots.number = (SELECT max(number) FROM snapshots WHERE session_id = sessions.id)
                        WHERE id = ?
                        """, arguments: [id.rawValue])
                else { return .none }
                let token = SessionToken(digest: [UInt8](row["token_digest"] as Data))
                if (row["expired_at"] as Double?) != nil { return .expired(token) }
                guard let snapshot = row["snapshot"] as Data? else {
                    throw StorageError.unusable(path: path, reason: "session \(id) has no snapshot")
                }
                var core = try decoder().decode(SessionCore.self, from: snapshot)
                let snapshotNumber: Int = row["snapshot_number"]
                let inputs = try Row.fetchAll(
                    db, sql: "SELECT number, input FROM journal WHERE session_id = ? AND number > ? ORDER BY number",
                    arguments: [id.rawValue, snapshotNumber])
                var number = snapshotNumber
                for input in inputs {
                    let next: Int = input["number"]
                    guard next == number + 1 else {
                        throw StorageError.unusable(path: path, reason: "session \(id)'s journal has a gap at \(number + 1)")
                    }
                    try core.replay(JSONDecoder().decode(SessionInput.self, from: input["input"] as Data))
                    number = next
                }
                return .found(
                    StoredSession(
                        id: id, token: token, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                        lastAccess: Date(timeIntervalSince1970: row["last_access"]), core: core, journalNumber: number))
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .failed(reason: "reading session \(id): \(Self.describe(error))")
        }
    }

    public func sessionsWithTimers() throws(StorageError) -> [SessionID] {
        do {
            return try pool.read { db in
                try String.fetchAll(
                    db, sql: "SELECT id FROM sessions WHERE next_due_at IS NOT NULL AND expired_at IS NULL ORDER BY next_due_at")
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

    func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.featureTypes] = features
        return decoder
    }

    // MARK: - Writes (through the writer)

    public func create(_ session: StoredSession, completion: @escaping @Sendable (Bool) -> Void) {
        writer.enqueue(.create(session), completion: completion)
    }

    public func append(_ entry: JournalEntry, completion: @escaping @Sendable (Bool) -> Void) {
        writer.enqueue(.append(entry), completion: completion)
    }

    public func remove(_ id: SessionID, expiredAt: Date?, completion: @escaping @Sendable (Bool) -> Void) {
        writer.enqueue(.remove(id, expiredAt: expiredAt), completion: completion)
    }

    public func recordAccess(_ times: [(SessionID, Date)]) {
        guard !times.isEmpty else { return }
        writer.enqueue(.access(times)) { _ in }
    }

    public func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int {
        writer.expire(idleBefore: cutoff, forgetBefore: forgetBefore, except: live)
    }

    public var isWritable: Bool { writer.isWritable }

    public var commitCounts: (commits: Int, writes: Int) {
        writer.counts.withLock { ($0.batches, $0.entries) }
    }

    public func close() {
        writer.drainAndStop()
    }

    // MARK: - Errors

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
