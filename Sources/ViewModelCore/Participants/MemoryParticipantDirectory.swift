import Foundation
import ViewHostLocking

/// The participants of the memory store: kept in the process, as its sessions are, and gone with it.
public final class MemoryParticipantDirectory: ParticipantDirectory {
    private struct State {
        var invitations = InvitationBook<JoinInvitation>()
        var participants: [SessionID: [Participant]] = [:]
    }

    private let state = Locked(State())

    /// An empty directory.
    public init() {}

    /// Keeps `invitation`, unless its session has `openLimit` open join invitations already.
    public func addJoinInvitation(_ invitation: JoinInvitation, openLimit: Int, now: Date) throws(StorageError)
        -> Bool
    {
        state.withLock { $0.invitations.add(invitation, openLimit: openLimit, now: now) }
    }

    /// The open join invitations of `session` at `now`, oldest first.
    public func joinInvitations(of session: SessionID, now: Date) throws(StorageError) -> [JoinInvitation] {
        state.withLock { $0.invitations.open(of: session, now: now) }
    }

    /// Withdraws `session`'s join invitation `id`.
    public func withdrawJoinInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        state.withLock { $0.invitations.withdraw(id, of: session, now: now) }
    }

    /// Lets in the participant `joining` describes.
    public func join(_ joining: Joining, now: Date) throws(StorageError) -> Joined {
        state.withLock { state in
            guard let invitation = state.invitations.invitation(digest: joining.digest) else { return .unknown }
            guard state.invitations.isOpen(invitation, now: now) else { return .gone }
            let present = state.participants[invitation.session, default: []].filter { $0.removedAt == nil }
            guard present.count < joining.maxParticipants else { return .full(limit: joining.maxParticipants) }
            state.invitations.use(invitation)
            let participant = joining.participant(by: invitation, at: now)
            state.participants[invitation.session, default: []].append(participant)
            return .joined(participant)
        }
    }

    /// Every participant of `session` that ever joined, in the order they joined.
    public func participants(of session: SessionID) throws(StorageError) -> [Participant] {
        state.withLock { $0.participants[session] ?? [] }
    }

    /// Removes `session`'s participant `id` at `now`.
    public func removeParticipant(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        state.withLock { state in
            guard let index = state.participants[session]?.firstIndex(where: { $0.id == id && $0.removedAt == nil }),
                let found = state.participants[session]?[index]
            else { return false }
            state.participants[session]?[index] = Participant(
                id: found.id, session: found.session, name: found.name, role: found.role, features: found.features,
                tokenDigest: found.tokenDigest, joinedAt: found.joinedAt, removedAt: now)
            return true
        }
    }

    /// Forgets `session`'s participants and join invitations (it was deleted or expired).
    public func forget(_ session: SessionID) {
        state.withLock { state in
            state.invitations.forget(session)
            state.participants[session] = nil
        }
    }
}
