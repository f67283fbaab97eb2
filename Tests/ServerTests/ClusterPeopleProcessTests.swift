import Foundation
import TestSupport
import Testing
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// People chatting across two nodes on one PostgreSQL: the senders' sessions are made on node a, the receiver's on
/// node b, so every message goes from a's courier through the hop to b. A burst of messages survives a's death
/// (`kill -9`) and restart under the same node id, several times, whichever node ends up holding the senders: each
/// message arrives exactly once and in order per sender, counted from the receiver's own journal export.
/// (``PeopleProcessTests`` is the same on one node's SQLite.)
@Suite(.serialized, .timeLimit(.minutes(TestDeadline.minutes(5))))
final class ClusterPeopleProcessTests {
    let database: PostgresServer
    static let secret = "cluster-test-secret-0123456789"
    static let senders = 5
    static let messagesPerSender = 100

    init() async throws {
        database = try await PostgresServer()
    }
    // Each test stops its database by pid when it ends (as ClusterProcessTests does).

    /// How node a is killed, and where the senders' posts go until it is back.
    enum Kill: CaseIterable {
        /// Started again at once (it takes its sessions back with their deliveries waiting); posts wait for it.
        case restartedAtOnce
        /// Started again once b has claimed the senders with deliveries waiting (a's lease ended; b's courier takes
        /// them on without any request); posts wait for a, which forwards those senders' posts to b from then on.
        case restartedOnceItsLeaseEnded
        /// Started again at once; until it is back, posts go through b, which takes the senders over on their next
        /// post (a refuses the connection) and keeps them; a forwards their posts to b from then on.
        case postedThroughTheOtherNode
        /// Killed while it forwards the posts of the senders b holds, some on the way; posts wait for it.
        case whileItForwards
    }

    /// Posts wait for a: it takes its senders back, then loses those with deliveries waiting to b, then is killed
    /// with posts forwarded to b on the way.
    @Test func aBurstArrivesExactlyOnceInOrderWhenTheSendersNodeIsKilledAndPostsWaitForIt() async throws {
        try await burst(killing: [.restartedAtOnce, .restartedOnceItsLeaseEnded, .whileItForwards])
    }

    /// Posts go through b while a is down: b takes every sender over, and a, back, forwards to it until it is killed
    /// again with posts on the way.
    @Test func aBurstArrivesExactlyOnceInOrderWhenTheSendersNodeIsKilledAndPostsGoThroughTheOther() async throws {
        try await burst(killing: [.postedThroughTheOtherNode, .whileItForwards])
    }

    /// Five people on node a each write 100 messages to Rita on node b (500 in all, over five chats), each posted
    /// with an `Idempotency-Key` and posted again until it is answered `202` (a killed node answers nothing, a
    /// starting one or one whose hop got no answer `503`), while a is killed and started again once per `kills`,
    /// each after a further share of the burst was acknowledged. Once no sender has a delivery left to make, Rita's
    /// journal export holds each message exactly once, and each sender's in the order they were sent.
    private func burst(killing kills: [Kill]) async throws {
        var a = try await node("a")
        let b = try await node("b")
        try await Self.waitUntilInternal(a)
        try await Self.waitUntilInternal(b)
        let rita = try await ProcessHTTP.createSession(b.port, features: ["chat"])
        var senders: [(id: String, token: String)] = []
        for index in 1...Self.senders {
            let sender = try await ProcessHTTP.createSession(a.port, features: ["chat"])
            try await PeopleProcessTests.introduce(sender, on: a.port, as: "Sender \(index)", to: rita, on: b.port)
            senders.append(sender)
        }
        // Each session is the node's it was made on: every message crosses the hop.
        let made = try await owners(of: [rita.id] + senders.map(\.id))
        #expect(made[rita.id] == "b" && senders.allSatisfy { made[$0.id] == "a" }, "\(made)")

        let shared = PeopleProcessTests.Shared(port: a.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, sender) in senders.enumerated() {
                group.addTask {
                    for number in 0..<Self.messagesPerSender {
                        try await PeopleProcessTests.post("m-\(index + 1)-\(number)", from: sender, shared: shared)
                    }
                    shared.finished.withLock { $0 += 1 }
                }
            }
            for kill in kills {
                // In the middle of the burst: once a further share of it was acknowledged.
                let deadline = TestDeadline.after(.seconds(60))
                while shared.acknowledged.withLock({ $0 }) < Self.senders * Self.messagesPerSender / (kills.count + 1),
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(10))
                }
                if kill == .whileItForwards, try await owners(of: senders.map(\.id)).values.contains("b") {
                    // Killed while it forwards: once a has forwarded some of b's senders' posts. The share above may
                    // have been acknowledged through b while a was down, and a, just back, not have forwarded any
                    // yet (the check once came before a's first forward, and failed).
                    let forwarding = TestDeadline.after(.seconds(30))
                    var forwarded = try await Self.counter("viewhost_cluster_forwarded_total", on: a.port)
                    while forwarded <= 0, shared.finished.withLock({ $0 }) < Self.senders,
                        ContinuousClock.now < forwarding
                    {
                        try await Task.sleep(for: .milliseconds(10))
                        forwarded = try await Self.counter("viewhost_cluster_forwarded_total", on: a.port)
                    }
                    #expect(
                        forwarded > 0 || shared.finished.withLock({ $0 }) == Self.senders,
                        "a forwarded none of the posts of the senders b holds")
                }
                a.send(signal: SIGKILL)
                _ = try await a.waitForExit()
                shared.acknowledged.withLock { $0 = 0 }
                switch kill {
                case .restartedAtOnce, .whileItForwards:
                    break
                case .restartedOnceItsLeaseEnded:
                    try await waitUntilOwnedByB(try await sendersWithWorkDue(senders.map(\.id)))
                case .postedThroughTheOtherNode:
                    shared.port.withLock { $0 = b.port }
                    try await waitUntilOwnedByB(senders.map(\.id))
                }
                a = try await node("a")
                try await Self.waitUntilInternal(a)
                shared.port.withLock { $0 = a.port }
            }
            try await group.waitForAll()
        }
        #expect(shared.unexpected.withLock { $0 }.isEmpty, "\(shared.unexpected.withLock { $0 })")

        // Every message acknowledged arrives: wait until no sender has a delivery left (each was answered by Rita's
        // node), then count what Rita's journal holds.
        let deadline = TestDeadline.after(.seconds(90))
        var due = try await sendersWithWorkDue(senders.map(\.id))
        while !due.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            due = try await sendersWithWorkDue(senders.map(\.id))
        }
        #expect(due.isEmpty, "senders with deliveries still waiting: \(due)")
        let export = try await ProcessHTTP.request(
            b.port, "GET", "/v1/sessions/\(rita.id)/journal", token: rita.token, timeout: .seconds(30))
        try #require(export.status == 200, "\(export.status)")
        let arrived = PeopleProcessTests.deliveredTexts(in: export.text)
        let expected = Self.senders * Self.messagesPerSender
        #expect(arrived.count == expected, "\(arrived.count) messages in Rita's journal, \(expected) sent")
        let twice = Dictionary(grouping: arrived) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "messages in Rita's journal twice: \(twice)")
        for index in 1...Self.senders {
            let numbers = arrived.filter { $0.hasPrefix("m-\(index)-") }.compactMap { Int($0.split(separator: "-")[2]) }
            #expect(
                numbers == Array(0..<Self.messagesPerSender), "sender \(index)'s messages, in the order they arrived")
        }
        // Rita never moved: every delivery went to b.
        #expect(try await owners(of: [rita.id])[rita.id] == "b")
        for server in [a, b] {
            server.send(signal: SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
        await database.stop()
    }

    private func node(_ name: String) async throws -> ServerProcess {
        try await ServerProcess(
            arguments: [
                "serve", "--port", "0", "--store", "postgres", "--database-url", database.url, "--node-id", name,
                "--internal-address", "127.0.0.1:0",
            ],
            environment: ["VIEWHOST_CLUSTER_SECRET": Self.secret])
    }

    /// Waits until `node` logs that its internal listener takes requests (other nodes find it from then on).
    private static func waitUntilInternal(_ node: ServerProcess) async throws {
        let deadline = TestDeadline.after(.seconds(20))
        while !node.standardErrorText().contains("taking forwarded requests") {
            guard ContinuousClock.now < deadline else {
                throw HTTPTestClient.ClientError.malformedResponse("no internal address: \(node.standardErrorText())")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func counter(_ name: String, on port: Int) async throws -> Int {
        let metrics = try await ProcessHTTP.request(port, "GET", "/metrics").text
        return metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    /// The node that owns each of `ids`, as the store's leases say.
    private func owners(of ids: [String]) async throws -> [String: String] {
        guard !ids.isEmpty else { return [:] }
        let list = ids.map { "'\($0)'" }.joined(separator: ",")
        let rows = try await database.psql(
            "SELECT id || '|' || coalesce(owner, '') FROM sessions WHERE id IN (\(list))")
        var owners: [String: String] = [:]
        for row in rows.split(separator: "\n") {
            let parts = row.split(separator: "|", omittingEmptySubsequences: false)
            if parts.count == 2 { owners[String(parts[0])] = String(parts[1]) }
        }
        return owners
    }

    /// Waits until node b owns every one of `ids` (or the deadline).
    private func waitUntilOwnedByB(_ ids: [String]) async throws {
        let deadline = TestDeadline.after(.seconds(30))
        var owners = try await owners(of: ids)
        while owners.values.contains(where: { $0 != "b" }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            owners = try await self.owners(of: ids)
        }
        #expect(owners.values.allSatisfy { $0 == "b" }, "taken over by b: \(owners)")
    }

    /// Those of `ids` that still have work due: a delivery not yet answered by its receiver's node keeps it set.
    private func sendersWithWorkDue(_ ids: [String]) async throws -> [String] {
        let list = ids.map { "'\($0)'" }.joined(separator: ",")
        return try await database.psql("SELECT id FROM sessions WHERE id IN (\(list)) AND next_due_at IS NOT NULL")
            .split(separator: "\n").map(String.init)
    }
}
