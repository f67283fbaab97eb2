import Foundation
import PostgresStorage
import Testing
import TestSupport
import ViewModelCore

/// Nodes' leases: a session whose owner's lease holds is left with it (claim names the owner), one whose owner
/// closed (its lease ended) is taken over, and sessions with timers are orphaned only when their owner is dead.
extension PostgresSessionStorageTests {
    @Test func aLiveOwnersSessionIsLeftWithItAndTakenOnceItsLeaseEnds() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { b.close() }
        a.announce("127.0.0.1:7001")
        let (id, _) = try await newSession(a)
        // `announce` wrote the lease before it returned.
        let claim = try b.claim(id)
        guard case .ownedElsewhere(let owner) = claim else {
            Issue.record("a's session was taken: \(claim)")
            return
        }
        #expect(owner == PeerNode(name: "a", address: "127.0.0.1:7001"))
        #expect(b.takeovers == 0)
        // A load (not a claim) takes it whatever: the caller knows the owner is gone.
        a.close()  // ends a's lease at once
        guard case .loaded(.found(let stored)) = try b.claim(id) else {
            Issue.record("b did not take over the session of a node that closed")
            return
        }
        #expect(stored.id == id)
        #expect(b.takeovers == 1)
        b.close()
        await server.stop()
    }

    @Test func sessionsWithTimersAreOrphanedOnlyWhenTheirOwnerIsDead() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        defer { b.close() }
        a.announce("127.0.0.1:7001")
        let (timed, _) = try await newSession(a)
        let (untimed, _) = try await newSession(a)
        _ = try await ServerProcess.run(
            executable: "psql", ["-d", server.url, "-c", "UPDATE sessions SET next_due_at = 1 WHERE id = '\(timed)'"])
        #expect(try b.sessionsWithOrphanedTimers().isEmpty, "a's lease holds")
        #expect(try a.sessionsWithOrphanedTimers().isEmpty, "a node's own sessions are never orphaned for it")
        a.close()  // ends a's lease at once
        #expect(try b.sessionsWithOrphanedTimers() == [timed], "not \(untimed), which has no timer")
        b.close()
        await server.stop()
    }
}
