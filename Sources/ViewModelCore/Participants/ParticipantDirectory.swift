import Foundation

/// Where a host keeps the participants of shared sessions and the `join` invitations that let them in (issue 43):
/// by the digests of codes and secrets, never the codes or secrets themselves. The memory store keeps them in the
/// process (``MemoryParticipantDirectory``); SQLite and PostgreSQL in tables of their own beside the sessions, so a
/// removal is seen by every node and survives a restart. Features never see it.
///
/// Contract: every call is one atomic step of the store (a join checks the invitation, uses it and keeps the
/// participant at once, or does nothing); calls may block (a database round trip), so a host makes them off its
/// event loops. Removing a session removes its participants and its join invitations.
public protocol ParticipantDirectory: Sendable {
    /// Keeps `invitation`, unless its session has `openLimit` open join invitations already (not used up, withdrawn
    /// or expired at `now`).
    /// - Returns: Whether it was kept.
    func addJoinInvitation(_ invitation: JoinInvitation, openLimit: Int, now: Date) throws(StorageError) -> Bool

    /// The open join invitations of `session` at `now`, oldest first.
    func joinInvitations(of session: SessionID, now: Date) throws(StorageError) -> [JoinInvitation]

    /// Withdraws `session`'s join invitation `id` (its code is `gone` from now on).
    /// - Returns: Whether it was there and open.
    func withdrawJoinInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool

    /// Lets in the participant `joining` describes, by the join invitation whose code has its digest.
    func join(_ joining: Joining, now: Date) throws(StorageError) -> Joined

    /// Every participant of `session` that ever joined, removed ones too (with ``Participant/removedAt``), in the
    /// order they joined.
    func participants(of session: SessionID) throws(StorageError) -> [Participant]

    /// Removes `session`'s participant `id` at `now` (its token answers `401` from then on).
    /// - Returns: Whether it was there and not removed before.
    func removeParticipant(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool
}
