import Foundation
import ViewModelCore

/// A session's past (``SessionHistoryReading``): its snapshots kept as checkpoints and the journal records after
/// the oldest, as many as the writer's `historyInputs` says (``HistoryRetention``). Reads need no lease: any node
/// may read a session's past, as it is durable.
///
/// With no history kept (``PostgresSessionStorage/historyInputs`` 0) none is held, as in the memory store: the
/// journal records after the snapshot are what a load replays, not a past to serve, and the checkpoints an earlier
/// run kept are not read (the session's next snapshot deletes them).
extension PostgresSessionStorage {
    /// The checkpoints kept for session `id`, oldest first; none while no history is kept (``historyInputs`` 0).
    public func checkpoints(of id: SessionID) throws(StorageError) -> [HistoryCheckpoint] {
        guard historyInputs > 0 else { return [] }
        let result: PostgresResult
        do {
            result = try pool.withConnection { connection throws(PostgresError) in
                try connection.query(
                    "SELECT number, versions FROM checkpoints WHERE session_id = $1 ORDER BY number", [id.rawValue])
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s history: \(error)")
        }
        return try result.rows.map { row throws(StorageError) in
            guard let number = row[0].flatMap({ Int($0) }), let text = row[1],
                let checkpoint = HistoryCheckpoint(number: number, versionsJSON: text)
            else { throw .failed(reason: "session \(id) has a checkpoint without its versions") }
            return checkpoint
        }
    }

    /// Session `id`'s value at checkpoint `number`, or nil when it is not kept (compacted away, or no history kept).
    public func checkpoint(of id: SessionID, at number: Int) throws(StorageError) -> SessionCore? {
        guard historyInputs > 0 else { return nil }
        let result: PostgresResult
        do {
            result = try pool.withConnection { connection throws(PostgresError) in
                try connection.query(
                    "SELECT core FROM checkpoints WHERE session_id = $1 AND number = $2", [id.rawValue, String(number)])
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s checkpoint \(number): \(error)")
        }
        guard let text = result.rows.first?.first ?? nil else { return nil }
        do {
            return try features.jsonDecoder().decode(SessionCore.self, from: Data(text.utf8))
        } catch {
            throw .failed(reason: "session \(id)'s checkpoint \(number) cannot be read: \(error)")
        }
    }

    /// At most `limit` of session `id`'s journal records after record `number`, in order; none with no history kept.
    public func records(of id: SessionID, after number: Int, limit: Int) throws(StorageError) -> [JournalRecord] {
        guard historyInputs > 0 else { return [] }
        let result: PostgresResult
        do {
            result = try pool.withConnection { connection throws(PostgresError) in
                try connection.query(
                    """
                    SELECT number, input, record FROM journal WHERE session_id = $1 AND number > $2
                    ORDER BY number LIMIT $3
                    """,
                    [id.rawValue, String(number), String(max(0, limit))])
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s journal: \(error)")
        }
        return try result.rows.map { row throws(StorageError) in
            guard let number = row[0].flatMap({ Int($0) }), let record = Self.record(row[1], row[2]),
                let input = try? JournalRecordFormat.decode(record)
            else { throw .failed(reason: "session \(id)'s journal has a record that cannot be read") }
            return JournalRecord(number: number, input: input)
        }
    }
}
