import Foundation

/// The invitations of one kind the memory store keeps (``MemoryContactDirectory``, ``MemoryParticipantDirectory``):
/// by id and by their code's digest, with the ids of those withdrawn. A value, kept under its directory's lock.
struct InvitationBook<Kind: InvitationRecord> {
    private var invitations: [String: Kind] = [:]
    /// Invitation ids by their code's digest.
    private var byDigest: [[UInt8]: String] = [:]
    private var withdrawn: Set<String> = []

    /// Keeps `invitation`, unless its session has `openLimit` open ones already.
    /// - Returns: Whether it was kept.
    mutating func add(_ invitation: Kind, openLimit: Int, now: Date) -> Bool {
        let open = invitations.values.filter { $0.session == invitation.session && isOpen($0, now: now) }
        guard open.count < openLimit else { return false }
        invitations[invitation.id] = invitation
        byDigest[invitation.digest] = invitation.id
        return true
    }

    /// The open invitations of `session` at `now`, oldest first.
    func open(of session: SessionID, now: Date) -> [Kind] {
        invitations.values.filter { $0.session == session && isOpen($0, now: now) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Withdraws `session`'s invitation `id`.
    /// - Returns: Whether it was there and open.
    mutating func withdraw(_ id: String, of session: SessionID, now: Date) -> Bool {
        guard let invitation = invitations[id], invitation.session == session, isOpen(invitation, now: now) else {
            return false
        }
        withdrawn.insert(id)
        return true
    }

    /// The invitation whose code has `digest`, open or not.
    func invitation(digest: [UInt8]) -> Kind? {
        byDigest[digest].flatMap { invitations[$0] }
    }

    /// Whether `invitation` may still be used at `now`.
    func isOpen(_ invitation: Kind, now: Date) -> Bool {
        invitation.isOpen(withdrawn: withdrawn.contains(invitation.id), now: now)
    }

    /// Uses `invitation` once.
    mutating func use(_ invitation: Kind) {
        invitations[invitation.id] = invitation.usedOnce()
    }

    /// Forgets `session`'s invitations (it was deleted or expired).
    mutating func forget(_ session: SessionID) {
        for (id, invitation) in invitations where invitation.session == session {
            invitations[id] = nil
            byDigest[invitation.digest] = nil
            withdrawn.remove(id)
        }
    }
}
