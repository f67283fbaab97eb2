import Foundation
import GRDB
import ViewModelCore

/// A session's past (``SessionHistoryReading``): its snapshots kept as checkpoints and the journal records after
/// the oldest, as many as ``SQLiteSessionStorage/historyInputs`` says (``HistoryRetention``).
///
/// With no history kept (``SQLiteSessionStorage/historyInputs`` 0) none is held, as in the memory store: the newest
/// snapshot and the records after it (up to a snapshot interval: 255 at most) are what a load replays, not a past
/// to serve (they served `?version=N`, `/versions` and export lines that the memory store answers `410` and leaves
/// out); and what an earlier run with history kept stays unread until the session's next snapshot deletes it.
extension SQLiteSessionStorage {
    /// The checkpoints kept for session `id`, oldest first; none while no history is kept (``historyInputs`` 0).
    public func checkpoints(of id: SessionID) throws(StorageError) -> [HistoryCheckpoint] {
        guard historyInputs > 0 else { return [] }
        do {
            return try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT number, versions FROM snapshots WHERE session_id = ? ORDER BY number",
                    arguments: [id.rawValue]
                ).map { row in
                    let number: Int = row["number"]
                    if let text = row["versions"] as String?,
                        let checkpoint = HistoryCheckpoint(number: number, versionsJSON: text)
                    {
                        return checkpoint
                    }
                    // A snapshot written before versions were kept with it: read off its value.
                    let core = try Data.fetchOne(
                        db, sql: "SELECT core FROM snapshots WHERE session_id = ? AND number = ?",
                        arguments: [id.rawValue, number])
                    return HistoryCheckpoint(
                        number: number,
                        versions: try features.jsonDecoder().decode(
                            SessionCore.self, from: StoredValueFormat.json(core ?? Data())
                        ).versions)
                }
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s history: \(Self.describe(error))")
        }
    }

    /// Session `id`'s value at checkpoint `number`, or nil when it is not kept (compacted away, or no history kept).
    public func checkpoint(of id: SessionID, at number: Int) throws(StorageError) -> SessionCore? {
        guard historyInputs > 0 else { return nil }
        do {
            return try pool.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT core FROM snapshots WHERE session_id = ? AND number = ?",
                    arguments: [id.rawValue, number]
                ).map { try features.jsonDecoder().decode(SessionCore.self, from: StoredValueFormat.json($0)) }
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s snapshot \(number): \(Self.describe(error))")
        }
    }

    /// At most `limit` of session `id`'s journal records after record `number`, in order; none with no history kept.
    public func records(of id: SessionID, after number: Int, limit: Int) throws(StorageError) -> [JournalRecord] {
        guard historyInputs > 0 else { return [] }
        do {
            return try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT number, input FROM journal WHERE session_id = ? AND number > ? ORDER BY number LIMIT ?",
                    arguments: [id.rawValue, number, max(0, limit)]
                ).map { row in
                    JournalRecord(number: row["number"], input: try JournalRecordFormat.decode(row["input"] as Data))
                }
            }
        } catch {
            throw .failed(reason: "reading session \(id)'s journal: \(Self.describe(error))")
        }
    }
}
