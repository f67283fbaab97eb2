import Foundation
import GRDB
import ViewModelCore

#if canImport(Glibc)
import Glibc
#endif

/// Opening a store: the data directory and its files are checked before SQLite sees them, so a store this process
/// may not use is refused at start with one line naming the file and why (never a server that starts and then
/// answers every write 503).
extension SQLiteSessionStorage {
    /// The files of a store in its directory besides the database: SQLite's write-ahead log and its index, and
    /// the lock.
    static func companionFiles(of path: String, in directory: String) -> [String] {
        [path + "-wal", path + "-shm", (directory as NSString).appendingPathComponent(DataDirectoryLock.fileName)]
    }

    /// Makes `directory` when missing (private: 0700), checks that it and the store's files can be read and
    /// written by this process, and makes a new database file private (0600) before SQLite opens it, so its
    /// `-wal` and `-shm` (which take its mode) are private too; files an earlier release made 0644 are made 0600.
    /// - Returns: The database file's path.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)`` naming the directory, and the file when one is the
    ///   cause.
    static func prepare(directory: String) throws(StorageError) -> String {
        let manager = FileManager.default
        if let what = whatIsNotADirectory(directory) { throw .cannotCreate(path: directory, reason: what) }
        if !manager.fileExists(atPath: directory) {
            do {
                try manager.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                // Foundation's error says little; the system call says why ("Not a directory", "Permission denied").
                let reason = mkdir(directory, 0o700) == 0 ? Self.reason(of: error) : String(cString: strerror(errno))
                throw .cannotCreate(path: directory, reason: "it is missing and cannot be made: \(reason)")
            }
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw .cannotCreate(path: directory, reason: "it is not writable")
        }
        let path = (directory as NSString).appendingPathComponent(fileName)
        for file in [path] + companionFiles(of: path, in: directory) where manager.fileExists(atPath: file) {
            try checkReadableAndWritable(file, in: directory)
            if file != companionFiles(of: path, in: directory).last, ownedByThisProcess(file) { chmod(file, 0o600) }
        }
        if !manager.fileExists(atPath: path) {
            let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard created >= 0 else {
                throw .cannotCreate(
                    path: directory, reason: "\(path) cannot be made: \(String(cString: strerror(errno)))")
            }
            Glibc.close(created)
        }
        return path
    }

    /// What stands at `path` instead of a directory, in words ("it is a file, not a directory"); nil when nothing
    /// does (then the directory is missing). "File exists" was all `mkdir` said of a file, a symbolic link loop or a
    /// link to nothing.
    static func whatIsNotADirectory(_ path: String) -> String? {
        var link = stat()
        guard lstat(path, &link) == 0 else { return nil }
        var target = stat()
        if stat(path, &target) != 0 {
            let code = errno
            guard link.st_mode & S_IFMT == S_IFLNK else { return nil }
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return code == ELOOP
                ? "it is a symbolic link loop (it points to \(destination), which leads back to itself)"
                : "it is a symbolic link to \(destination), which does not exist"
        }
        switch target.st_mode & S_IFMT {
        case S_IFDIR: return nil
        case S_IFREG: return "it is a file, not a directory"
        default: return "it is not a directory (a device, socket or pipe)"
        }
    }

    /// Refuses `file` when this process may not read and write it, saying whose it is.
    private static func checkReadableAndWritable(_ file: String, in directory: String) throws(StorageError) {
        guard access(file, R_OK | W_OK) != 0 else { return }
        let code = errno
        guard code != EROFS else {
            throw .cannotCreate(path: directory, reason: "\(file) is read-only: its file system is mounted read-only")
        }
        var info = stat()
        stat(file, &info)
        throw .cannotCreate(
            path: directory,
            reason: "\(file) is read-only for this user (uid \(getuid())): it belongs to uid \(info.st_uid) with mode "
                + "\(String(info.st_mode & 0o777, radix: 8)) (a first run as another user?); give the data directory "
                + "and its files to the user the server runs as")
    }

    private static func ownedByThisProcess(_ file: String) -> Bool {
        var info = stat()
        return stat(file, &info) == 0 && info.st_uid == geteuid()
    }

    /// A file shorter than its header says (it was cut off) is refused at start, instead of serving new sessions
    /// from a damaged file while old ones answer 503. The full look at every page (SQLite's quick check) follows
    /// once the server has started (``checkPagesInBackground(_:path:monitor:)``): on a large store it takes seconds
    /// with a warm cache, and a cold one was measured at 45 s for 1.2 GB here, too long to wait before listening.
    /// - Throws: ``StorageError/unusable(path:reason:)``.
    static func checkSize(path: String) throws(StorageError) {
        guard let cut = StoreAudit.sizeDiagnosis(of: path) else { return }
        throw .unusable(
            path: path,
            reason: "it is damaged: \(cut); viewhost check says what is lost; restore a backup (docs/OPERATIONS.md)")
    }

    /// Runs SQLite's quick check of every page on a thread of its own, inside `group` (which ``close()`` waits
    /// for); a damaged page makes the store broken (one log line, `/readyz` 503, writes refused).
    static func checkPagesInBackground(
        _ pool: DatabasePool, path: String, monitor: StorageHealthMonitor, group: DispatchGroup
    ) {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            do {
                guard let problem = try pool.read({ try StoreAudit.integrity($0, full: false) }) else { return }
                monitor.set(.broken("\(path) is damaged: \(problem); run viewhost check, then restore a backup"))
            } catch  where StoreAudit.isDamage(error) {
                monitor.set(SQLiteSessionStorage.health(after: error, path: path))
            } catch {
                // The store is closing (its interrupt cut the check short): nothing was found.
            }
        }
    }

    /// What the ledger (`found`, read before the store made one) says was acknowledged against what the file
    /// holds: a session whose acknowledged records are missing (the write-ahead log was damaged, or deleted while a
    /// server ran) is refused at start, so a version number is never handed out again for other content; so is a
    /// ledger damaged, or missing while the file says one must be there (emptied or deleted, it would hide a
    /// damaged log: the start would find nothing acknowledged, hence nothing lost).
    /// - Throws: ``StorageError/unusable(path:reason:)``.
    static func checkAcknowledged(_ pool: DatabasePool, path: String, found: CommitLedger.Contents) throws {
        let ledger = CommitLedger.path(of: path)
        if let absence = try pool.read({ try StoreAudit.ledgerAbsence($0, ledger: found) }) {
            throw StorageError.unusable(
                path: ledger, reason: absence + "; viewhost repair starts a new one (docs/OPERATIONS.md)")
        }
        if let damagedAt = found.damagedAt {
            throw StorageError.unusable(
                path: ledger,
                reason: "it is damaged at byte \(damagedAt), so what was acknowledged after it cannot be checked; "
                    + "viewhost check compares the rest; docs/OPERATIONS.md says what to do")
        }
        let lost = try pool.read { try StoreAudit.lostRecords($0, acknowledged: found.acknowledged) }
        guard !lost.isEmpty else { return }
        throw StorageError.unusable(
            path: path,
            reason: StoreAudit.summary(lost)
                + "; viewhost check lists them; viewhost repair ends those sessions (docs/OPERATIONS.md)")
    }

    /// Brings a new or older database up to date; refuses a foreign, newer or corrupt one.
    static func migrate(_ pool: some DatabaseWriter, path: String) throws {
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

    /// Writes the heartbeat row once: a store SQLite opened but cannot write (a read-only mount, a file another
    /// user owns that slipped past the checks) is refused at start instead of failing every write. With it, when
    /// `ledgerBegun`, the file says a ledger must be there from now on (until a clean stop).
    /// - Returns: Any other failure (a full disk): the store starts `failing`, as while serving.
    /// - Throws: ``StorageError/cannotCreate(path:reason:)`` when SQLite says the database is read-only.
    static func checkWritable(
        _ pool: DatabasePool, path: String, directory: String, ledgerBegun: Bool
    ) throws(StorageError) -> (any Error)? {
        do {
            try pool.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO heartbeat (id, at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET at = excluded.at",
                    arguments: [Date().timeIntervalSince1970])
                if ledgerBegun { try StoreAudit.requireLedger(true, in: db) }
            }
            return nil
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw .cannotCreate(path: directory, reason: "\(path) is read-only for this process: \(describe(error))")
        } catch {
            return error
        }
    }
}
