import Foundation
import GRDB
import ViewModelCore

/// The SQLite store's ``ContactDirectory`` (which ``SessionStorage`` requires): invitations and contact addresses (tables `invitations` and `contacts`, since schema v8). Each
/// call is one transaction of its own, off the journal's writer (SQLite takes one writer at a time, and waits its
/// turn): these are written when a session invites or redeems, never per event.
extension SQLiteSessionStorage {
    /// Keeps `invitation`, unless its session has `openLimit` open ones already.
    public func addInvitation(_ invitation: Invitation, openLimit: Int, now: Date) throws(StorageError) -> Bool {
        try keepInvitation(
            invitation, making: "feature, name", [invitation.feature, invitation.name], in: "invitations",
            openLimit: openLimit, now: now, what: "keeping an invitation")
    }

    /// The open invitations of `session` at `now`, oldest first.
    public func invitations(of session: SessionID, now: Date) throws(StorageError) -> [Invitation] {
        try openInvitations(
            in: "invitations", of: session, now: now, reading: Self.invitation, what: "reading invitations")
    }

    /// Withdraws `session`'s invitation `id`.
    public func withdrawInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try withdrawInvitation(id, of: session, in: "invitations", now: now, what: "withdrawing an invitation")
    }

    /// Redeems the invitation whose code has `redemption`'s digest, making the two addresses at once.
    public func redeem(_ redemption: Redemption, now: Date) throws(StorageError) -> Redeemed {
        try contactsWrite("redeeming an invitation") { db -> Redeemed in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM invitations WHERE digest = ?", arguments: [Data(redemption.digest)])
            else { return .unknown }
            let invitation = Self.invitation(row)
            guard invitation.session != redemption.session else { return .own }
            if let existing = try Row.fetchOne(
                db, sql: "SELECT address, name FROM contacts WHERE session_id = ? AND peer_id = ? AND feature = ?",
                arguments: [redemption.session.rawValue, invitation.session.rawValue, invitation.feature])
            {
                return .existing(
                    ContactPair(
                        feature: invitation.feature, inviter: invitation.session, inviterName: existing["name"],
                        redeemerAddress: ContactAddress(existing["address"])))
            }
            guard invitation.isOpen(withdrawn: row["withdrawn"], now: now) else { return .gone }
            for session in [invitation.session, redemption.session] {
                let count =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM contacts WHERE session_id = ?", arguments: [session.rawValue])
                    ?? 0
                guard count < redemption.maxContacts else { return .tooManyContacts(limit: redemption.maxContacts) }
            }
            try db.execute(sql: "UPDATE invitations SET uses = uses - 1 WHERE id = ?", arguments: [invitation.id])
            // The two addresses mirror each other: the second row is the first seen from the redeeming session.
            try db.execute(
                sql: """
                    INSERT INTO contacts (address, session_id, feature, peer_id, peer_address, name, created_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7), (?5, ?4, ?3, ?2, ?1, ?8, ?7)
                    """,
                arguments: [
                    redemption.forInviter.rawValue, invitation.session.rawValue, invitation.feature,
                    redemption.session.rawValue, redemption.forRedeemer.rawValue, redemption.name,
                    now.timeIntervalSince1970, invitation.name,
                ])
            return .made(ContactPair(invitation, redeemedBy: redemption))
        }
    }

    /// Where `address` leads, if anywhere.
    public func route(of address: ContactAddress) throws(StorageError) -> ContactRoute? {
        do {
            return try pool.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT session_id, feature, peer_id, peer_address FROM contacts WHERE address = ?",
                    arguments: [address.rawValue]
                ).map { row in
                    ContactRoute(
                        owner: SessionID(row["session_id"]), feature: row["feature"], peer: SessionID(row["peer_id"]),
                        peerAddress: ContactAddress(row["peer_address"]))
                }
            }
        } catch {
            throw .failed(reason: "reading a contact address: \(Self.describe(error))")
        }
    }

    private static func invitation(_ row: Row) -> Invitation {
        Invitation(
            id: row["id"], session: SessionID(row["session_id"]), feature: row["feature"], name: row["name"],
            digest: [UInt8](row["digest"] as Data), createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), uses: row["uses"])
    }

    /// Runs `body` in a write transaction of its own, unless the store is closed or broken.
    func contactsWrite<Result>(_ what: String, _ body: (Database) throws -> Result) throws(StorageError)
        -> Result
    {
        guard !writer.isStopped, writer.mayWrite() else {
            throw .failed(reason: "\(what): the store takes no writes (\(health))")
        }
        do {
            return try pool.write(body)
        } catch {
            throw .failed(reason: "\(what) in \(path): \(Self.describe(error))")
        }
    }
}
