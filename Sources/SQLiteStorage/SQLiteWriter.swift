import Dispatch
import Foundation
import GRDB
import Synchronization
import ViewHostLocking
import ViewModelCore

/// The store's one writer: a serial queue that takes every write queued so far and commits them in one
/// transaction (group commit), then answers each. A session's copy whose write failed is poisoned: its later writes
/// fail too, and so do those of older copies (so its journal never gets a gap or a write from a value that was
/// dropped), while a copy loaded since (a higher ``JournalEntry/copy``) writes again.
final class SQLiteWriter: Sendable {
    enum Operation: Sendable {
        case create(StoredSession)
        case append(JournalEntry)
        case remove(SessionID, expiredAt: Date?)
        case access([(SessionID, Date)])

        /// Whether it writes a session or its journal (not only access times or bookkeeping).
        var isJournalWrite: Bool {
            switch self {
            case .create, .append, .remove: true
            case .access: false
            }
        }
    }

    struct Pending: Sendable {
        let operation: Operation
        /// Encoded by the thread that queued it: the writer is the one serial step of every event, so it only
        /// writes (a profile of login posts had JSON encoding at 16 % of the writer's time).
        let encoded: Encoded
        let completion: @Sendable (Bool) -> Void
    }

    struct State {
        /// Per session, the newest copy whose write failed: its writes and older copies' are refused.
        var poisoned: [SessionID: Int] = [:]
        var probing = false
        /// The store closed: later writes are refused without touching it.
        var stopped = false
    }

    /// Commits per batch, for the metrics and BENCHMARKS.md: (batches, entries).
    let counts = Locked((batches: 0, entries: 0))
    /// The bytes of the pages in use (not free) after the last commit: what the store's quota counts.
    let usedBytes = Atomic<Int>(0)
    /// The store's health: failing after a write failed, healthy after one reached the disk.
    let monitor: StorageHealthMonitor
    let pool: DatabasePool
    let path: String
    /// What was acknowledged, kept outside the database (see ``CommitLedger``).
    let ledger: CommitLedger
    /// SQLite's write-ahead log, watched (nil when it could not be opened at start).
    let wal: WriteAheadLog?
    let state = Locked(State())
    let intake: GroupCommitQueue<Pending>
    /// How many of each session's latest inputs its history keeps (``HistoryRetention``).
    let historyInputs: Int

    init(
        pool: DatabasePool, path: String, monitor: StorageHealthMonitor, ledger: CommitLedger, wal: WriteAheadLog?,
        historyInputs: Int
    ) {
        self.pool = pool
        self.historyInputs = historyInputs
        self.path = path
        self.monitor = monitor
        self.ledger = ledger
        self.wal = wal
        intake = GroupCommitQueue(label: "viewhost.sqlite.writer")
        try? pool.read { try self.measure($0) }
        scheduleWatch()
    }

    /// Queues `operation` (encoding it here, on the caller's thread); `completion` is called once with whether it
    /// is durable. Statements are prepared once per connection (`cachedStatement`): parsing SQL for every write
    /// was 30 % of the writer's time.
    func enqueue(_ operation: Operation, completion: @escaping @Sendable (Bool) -> Void) {
        let encoded = Encoded(operation)
        intake.enqueue(Pending(operation: operation, encoded: encoded, completion: completion)) { self.write($0) }
    }

    /// Writes everything queued, then stops (shutdown): later writes are refused (their completions say not
    /// durable) without touching the store, which closes.
    func drainAndStop() {
        intake.drainAndStop { self.write($0) }
        state.withLock { $0.stopped = true }
    }

    /// Whether the store closed (shutdown).
    var isStopped: Bool { state.withLock { $0.stopped } }

    private func write(_ batch: [Pending]) {
        guard !isStopped, mayWrite() else {
            for pending in batch { pending.completion(false) }
            return
        }
        var poisoned = state.withLock { $0.poisoned }
        var results = [Bool](repeating: false, count: batch.count)
        do {
            try pool.write { db in
                for index in batch.indices {
                    results[index] = try apply(batch[index].operation, batch[index].encoded, db: db, poisoned: &poisoned)
                }
                try measure(db)
            }
            // Before any of it is answered: what was acknowledged, outside the log that could lose it.
            ledger.committed(
                zip(batch, results).compactMap { pending, done in done ? pending.operation.ledgerEntry : nil },
                walGeneration: wal?.generation)
            if ledger.failure != nil, checkpointed() {
                // Everything committed is in the main file now: the ledger can start again from here.
                ledger.reset(walGeneration: wal?.generation)
            }
            if let failure = ledger.failure {
                monitor.set(
                    .failing("\(ledger.path) cannot be written (\(failure)): a damaged log would go unnoticed until SQLite starts it again"))
            } else if zip(batch, results).contains(where: { $0.operation.isJournalWrite && $1 }) {
                // Only what the store exists for (sessions and their journals), written for real, says that it
                // takes writes again: access times are tiny writes that may fit where events do not, and a batch
                // whose every append was refused (its session poisoned by an earlier failure) wrote nothing.
                monitor.set(.healthy)
            }
            counts.withLock { $0 = ($0.batches + 1, $0.entries + batch.count) }
        } catch {
            // The transaction rolled back: nothing of this batch is stored.
            results = [Bool](repeating: false, count: batch.count)
            for pending in batch { pending.operation.poison(&poisoned) }
            fail(error)
        }
        state.withLock { $0.poisoned = poisoned }
        for (pending, durable) in zip(batch, results) { pending.completion(durable) }
    }

    /// Applies one operation in the batch's transaction.
    /// - Returns: Whether it took effect (false, and the session poisoned, when it cannot: a gap, a removed session).
    private func apply(
        _ operation: Operation, _ encoded: Encoded, db: Database, poisoned: inout [SessionID: Int]
    ) throws -> Bool {
        switch operation {
        case .create(let session):
            poisoned[session.id] = nil
            try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (id, token_digest, created_at, last_access, last_number, next_due_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO NOTHING
                    """
            ).execute(
                arguments: [
                    session.id.rawValue, Data(session.token.digest), session.createdAt.timeIntervalSince1970,
                    session.lastAccess.timeIntervalSince1970, session.journalNumber,
                    session.core.pendingTimers.map(\.dueAt).min()?.timeIntervalSince1970,
                ])
            guard db.changesCount == 1 else { return false }
            try keepSnapshot(of: session.id, number: session.journalNumber, encoded, db: db)
            return true
        case .append(let entry):
            guard entry.copy > poisoned[entry.session] ?? -1 else { return false }
            try db.cachedStatement(
                sql: """
                    UPDATE sessions SET last_number = ?1, last_access = max(last_access, ?2), next_due_at = ?3
                    WHERE id = ?4 AND last_number = ?1 - 1 AND expired_at IS NULL
                    """
            ).execute(
                arguments: [
                    entry.number, entry.lastAccess.timeIntervalSince1970, entry.nextDueAt?.timeIntervalSince1970,
                    entry.session.rawValue,
                ])
            guard db.changesCount == 1 else {
                operation.poison(&poisoned)
                return false
            }
            if encoded.snapshot == nil || historyInputs > 0 {
                try db.cachedStatement(
                    sql: "INSERT INTO journal (session_id, number, input) VALUES (?, ?, ?)").execute(
                    arguments: [entry.session.rawValue, entry.number, encoded.input])
            }
            if encoded.snapshot != nil {
                try keepSnapshot(of: entry.session, number: entry.number, encoded, db: db)
                try compactHistory(of: entry.session, last: entry.number, db: db)
            }
            return true
        case .remove(let id, let expiredAt):
            // Later writes of the session find no row to append to (or an expired one), and are refused.
            try db.cachedStatement(sql: "DELETE FROM journal WHERE session_id = ?").execute(arguments: [id.rawValue])
            try db.cachedStatement(sql: "DELETE FROM snapshots WHERE session_id = ?").execute(arguments: [id.rawValue])
            if let expiredAt {
                try db.cachedStatement(sql: "UPDATE sessions SET expired_at = ?, next_due_at = NULL WHERE id = ?")
                    .execute(arguments: [expiredAt.timeIntervalSince1970, id.rawValue])
            } else {
                try db.cachedStatement(sql: "DELETE FROM sessions WHERE id = ?").execute(arguments: [id.rawValue])
            }
            return true
        case .access(let times):
            for (id, at) in times {
                try db.cachedStatement(
                    sql: "UPDATE sessions SET last_access = ?1 WHERE id = ?2 AND last_access < ?1 AND expired_at IS NULL"
                ).execute(arguments: [at.timeIntervalSince1970, id.rawValue])
            }
            return true
        }
    }

    /// Notes the pages in use (two header reads in the batch's transaction).
    func measure(_ db: Database) throws {
        let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? 0
        let free = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA freelist_count")) ?? 0
        let size = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_size")) ?? 4096
        usedBytes.store((pages - free) * size, ordering: .relaxed)
    }

    /// Expires idle stored sessions that are not in memory, forgets old tombstones, and returns free pages.
    func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int {
        guard !isStopped, mayWrite() else { return 0 }
        do {
            let expired = try pool.write { db -> [String] in
                let idle = try String.fetchAll(
                    db, sql: "SELECT id FROM sessions WHERE expired_at IS NULL AND last_access < ?",
                    arguments: [cutoff.timeIntervalSince1970]
                ).filter { !live(SessionID($0)) }
                for id in idle {
                    try db.execute(sql: "DELETE FROM journal WHERE session_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM snapshots WHERE session_id = ?", arguments: [id])
                    try db.execute(
                        sql: "UPDATE sessions SET expired_at = last_access, next_due_at = NULL WHERE id = ?",
                        arguments: [id])
                }
                try db.execute(
                    sql: "DELETE FROM sessions WHERE expired_at IS NOT NULL AND expired_at < ?",
                    arguments: [forgetBefore.timeIntervalSince1970])
                try db.execute(sql: "PRAGMA incremental_vacuum")
                try measure(db)
                return idle
            }
            ledger.committed(expired.map { (SessionID($0), CommitLedger.removed) }, walGeneration: wal?.generation)
            return expired.count
        } catch {
            return 0
        }
    }
}

/// An operation's JSON, made by the thread that queues it, before the transaction.
struct Encoded: Sendable {
    let input: Data?
    let snapshot: Data?
    /// Each feature's version in the snapshot (JSON), so a history read finds its checkpoint without the value.
    let versions: String?

    init(_ operation: SQLiteWriter.Operation) {
        switch operation {
        case .create(let session):
            input = nil
            snapshot = try? StoredJSON.encode(session.core)
            versions = HistoryCheckpoint(number: session.journalNumber, core: session.core).versionsJSON
        case .append(let entry):
            input = try? entry.input.storedJSON()
            snapshot = entry.snapshot.flatMap { try? StoredJSON.encode($0) }
            versions = entry.snapshot.map { HistoryCheckpoint(number: entry.number, core: $0).versionsJSON }
        case .remove, .access:
            input = nil
            snapshot = nil
            versions = nil
        }
    }
}

extension SQLiteWriter.Operation {
    /// What the ledger records once it took effect: the session and its last journal record, or that it was
    /// removed (nil for access times).
    var ledgerEntry: (SessionID, Int)? {
        switch self {
        case .create(let session): (session.id, session.journalNumber)
        case .append(let entry): (entry.session, entry.number)
        case .remove(let id, _): (id, CommitLedger.removed)
        case .access: nil
        }
    }

    /// Poisons the copy a create or append came from: its later writes, and older copies', are refused.
    func poison(_ poisoned: inout [SessionID: Int]) {
        switch self {
        case .create(let session): poisoned[session.id] = max(poisoned[session.id] ?? -1, session.copy)
        case .append(let entry): poisoned[entry.session] = max(poisoned[entry.session] ?? -1, entry.copy)
        case .remove, .access: break
        }
    }
}
