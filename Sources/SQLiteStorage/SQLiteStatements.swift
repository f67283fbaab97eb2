import Foundation
import GRDB
import Synchronization
import ViewModelCore

/// The SQLite store's part of its ``JournalWriter``: the statements of a batch in one transaction of the pool's
/// writer connection, what it notes after a commit (the ledger, the pages in use), its probe, and its checks of the
/// write-ahead log (``SQLiteStatements+Health``). Statements are prepared once per connection (`cachedStatement`):
/// parsing SQL for every write was 30 % of the writer's time.
///
/// A record is one insert into `journal`, checked to follow the session's last record (or its snapshot) in the same
/// statement, unless that record was written a moment before in the same transaction (a run of one session's
/// records: an import, a burst); the session's row is written only when its earliest timer moves, never for every
/// event (its last record is the journal's, its last access is written behind, batched).
final class SQLiteStatements: JournalStatements {
    let pool: DatabasePool
    let path: String
    /// What was acknowledged, kept outside the database (see ``CommitLedger``).
    let ledger: CommitLedger
    /// SQLite's write-ahead log, watched (nil when it could not be opened at start).
    let wal: WriteAheadLog?
    /// What copies the log into the main file, told of every commit.
    let checkpointer: LogCheckpointer
    /// Where the write-ahead log's loss is said (it makes the store broken).
    let monitor: StorageHealthMonitor
    /// The bytes of the pages in use (not free) after the last commit: what the store's quota counts.
    let usedBytes = Atomic<Int>(0)
    /// How many of each session's latest inputs its history keeps (``HistoryRetention``).
    let historyInputs: Int

    /// A failing store is probed every two seconds.
    var probeInterval: Double { 2 }

    /// What the probe writes: a busy batch's worth (16 pages), so a disk with room for a heartbeat but not for
    /// records does not count as writable.
    static let probeBytes = 65_536

    init(
        pool: DatabasePool, path: String, ledger: CommitLedger, wal: WriteAheadLog?, checkpointer: LogCheckpointer,
        monitor: StorageHealthMonitor, historyInputs: Int
    ) {
        self.pool = pool
        self.checkpointer = checkpointer
        self.historyInputs = historyInputs
        self.path = path
        self.ledger = ledger
        self.wal = wal
        self.monitor = monitor
        try? pool.read { try self.measure($0) }
    }

    func transaction(_ body: (Database) throws -> Void) throws {
        try pool.write { db in
            try body(db)
            try measure(db)
        }
        checkpointer.committed()
    }

    func apply(_ write: JournalWrite, in db: Database) throws -> Bool {
        switch write {
        case .create(let session):
            try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (id, token_digest, created_at, last_access, next_due_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """
            ).execute(
                arguments: [
                    session.id.rawValue, Data(session.token.digest), session.createdAt.timeIntervalSince1970,
                    session.lastAccess.timeIntervalSince1970, session.nextDueAt?.timeIntervalSince1970,
                ])
            guard db.changesCount == 1 else { return false }
            try keepSnapshot(
                of: session.id, number: session.journalNumber, session.snapshot, versions: session.versions, db: db)
            return true
        case .append(let record):
            return try append(record, follows: false, in: db)
        case .remove(let id, let expiredAt):
            try Self.remove(id.rawValue, expiredAt: expiredAt?.timeIntervalSince1970, db: db)
            return true
        case .access(let times):
            for (id, at) in times {
                try db.cachedStatement(
                    sql:
                        "UPDATE sessions SET last_access = ?1 WHERE id = ?2 AND last_access < ?1 AND expired_at IS NULL"
                ).execute(arguments: [at.timeIntervalSince1970, id.rawValue])
            }
            return true
        }
    }

    /// Removes session `id`'s journal and snapshots, and its row, or keeps a tombstone expired at `expiredAt`
    /// (seconds since 1970). Later records of the session find nothing to follow, and are refused.
    private static func remove(_ id: String, expiredAt: Double?, db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM journal WHERE session_id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM snapshots WHERE session_id = ?").execute(arguments: [id])
        // Its invitations and the addresses it owns; those leading to it stay, and lead to a session that ended.
        try db.cachedStatement(sql: "DELETE FROM invitations WHERE session_id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM contacts WHERE session_id = ?").execute(arguments: [id])
        // Its participants and join invitations: their tokens and codes are of nothing now.
        try db.cachedStatement(sql: "DELETE FROM join_invitations WHERE session_id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM participants WHERE session_id = ?").execute(arguments: [id])
        if let expiredAt {
            try db.cachedStatement(sql: "UPDATE sessions SET expired_at = ?, next_due_at = NULL WHERE id = ?")
                .execute(arguments: [expiredAt, id])
        } else {
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Expires the stored sessions idle since before `cutoff` that `live` does not hold in memory (a tombstone,
    /// expired when last used, as a removal keeps), forgets tombstones older than `forgetBefore`, and returns free
    /// pages; in a transaction of its own, off the writer's queue.
    /// - Returns: The ids of the sessions expired.
    func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: (SessionID) -> Bool) throws -> [SessionID] {
        let expired = try pool.write { db -> [SessionID] in
            let idle = try Row.fetchAll(
                db, sql: "SELECT id, last_access FROM sessions WHERE expired_at IS NULL AND last_access < ?",
                arguments: [cutoff.timeIntervalSince1970]
            ).filter { !live(SessionID($0["id"])) }
            for row in idle { try Self.remove(row["id"], expiredAt: row["last_access"] as Double, db: db) }
            try db.execute(
                sql: "DELETE FROM sessions WHERE expired_at IS NOT NULL AND expired_at < ?",
                arguments: [forgetBefore.timeIntervalSince1970])
            // An invitation is remembered as gone (410) as long as a tombstone is, past its expiry.
            try db.execute(
                sql: "DELETE FROM invitations WHERE expires_at < ?", arguments: [forgetBefore.timeIntervalSince1970])
            try db.execute(
                sql: "DELETE FROM join_invitations WHERE expires_at < ?",
                arguments: [forgetBefore.timeIntervalSince1970])
            try db.execute(sql: "PRAGMA incremental_vacuum")
            try measure(db)
            return idle.map { SessionID($0["id"]) }
        }
        ledger.committed(expired.map { ($0, CommitLedger.removed) }, walGeneration: wal?.generation)
        return expired
    }

    /// A record follows the session's last record, or its snapshot: anything else (a gap, a number written already,
    /// a session removed or expired, whose journal and snapshot are gone) is refused.
    private static let follows = """
        (EXISTS (SELECT 1 FROM journal WHERE session_id = ?1 AND number = ?2 - 1)
            OR EXISTS (SELECT 1 FROM snapshots WHERE session_id = ?1 AND number = ?2 - 1))
        """

    /// Writes `writes` in order, as ``apply(_:in:)`` does each, but a record whose session's record before it was
    /// written a moment ago in the same transaction is known to follow it: it is inserted without looking for that
    /// one (a session's records often come in runs: an import, a batch of events, a timer's burst).
    func apply(_ writes: [JournalWrite], in db: Database) throws -> [Bool] {
        var written: [SessionID: Int] = [:]
        var results: [Bool] = []
        results.reserveCapacity(writes.count)
        for write in writes {
            switch write {
            case .append(let record):
                let took = try append(record, follows: written[record.session] == record.number - 1, in: db)
                written[record.session] = took ? record.number : nil
                results.append(took)
                continue
            case .create(let session): written[session.id] = nil
            case .remove(let id, _): written[id] = nil
            case .access: break
            }
            results.append(try apply(write, in: db))
        }
        return results
    }

    /// Writes `record`; `follows`: the session's record before it was written in this transaction, so it is not
    /// looked for.
    private func append(_ record: JournalWrite.Record, follows: Bool, in db: Database) throws -> Bool {
        let id = record.session.rawValue
        if record.snapshot == nil || historyInputs > 0 {
            if follows {
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO journal (session_id, number, input) VALUES (?1, ?2, ?3)"
                )
                .execute(arguments: [id, record.number, Data(record.bytes)])
            } else {
                try db.cachedStatement(
                    sql:
                        "INSERT OR IGNORE INTO journal (session_id, number, input) SELECT ?1, ?2, ?3 WHERE \(Self.follows)"
                ).execute(arguments: [id, record.number, Data(record.bytes)])
            }
            guard db.changesCount == 1 else { return false }
        } else if !follows {
            guard
                try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.follows)"), arguments: [id, record.number])
                    == true
            else { return false }
        }
        if let snapshot = record.snapshot {
            try keepSnapshot(of: record.session, number: record.number, snapshot, versions: record.versions, db: db)
            try compactHistory(of: record.session, last: record.number, db: db)
        }
        if case .some(let due) = record.nextDueAt {
            try db.cachedStatement(sql: "UPDATE sessions SET next_due_at = ? WHERE id = ?").execute(
                arguments: [due?.timeIntervalSince1970, id])
        }
        return true
    }

    /// Stores the snapshot of session `id` after record `number`: the newest one a load starts from, and a
    /// checkpoint of its history.
    private func keepSnapshot(of id: SessionID, number: Int, _ core: [UInt8], versions: String?, db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO snapshots (session_id, number, versions, core) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [id.rawValue, number, versions, Data(core)])
    }

    /// After a snapshot at record `last`: the snapshots older than the newest one at or before `historyInputs`
    /// records back go, and the journal records it includes (``HistoryRetention``). With no history kept, that is
    /// every older snapshot and every record up to this one.
    private func compactHistory(of id: SessionID, last: Int, db: Database) throws {
        try db.cachedStatement(
            sql: """
                DELETE FROM snapshots WHERE session_id = ?1
                    AND number < (SELECT max(number) FROM snapshots WHERE session_id = ?1 AND number <= ?2)
                """
        ).execute(arguments: [id.rawValue, last - historyInputs])
        try db.cachedStatement(
            sql: """
                DELETE FROM journal WHERE session_id = ?1
                    AND number <= (SELECT min(number) FROM snapshots WHERE session_id = ?1)
                """
        ).execute(arguments: [id.rawValue])
    }

    /// Before any of it is answered: what was acknowledged, outside the log that could lose it.
    func committed(_ writes: [JournalWrite], results: [Bool]) -> StorageHealth? {
        ledger.committed(
            zip(writes, results).compactMap { write, done in
                guard done, let (session, number) = write.acknowledged else { return nil }
                return (session, number ?? CommitLedger.removed)
            }, walGeneration: wal?.generation)
        if ledger.failure != nil, checkpointed() {
            // Everything committed is in the main file now: the ledger can start again from here.
            ledger.reset(walGeneration: wal?.generation)
        }
        guard let failure = ledger.failure else { return nil }
        return .failing(
            "\(ledger.path) cannot be written (\(failure)): a damaged log would go unnoticed until SQLite starts it again"
        )
    }

    func probe() throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO heartbeat (id, at, reserve) VALUES (1, ?1, zeroblob(?2))
                    ON CONFLICT (id) DO UPDATE SET at = excluded.at, reserve = excluded.reserve
                    """,
                arguments: [Date().timeIntervalSince1970, Self.probeBytes])
        }
    }

    func health(after error: any Error) -> StorageHealth {
        SQLiteSessionStorage.health(after: error, path: path)
    }

    /// Notes the pages in use (three header reads in the batch's transaction).
    func measure(_ db: Database) throws {
        let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? 0
        let free = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA freelist_count")) ?? 0
        let size = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_size")) ?? 4096
        usedBytes.store((pages - free) * size, ordering: .relaxed)
    }
}
