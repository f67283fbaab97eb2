import Foundation
import ViewModelCore

/// The PostgreSQL store's ``ParticipantDirectory`` (which ``SessionStorage`` requires): join invitations and
/// participants (tables `join_invitations` and `participants`, since migration 8), shared by every node, so a
/// participant removed through one node is refused by all. Each call is one transaction of its own on the read pool,
/// as the contact directory's; a join locks the invitation's row (`FOR UPDATE`) and takes the session's advisory
/// lock before it counts the participants, so two nodes cannot both pass a limit with one place left. A feature list
/// is kept as its names joined by a space (a feature's name has none).
extension PostgresSessionStorage {
    /// Keeps `invitation`, unless its session has `openLimit` open join invitations already.
    public func addJoinInvitation(_ invitation: JoinInvitation, openLimit: Int, now: Date) throws(StorageError)
        -> Bool
    {
        try keepInvitation(
            invitation, making: "features, role",
            [invitation.features.joined(separator: " "), invitation.role.rawValue], in: "join_invitations",
            openLimit: openLimit, now: now, what: "keeping a join invitation")
    }

    /// The open join invitations of `session` at `now`, oldest first.
    public func joinInvitations(of session: SessionID, now: Date) throws(StorageError) -> [JoinInvitation] {
        try openInvitations(
            in: "join_invitations", of: session, now: now, columns: Self.joinInvitationColumns,
            reading: Self.joinInvitation, what: "reading join invitations")
    }

    /// Withdraws `session`'s join invitation `id`.
    public func withdrawJoinInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try withdrawInvitation(
            id, of: session, in: "join_invitations", now: now, what: "withdrawing a join invitation")
    }

    /// Lets in the participant `joining` describes, using its invitation once, in one transaction.
    public func join(_ joining: Joining, now: Date) throws(StorageError) -> Joined {
        try contacts("joining a session") { connection throws(PostgresError) -> Joined in
            // Held until commit: a node joining by the same code meanwhile waits, then reads it used.
            let found = try connection.query(
                "SELECT \(Self.joinInvitationColumns) FROM join_invitations WHERE digest = $1::bytea FOR UPDATE",
                [PostgresEncoded.bytea(joining.digest)])
            guard let row = found.rows.first else { return .unknown }
            let invitation = try Self.joinInvitation(row)
            guard invitation.isOpen(withdrawn: row.count > 8 && row[8] == "t", now: now) else { return .gone }
            try Self.lockContacts(of: [invitation.session], connection: connection)
            let present = try connection.query(
                "SELECT count(*) FROM participants WHERE session_id = $1 AND removed_at IS NULL",
                [invitation.session.rawValue])
            guard Self.integer(present) < joining.maxParticipants else {
                return .full(limit: joining.maxParticipants)
            }
            try connection.query("UPDATE join_invitations SET uses = uses - 1 WHERE id = $1", [invitation.id])
            let participant = joining.participant(by: invitation, at: now)
            try connection.query(
                """
                INSERT INTO participants (session_id, id, name, role, features, token_digest, joined_at)
                VALUES ($1, $2, $3, $4, $5, $6::bytea, $7::double precision)
                """,
                [
                    participant.session.rawValue, participant.id, participant.name, participant.role.rawValue,
                    participant.features.joined(separator: " "), PostgresEncoded.bytea(participant.tokenDigest),
                    Self.seconds(now),
                ])
            return .joined(participant)
        }
    }

    /// Every participant of `session` that ever joined, in the order they joined.
    public func participants(of session: SessionID) throws(StorageError) -> [Participant] {
        try contacts("reading participants", inTransaction: false) {
            connection throws(PostgresError) -> [Participant] in
            try connection.query(
                """
                SELECT session_id, id, name, role, features, token_digest, joined_at, removed_at FROM participants
                WHERE session_id = $1 ORDER BY joined_at, id
                """, [session.rawValue]
            ).rows.map(Self.participant)
        }
    }

    /// Removes `session`'s participant `id` at `now`.
    public func removeParticipant(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try contacts("removing a participant") { connection throws(PostgresError) -> Bool in
            try connection.query(
                """
                UPDATE participants SET removed_at = $3::double precision
                WHERE session_id = $1 AND id = $2 AND removed_at IS NULL
                """,
                [session.rawValue, id, Self.seconds(now)]
            ).affected == 1
        }
    }

    /// The columns ``joinInvitation(_:)`` reads, in its order, then `withdrawn`.
    private static let joinInvitationColumns =
        "id, session_id, features, role, digest, created_at, expires_at, uses, withdrawn"

    /// The join invitation in `row` (``joinInvitationColumns``); a row that does not read as one is not ours.
    private static func joinInvitation(_ row: [String?]) throws(PostgresError) -> JoinInvitation {
        func column(_ index: Int) -> String? { index < row.count ? row[index] : nil }
        guard let id = column(0), let session = column(1), let features = column(2),
            let role = column(3).flatMap(ParticipantRole.init(rawValue:)),
            let digest = column(4).flatMap(PostgresEncoded.bytes(bytea:)),
            let createdAt = column(5).flatMap(Double.init), let expiresAt = column(6).flatMap(Double.init),
            let uses = column(7).flatMap({ Int($0) })
        else {
            throw .server(state: "ViewHost", message: "a join invitation of session \(column(1) ?? "?") cannot be read")
        }
        return JoinInvitation(
            id: id, session: SessionID(session), features: features.split(separator: " ").map(String.init), role: role,
            digest: digest, createdAt: Date(timeIntervalSince1970: createdAt),
            expiresAt: Date(timeIntervalSince1970: expiresAt), uses: uses)
    }

    /// The participant in `row`; a row that does not read as one is not ours.
    private static func participant(_ row: [String?]) throws(PostgresError) -> Participant {
        func column(_ index: Int) -> String? { index < row.count ? row[index] : nil }
        guard let session = column(0), let id = column(1), let name = column(2),
            let role = column(3).flatMap(ParticipantRole.init(rawValue:)), let features = column(4),
            let digest = column(5).flatMap(PostgresEncoded.bytes(bytea:)),
            let joinedAt = column(6).flatMap(Double.init)
        else {
            throw .server(state: "ViewHost", message: "a participant of session \(column(0) ?? "?") cannot be read")
        }
        return Participant(
            id: id, session: SessionID(session), name: name, role: role,
            features: features.split(separator: " ").map(String.init), tokenDigest: digest,
            joinedAt: Date(timeIntervalSince1970: joinedAt),
            removedAt: column(7).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
    }
}
