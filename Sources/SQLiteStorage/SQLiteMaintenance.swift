import Foundation
import GRDB
import ViewModelCore

/// Operations on a store outside a server: an online backup of a sound store (SQLiteMaintenance+Backup), a check
/// that says in a few lines what is wrong and what was lost, and a repair that ends the sessions a check finds
/// damaged. Backup and check only read the data directory (see ``ReadableStore``); repair writes it, and only while
/// no server uses it.
public enum SQLiteMaintenance {
    /// What ``check(directory:features:)`` found.
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

    /// Checks the store in `directory`: SQLite's full integrity check, the sessions that cannot be read, what the
    /// ledger says was acknowledged against what the file holds, each journal's records (a gap), and participants or
    /// join invitations of sessions that are gone; with
    /// `features`, the app's, also what the start would refuse of them and every session that does not decode with
    /// them (``featureFindings(_:path:features:)``).
    /// - Returns: The findings, a few lines at most (each list is cut to its first entries).
    /// - Throws: ``StorageError/noStore(path:)`` when there is no store; ``StorageError/unusable(path:reason:)``
    ///   when the file is not a ViewHost store or cannot be opened at all.
    public static func check(directory: String, features: FeatureTypes? = nil) throws(StorageError) -> Report {
        let store: ReadableStore
        let ledger = CommitLedger.path(
            of: (directory as NSString).appendingPathComponent(SQLiteSessionStorage.fileName))
        // The ledger before the file: a server writing meanwhile only adds to the file what the ledger will say.
        let found = CommitLedger.read(ledger)
        do {
            store = try ReadableStore(directory: directory)
        } catch let damaged as ReadableStore.Damaged {
            // Nothing of it can be read: that, and what the ledger says was acknowledged lately, is all there is.
            let recent = found.acknowledged.values.filter { $0 != CommitLedger.removed }.count
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
            examine("comparing with the ledger", into: &problems) {
                try ledgerFindings(db, ledger: ledger, found: found)
            }
            examine("checking the journals", into: &problems) {
                let gaps = try StoreAudit.journalGaps(db)
                return gaps.prefix(3).map(\.description)
                    + (gaps.count > 3 ? ["\(gaps.count - 3) more sessions have a gap in their journal"] : [])
            }
            examine("checking the participants", into: &problems) {
                try StoreAudit.describe(stray: StoreAudit.strayParticipants(db)).map { ["\($0) (repair removes them)"] }
                    ?? []
            }
            if let features {
                examine("decoding the sessions with the app's features", into: &problems) {
                    try featureFindings(db, path: store.path, features: features)
                }
            }
            return Report(sessions: total, problems: problems)
        }
    }

    /// Ends the sessions a check finds damaged in the store in `directory` (acknowledged records missing, a gap in
    /// the journal, no snapshot), so their holders are told (`410` saying so, or `404` for a session lost entirely)
    /// instead of being answered `503` or served a version again for other content; then starts the ledger again,
    /// which lets a store whose ledger was damaged, emptied or deleted start (what it would have found lost stays
    /// unknown, and is said); and removes participants and join invitations of sessions that are gone. A file that SQLite finds damaged is not mended: restore a backup.
    /// - Returns: What it did, one line each: the ledger it started again in place of a damaged or missing one,
    ///   every session ended, the stray participants removed; empty when there was nothing to repair.
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
        let found = CommitLedger.read(ledger)
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            if let integrity = try queue.read({ try StoreAudit.integrity($0, full: true) }) {
                throw StorageError.unusable(
                    path: path, reason: "it is damaged: \(integrity); repair cannot mend it: restore a backup")
            }
            // A store of an earlier build gets the column that says a session was ended here.
            try SQLiteSessionStorage.migrate(queue, path: path)
            let done = try queue.write { db -> [String] in
                var done: [String] = []
                // Started again below: what it would have found lost stays unknown, and is said.
                if let absence = try StoreAudit.ledgerAbsence(db, ledger: found) {
                    done.append(
                        "\(ledger): \(absence); started a new ledger (the sessions that lost records, if any, go on)")
                } else if let damagedAt = found.damagedAt {
                    done.append(
                        "\(ledger): it is damaged at byte \(damagedAt), so what was acknowledged after it cannot be "
                            + "checked; started a new ledger (the sessions that lost records after it, if any, go on)")
                }
                for lost in try StoreAudit.lostRecords(db, acknowledged: found.acknowledged) {
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
                if let stray = try StoreAudit.describe(stray: StoreAudit.strayParticipants(db)) {
                    try StoreAudit.removeStrayParticipants(db)
                    done.append("removed \(stray)")
                }
                // Everything is in the file once the checkpoint below ends: no ledger is needed until a server starts.
                try StoreAudit.requireLedger(false, in: db)
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
    static func open(_ directory: String) throws(StorageError) -> ReadableStore {
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

    /// Ends session `id` as expiry does (its value and journal go, its token digest stays as a tombstone), marked
    /// as ended by repair: its holder is told it lost acknowledged changes, not that it was idle.
    private static func end(_ id: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM journal WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM snapshots WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM invitations WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM contacts WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM join_invitations WHERE session_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM participants WHERE session_id = ?", arguments: [id])
        try db.execute(
            sql: "UPDATE sessions SET expired_at = ?, next_due_at = NULL, ended_by_repair = 1 WHERE id = ?",
            arguments: [Date().timeIntervalSince1970, id])
    }

    /// What the ledger at `ledger` (`found`, read before the file) says against the file, one line each: missing
    /// while one must be there, damaged, acknowledged records the file lacks; empty when they agree. A session the
    /// ledger as it is now says was removed since is not lost: its removal came after the ledger was read.
    static func ledgerFindings(_ db: Database, ledger: String, found: CommitLedger.Contents) throws -> [String] {
        var findings: [String] = []
        if let absence = try StoreAudit.ledgerAbsence(db, ledger: found) { findings.append("\(ledger): \(absence)") }
        if let damagedAt = found.damagedAt {
            findings.append(
                "\(ledger) is damaged at byte \(damagedAt): what was acknowledged after it cannot be checked")
        }
        var lost = try StoreAudit.lostRecords(db, acknowledged: found.acknowledged)
        if !lost.isEmpty {
            let now = CommitLedger.read(ledger).acknowledged
            lost.removeAll { now[$0.session] == CommitLedger.removed }
        }
        if !lost.isEmpty { findings.append(StoreAudit.summary(lost)) }
        return findings
    }
}
