import Foundation
import PostgresStorage
import Testing
import TestSupport
import ViewHostLocking
import ViewModelCore

/// Nodes' leases: a session whose owner's lease holds is left with it (claim names the owner), one whose owner
/// closed (its lease ended) is taken over, one its live owner handed back is taken over by exactly one of the nodes
/// it was handed to, and sessions with timers are orphaned only when their owner is dead.
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

    /// A stopping node hands its sessions back (421 with `ViewHost-Hop-Handoff`) to whichever nodes forwarded them,
    /// and under a round-robin balancer two nodes may be handed the same session at the same moment: both replace
    /// the same owner at once. Exactly one takes each session over; the other is named the winner (and forwards
    /// there), never taking it over a second time (that fenced the winner's copy and refused its pending write).
    @Test func ofTwoNodesReplacingTheSameOwnerAtOnceExactlyOneTakesTheSessionOver() async throws {
        let a = try PostgresSessionStorage(url: server.url, node: "a", features: types)
        let b = try PostgresSessionStorage(url: server.url, node: "b", features: types)
        let c = try PostgresSessionStorage(url: server.url, node: "c", features: types)
        defer {
            b.close()
            c.close()
        }
        a.announce("127.0.0.1:7001")
        b.announce("127.0.0.1:7002")
        c.announce("127.0.0.1:7003")
        let handing = PeerNode(name: "a", address: "127.0.0.1:7001")
        var ids: [SessionID] = []
        for _ in 0..<20 { ids.append(try await newSession(a).0) }
        for id in ids {
            // a's lease still holds (it is stopping, not gone): only `replacing` lets either node take it.
            let claims = Locked<[String: SessionClaim]>([:])
            let errors = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let node = index == 0 ? b : c
                do {
                    let claim = try node.claim(id, replacing: handing)
                    claims.withLock { $0[node.node] = claim }
                } catch {
                    errors.withLock { $0.append("\(node.node): \(error)") }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty)
            let found = claims.withLock { $0 }
            let winners = found.filter { if case .loaded(.found) = $0.value { true } else { false } }.map(\.key)
            try #require(winners.count == 1, "session \(id): \(found)")
            let winner = try #require(winners.first)
            let loser = winner == "b" ? "c" : "b"
            guard case .ownedElsewhere(let owner)? = found[loser] else {
                Issue.record("session \(id): \(loser) did not find \(winner) owning it: \(String(describing: found[loser]))")
                continue
            }
            #expect(owner == PeerNode(name: winner, address: winner == "b" ? "127.0.0.1:7002" : "127.0.0.1:7003"))
        }
        // Each session was taken over once, from a: never from the node that had just won it.
        #expect(b.takeovers + c.takeovers == ids.count)
        a.close()
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
