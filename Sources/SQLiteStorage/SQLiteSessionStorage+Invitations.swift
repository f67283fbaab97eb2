import Foundation
import GRDB
import ViewModelCore

/// What the SQLite store does alike for both kinds of invitation, contacts' (table `invitations`) and participants'
/// (`join_invitations`): the two tables differ only in the two columns of what an invitation makes, so keeping,
/// listing and withdrawing one are the same statements on either table.
extension SQLiteSessionStorage {
    /// Keeps `invitation` in `table`, with `made` the values of its two columns `madeColumns` (what it makes), unless
    /// its session has `openLimit` open ones there already; `what` names the step in an error.
    func keepInvitation(
        _ invitation: some InvitationRecord, making madeColumns: String, _ made: [any DatabaseValueConvertible],
        in table: String, openLimit: Int, now: Date, what: String
    ) throws(StorageError) -> Bool {
        try contactsWrite(what) { db in
            let open =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM \(table) WHERE session_id = ?1 AND \(Self.isOpen(at: 2))",
                    arguments: [invitation.session.rawValue, now.timeIntervalSince1970]) ?? 0
            guard open < openLimit else { return false }
            let values: [any DatabaseValueConvertible] =
                [invitation.id, invitation.session.rawValue] + made + [
                    Data(invitation.digest), invitation.createdAt.timeIntervalSince1970,
                    invitation.expiresAt.timeIntervalSince1970, invitation.uses,
                ]
            try db.execute(
                sql: """
                    INSERT INTO \(table) (id, session_id, \(madeColumns), digest, created_at, expires_at, uses)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(values))
            return true
        }
    }

    /// The open invitations of `session` in `table` at `now`, oldest first, each read by `invitation`; `what` names
    /// the step in an error.
    func openInvitations<Kind>(
        in table: String, of session: SessionID, now: Date, reading invitation: (Row) throws -> Kind, what: String
    ) throws(StorageError) -> [Kind] {
        do {
            return try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM \(table) WHERE session_id = ?1 AND \(Self.isOpen(at: 2))
                        ORDER BY created_at, id
                        """,
                    arguments: [session.rawValue, now.timeIntervalSince1970]
                ).map(invitation)
            }
        } catch {
            throw .failed(reason: "\(what): \(Self.describe(error))")
        }
    }

    /// Withdraws `session`'s invitation `id` in `table`; `what` names the step in an error.
    /// - Returns: Whether it was there and open.
    func withdrawInvitation(
        _ id: String, of session: SessionID, in table: String, now: Date, what: String
    ) throws(StorageError) -> Bool {
        try contactsWrite(what) { db in
            try db.execute(
                sql: "UPDATE \(table) SET withdrawn = 1 WHERE id = ?1 AND session_id = ?2 AND \(Self.isOpen(at: 3))",
                arguments: [id, session.rawValue, now.timeIntervalSince1970])
            return db.changesCount == 1
        }
    }

    /// An invitation that may still be used at parameter `instant` (seconds since 1970).
    static func isOpen(at instant: Int) -> String { "uses > 0 AND withdrawn = 0 AND expires_at > ?\(instant)" }
}
