import Foundation
import ViewHostLocking

/// The contacts of the memory store: kept in the process, as its sessions are, and gone with it.
public final class MemoryContactDirectory: ContactDirectory {
    private struct Row {
        let owner: SessionID
        let feature: String
        let peer: SessionID
        let peerAddress: ContactAddress
        let name: String
    }

    private struct State {
        var invitations = InvitationBook<Invitation>()
        var addresses: [ContactAddress: Row] = [:]
        var counts: [SessionID: Int] = [:]
    }

    private let state = Locked(State())

    /// An empty directory.
    public init() {}

    /// Keeps `invitation`, unless its session has `openLimit` open ones already.
    public func addInvitation(_ invitation: Invitation, openLimit: Int, now: Date) throws(StorageError) -> Bool {
        state.withLock { $0.invitations.add(invitation, openLimit: openLimit, now: now) }
    }

    /// The open invitations of `session` at `now`, oldest first.
    public func invitations(of session: SessionID, now: Date) throws(StorageError) -> [Invitation] {
        state.withLock { $0.invitations.open(of: session, now: now) }
    }

    /// Withdraws `session`'s invitation `id`.
    public func withdrawInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        state.withLock { $0.invitations.withdraw(id, of: session, now: now) }
    }

    /// Redeems the invitation whose code has `redemption`'s digest, making the two addresses at once.
    public func redeem(_ redemption: Redemption, now: Date) throws(StorageError) -> Redeemed {
        state.withLock { state in
            guard let invitation = state.invitations.invitation(digest: redemption.digest) else { return .unknown }
            guard invitation.session != redemption.session else { return .own }
            if let (address, row) = state.addresses.first(where: {
                $0.value.owner == redemption.session && $0.value.peer == invitation.session
                    && $0.value.feature == invitation.feature
            }) {
                return .existing(
                    ContactPair(
                        feature: row.feature, inviter: row.peer, inviterName: row.name, redeemerAddress: address))
            }
            guard state.invitations.isOpen(invitation, now: now) else { return .gone }
            guard state.counts[invitation.session, default: 0] < redemption.maxContacts,
                state.counts[redemption.session, default: 0] < redemption.maxContacts
            else { return .tooManyContacts(limit: redemption.maxContacts) }
            state.invitations.use(invitation)
            state.addresses[redemption.forInviter] = Row(
                owner: invitation.session, feature: invitation.feature, peer: redemption.session,
                peerAddress: redemption.forRedeemer, name: redemption.name)
            state.addresses[redemption.forRedeemer] = Row(
                owner: redemption.session, feature: invitation.feature, peer: invitation.session,
                peerAddress: redemption.forInviter, name: invitation.name)
            state.counts[invitation.session, default: 0] += 1
            state.counts[redemption.session, default: 0] += 1
            return .made(ContactPair(invitation, redeemedBy: redemption))
        }
    }

    /// Where `address` leads, if anywhere.
    public func route(of address: ContactAddress) throws(StorageError) -> ContactRoute? {
        state.withLock { state in
            state.addresses[address].map {
                ContactRoute(owner: $0.owner, feature: $0.feature, peer: $0.peer, peerAddress: $0.peerAddress)
            }
        }
    }

    /// Forgets `session`'s invitations and the addresses it owns (it was deleted or expired); addresses leading to
    /// it stay, and lead to a session that has ended.
    public func forget(_ session: SessionID) {
        state.withLock { state in
            state.invitations.forget(session)
            for (address, row) in state.addresses where row.owner == session { state.addresses[address] = nil }
            state.counts[session] = nil
        }
    }
}
