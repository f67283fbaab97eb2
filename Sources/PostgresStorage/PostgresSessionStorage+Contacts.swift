import Foundation
import ViewModelCore

/// The PostgreSQL store's ``ContactDirectory`` (which ``SessionStorage`` requires): invitations and contact addresses
/// (tables `invitations` and `contacts`, since migration 7), shared by every node. Each call is one transaction of
/// its own on the read pool, off the journal's writer: these are written when a session invites or redeems, never
/// per event.
///
/// Several nodes write at once (SQLite has one writer; here each node has its own connections), so what a call
/// checks before it writes is held still until it commits: a redeem locks the invitation's row (`FOR UPDATE`: a
/// second node redeeming the same code waits, then finds it used), and a call that counts a session's invitations
/// or contacts first takes that session's advisory lock, so two nodes cannot both pass a limit with one place left.
extension PostgresSessionStorage {
    /// Keeps `invitation`, unless its session has `openLimit` open ones already.
    public func addInvitation(_ invitation: Invitation, openLimit: Int, now: Date) throws(StorageError) -> Bool {
        try keepInvitation(
            invitation, making: "feature, name", [invitation.feature, invitation.name], in: "invitations",
            openLimit: openLimit, now: now, what: "keeping an invitation")
    }

    /// The open invitations of `session` at `now`, oldest first.
    public func invitations(of session: SessionID, now: Date) throws(StorageError) -> [Invitation] {
        try openInvitations(
            in: "invitations", of: session, now: now, columns: Self.invitationColumns, reading: Self.invitation,
            what: "reading invitations")
    }

    /// Withdraws `session`'s invitation `id`.
    public func withdrawInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        try withdrawInvitation(id, of: session, in: "invitations", now: now, what: "withdrawing an invitation")
    }

    /// Redeems the invitation whose code has `redemption`'s digest, making the two addresses at once.
    public func redeem(_ redemption: Redemption, now: Date) throws(StorageError) -> Redeemed {
        try contacts("redeeming an invitation") { connection throws(PostgresError) -> Redeemed in
            // Held until commit: a node redeeming the same code meanwhile waits, then reads it used.
            let found = try connection.query(
                "SELECT \(Self.invitationColumns), withdrawn FROM invitations WHERE digest = $1::bytea FOR UPDATE",
                [PostgresEncoded.bytea(redemption.digest)])
            guard let row = found.rows.first else { return .unknown }
            let invitation = try Self.invitation(row)
            guard invitation.session != redemption.session else { return .own }
            try Self.lockContacts(of: [invitation.session, redemption.session], connection: connection)
            let existing = try connection.query(
                "SELECT address, name FROM contacts WHERE session_id = $1 AND peer_id = $2 AND feature = $3",
                [redemption.session.rawValue, invitation.session.rawValue, invitation.feature])
            if let contact = existing.rows.first, let address = contact[0], let name = contact[1] {
                return .existing(
                    ContactPair(
                        feature: invitation.feature, inviter: invitation.session, inviterName: name,
                        redeemerAddress: ContactAddress(address)))
            }
            guard invitation.uses > 0, invitation.expiresAt > now, row.count > 8, row[8] == "f" else { return .gone }
            for session in [invitation.session, redemption.session] {
                let count = try connection.query(
                    "SELECT count(*) FROM contacts WHERE session_id = $1", [session.rawValue])
                guard Self.integer(count) < redemption.maxContacts else {
                    return .tooManyContacts(limit: redemption.maxContacts)
                }
            }
            try connection.query("UPDATE invitations SET uses = uses - 1 WHERE id = $1", [invitation.id])
            try connection.query(
                """
                INSERT INTO contacts (address, session_id, feature, peer_id, peer_address, name, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7::double precision), ($5, $4, $3, $2, $1, $8, $7::double precision)
                """,
                [
                    redemption.forInviter.rawValue, invitation.session.rawValue, invitation.feature,
                    redemption.session.rawValue, redemption.forRedeemer.rawValue, redemption.name, Self.seconds(now),
                    invitation.name,
                ])
            return .made(ContactPair(invitation, redeemedBy: redemption))
        }
    }

    /// Where `address` leads, if anywhere.
    public func route(of address: ContactAddress) throws(StorageError) -> ContactRoute? {
        try contacts("reading a contact address", inTransaction: false) {
            connection throws(PostgresError) -> ContactRoute? in
            let found = try connection.query(
                "SELECT session_id, feature, peer_id, peer_address FROM contacts WHERE address = $1",
                [address.rawValue])
            guard let row = found.rows.first else { return nil }
            guard let owner = row[0], let feature = row[1], let peer = row[2], let peerAddress = row[3] else {
                throw .server(state: "ViewHost", message: "contact address \(address.rawValue) has an empty column")
            }
            return ContactRoute(
                owner: SessionID(owner), feature: feature, peer: SessionID(peer),
                peerAddress: ContactAddress(peerAddress))
        }
    }

    /// The columns ``invitation(_:)`` reads, in its order.
    private static let invitationColumns = "id, session_id, feature, name, digest, created_at, expires_at, uses"

    /// The invitation in `row` (``invitationColumns``); a row that does not read as one is not ours.
    private static func invitation(_ row: [String?]) throws(PostgresError) -> Invitation {
        func column(_ index: Int) -> String? { index < row.count ? row[index] : nil }
        guard let id = column(0), let session = column(1), let feature = column(2), let name = column(3),
            let digest = column(4).flatMap(PostgresEncoded.bytes(bytea:)),
            let createdAt = column(5).flatMap(Double.init), let expiresAt = column(6).flatMap(Double.init),
            let uses = column(7).flatMap({ Int($0) })
        else {
            throw .server(state: "ViewHost", message: "an invitation of session \(column(1) ?? "?") cannot be read")
        }
        return Invitation(
            id: id, session: SessionID(session), feature: feature, name: name, digest: digest,
            createdAt: Date(timeIntervalSince1970: createdAt), expiresAt: Date(timeIntervalSince1970: expiresAt),
            uses: uses)
    }

    /// Takes the advisory locks of `sessions`' contacts until the transaction ends, always in the ids' order (so two
    /// transactions that both want two sessions cannot each hold one and wait for the other).
    static func lockContacts(of sessions: [SessionID], connection: PostgresConnection) throws(PostgresError) {
        for id in Set(sessions.map(\.rawValue)).sorted() {
            try connection.query("SELECT pg_advisory_xact_lock(\(contactsLockSpace), hashtext($1))", [id])
        }
    }

    /// The first key of the sessions' contact locks ("VHCT"), apart from the migrations' single key.
    private static let contactsLockSpace = "1447576404"

    /// `instant` as seconds since 1970, as the tables keep times.
    static func seconds(_ instant: Date) -> String { String(instant.timeIntervalSince1970) }

    /// The one number a `count(*)` returned.
    static func integer(_ result: PostgresResult) -> Int {
        result.rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }

    /// Runs `body` on a pooled connection, in a transaction of its own unless it is one read (`inTransaction`
    /// false: a statement is atomic by itself, and a courier's lookup of an address costs one round trip, not
    /// three); any failure is a ``StorageError/failed(reason:)`` naming `what` (the caller answers `503` and logs
    /// it).
    func contacts<Result>(
        _ what: String, inTransaction: Bool = true, _ body: (PostgresConnection) throws(PostgresError) -> Result
    ) throws(StorageError) -> Result {
        do {
            return try pool.withConnection { connection throws(PostgresError) -> Result in
                guard inTransaction else { return try body(connection) }
                return try connection.transaction { () throws(PostgresError) -> Result in try body(connection) }
            }
        } catch {
            throw .failed(reason: "\(what): \(Self.redact(error))")
        }
    }
}
