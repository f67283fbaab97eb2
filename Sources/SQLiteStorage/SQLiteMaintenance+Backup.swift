import Foundation
import GRDB
import ViewModelCore

#if canImport(Glibc)
import Glibc
#endif

extension SQLiteMaintenance {
    /// Copies the store in `directory` to `output` (made 0600; it must not exist) with SQLite's online backup: a
    /// consistent copy even while a server writes to it. The copy is checked before it is kept: its pages (SQLite's
    /// quick check), the ledger against it, and each journal. A store that `check` finds damaged or that a server
    /// refuses (acknowledged records missing, a ledger damaged or missing while one must be there) is not copied:
    /// the copy would hold no ledger, so restored it would start and hand out again the versions it lost.
    ///
    /// A copy that is kept holds every commit the ledger vouched for, in one file with no write-ahead log: it needs
    /// no ledger, and says so (a server that opens it starts one, and detects loss from then on).
    /// - Returns: How many sessions the copy holds.
    /// - Throws: ``StorageError/noStore(path:)`` when there is no store; ``StorageError/unusable(path:reason:)``
    ///   when it cannot be read or is damaged (nothing is left at `output`); ``StorageError/cannotWrite(path:reason:)``
    ///   when the copy cannot be made.
    public static func backup(directory: String, to output: String) throws(StorageError) -> Int {
        let ledger = CommitLedger.path(
            of: (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName))
        // The ledger before the copy: a server writing meanwhile only adds to the copy what the ledger will say.
        let found = CommitLedger.read(ledger)
        let source = try open(directory)
        // Made here, private (0600) as the store is, before SQLite opens it; a file that exists is never overwritten.
        let made = Glibc.open(output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            let reason = errno == EEXIST ? "it exists already; name a new file" : String(cString: strerror(errno))
            throw .cannotWrite(path: output, reason: reason)
        }
        close(made)
        let (count, problems): (Int, [String])
        do {
            let destination = try DatabaseQueue(path: output)
            defer { try? destination.close() }
            try source.queue.backup(to: destination)
            (count, problems) = try destination.write { db -> (Int, [String]) in
                var problems = try StoreAudit.integrity(db, full: false).map { [$0] } ?? []
                problems += try ledgerFindings(db, ledger: ledger, found: found)
                problems += try StoreAudit.journalGaps(db).prefix(3).map(\.description)
                if try StoreAudit.ledgerRequired(db) { try StoreAudit.requireLedger(false, in: db) }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE expired_at IS NULL") ?? 0
                return (count, problems)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            guard StoreAudit.isDamage(error) else {
                throw .cannotWrite(path: output, reason: SQLiteSessionStorage.describe(error))
            }
            // The copy's checks met a damaged page of the store's.
            throw .unusable(
                path: source.path,
                reason: "no backup was written, as the store is damaged: "
                    + "\(SQLiteSessionStorage.describe(error)); viewhost check says what is wrong (docs/OPERATIONS.md)")
        }
        guard problems.isEmpty else {
            try? FileManager.default.removeItem(atPath: output)
            throw .unusable(
                path: source.path,
                reason: "no backup was written, as the store is damaged: " + problems.joined(separator: "; ")
                    + "; viewhost check says what is wrong (docs/OPERATIONS.md)")
        }
        return count
    }
}
