import Foundation

/// Where a host keeps what makes contacts between sessions: the invitations sessions hand out (by the digest of
/// their codes; a code itself is never kept), and the addresses made when one is redeemed, each leading from one
/// session's feature to another's. The memory store keeps them in the process (``MemoryContactDirectory``); SQLite
/// and PostgreSQL in tables of their own, beside the sessions (docs/JOURNAL.md): every ``SessionStorage`` is one, so
/// a durable store never falls back to a directory in the process. Features never see it: they hold addresses, and
/// the library looks each up here when it delivers.
///
/// Contract: every call is one atomic step of the store (a redeem checks the invitation, uses it and makes both
/// addresses at once, or does nothing); calls may block (a database round trip), so a host makes them off its event
/// loops. Removing a session (``SessionStorage/remove(_:expiredAt:completion:)``) removes its invitations and the
/// addresses it owns; addresses leading to it stay, and lead to a session that has ended.
public protocol ContactDirectory: Sendable {
    /// Keeps `invitation`, unless its session has `openLimit` open ones already (not used up, withdrawn or expired
    /// at `now`).
    /// - Returns: Whether it was kept.
    func addInvitation(_ invitation: Invitation, openLimit: Int, now: Date) throws(StorageError) -> Bool

    /// The open invitations of `session` at `now`, oldest first.
    func invitations(of session: SessionID, now: Date) throws(StorageError) -> [Invitation]

    /// Withdraws `session`'s invitation `id` (its code is `gone` from now on).
    /// - Returns: Whether it was there and open.
    func withdrawInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool

    /// Redeems the invitation whose code has `redemption`'s digest for its session, making the two addresses.
    func redeem(_ redemption: Redemption, now: Date) throws(StorageError) -> Redeemed

    /// Where `address` leads, if anywhere.
    func route(of address: ContactAddress) throws(StorageError) -> ContactRoute?
}

/// An invitation a session handed out: its code's digest, what it makes (a contact for one feature, named as the
/// inviting session asked), when it expires and how many uses it has left.
public struct Invitation: Sendable, Equatable {
    /// Its id, for its session to list and withdraw it (not secret).
    public let id: String
    /// The inviting session.
    public let session: SessionID
    /// The feature the contact is made for.
    public let feature: String
    /// The name the inviting session gives itself (what the redeeming session calls it).
    public let name: String
    /// The SHA-256 of its code.
    public let digest: [UInt8]
    /// When it was made.
    public let createdAt: Date
    /// When it expires.
    public let expiresAt: Date
    /// How many more times it may be redeemed.
    public let uses: Int

    /// Creates one.
    public init(
        id: String, session: SessionID, feature: String, name: String, digest: [UInt8], createdAt: Date,
        expiresAt: Date,
        uses: Int
    ) {
        self.id = id
        self.session = session
        self.feature = feature
        self.name = name
        self.digest = digest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.uses = uses
    }
}

/// A session redeeming an invitation: the code's digest, who redeems it and under which name, the most contacts a
/// session may have, and the two addresses the contact gets if it is made.
public struct Redemption: Sendable, Equatable {
    /// The SHA-256 of the code.
    public let digest: [UInt8]
    /// The redeeming session.
    public let session: SessionID
    /// The name it gives itself (what the inviting session calls it).
    public let name: String
    /// The most contacts either session may have.
    public let maxContacts: Int
    /// The new address of the inviting session's (leading to the redeeming one).
    public let forInviter: ContactAddress
    /// The new address of the redeeming session's (leading to the inviting one).
    public let forRedeemer: ContactAddress

    /// Creates one.
    public init(
        digest: [UInt8], session: SessionID, name: String, maxContacts: Int, forInviter: ContactAddress,
        forRedeemer: ContactAddress
    ) {
        self.digest = digest
        self.session = session
        self.name = name
        self.maxContacts = maxContacts
        self.forInviter = forInviter
        self.forRedeemer = forRedeemer
    }
}

/// What came of a redemption.
public enum Redeemed: Sendable, Equatable {
    /// The contact was made: the invitation used once, both addresses kept.
    case made(ContactPair)
    /// The two sessions are contacts for the feature already (nothing changed): the pair as it was made.
    case existing(ContactPair)
    /// No invitation has that code.
    case unknown
    /// The invitation is used up, withdrawn or expired.
    case gone
    /// The invitation is the redeeming session's own.
    case own
    /// One of the two sessions has `limit` contacts already.
    case tooManyContacts(limit: Int)
}

/// A contact between an inviting and a redeeming session, as the redeeming one is told of it.
public struct ContactPair: Sendable, Equatable {
    /// The feature it was made for.
    public let feature: String
    /// The inviting session.
    public let inviter: SessionID
    /// The name the inviting session gave itself.
    public let inviterName: String
    /// The redeeming session's address for the inviting one.
    public let redeemerAddress: ContactAddress

    /// Creates one.
    public init(feature: String, inviter: SessionID, inviterName: String, redeemerAddress: ContactAddress) {
        self.feature = feature
        self.inviter = inviter
        self.inviterName = inviterName
        self.redeemerAddress = redeemerAddress
    }

    /// The contact `redemption` makes of `invitation`, as every store tells the redeeming session of it.
    package init(_ invitation: Invitation, redeemedBy redemption: Redemption) {
        self.init(
            feature: invitation.feature, inviter: invitation.session, inviterName: invitation.name,
            redeemerAddress: redemption.forRedeemer)
    }
}

/// Where an address leads: made for session `owner`'s `feature`, to session `peer`, which knows the owner by
/// `peerAddress`.
public struct ContactRoute: Sendable, Equatable {
    /// The session the address was made for (the only one it works for).
    public let owner: SessionID
    /// The feature, the same on both sides.
    public let feature: String
    /// The session it leads to.
    public let peer: SessionID
    /// The address the peer knows the owner by (a delivery arrives there from it).
    public let peerAddress: ContactAddress

    /// Creates one.
    public init(owner: SessionID, feature: String, peer: SessionID, peerAddress: ContactAddress) {
        self.owner = owner
        self.feature = feature
        self.peer = peer
        self.peerAddress = peerAddress
    }
}
