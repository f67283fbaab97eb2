import Foundation
@testable import PostgresStorage
import Testing
import TestSupport
import ViewModelCore

/// The contact directory in PostgreSQL (migration 7), shared by the nodes: every invitation status, the limits, one
/// code redeemed by two nodes at the same moment (one contact, the other told it is used), and a session's
/// invitations and addresses going with it.
extension PostgresSessionStorageTests {
    static let feature = "letters"

    /// An invitation of `session` whose code is `code`.
    func invitation(
        _ code: String, of session: SessionID, uses: Int = 1, expiresIn: TimeInterval = 3600
    ) -> Invitation {
        Invitation(
            id: "i-" + code, session: session, feature: Self.feature, name: "Inviter \(code)", digest: Self.digest(code),
            createdAt: start, expiresAt: start.addingTimeInterval(expiresIn), uses: uses)
    }

    /// A stand-in for a code's SHA-256 (the directory only compares digests): 32 bytes that differ by code.
    static func digest(_ code: String) -> [UInt8] {
        Array((code + String(repeating: "#", count: 32)).utf8.prefix(32))
    }

    func redemption(_ code: String, by session: SessionID, maxContacts: Int = 10) -> Redemption {
        Redemption(
            digest: Self.digest(code), session: session, name: "Redeemer \(session)", maxContacts: maxContacts,
            forInviter: .random(), forRedeemer: .random())
    }

    @Test func everyInvitationStatusIsKeptInTheDatabaseForEveryNode() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { a.close(); b.close() }
        let (alice, bob, carol) = (SessionID.random(), SessionID.random(), SessionID.random())
        let now = start.addingTimeInterval(60)
        #expect(try a.addInvitation(invitation("one", of: alice), openLimit: 2, now: now))
        #expect(try a.addInvitation(invitation("two", of: alice), openLimit: 2, now: now))
        #expect(try !b.addInvitation(invitation("three", of: alice), openLimit: 2, now: now), "past the open limit")
        #expect(try b.invitations(of: alice, now: now).map(\.id) == ["i-one", "i-two"])
        #expect(try b.invitations(of: alice, now: now).first == invitation("one", of: alice))
        #expect(try b.withdrawInvitation("i-two", of: alice, now: now))
        #expect(try !a.withdrawInvitation("i-two", of: alice, now: now), "withdrawn already")
        #expect(try !a.withdrawInvitation("i-one", of: bob, now: now), "another session's")
        #expect(try b.addInvitation(invitation("three", of: alice), openLimit: 2, now: now), "a withdrawn one is not open")
        #expect(try a.addInvitation(invitation("brief", of: carol, expiresIn: 30), openLimit: 2, now: now) == true)

        #expect(try a.redeem(redemption("nobody's", by: bob), now: now) == .unknown)
        #expect(try a.redeem(redemption("one", by: alice), now: now) == .own)
        let asked = redemption("one", by: bob)
        let pair = ContactPair(feature: Self.feature, inviter: alice, inviterName: "Inviter one", redeemerAddress: asked.forRedeemer)
        #expect(try b.redeem(asked, now: now) == .made(pair))
        #expect(
            try a.route(of: asked.forInviter)
                == ContactRoute(owner: alice, feature: Self.feature, peer: bob, peerAddress: asked.forRedeemer))
        #expect(
            try a.route(of: asked.forRedeemer)
                == ContactRoute(owner: bob, feature: Self.feature, peer: alice, peerAddress: asked.forInviter))
        #expect(try a.route(of: .random()) == nil)
        #expect(try a.redeem(redemption("three", by: bob), now: now) == .existing(pair), "already contacts")
        #expect(try a.invitations(of: alice, now: now).map(\.id) == ["i-three"], "one used, one withdrawn")
        #expect(try a.redeem(redemption("one", by: carol), now: now) == .gone, "used")
        #expect(try a.redeem(redemption("two", by: carol), now: now) == .gone, "withdrawn")
        #expect(try a.redeem(redemption("brief", by: bob), now: now.addingTimeInterval(60)) == .gone, "expired")
        #expect(try a.invitations(of: carol, now: now.addingTimeInterval(60)).isEmpty)
        await server.stop()
    }

    /// Nodes a and b redeem one single-use code at the same moment, for two sessions: one contact is made, the other
    /// session is told the code is used. Both redeems are made to wait on a third connection's lock on the
    /// invitation, so they really run together, whatever the machine's speed.
    @Test func twoNodesRedeemingOneCodeAtOnceMakeOneContact() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { a.close(); b.close() }
        let (alice, bob, carol) = (SessionID.random(), SessionID.random(), SessionID.random())
        #expect(try a.addInvitation(invitation("once", of: alice), openLimit: 5, now: start))
        let holder = try PostgresConnection(url: server.url)
        try holder.query("BEGIN")
        try holder.query("SELECT 1 FROM invitations WHERE id = 'i-once' FOR UPDATE")
        let (byBob, byCarol, now) = (redemption("once", by: bob), redemption("once", by: carol), start)
        async let first = OffThread.run { try a.redeem(byBob, now: now) }
        async let second = OffThread.run { try b.redeem(byCarol, now: now) }
        let waiting = try await eventually(timeout: .seconds(20), interval: .milliseconds(50)) {
            try await server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "2"
        }
        #expect(waiting, "both redeems wait on the invitation")
        try holder.query("COMMIT")
        let results = [try await first, try await second]
        let made = results.filter { if case .made = $0 { true } else { false } }
        #expect(made.count == 1, "\(results)")
        #expect(results.filter { $0 == .gone }.count == 1, "\(results)")
        let contacts = try await server.psql("SELECT count(*) FROM contacts").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(contacts == "2", "one contact: an address on each side")
        #expect(try a.invitations(of: alice, now: start).isEmpty)
        await server.stop()
    }

    /// Nodes a and b each keep an invitation of one session at the same moment with one open place left: one is
    /// kept, the other refused (each counted before it wrote). A third connection holds the table until both wait.
    @Test func twoNodesInvitingAtOnceKeepTheOpenLimit() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { a.close(); b.close() }
        let alice = SessionID.random()
        let (first, second, now) = (invitation("first", of: alice), invitation("second", of: alice), start)
        let holder = try PostgresConnection(url: server.url)
        try holder.query("BEGIN")
        try holder.query("LOCK TABLE invitations IN ACCESS EXCLUSIVE MODE")
        async let keptByA = OffThread.run { try a.addInvitation(first, openLimit: 1, now: now) }
        async let keptByB = OffThread.run { try b.addInvitation(second, openLimit: 1, now: now) }
        let waiting = try await eventually(timeout: .seconds(20), interval: .milliseconds(50)) {
            try await server.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                .trimmingCharacters(in: .whitespacesAndNewlines) == "2"
        }
        #expect(waiting, "both wait")
        try holder.query("COMMIT")
        let kept = [try await keptByA, try await keptByB]
        #expect(kept.filter { $0 }.count == 1, "\(kept)")
        #expect(try a.invitations(of: alice, now: now).count == 1)
        await server.stop()
    }

    @Test func contactsPerSessionAreBoundedOnBothSides() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        defer { a.close() }
        let (alice, bob, carol, dave) = (SessionID.random(), SessionID.random(), SessionID.random(), SessionID.random())
        #expect(try a.addInvitation(invitation("many", of: alice, uses: 5), openLimit: 5, now: start))
        for session in [bob, carol] {
            guard case .made = try a.redeem(redemption("many", by: session, maxContacts: 2), now: start) else {
                Issue.record("no contact made for \(session)")
                return
            }
        }
        #expect(try a.redeem(redemption("many", by: dave, maxContacts: 2), now: start) == .tooManyContacts(limit: 2))
        // The redeeming side counts too: bob has one contact, and a limit of one is reached by it.
        #expect(try a.addInvitation(invitation("dave's", of: dave), openLimit: 5, now: start))
        #expect(try a.redeem(redemption("dave's", by: bob, maxContacts: 1), now: start) == .tooManyContacts(limit: 1))
        #expect(try a.invitations(of: alice, now: start).first?.uses == 3, "a refused redeem uses nothing")
        #expect(try a.invitations(of: dave, now: start).first?.uses == 1)
        await server.stop()
    }

    /// Removing a session (deleted, or expired by a node's sweep) removes its invitations and the addresses it owns;
    /// the addresses leading to it stay (a delivery there finds a session that ended). An invitation is forgotten
    /// once it expired before the sweep's `forgetBefore` (a day ago on a server), and says `gone` until then.
    @Test func aSessionsInvitationsAndAddressesGoWithIt() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        defer { a.close() }
        let (alice, _) = try await newSession(a)
        let (bob, _) = try await newSession(a)
        #expect(try a.addInvitation(invitation("met", of: alice), openLimit: 5, now: start))
        #expect(try a.addInvitation(invitation("open", of: alice), openLimit: 5, now: start))
        let met = redemption("met", by: bob)
        guard case .made = try a.redeem(met, now: start) else {
            Issue.record("no contact made")
            return
        }
        let removed = await withCheckedContinuation { continuation in
            a.remove(alice, expiredAt: nil) { continuation.resume(returning: $0) }
        }
        #expect(removed)
        #expect(try a.invitations(of: alice, now: start).isEmpty)
        #expect(try a.redeem(redemption("open", by: bob), now: start) == .unknown)
        #expect(try a.route(of: met.forInviter) == nil, "alice's address went with her")
        #expect(try a.route(of: met.forRedeemer)?.peer == alice, "bob's still leads to her")

        // Bob idle past the cutoff: the sweep expires him, and his address goes too.
        #expect(a.expire(idleBefore: start.addingTimeInterval(1), forgetBefore: start, except: { _ in false }) == 1)
        #expect(try a.route(of: met.forRedeemer) == nil)

        // An invitation expired at start + 1 h: gone, until a sweep forgets those expired before its cutoff.
        let carol = SessionID.random()
        #expect(try a.addInvitation(invitation("late", of: carol), openLimit: 5, now: start))
        let later = start.addingTimeInterval(7200)
        _ = a.expire(idleBefore: start, forgetBefore: start.addingTimeInterval(1800), except: { _ in false })
        #expect(try a.redeem(redemption("late", by: bob), now: later) == .gone)
        _ = a.expire(idleBefore: start, forgetBefore: start.addingTimeInterval(3601), except: { _ in false })
        #expect(try a.redeem(redemption("late", by: bob), now: later) == .unknown)
        await server.stop()
    }
}
