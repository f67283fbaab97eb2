import Foundation

/// What every invitation a directory keeps has, whatever it makes (a contact, ``Invitation``; a participant,
/// ``JoinInvitation``): an id, its session, its code's digest, its times and the uses left. Every store keeps,
/// lists, withdraws and uses both kinds the same way, so it does that once for this (``InvitationBook`` in memory).
package protocol InvitationRecord: Sendable {
    /// Its id, for its session to list and withdraw it (not secret).
    var id: String { get }
    /// The session that handed it out.
    var session: SessionID { get }
    /// The SHA-256 of its code.
    var digest: [UInt8] { get }
    /// When it was made.
    var createdAt: Date { get }
    /// When it expires.
    var expiresAt: Date { get }
    /// How many more times it may be used.
    var uses: Int { get }

    /// This invitation with one use fewer.
    func usedOnce() -> Self
}

extension InvitationRecord {
    /// Whether it may still be used at `now` (`withdrawn` says whether its session withdrew it).
    package func isOpen(withdrawn: Bool, now: Date) -> Bool { uses > 0 && expiresAt > now && !withdrawn }
}

extension Invitation: InvitationRecord {
    /// This invitation with one use fewer.
    package func usedOnce() -> Invitation {
        Invitation(
            id: id, session: session, feature: feature, name: name, digest: digest, createdAt: createdAt,
            expiresAt: expiresAt, uses: uses - 1)
    }
}

extension JoinInvitation: InvitationRecord {
    /// This invitation with one use fewer.
    package func usedOnce() -> JoinInvitation {
        JoinInvitation(
            id: id, session: session, features: features, role: role, digest: digest, createdAt: createdAt,
            expiresAt: expiresAt, uses: uses - 1)
    }
}
