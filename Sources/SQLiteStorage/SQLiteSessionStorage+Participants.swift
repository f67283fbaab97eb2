import Foundation
import GRDB
import ViewModelCore

/// The SQLite store's ``ParticipantDirectory`` (which ``SessionStorage`` requires): join invitations and participants
/// (tables `join_invitations` and `participants`, since schema v9). Each call is one transaction of its own, off the
/// journal's writer, as the contact directory's: written when a session invites, someone joins or leaves, never per
/// event. A feature list is kept as its names joined by a space (a feature's name has none).
extension SQLiteSessionStorage {
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
            in: "join_invitations", of: session, now: now, reading: Self.joinInvitation,
            what: "reading join invitations")
    }

    /// Withdraws `session`'s join invitation `id`.
    public func withdrawJoinInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try withdrawInvitation(
            id, of: session, in: "join_invitations", now: now, what: "withdrawing a join invitation")
    }

    /// Lets in the participant `joining` describes, using its invitation once, in one transaction.
    public func join(_ joining: Joining, now: Date) throws(StorageError) -> Joined {
        try contactsWrite("joining a session") { db -> Joined in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM join_invitations WHERE digest = ?", arguments: [Data(joining.digest)])
            else { return .unknown }
            let invitation = try Self.joinInvitation(row)
            guard invitation.isOpen(withdrawn: row["withdrawn"] as Bool, now: now) else { return .gone }
            let present =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM participants WHERE session_id = ? AND removed_at IS NULL",
                    arguments: [invitation.session.rawValue]) ?? 0
            guard present < joining.maxParticipants else { return .full(limit: joining.maxParticipants) }
            try db.execute(sql: "UPDATE join_invitations SET uses = uses - 1 WHERE id = ?", arguments: [invitation.id])
            let participant = joining.participant(by: invitation, at: now)
            try db.execute(
                sql: """
                    INSERT INTO participants (session_id, id, name, role, features, token_digest, joined_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    participant.session.rawValue, participant.id, participant.name, participant.role.rawValue,
                    participant.features.joined(separator: " "), Data(participant.tokenDigest),
                    now.timeIntervalSince1970,
                ])
            return .joined(participant)
        }
    }

    /// Every participant of `session` that ever joined, in the order they joined.
    public func participants(of session: SessionID) throws(StorageError) -> [Participant] {
        do {
            return try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM participants WHERE session_id = ? ORDER BY joined_at, id",
                    arguments: [session.rawValue]
                ).map(Self.participant)
            }
        } catch {
            throw .failed(reason: "reading participants: \(Self.describe(error))")
        }
    }

    /// Removes `session`'s participant `id` at `now`.
    public func removeParticipant(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try contactsWrite("removing a participant") { db in
            try db.execute(
                sql: "UPDATE participants SET removed_at = ? WHERE session_id = ? AND id = ? AND removed_at IS NULL",
                arguments: [now.timeIntervalSince1970, session.rawValue, id])
            return db.changesCount == 1
        }
    }

    /// The join invitation in `row`; a role this build does not know means the row is not ours.
    private static func joinInvitation(_ row: Row) throws -> JoinInvitation {
        guard let role = ParticipantRole(rawValue: row["role"]) else {
            throw StorageError.failed(reason: "join invitation \(row["id"] as String) has an unknown role")
        }
        return JoinInvitation(
            id: row["id"], session: SessionID(row["session_id"]), features: Self.features(row["features"]), role: role,
            digest: [UInt8](row["digest"] as Data), createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), uses: row["uses"])
    }

    /// The participant in `row`; a role this build does not know means the row is not ours.
    private static func participant(_ row: Row) throws -> Participant {
        guard let role = ParticipantRole(rawValue: row["role"]) else {
            throw StorageError.failed(reason: "participant \(row["id"] as String) has an unknown role")
        }
        return Participant(
            id: row["id"], session: SessionID(row["session_id"]), name: row["name"], role: role,
            features: Self.features(row["features"]), tokenDigest: [UInt8](row["token_digest"] as Data),
            joinedAt: Date(timeIntervalSince1970: row["joined_at"]),
            removedAt: (row["removed_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// A feature list as kept: names joined by a space.
    private static func features(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }
}
