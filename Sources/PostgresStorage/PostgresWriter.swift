import Dispatch
import Foundation
import Synchronization
import ViewHostLocking
import ViewModelCore

/// The store's one writer per node: a serial queue with its own connection that takes every write queued so far
/// and commits them in one transaction (group commit: one round trip of `COMMIT`, one WAL flush for them all),
/// then answers each. As in the SQLite writer, a session's copy whose write failed is poisoned (its later writes
/// fail too, and older copies', so its journal never gets a gap), while a copy loaded since writes again.
///
/// Fencing: an append is `UPDATE sessions … WHERE epoch = <the epoch it was queued under> AND owner = <this node>`
/// inside the transaction; after another node took the session over (raising its epoch) the update matches no
/// row and the append is refused, whatever this node believes.
final class PostgresWriter: Sendable {
    enum Operation: Sendable {
        case create(StoredSession)
        /// An entry, with the epoch its session was owned under when it was queued (nil: not owned).
        case append(JournalEntry, epoch: Int64?)
        case remove(SessionID, expiredAt: Date?)
        case access([(SessionID, Date)])
    }

    struct Pending: Sendable {
        let operation: Operation
        let completion: @Sendable (Bool) -> Void
    }

    private struct State {
        /// Per session, the newest copy whose write failed: its writes and older copies' are refused.
        var poisoned: [SessionID: Int] = [:]
        var probing = false
        var connection: PostgresConnection?
    }

    /// Commits so far, for BENCHMARKS.md and docs/SCALING.md: (batches, entries).
    let counts = Locked((batches: 0, entries: 0))
    private let url: String
    private let node: String
    private let state = Locked(State())
    private let intake = GroupCommitQueue<Pending>(label: "viewhost.postgres.writer")
    /// How many of each session's latest inputs its history keeps (0: none, and no checkpoints).
    let historyInputs: Int
    /// The store's health: failing after a write failed, healthy after one reached the database.
    let monitor = StorageHealthMonitor()
    /// The database's URL without its password, for the reasons the health gives.
    private let redactedURL: String

    init(url: String, node: String, historyInputs: Int) {
        self.url = url
        self.node = node
        self.historyInputs = historyInputs
        redactedURL = PasswordRedaction.redacted(url)
    }

    /// Queues `operation`; `completion` is called once with whether it is durable.
    func enqueue(_ operation: Operation, completion: @escaping @Sendable (Bool) -> Void) {
        intake.enqueue(Pending(operation: operation, completion: completion)) { self.write($0) }
    }

    /// Writes everything queued (shutdown).
    func drainAndStop() {
        intake.drainAndStop { self.write($0) }
    }

    /// The writer's connection, opened (again) when missing or broken. Runs on the writer's queue.
    private func connection() throws(PostgresError) -> PostgresConnection {
        if let open = state.withLock({ $0.connection }), open.isOpen { return open }
        let fresh = try PostgresConnection(url: url)
        state.withLock { $0.connection = fresh }
        return fresh
    }

    private func write(_ batch: [Pending]) {
        let encoded = batch.map { PostgresEncoded($0.operation) }
        var poisoned = state.withLock { $0.poisoned }
        var results = [Bool](repeating: false, count: batch.count)
        do throws(PostgresError) {
            var connection = try connection()
            do throws(PostgresError) {
                try connection.query("BEGIN")
            } catch .connection {
                // A connection the server closed (a restart) shows only when used; nothing was sent yet, so one
                // try on a new connection is safe.
                state.withLock { $0.connection = nil }
                connection = try self.connection()
                try connection.query("BEGIN")
            }
            do throws(PostgresError) {
                for index in batch.indices {
                    results[index] = try apply(
                        batch[index].operation, encoded[index], connection: connection, poisoned: &poisoned)
                }
                try connection.query("COMMIT")
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw error
            }
            // As in the SQLite writer: only a write that reached the database says it takes writes again, never
            // a batch whose every write was refused before it was sent (poisoned sessions, stale leases).
            if zip(batch, results).contains(where: { $0.operation.isJournalWrite && $1 }) { monitor.set(.healthy) }
            counts.withLock { $0 = ($0.batches + 1, $0.entries + batch.count) }
        } catch {
            // The transaction rolled back (or never reached the server): nothing of this batch is stored.
            results = [Bool](repeating: false, count: batch.count)
            for pending in batch { pending.operation.poison(&poisoned) }
            if case .connection = error { state.withLock { $0.connection = nil } }
            monitor.set(.failing("\(redactedURL): \(error)"))
            scheduleProbe()
        }
        state.withLock { $0.poisoned = poisoned }
        for (pending, durable) in zip(batch, results) { pending.completion(durable) }
    }

    /// Applies one operation in the batch's transaction.
    /// - Returns: Whether it took effect (false, and the session poisoned, when it cannot: a gap, a removed
    ///   session, a stale epoch).
    private func apply(
        _ operation: Operation, _ encoded: PostgresEncoded, connection: PostgresConnection,
        poisoned: inout [SessionID: Int]
    ) throws(PostgresError) -> Bool {
        switch operation {
        case .create(let session):
            poisoned[session.id] = nil
            let result = try connection.query(
                """
                INSERT INTO sessions (id, token_digest, created_at, last_access, snapshot, snapshot_number,
                    last_number, next_due_at, owner, epoch)
                VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, 1)
                ON CONFLICT (id) DO NOTHING
                """,
                [
                    session.id.rawValue, PostgresEncoded.hex(session.token.digest),
                    String(session.createdAt.timeIntervalSince1970), String(session.lastAccess.timeIntervalSince1970),
                    encoded.snapshot, String(session.journalNumber),
                    session.core.pendingTimers.map(\.dueAt).min().map { String($0.timeIntervalSince1970) }, node,
                ])
            guard result.affected == 1 else { return false }
            try keepCheckpoint(of: session.id, number: session.journalNumber, encoded, connection: connection)
            return true
        case .append(let entry, let epoch):
            guard entry.copy > poisoned[entry.session] ?? -1, let epoch else {
                operation.poison(&poisoned)
                return false
            }
            // One round trip and a statement planned once per connection: the fenced update of the session row,
            // then its journal record (or, with a snapshot, the end of the journal before it). Two statements per
            // write made the batch's round trips, not the disk, what bounded events per second.
            let updated = try connection.query(
                prepared: "append",
                """
                WITH updated AS (
                    UPDATE sessions SET last_number = $1::bigint, last_access = greatest(last_access, $2),
                        next_due_at = $3, snapshot = coalesce($4::text, snapshot),
                        snapshot_number = CASE WHEN $4::text IS NULL THEN snapshot_number ELSE $1::bigint END
                    WHERE id = $5 AND last_number = $1::bigint - 1 AND expired_at IS NULL AND epoch = $6::bigint
                        AND owner = $7
                    RETURNING id
                ), kept AS (
                    INSERT INTO journal (session_id, number, input)
                    SELECT id, $1::bigint, $8::text FROM updated WHERE $4::text IS NULL OR $9::boolean
                ), trimmed AS (
                    DELETE FROM journal WHERE session_id = (SELECT id FROM updated) AND number < $1::bigint
                        AND $4::text IS NOT NULL AND NOT $9::boolean
                )
                SELECT count(*) FROM updated
                """,
                [
                    String(entry.number), String(entry.lastAccess.timeIntervalSince1970),
                    entry.nextDueAt.map { String($0.timeIntervalSince1970) }, encoded.snapshot,
                    entry.session.rawValue, String(epoch), node, encoded.input, historyInputs > 0 ? "true" : "false",
                ])
            guard updated.rows.first?.first == "1" else {
                operation.poison(&poisoned)
                return false
            }
            if encoded.snapshot != nil {
                try keepCheckpoint(of: entry.session, number: entry.number, encoded, connection: connection)
            }
            return true
        case .remove(let id, let expiredAt):
            // Later writes of the session find no row to append to (or an expired one), and are refused.
            try connection.query("DELETE FROM journal WHERE session_id = $1", [id.rawValue])
            try connection.query("DELETE FROM checkpoints WHERE session_id = $1", [id.rawValue])
            if let expiredAt {
                try connection.query(
                    "UPDATE sessions SET expired_at = $1, snapshot = NULL, next_due_at = NULL WHERE id = $2",
                    [String(expiredAt.timeIntervalSince1970), id.rawValue])
            } else {
                try connection.query("DELETE FROM sessions WHERE id = $1", [id.rawValue])
            }
            return true
        case .access(let times):
            try connection.query(
                """
                UPDATE sessions SET last_access = given.at
                FROM unnest($1::text[], $2::double precision[]) AS given (id, at)
                WHERE sessions.id = given.id AND sessions.last_access < given.at AND sessions.expired_at IS NULL
                """,
                [
                    PostgresEncoded.array(times.map { $0.0.rawValue }),
                    PostgresEncoded.array(times.map { String($0.1.timeIntervalSince1970) }),
                ])
            return true
        }
    }

    /// While writes fail, tries `SELECT 1` every second, so the store says it is writable again as soon as the
    /// database answers (readiness follows it).
    private func scheduleProbe() {
        let start = state.withLock { state -> Bool in
            guard !state.probing else { return false }
            state.probing = true
            return true
        }
        guard start else { return }
        intake.after(seconds: 1) { self.probe() }
    }

    private func probe() {
        state.withLock { $0.probing = false }
        guard case .failing = monitor.health else { return }
        do {
            try connection().query("SELECT 1")
            monitor.set(.healthy)
        } catch {
            if case .connection = error { state.withLock { $0.connection = nil } }
            scheduleProbe()
        }
    }
}

extension PostgresWriter.Operation {
    /// Poisons the copy a create or append came from: its later writes, and older copies', are refused.
    func poison(_ poisoned: inout [SessionID: Int]) {
        switch self {
        case .create(let session): poisoned[session.id] = max(poisoned[session.id] ?? -1, session.copy)
        case .append(let entry, _): poisoned[entry.session] = max(poisoned[entry.session] ?? -1, entry.copy)
        case .remove, .access: break
        }
    }

    /// Whether it writes a session or its journal (not only access times or bookkeeping).
    var isJournalWrite: Bool {
        switch self {
        case .create, .append, .remove: true
        case .access: false
        }
    }
}
