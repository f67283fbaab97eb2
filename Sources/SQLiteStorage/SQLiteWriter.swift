import Dispatch
import Foundation
import GRDB
import Synchronization
import ViewHostLocking
import ViewModelCore

/// The store's one writer: a serial queue that takes every write queued so far and commits them in one
/// transaction (group commit), then answers each. A session whose write failed is poisoned: its later writes fail
/// too (so its journal never gets a gap or a write from a value that was dropped) until it is loaded again.
final class SQLiteWriter: Sendable {
    enum Operation: Sendable {
        case create(StoredSession)
        case append(JournalEntry)
        case remove(SessionID, expiredAt: Date?)
        case access([(SessionID, Date)])
        /// The session was loaded again: its earlier writes are all behind this one, so it may write again.
        case reset(SessionID)

        /// Whether it writes a session or its journal (not only access times or bookkeeping).
        var isJournalWrite: Bool {
            switch self {
            case .create, .append, .remove: true
            case .access, .reset: false
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

    private struct State {
        var poisoned: Set<SessionID> = []
        var probing = false
    }

    /// Commits per batch, for the metrics and BENCHMARKS.md: (batches, entries).
    let counts = Locked((batches: 0, entries: 0))
    private let pool: DatabasePool
    private let state = Locked(State())
    private let intake: GroupCommitQueue<Pending>
    private let healthy = Atomic<Bool>(true)
    /// How many of each session's latest inputs its history keeps (``HistoryRetention``).
    let historyInputs: Int

    init(pool: DatabasePool, historyInputs: Int) {
        self.pool = pool
        self.historyInputs = historyInputs
        intake = GroupCommitQueue(label: "viewhost.sqlite.writer")
    }

    /// Whether the last write succeeded.
    var isWritable: Bool { healthy.load(ordering: .acquiring) }

    /// Queues `operation` (encoding it here, on the caller's thread); `completion` is called once with whether it
    /// is durable. Statements are prepared once per connection (`cachedStatement`): parsing SQL for every write
    /// was 30 % of the writer's time.
    func enqueue(_ operation: Operation, completion: @escaping @Sendable (Bool) -> Void) {
        let encoded = Encoded(operation)
        intake.enqueue(Pending(operation: operation, encoded: encoded, completion: completion)) { self.write($0) }
    }

    /// Writes everything queued, then stops taking part (shutdown): later writes still queue and are written by
    /// the next drain, but nothing waits for them.
    func drainAndStop() {
        intake.drainAndStop { self.write($0) }
    }

    private func write(_ batch: [Pending]) {
        var poisoned = state.withLock { $0.poisoned }
        var results = [Bool](repeating: false, count: batch.count)
        do {
            try pool.write { db in
                for index in batch.indices {
                    results[index] = try apply(batch[index].operation, batch[index].encoded, db: db, poisoned: &poisoned)
                }
            }
            // Access times are tiny writes that may fit where events do not: only what the store exists for
            // (sessions and their journals) says that it takes writes again.
            if batch.contains(where: \.operation.isJournalWrite) { healthy.store(true, ordering: .releasing) }
            counts.withLock { $0 = ($0.batches + 1, $0.entries + batch.count) }
        } catch {
            // The transaction rolled back: nothing of this batch is stored.
            results = [Bool](repeating: false, count: batch.count)
            for pending in batch { if let id = pending.operation.session { poisoned.insert(id) } }
            healthy.store(false, ordering: .releasing)
            scheduleProbe()
        }
        state.withLock { $0.poisoned = poisoned }
        for (pending, durable) in zip(batch, results) { pending.completion(durable) }
    }

    /// Applies one operation in the batch's transaction.
    /// - Returns: Whether it took effect (false, and the session poisoned, when it cannot: a gap, a removed session).
    private func apply(
        _ operation: Operation, _ encoded: Encoded, db: Database, poisoned: inout Set<SessionID>
    ) throws -> Bool {
        switch operation {
        case .create(let session):
            poisoned.remove(session.id)
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
            guard !poisoned.contains(entry.session) else { return false }
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
                poisoned.insert(entry.session)
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
            poisoned.insert(id)
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
        case .reset(let id):
            poisoned.remove(id)
            return true
        }
    }

    /// Expires idle stored sessions that are not in memory, forgets old tombstones, and returns free pages.
    func expire(idleBefore cutoff: Date, forgetBefore: Date, except live: @Sendable (SessionID) -> Bool) -> Int {
        do {
            return try pool.write { db in
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
                return idle.count
            }
        } catch {
            return 0
        }
    }

    /// While writes fail, tries one small write every two seconds, so the store says it is writable again as soon
    /// as the disk takes writes (readiness follows it).
    private func scheduleProbe() {
        let start = state.withLock { state -> Bool in
            guard !state.probing else { return false }
            state.probing = true
            return true
        }
        guard start else { return }
        intake.after(seconds: 2) { self.probe() }
    }

    /// What the probe writes: a busy batch's worth (16 pages), so a disk with room for a heartbeat but not for
    /// events does not count as writable.
    static let probeBytes = 65_536

    private func probe() {
        state.withLock { $0.probing = false }
        guard !isWritable else { return }
        do {
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO heartbeat (id, at, reserve) VALUES (1, ?1, zeroblob(?2))
                        ON CONFLICT (id) DO UPDATE SET at = excluded.at, reserve = excluded.reserve
                        """,
                    arguments: [Date().timeIntervalSince1970, Self.probeBytes])
            }
            healthy.store(true, ordering: .releasing)
        } catch {
            scheduleProbe()
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
        let encoder = JSONEncoder()
        switch operation {
        case .create(let session):
            input = nil
            snapshot = try? encoder.encode(session.core)
            versions = HistoryCheckpoint(number: session.journalNumber, core: session.core).versionsJSON
        case .append(let entry):
            input = try? encoder.encode(entry.input)
            snapshot = entry.snapshot.flatMap { try? encoder.encode($0) }
            versions = entry.snapshot.map { HistoryCheckpoint(number: entry.number, core: $0).versionsJSON }
        case .remove, .access, .reset:
            input = nil
            snapshot = nil
            versions = nil
        }
    }
}

extension SQLiteWriter.Operation {
    /// The session a create or append writes.
    var session: SessionID? {
        switch self {
        case .create(let session): session.id
        case .append(let entry): entry.session
        case .remove, .access, .reset: nil
        }
    }
}
