import Foundation
import GRDB
import ViewModelCore

/// Examinations of a store's file, each answering in a few short lines: SQLite's own check of the file, what the
/// ledger says was acknowledged against what the file holds, and the sessions' journals. Opening a store runs the
/// quick ones (a damaged file or a lost acknowledged record refuses the start); `viewhost check` runs them all.
enum StoreAudit {
    /// SQLite's check of the file (`quick_check` once a server has started, the full `integrity_check` in
    /// `viewhost check`): one line saying how many problems and the first few, or nil when it is sound.
    static func integrity(_ db: Database, full: Bool) throws -> String? {
        let problems = try String.fetchAll(db, sql: full ? "PRAGMA integrity_check(100)" : "PRAGMA quick_check(100)")
        guard problems != ["ok"] else { return nil }
        let count =
            problems.count >= 100
            ? "100 or more problems" : "\(problems.count) problem\(problems.count == 1 ? "" : "s")"
        // A problem may span lines ("*** in database main ***" then the page's): each is made one, so the answer
        // stays one line.
        let firstProblems = problems.prefix(2).map {
            $0.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: " ")
        }
        return "SQLite's integrity check finds \(count): " + firstProblems.joined(separator: "; ")
            + (problems.count > 2 ? "; …" : "")
    }

    /// What a database file that SQLite cannot read says of itself: whether it is shorter than its header says (it
    /// was cut off), as one line; nil when its size is what its header says.
    static func sizeDiagnosis(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path), let header = try? handle.read(upToCount: 100),
            header.count == 100
        else { return nil }
        let bytes = [UInt8](header)
        // Only a file that starts as an SQLite database says how long it is (another is "not a database").
        guard bytes.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        let pageSize = bytes[16] == 0 && bytes[17] == 1 ? 65_536 : Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = bytes[28..<32].reduce(0) { $0 << 8 | Int($1) }
        let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
        try? handle.close()
        guard pageSize > 0, pages > 0, size < pages * pageSize else { return nil }
        return "it is shorter than its header says (\(size / pageSize) of \(pages) pages): it was cut off"
    }

    /// Why a file SQLite cannot read is damaged, as a clause: SQLite's words and, when it was cut off, that.
    static func damage(of path: String, error: any Error) -> String {
        "SQLite cannot read it (\(SQLiteSessionStorage.describe(error)))"
            + (sizeDiagnosis(of: path).map { "; \($0)" } ?? "")
    }

    /// Whether `error` is SQLite finding the file damaged (not a full disk or a permission).
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode)
    }

    /// Acknowledged journal records of one session that the file does not hold.
    struct LostRecords: Equatable, CustomStringConvertible {
        let session: SessionID
        /// The last record the file holds; nil when the session itself is missing.
        let stored: Int?
        /// The last record the ledger says was acknowledged.
        let acknowledged: Int

        /// How many records are missing (for a missing session, all it had, and its creation).
        var count: Int { acknowledged - (stored ?? -1) }

        var description: String {
            guard let stored else { return "session \(session) (created, \(acknowledged) records) is missing" }
            let range = stored + 1 == acknowledged ? "record \(acknowledged)" : "records \(stored + 1)–\(acknowledged)"
            return "session \(session) lost \(range)"
        }
    }

    /// Whether the file says a ledger must be beside it (`ledger_guard`, ``SQLiteSchema``): a server started on it
    /// and has not closed it cleanly, so its write-ahead log may hold acknowledged commits the file does not. False
    /// for a store from before v6 (``SQLiteMaintenance/check(directory:features:)`` reads a store without migrating it).
    static func ledgerRequired(_ db: Database) throws -> Bool {
        guard try db.tableExists("ledger_guard") else { return false }
        return try Bool.fetchOne(db, sql: "SELECT required FROM ledger_guard WHERE id = 1") ?? false
    }

    /// Why `ledger` cannot say what the write-ahead log held, as a clause: it must be there and is missing,
    /// emptied or replaced (deleted with the log, the log's damage would go unseen); nil when it can.
    static func ledgerAbsence(_ db: Database, ledger: CommitLedger.Contents) throws -> String? {
        guard let absence = ledger.absence, try ledgerRequired(db) else { return nil }
        return "\(absence), while the write-ahead log may hold acknowledged records (the store was not closed "
            + "cleanly): the records it lost cannot be found"
    }

    /// Sets whether a ledger must be beside the file (`ledger_guard`).
    static func requireLedger(_ required: Bool, in db: Database) throws {
        try db.execute(sql: "UPDATE ledger_guard SET required = ? WHERE id = 1", arguments: [required])
    }

    /// The number of a session's last record, as SQL over `sessions` (the row's `id`): its journal's last, or its
    /// newest snapshot's when the journal holds nothing after it (a session's row is not written for every
    /// record).
    static let lastNumber = """
        max(coalesce((SELECT max(number) FROM journal WHERE journal.session_id = sessions.id), 0),
            coalesce((SELECT max(number) FROM snapshots WHERE snapshots.session_id = sessions.id), 0))
        """

    /// The sessions whose acknowledged records (``CommitLedger``) the file does not hold.
    static func lostRecords(_ db: Database, acknowledged: [SessionID: Int]) throws -> [LostRecords] {
        var lost: [LostRecords] = []
        let statement = try db.makeStatement(
            sql: "SELECT \(lastNumber), expired_at IS NOT NULL FROM sessions WHERE id = ?")
        for (id, number) in acknowledged.sorted(by: { $0.key.rawValue < $1.key.rawValue })
        where number != CommitLedger.removed {
            guard let row = try Row.fetchOne(statement, arguments: [id.rawValue]) else {
                lost.append(LostRecords(session: id, stored: nil, acknowledged: number))
                continue
            }
            let stored: Int = row[0]
            let expired: Bool = row[1]
            if !expired, stored < number { lost.append(LostRecords(session: id, stored: stored, acknowledged: number)) }
        }
        return lost
    }

    /// One line for `lost`: how many records of how many sessions, and the first few.
    static func summary(_ lost: [LostRecords]) -> String {
        let records = lost.map(\.count).reduce(0, +)
        return "\(records) acknowledged journal record\(records == 1 ? " is" : "s are") missing from \(lost.count) "
            + "session\(lost.count == 1 ? "" : "s") (the write-ahead log was damaged or deleted): "
            + lost.prefix(3).map(\.description).joined(separator: "; ") + (lost.count > 3 ? "; …" : "")
    }

    /// A session whose journal does not run from its snapshot to its last record without a gap: it cannot be
    /// loaded.
    struct JournalGap: CustomStringConvertible {
        let session: String
        /// The missing records ("records 12–14"), or nil when the session has no snapshot.
        let missing: String?
        let last: Int

        var description: String {
            guard let missing else { return "session \(session) has no snapshot" }
            return "session \(session)'s journal has a gap: \(missing) missing (it holds records up to \(last))"
        }
    }

    /// Sessions whose journal does not run without a gap from their newest snapshot (the one a load starts from) to
    /// their last record.
    static func journalGaps(_ db: Database) throws -> [JournalGap] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT sessions.id, \(lastNumber), snapshots.number,
                    (SELECT count(*) FROM journal WHERE journal.session_id = sessions.id AND journal.number > snapshots.number)
                FROM sessions LEFT JOIN snapshots ON snapshots.session_id = sessions.id
                    AND snapshots.number = (SELECT max(number) FROM snapshots WHERE session_id = sessions.id)
                WHERE sessions.expired_at IS NULL
                """)
        var gaps: [JournalGap] = []
        for row in rows {
            let id: String = row[0]
            let last: Int = row[1]
            guard let snapshot: Int = row[2] else {
                gaps.append(JournalGap(session: id, missing: nil, last: last))
                continue
            }
            let present: Int = row[3]
            guard present != last - snapshot else { continue }
            let missing = try Int.fetchAll(
                db,
                sql: """
                    WITH RECURSIVE wanted(number) AS (SELECT ?2 + 1 UNION ALL SELECT number + 1 FROM wanted WHERE number < ?3)
                    SELECT number FROM wanted WHERE number NOT IN (SELECT number FROM journal WHERE session_id = ?1)
                    """, arguments: [id, snapshot, last])
            gaps.append(JournalGap(session: id, missing: ranges(missing), last: last))
        }
        return gaps
    }

    /// The participants and join invitations whose session is gone (no row, or a tombstone): removing or expiring a
    /// session removes them with it in one transaction, so a store holds none unless it was edited or damaged; each
    /// would be a credential or a code that opens nothing. Their count, per table.
    static func strayParticipants(_ db: Database) throws -> (participants: Int, invitations: Int) {
        let stray = "session_id NOT IN (SELECT id FROM sessions WHERE expired_at IS NULL)"
        let participants = try Int.fetchOne(db, sql: "SELECT count(*) FROM participants WHERE \(stray)") ?? 0
        let invitations = try Int.fetchOne(db, sql: "SELECT count(*) FROM join_invitations WHERE \(stray)") ?? 0
        return (participants, invitations)
    }

    /// Removes what ``strayParticipants(_:)`` counts.
    static func removeStrayParticipants(_ db: Database) throws {
        let stray = "session_id NOT IN (SELECT id FROM sessions WHERE expired_at IS NULL)"
        try db.execute(sql: "DELETE FROM participants WHERE \(stray)")
        try db.execute(sql: "DELETE FROM join_invitations WHERE \(stray)")
    }

    /// "2 participants and 1 join invitation", for what ``strayParticipants(_:)`` found; nil when it found none.
    static func describe(stray: (participants: Int, invitations: Int)) -> String? {
        guard stray.participants + stray.invitations > 0 else { return nil }
        let participants = "\(stray.participants) participant\(stray.participants == 1 ? "" : "s")"
        let invitations = "\(stray.invitations) join invitation\(stray.invitations == 1 ? "" : "s")"
        return "\(participants) and \(invitations) of sessions that are gone"
    }

    /// The sessions whose rows cannot be read (a damaged page), of how many.
    static func unreadableSessions(_ db: Database) throws -> (unreadable: [String], total: Int) {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM sessions WHERE expired_at IS NULL")
        var unreadable: [String] = []
        for id in ids {
            do {
                _ = try Row.fetchAll(db, sql: "SELECT * FROM snapshots WHERE session_id = ?", arguments: [id])
                _ = try Row.fetchAll(db, sql: "SELECT * FROM journal WHERE session_id = ?", arguments: [id])
            } catch {
                unreadable.append(id)
            }
        }
        return (unreadable, ids.count)
    }

    /// `[3, 4, 5, 9]` as "records 3–5, 9".
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end == index ? "\(numbers[index])" : "\(numbers[index])–\(numbers[end])")
            index = end + 1
        }
        return (numbers.count == 1 ? "record " : "records ") + parts.prefix(5).joined(separator: ", ")
            + (parts.count > 5 ? ", …" : "")
    }
}
