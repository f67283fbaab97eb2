import Foundation
import ViewHostLocking
import ViewModelCore

/// The PostgreSQL store's part of its ``JournalWriter``: the statements of a batch in one transaction on the
/// writer's own connection (one WAL flush at `COMMIT` for them all), and its probe.
///
/// Fencing: a record is written only while its session's row still has the epoch the record was queued under and
/// this node as owner, checked and locked (`FOR KEY SHARE`) in the record's own statement; after another node took
/// the session over (raising its epoch under `FOR UPDATE`, which waits for that lock) the statement matches no row
/// and the record is refused, whatever this node believes. The row itself is written only when the session's
/// earliest timer moves or it takes a snapshot, not for every record.
final class PostgresStatements: JournalStatements {
    private let url: String
    private let node: String
    /// The database's URL without its password, for the reasons the health gives.
    private let redactedURL: String
    private let open = Locked<PostgresConnection?>(nil)
    /// How many of each session's latest inputs its history keeps (0: none, and no checkpoints).
    let historyInputs: Int

    /// A failing database is probed every second.
    var probeInterval: Double { 1 }

    init(url: String, node: String, historyInputs: Int) {
        self.url = url
        self.historyInputs = historyInputs
        self.node = node
        redactedURL = PasswordRedaction.redacted(url)
    }

    /// The writer's connection, opened (again) when missing or broken.
    private func connection() throws(PostgresError) -> PostgresConnection {
        if let connection = open.withLock({ $0 }), connection.isOpen { return connection }
        let fresh = try PostgresConnection(url: url)
        open.withLock { $0 = fresh }
        return fresh
    }

    func transaction(_ body: (PostgresConnection) throws -> Void) throws {
        let connection = try begun()
        do {
            try body(connection)
            try connection.query("COMMIT")
        } catch {
            _ = try? connection.query("ROLLBACK")
            if case .connection = error as? PostgresError { open.withLock { $0 = nil } }
            throw error
        }
    }

    /// The writer's connection with a transaction begun. A connection the server closed (a restart) shows only when
    /// used; nothing was sent yet, so one try on a new connection is safe.
    private func begun() throws(PostgresError) -> PostgresConnection {
        let connection = try connection()
        do {
            try connection.query("BEGIN")
            return connection
        } catch {
            guard case .connection = error else { throw error }
            open.withLock { $0 = nil }
            let fresh = try self.connection()
            try fresh.query("BEGIN")
            return fresh
        }
    }

    func apply(_ write: JournalWrite, in connection: PostgresConnection) throws -> Bool {
        switch write {
        case .create(let session):
            let result = try connection.query(
                """
                INSERT INTO sessions (id, token_digest, created_at, last_access, snapshot, snapshot_number, next_due_at,
                    owner, epoch)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)
                ON CONFLICT (id) DO NOTHING
                """,
                [
                    session.id.rawValue, PostgresEncoded.hex(session.token.digest),
                    String(session.createdAt.timeIntervalSince1970), String(session.lastAccess.timeIntervalSince1970),
                    String(decoding: session.snapshot, as: UTF8.self), String(session.journalNumber),
                    session.nextDueAt.map { String($0.timeIntervalSince1970) }, node,
                ])
            guard result.affected == 1 else { return false }
            try keepCheckpoint(
                of: session.id, number: session.journalNumber, session.snapshot, versions: session.versions,
                connection: connection)
            return true
        case .append(let record):
            return try append(record, connection: connection)
        case .remove(let id, let expiredAt):
            // Later records of the session find no row to follow (or an expired one), and are refused.
            try connection.query("DELETE FROM journal WHERE session_id = $1", [id.rawValue])
            try connection.query("DELETE FROM checkpoints WHERE session_id = $1", [id.rawValue])
            // Its invitations and the addresses it owns; those leading to it stay, and lead to a session that ended.
            try connection.query("DELETE FROM invitations WHERE session_id = $1", [id.rawValue])
            try connection.query("DELETE FROM contacts WHERE session_id = $1", [id.rawValue])
            try connection.query("DELETE FROM join_invitations WHERE session_id = $1", [id.rawValue])
            try connection.query("DELETE FROM participants WHERE session_id = $1", [id.rawValue])
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

    /// Writes `writes` in order, each run of plain records (no snapshot, no timer moved: most of them) in one
    /// statement: one round trip per record bounded a batch, and with it events per second (about 35 records a
    /// commit, 100 commits a second).
    func apply(_ writes: [JournalWrite], in connection: PostgresConnection) throws -> [Bool] {
        var results = [Bool](repeating: false, count: writes.count)
        var run: [(index: Int, record: JournalWrite.Record)] = []
        func flush() throws {
            guard !run.isEmpty else { return }
            let kept = try appendAll(run.map(\.record), connection: connection)
            for (index, record) in run { results[index] = kept.contains(RecordKey(record)) }
            run.removeAll()
        }
        for (index, write) in writes.enumerated() {
            if case .append(let record) = write, record.snapshot == nil, record.nextDueAt == nil,
                let fence = record.fence
            {
                // A session's records in one run follow each other under one fence (the statement checks the
                // first against the store, the rest against the one before).
                if let last = run.last(where: { $0.record.session == record.session })?.record,
                    last.number + 1 != record.number || last.fence != fence
                {
                    try flush()
                }
                run.append((index, record))
                continue
            }
            try flush()
            results[index] = try apply(write, in: connection)
        }
        try flush()
        return results
    }

    private struct RecordKey: Hashable {
        let session: String
        let number: Int

        init(session: String, number: Int) {
            self.session = session
            self.number = number
        }

        init(_ record: JournalWrite.Record) {
            self.init(session: record.session.rawValue, number: record.number)
        }
    }

    /// Plain records of several sessions in one statement: each session's first record must follow its last
    /// record or snapshot, under the fence it was queued with, this node owning it (checked and locked as for
    /// one); the others follow it in the run.
    /// - Returns: The records written.
    private func appendAll(_ records: [JournalWrite.Record], connection: PostgresConnection) throws -> Set<RecordKey> {
        let result = try connection.query(
            prepared: "append-all",
            """
            WITH given AS (
                SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[]) AS g (session_id, number, epoch, record)
            ), firsts AS (
                SELECT DISTINCT ON (session_id) session_id, number, epoch FROM given ORDER BY session_id, number
            ), owned AS (
                SELECT s.id FROM sessions s JOIN firsts f ON s.id = f.session_id
                WHERE s.epoch = f.epoch AND s.owner = $5 AND s.expired_at IS NULL
                    AND (s.snapshot_number = f.number - 1
                        OR EXISTS (SELECT 1 FROM journal WHERE session_id = f.session_id AND number = f.number - 1))
                FOR KEY SHARE OF s
            ), kept AS (
                INSERT INTO journal (session_id, number, record)
                SELECT g.session_id, g.number, g.record FROM given g JOIN owned o ON o.id = g.session_id
                ON CONFLICT DO NOTHING RETURNING session_id, number
            )
            SELECT session_id, number FROM kept
            """,
            [
                PostgresEncoded.array(records.map(\.session.rawValue)),
                PostgresEncoded.array(records.map { String($0.number) }),
                PostgresEncoded.array(records.map { String($0.fence ?? 0) }),
                PostgresEncoded.array(records.map { PostgresEncoded.bytea($0.bytes) }), node,
            ])
        return Set(
            result.rows.compactMap { row in
                guard let session = row[0], let number = row[1].flatMap({ Int($0) }) else { return nil }
                return RecordKey(session: session, number: number)
            })
    }

    /// The session's row, if this node still owns it under `$2` and record `$3` follows its last record or snapshot.
    private static let owned = """
        id = $1 AND epoch = $2::bigint AND owner = $4 AND expired_at IS NULL
            AND (snapshot_number = $3::bigint - 1
                OR EXISTS (SELECT 1 FROM journal WHERE session_id = $1 AND number = $3::bigint - 1))
        """

    /// A record that writes the session's row too (a snapshot, or its earliest timer moved) in one round trip,
    /// planned once per connection: the fenced update and the record.
    private func append(_ record: JournalWrite.Record, connection: PostgresConnection) throws -> Bool {
        let head = [record.session.rawValue, String(record.fence ?? 0), String(record.number), node]
        let due: String? = record.nextDueAt.flatMap { $0 }.map { String($0.timeIntervalSince1970) }
        let result: PostgresResult
        if let snapshot = record.snapshot {
            // The snapshot holds everything up to this record: without history, the journal before it is no longer
            // needed, nor the checkpoints a run with history kept; with history, the record is kept and the
            // checkpoints decide what goes.
            result = try connection.query(
                prepared: "snapshot",
                """
                WITH updated AS (
                    UPDATE sessions SET snapshot = $5::text, snapshot_number = $3::bigint,
                        next_due_at = CASE WHEN $6::boolean THEN $7::double precision ELSE next_due_at END
                    WHERE \(Self.owned) RETURNING id
                ), kept AS (
                    INSERT INTO journal (session_id, number, record)
                    SELECT id, $3::bigint, $9::bytea FROM updated WHERE $8::boolean
                ), trimmed AS (
                    DELETE FROM journal WHERE session_id = (SELECT id FROM updated) AND number < $3::bigint
                        AND NOT $8::boolean
                ), forgotten AS (
                    DELETE FROM checkpoints WHERE session_id = (SELECT id FROM updated) AND NOT $8::boolean
                )
                SELECT count(*) FROM updated
                """,
                head + [
                    String(decoding: snapshot, as: UTF8.self), String(record.nextDueAt != nil), due,
                    String(historyInputs > 0), PostgresEncoded.bytea(record.bytes),
                ])
            guard result.rows.first?.first == "1" else { return false }
            try keepCheckpoint(
                of: record.session, number: record.number, snapshot, versions: record.versions, connection: connection)
            return true
        } else if record.nextDueAt != nil {
            result = try connection.query(
                prepared: "append-due",
                """
                WITH updated AS (
                    UPDATE sessions SET next_due_at = $6::double precision WHERE \(Self.owned) RETURNING id
                ), kept AS (
                    INSERT INTO journal (session_id, number, record) SELECT id, $3::bigint, $5::bytea FROM updated
                    ON CONFLICT DO NOTHING RETURNING 1
                )
                SELECT count(*) FROM kept
                """, head + [PostgresEncoded.bytea(record.bytes), due])
        } else {
            // A plain record alone is a run of one (``appendAll(_:connection:)``).
            return try appendAll([record], connection: connection).contains(RecordKey(record))
        }
        return result.rows.first?.first == "1"
    }

    /// With history kept: stores the snapshot of session `id` after record `number` as a checkpoint, then drops the
    /// checkpoints older than the newest one at or before `historyInputs` records back and the journal records it
    /// includes (``HistoryRetention``).
    private func keepCheckpoint(
        of id: SessionID, number: Int, _ snapshot: [UInt8], versions: String?, connection: PostgresConnection
    ) throws(PostgresError) {
        guard historyInputs > 0, let versions else { return }
        try connection.query(
            prepared: "checkpoint",
            """
            WITH kept AS (
                INSERT INTO checkpoints (session_id, number, versions, core) VALUES ($1, $2::bigint, $3, $4)
                ON CONFLICT (session_id, number) DO UPDATE SET versions = excluded.versions, core = excluded.core
            ), base AS (
                SELECT max(number) AS number FROM checkpoints WHERE session_id = $1 AND number <= $2::bigint - $5::bigint
            ), dropped AS (
                DELETE FROM checkpoints WHERE session_id = $1 AND number < (SELECT number FROM base)
            )
            DELETE FROM journal WHERE session_id = $1 AND number <= (SELECT number FROM base)
            """,
            [id.rawValue, String(number), versions, String(decoding: snapshot, as: UTF8.self), String(historyInputs)])
    }

    func probe() throws {
        do {
            try connection().query("SELECT 1")
        } catch {
            if case .connection = error { open.withLock { $0 = nil } }
            throw error
        }
    }

    func health(after error: any Error) -> StorageHealth {
        .failing("\(redactedURL): \(PasswordRedaction.redacted("\(error)"))")
    }
}
