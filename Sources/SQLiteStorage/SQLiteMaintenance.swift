import Foundation
import GRDB
import ViewModelCore

#if canImport(Glibc)
    import Glibc
#endif

/// Operations on a store outside a server: an online backup, a check that says in a few lines what is wrong and
/// what was lost, and a repair that ends the sessions a check finds damaged. Backup and check only read the data
/// directory (see ``ReadableStore``); repair writes it, and only while no server uses it.
public enum SQLiteMaintenance {
    /// What ``check(directory:)`` found.
    public struct Report: Sendable, Equatable {
        /// The sessions the store holds (not counting tombstones); nil when it cannot be read at all.
        public let sessions: Int?
        /// What is wrong, one short line each; empty when the store is sound.
        public let problems: [String]

        /// Whether nothing is wrong.
        public var isSound: Bool { problems.isEmpty }

        /// Creates a report.
        public init(sessions: Int?, problems: [String]) {
            self.sessions = sessions
            self.problems = problems
        }
    }

    /// Copies the store in `directory` to `output` (made 0600; it must not exist) with SQLite's online backup: a
    /// consistent copy even while a server writes to it.
    /// - Returns: How many sessions the copy holds.
    /// - Throws: ``StorageError/noStore(path:)`` when there is no store; ``StorageError/unusable(path:reason:)``
    ///   when it cannot be read; ``StorageError/cannotWrite(path:reason:)`` when the copy cannot be made.
    public static func backup(directory: String, to output: String) throws(StorageError) -> Int {
        let source = try open(directory)
        // Made here, private (0600) as the store is, before SQLite opens it; a file that exists is never overwritten.
        let made = Glibc.open(output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            let reason = errno == EEXIST ? "it exists already; name a new file" : String(cString: strerror(errno))
            throw .cannotWrite(path: output, reason: reason)
        }
        close(made)
        do {
            let destination = try DatabaseQueue(path: output)
            try source.queue.backup(to: destination)
            defer { try? destination.close() }
            return try destination.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE expired_at IS NULL") ?? 0
            }
        } catch {
            throw .cannotWrite(path: output, reason: SQLiteSessionStorage.describe(error))
        }
    }

    /// Checks the store in `directory`: SQLite's full integrity check, the sessions that cannot be read, what the
    /// ledger says was acknowledged against what the file holds, and each journal's records (a gap).
    /// - Returns: The findings, a few lines at most (each list is cut to its first entries).
    /// - Throws: ``StorageError/noStore(path:)`` when there is no store; ``StorageError/unusable(path:reason:)``
    ///   when the file is not a ViewHost store or cannot be opened at all.
    public static func check(directory: String) throws(StorageError) -> Report {
        let store: ReadableStore
        let ledger = CommitLedger.path(
            of: (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName))
        // The ledger before the file: a server writing meanwhile only adds to the file what the ledger will say.
        let (acknowledged, ledgerDamagedAt) = CommitLedger.read(ledger)
        do {
            store = try ReadableStore(directory: directory)
        } catch let damaged as ReadableStore.Damaged {
            // Nothing of it can be read: that, and what the ledger says was acknowledged lately, is all there is.
            let recent = acknowledged.values.filter { $0 != CommitLedger.removed }.count
            return Report(
                sessions: nil,
                problems: ["\(damaged.path): \(damaged.reason)", "none of its sessions can be read"]
                    + (recent > 0 ? ["the ledger names \(recent) sessions written since the last checkpoint"] : []))
        } catch {
            throw error as? StorageError ?? .unusable(path: directory, reason: "\(error)")
        }
        // Without a transaction around them: SQLite ends a transaction that meets a damaged page, and each
        // examination goes on its own (a damaged file may fail one and still answer the next).
        return store.queue.inDatabase { db in
            var problems: [String] = []
            examine("SQLite's integrity check", into: &problems) {
                try StoreAudit.integrity(db, full: true).map { [$0] } ?? []
            }
            var total = 0
            examine("reading the sessions", into: &problems) {
                let (unreadable, count) = try StoreAudit.unreadableSessions(db)
                total = count
                guard !unreadable.isEmpty else { return [] }
                return [
                    "\(unreadable.count) of \(count) sessions cannot be read: "
                        + unreadable.prefix(3).joined(separator: ", ") + (unreadable.count > 3 ? ", …" : "")
                ]
            }
            if let ledgerDamagedAt {
                problems.append(
                    "\(ledger) is damaged at byte \(ledgerDamagedAt): what was acknowledged after it cannot be checked")
            }
            examine("comparing with the ledger", into: &problems) {
                let lost = try StoreAudit.lostRecords(db, acknowledged: acknowledged)
                return lost.isEmpty ? [] : [StoreAudit.summary(lost)]
            }
            examine("checking the journals", into: &problems) {
                let gaps = try StoreAudit.journalGaps(db)
                return gaps.prefix(3).map(\.description)
                    + (gaps.count > 3 ? ["\(gaps.count - 3) more sessions have a gap in their journal"] : [])
            }
            return Report(sessions: total, problems: problems)
        }
    }

    /// Ends the sessions a check finds damaged in the store in `directory` (acknowledged records missing, a gap in
    /// the journal, no snapshot), so their holders are told (`410`, or `404` for a session lost entirely) instead of
    /// being answered `503` or served a version again for other content; then starts the ledger again. A file that
    /// SQLite finds damaged is not mended: restore a backup.
    /// - Returns: What it did, one line per session ended.
    /// - Throws: ``StorageError/inUse(path:reason:)`` while a server uses the directory; ``StorageError/noStore(path:)``;
    ///   ``StorageError/unusable(path:reason:)`` for a damaged file.
    public static func repair(directory: String) throws(StorageError) -> [String] {
        let path = (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .noStore(path: path)
        }
        let lock = try DataDirectoryLock(directory: directory)
        defer { lock.release() }
        let ledger = CommitLedger.path(of: path)
        let (acknowledged, _) = CommitLedger.read(ledger)
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            let done = try queue.write { db -> [String] in
                if let integrity = try StoreAudit.integrity(db, full: true) {
                    throw StorageError.unusable(
                        path: path, reason: "it is damaged: \(integrity); repair cannot mend it: restore a backup")
                }
                var done: [String] = []
                for lost in try StoreAudit.lostRecords(db, acknowledged: acknowledged) {
                    guard lost.stored != nil else {
                        done.append("\(lost) (its holder gets 404)")
                        continue
                    }
                    try end(lost.session.rawValue, in: db)
                    done.append("ended \(lost): its holder gets 410")
                }
                for gap in try StoreAudit.journalGaps(db) {
                    try end(gap.session, in: db)
                    done.append("ended \(gap): its holder gets 410")
                }
                return done
            }
            _ = try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try? FileManager.default.removeItem(atPath: ledger)
            return done
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unusable(path: path, reason: SQLiteSessionStorage.describe(error))
        }
    }

    /// The store in `directory`, opened for reading (a damaged one is `unusable`).
    private static func open(_ directory: String) throws(StorageError) -> ReadableStore {
        do {
            return try ReadableStore(directory: directory)
        } catch let damaged as ReadableStore.Damaged {
            throw .unusable(path: damaged.path, reason: damaged.reason)
        } catch {
            throw error as? StorageError ?? .unusable(path: directory, reason: "\(error)")
        }
    }

    /// Appends what `examination` finds, or one line saying that `what` could not finish.
    private static func examine(_ what: String, into problems: inout [String], _ examination: () throws -> [String]) {
        do {
            problems += try examination()
        } catch {
            problems.append("\(what) cannot finish: \(SQLiteSessionStorage.describe(error))")
        }
    }

    /// Ends session `id` as expiry does: its value and journal go, its token digest stays as a tombstone.
    private static func end(_ id: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM journal WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM snapshots WHERE session_id = ?", arguments: [id])
        try db.execute(
            sql: "UPDATE sessions SET expired_at = ?, next_due_at = NULL WHERE id = ?",
            arguments: [Date().timeIntervalSince1970, id])
    }
}
