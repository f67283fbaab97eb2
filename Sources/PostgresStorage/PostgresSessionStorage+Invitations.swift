import Foundation
import ViewModelCore

/// What the PostgreSQL store does alike for both kinds of invitation, contacts' (table `invitations`) and
/// participants' (`join_invitations`): the two tables differ only in the two columns of what an invitation makes, so
/// keeping, listing and withdrawing one are the same statements on either table.
extension PostgresSessionStorage {
    /// Keeps `invitation` in `table`, with `made` the values of its two columns `madeColumns` (what it makes), unless
    /// its session has `openLimit` open ones there already (counted under the session's advisory lock, so two nodes
    /// cannot both pass the limit); `what` names the step in an error.
    func keepInvitation(
        _ invitation: some InvitationRecord, making madeColumns: String, _ made: [String], in table: String,
        openLimit: Int, now: Date, what: String
    ) throws(StorageError) -> Bool {
        try contacts(what) { connection throws(PostgresError) -> Bool in
            try Self.lockContacts(of: [invitation.session], connection: connection)
            let open = try connection.query(
                "SELECT count(*) FROM \(table) WHERE session_id = $1 AND \(Self.isOpen(at: 2))",
                [invitation.session.rawValue, Self.seconds(now)])
            guard Self.integer(open) < openLimit else { return false }
            try connection.query(
                """
                INSERT INTO \(table) (id, session_id, \(madeColumns), digest, created_at, expires_at, uses)
                VALUES ($1, $2, $3, $4, $5::bytea, $6::double precision, $7::double precision, $8::integer)
                """,
                [invitation.id, invitation.session.rawValue] + made + [
                    PostgresEncoded.bytea(invitation.digest), Self.seconds(invitation.createdAt),
                    Self.seconds(invitation.expiresAt), String(invitation.uses),
                ])
            return true
        }
    }

    /// The open invitations of `session` in `table` at `now`, oldest first: `columns` of each, read by `invitation`;
    /// `what` names the step in an error.
    func openInvitations<Kind>(
        in table: String, of session: SessionID, now: Date, columns: String,
        reading invitation: ([String?]) throws(PostgresError) -> Kind, what: String
    ) throws(StorageError) -> [Kind] {
        try contacts(what, inTransaction: false) { connection throws(PostgresError) -> [Kind] in
            try connection.query(
                """
                SELECT \(columns) FROM \(table) WHERE session_id = $1 AND \(Self.isOpen(at: 2))
                ORDER BY created_at, id
                """, [session.rawValue, Self.seconds(now)]
            ).rows.map(invitation)
        }
    }

    /// Withdraws `session`'s invitation `id` in `table`; `what` names the step in an error.
    /// - Returns: Whether it was there and open.
    func withdrawInvitation(
        _ id: String, of session: SessionID, in table: String, now: Date, what: String
    ) throws(StorageError) -> Bool {
        try contacts(what) { connection throws(PostgresError) -> Bool in
            try connection.query(
                "UPDATE \(table) SET withdrawn = true WHERE id = $1 AND session_id = $2 AND \(Self.isOpen(at: 3))",
                [id, session.rawValue, Self.seconds(now)]
            ).affected == 1
        }
    }

    /// An invitation that may still be used at parameter `instant` (seconds since 1970).
    static func isOpen(at instant: Int) -> String {
        "uses > 0 AND NOT withdrawn AND expires_at > $\(instant)::double precision"
    }
}
