import Foundation
@testable import PostgresStorage
import Testing
import TestSupport
import ViewModelCore

/// The participants in PostgreSQL (migration 8), shared by the nodes: the scenario every directory passes, with
/// node b reading and removing what node a wrote (a participant removed through one node is removed for all), and a
/// session's participants going with it.
extension PostgresSessionStorageTests {
    @Test func participantsAreSharedByTheNodesAndGoWithTheirSession() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { a.close(); b.close() }
        #expect(try ParticipantDirectoryScenario.run(a, b, start: start) == [])

        let (session, _) = try await newSession(a)
        let invitation = ParticipantDirectoryScenario.invitation("kept", of: session, uses: 2, at: start)
        #expect(try a.addJoinInvitation(invitation, openLimit: 5, now: start))
        let joining = Joining(digest: invitation.digest, id: "pa", name: "A", tokenDigest: [1], maxParticipants: 5)
        guard case .joined(let participant) = try b.join(joining, now: start) else {
            Issue.record("not joined")
            return
        }
        #expect(try a.participants(of: session) == [participant])
        let removed = await withCheckedContinuation { continuation in
            a.remove(session, expiredAt: nil) { continuation.resume(returning: $0) }
        }
        #expect(removed)
        #expect(try b.participants(of: session).isEmpty)
        #expect(try b.join(joining, now: start) == .unknown, "its invitations went with it")
        await server.stop()
    }
}
