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
        var invitations: [String: Invitation] = [:]
        /// Invitation ids by their code's digest.
        var byDigest: [[UInt8]: String] = [:]
        var withdrawn: Set<String> = []
        var addresses: [ContactAddress: Row] = [:]
        var counts: [SessionID: Int] = [:]
    }

    private let state = Locked(State())

    /// An empty directory.
    public init() {}

    /// Keeps `invitation`, unless its session has `openLimit` open ones already.
    public func addInvitation(_ invitation: Invitation, openLimit: Int, now: Date) throws(StorageError) -> Bool {
        state.withLock { state in
            let open = state.invitations.values.filter {
                $0.session == invitation.session && Self.isOpen($0, withdrawn: state.withdrawn, now: now)
            }
            guard open.count < openLimit else { return false }
            state.invitations[invitation.id] = invitation
            state.byDigest[invitation.digest] = invitation.id
            return true
        }
    }

    /// The open invitations of `session` at `now`, oldest first.
    public func invitations(of session: SessionID, now: Date) throws(StorageError) -> [Invitation] {
        state.withLock { state in
            state.invitations.values.filter {
                $0.session == session && Self.isOpen($0, withdrawn: state.withdrawn, now: now)
            }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    /// Withdraws `session`'s invitation `id`.
    public func withdrawInvitation(_ id: String, of session: SessionID, now: Date) throws(StorageError) -> Bool {
        state.withLock { state in
            guard let invitation = state.invitations[id], invitation.session == session,
                Self.isOpen(invitation, withdrawn: state.withdrawn, now: now)
            else { return false }
            state.withdrawn.insert(id)
            return true
        }
    }

    /// Redeems the invitation whose code has `redemption`'s digest, making the two addresses at once.
    public func redeem(_ redemption: Redemption, now: Date) throws(StorageError) -> Redeemed {
        state.withLock { state in
            guard let id = state.byDigest[redemption.digest], let invitation = state.invitations[id] else {
                return .unknown
            }
            guard invitation.session != redemption.session else { return .own }
            if let (address, row) = state.addresses.first(where: {
                $0.value.owner == redemption.session && $0.value.peer == invitation.session
                    && $0.value.feature == invitation.feature
            }) {
                return .existing(
                    ContactPair(
                        feature: row.feature, inviter: row.peer, inviterName: row.name, redeemerAddress: address))
            }
            guard Self.isOpen(invitation, withdrawn: state.withdrawn, now: now) else { return .gone }
            guard state.counts[invitation.session, default: 0] < redemption.maxContacts,
                state.counts[redemption.session, default: 0] < redemption.maxContacts
            else { return .tooManyContacts(limit: redemption.maxContacts) }
            state.invitations[id] = Invitation(
                id: id, session: invitation.session, feature: invitation.feature, name: invitation.name,
                digest: invitation.digest, createdAt: invitation.createdAt, expiresAt: invitation.expiresAt,
                uses: invitation.uses - 1)
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
            for (id, invitation) in state.invitations where invitation.session == session {
                state.invitations[id] = nil
                state.byDigest[invitation.digest] = nil
                state.withdrawn.remove(id)
            }
            for (address, row) in state.addresses where row.owner == session { state.addresses[address] = nil }
            state.counts[session] = nil
        }
    }

    private static func isOpen(_ invitation: Invitation, withdrawn: Set<String>, now: Date) -> Bool {
        invitation.uses > 0 && invitation.expiresAt > now && !withdrawn.contains(invitation.id)
    }
}
