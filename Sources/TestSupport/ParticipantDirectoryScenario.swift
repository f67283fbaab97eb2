import Foundation
import ViewModelCore

/// One scenario every ``ParticipantDirectory`` must pass (memory, SQLite, PostgreSQL), written once: invitations
/// kept within the open limit, listed and withdrawn; joins by an unknown, used, withdrawn and expired code; the
/// participant limit; a removal seen through a second directory on the same store (a second node). Each statement
/// that does not hold is one line of the answer, so the test says which.
public enum ParticipantDirectoryScenario {
    /// A stand-in for a code's SHA-256 (the directory only compares digests): 32 bytes that differ by code.
    public static func digest(_ code: String) -> [UInt8] {
        Array((code + String(repeating: "#", count: 32)).utf8.prefix(32))
    }

    /// An invitation of `session` to `features`, whose code is `code`.
    public static func invitation(
        _ code: String, of session: SessionID, features: [String] = ["list", "board"], uses: Int = 1,
        at start: Date, expiresIn: TimeInterval = 3600
    ) -> JoinInvitation {
        JoinInvitation(
            id: "j" + code, session: session, features: features, role: .member, digest: digest(code),
            createdAt: start, expiresAt: start.addingTimeInterval(expiresIn), uses: uses)
    }

    /// Runs the scenario on `first`, reading some of it back through `second` (the same store, or the same database
    /// through another node).
    /// - Returns: What did not hold, one line each; empty when all did.
    public static func run(_ first: any ParticipantDirectory, _ second: any ParticipantDirectory, start: Date)
        throws(StorageError) -> [String]
    {
        var problems: [String] = []
        func check(_ holds: Bool, _ what: String) { if !holds { problems.append(what) } }
        let (alice, bob) = (SessionID.random(), SessionID.random())
        let now = start.addingTimeInterval(60)
        func joining(_ code: String, _ id: String, limit: Int = 3) -> Joining {
            Joining(
                digest: digest(code), id: id, name: "Name \(id)", tokenDigest: digest("secret " + id),
                maxParticipants: limit)
        }

        check(try first.addJoinInvitation(invitation("one", of: alice, at: start), openLimit: 2, now: now), "kept")
        check(
            try first.addJoinInvitation(invitation("two", of: alice, uses: 3, at: start), openLimit: 2, now: now),
            "a second kept")
        check(
            try !second.addJoinInvitation(invitation("three", of: alice, at: start), openLimit: 2, now: now),
            "a third refused past the open limit")
        check(try second.joinInvitations(of: alice, now: now).map(\.id) == ["jone", "jtwo"], "both listed")
        check(
            try second.joinInvitations(of: alice, now: now).first == invitation("one", of: alice, at: start),
            "listed as kept")
        check(try second.joinInvitations(of: bob, now: now).isEmpty, "another session has none")
        check(try !first.withdrawJoinInvitation("jone", of: bob, now: now), "another session's is not withdrawn")

        check(try first.join(joining("nobody's", "pa"), now: now) == .unknown, "an unknown code")
        let bea = joining("one", "pbea")
        let joined = try second.join(bea, now: now)
        let expected = Participant(
            id: "pbea", session: alice, name: "Name pbea", role: .member, features: ["list", "board"],
            tokenDigest: digest("secret pbea"), joinedAt: now)
        check(joined == .joined(expected), "joined as the invitation says: \(joined)")
        check(try first.join(joining("one", "pcid"), now: now) == .gone, "a used code")
        check(try first.participants(of: alice) == [expected], "listed on the other node")

        check(try first.withdrawJoinInvitation("jtwo", of: alice, now: now), "withdrawn")
        check(try !first.withdrawJoinInvitation("jtwo", of: alice, now: now), "withdrawn already")
        check(try second.join(joining("two", "pcid"), now: now) == .gone, "a withdrawn code")
        check(try first.joinInvitations(of: alice, now: now).isEmpty, "neither open now")

        let brief = invitation("brief", of: alice, uses: 5, at: start, expiresIn: 120)
        check(try first.addJoinInvitation(brief, openLimit: 2, now: now), "a third kept once the others closed")
        check(try first.join(joining("brief", "pdee", limit: 2), now: now) != .gone, "a second participant")
        check(
            try first.join(joining("brief", "peve", limit: 2), now: now) == .full(limit: 2),
            "a third past the participant limit")
        check(
            try first.join(joining("brief", "peve", limit: 9), now: start.addingTimeInterval(180)) == .gone,
            "an expired code")

        check(try !second.removeParticipant("pbea", of: bob, now: now), "not another session's participant")
        check(try second.removeParticipant("pbea", of: alice, now: now), "removed")
        check(try !first.removeParticipant("pbea", of: alice, now: now), "removed already")
        let listed = try first.participants(of: alice)
        check(listed.map(\.id) == ["pbea", "pdee"], "both listed, the removed one too: \(listed.map(\.id))")
        check(listed.first?.removedAt == now, "the removal seen through the other node")
        check(listed.last?.removedAt == nil, "the other one still takes part")
        check(
            try first.join(joining("brief", "peve", limit: 2), now: now) != .full(limit: 2),
            "a removed participant leaves its place")
        return problems
    }
}
