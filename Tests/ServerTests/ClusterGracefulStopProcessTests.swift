import Foundation
import Testing
import TestSupport

/// A node told to stop (SIGTERM) in a rolling restart loses no one: while a client posts and streams through
/// another node, every request gets its 202 (forwarded to the stopping owner while it still holds the session,
/// then taken over), the stream relayed from the stopping owner ends, and resumed with `Last-Event-ID` on the
/// node that took the session over it goes on from there, in order, up to the last change.
@Suite(.serialized, .timeLimit(.minutes(TestDeadline.minutes(5))))
final class ClusterGracefulStopProcessTests {
    let database: PostgresServer
    static let secret = "cluster-test-secret-0123456789"

    init() async throws {
        database = try await PostgresServer()
    }

    /// Node `name`, its internal listener on `internalAddress` (a free port unless given: a restarted node takes
    /// its previous process's).
    private func node(_ name: String, internalAddress: String = "127.0.0.1:0") async throws -> ServerProcess {
        let node = try await ServerProcess(
            arguments: [
                "serve", "--port", "0", "--store", "postgres", "--database-url", database.url, "--node-id", name,
                "--internal-address", internalAddress,
            ],
            environment: ["VIEWHOST_CLUSTER_SECRET": Self.secret])
        // Ready for hops once it logs its internal address.
        let deadline = TestDeadline.after(.seconds(20))
        while !node.standardErrorText().contains("taking forwarded requests"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return node
    }

    /// The internal address `node` logged once it listened there (`127.0.0.1:PORT`).
    private static func internalAddress(of node: ServerProcess) throws -> String {
        let line = node.standardErrorText().split(separator: "\n").first { $0.contains("taking forwarded requests") }
        let address = try #require(line?.split(separator: "address=").last)
        return String(address.prefix { !$0.isWhitespace && $0 != "\"" })
    }

    /// The node the store names as session `id`'s owner, and the epoch it owns it under (`owner|epoch`).
    private func lease(of id: String) async throws -> String {
        try await database.psql("SELECT owner || '|' || epoch FROM sessions WHERE id = '\(id)'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Rolling","birthdate":"1990-01-01"}"#
    }

    private static func ids(in frames: [UInt8]) -> [Int] {
        String(decoding: frames, as: UTF8.self).split(whereSeparator: \.isNewline)
            .compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    @Test func aNodeStoppedGracefullyFailsNoRequestAndItsRelayedStreamResumesOnTheNewOwner() async throws {
        let a = try await node("a")
        let b = try await node("b")
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let stream = try HTTPTestClient(port: b.port)
        try stream.send("GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        var frames = try await stream.read(untilContaining: "event: person")

        // The client posts through b, one event after another; a (the owner) gets SIGTERM after the third, and the
        // client goes on until a has exited and three more went through. Nothing is retried: each must be a 202.
        var stopping = false
        var failures: [String] = []
        var posted = 0
        var afterExit = 0
        while afterExit < 3, posted < 2000 {
            posted += 1
            do {
                let answer = try await ProcessHTTP.request(
                    b.port, "POST", "/v1/sessions/\(id)/person/events", token: token,
                    body: Self.person("P\(posted)"), headers: ["Idempotency-Key": "rolling-\(posted)"])
                if answer.status != 202 { failures.append("event \(posted): \(answer.status) \(answer.text)") }
            } catch {
                failures.append("event \(posted): \(error)")
            }
            if posted == 3 {
                a.send(signal: SIGTERM)
                stopping = true
            }
            if stopping, a.hasExited { afterExit += 1 }
            // Paced under the session's 200 events a second: unpaced, a quiet machine posted faster than that
            // while a drained, and the 429s failed the test (a busy one never got there).
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(failures.isEmpty, "every request through b answered 202: \(failures)")
        #expect(try await a.waitForExit() == 0)

        // The stream relayed from a ended (its body's last chunk) when a stopped; it resumes on b, which now owns
        // the session, after the last event it saw: every change once, in order, none missing.
        frames += try await stream.read(untilContaining: "\r\n0\r\n\r\n", timeout: .seconds(20))
        let seen = Self.ids(in: frames)
        let last = try #require(seen.last)
        try stream.send(
            "GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Last-Event-ID: \(last)\r\n\r\n")
        let resumed = Self.ids(in: try await stream.read(untilContaining: "P\(posted)\""))
        // A stream sends a feature's newest snapshot, not each version: what resumes comes after what was seen, in
        // order, and ends at the last change.
        let all = seen + resumed
        #expect(
            zip(all, all.dropFirst()).allSatisfy { $0 < $1 } && all.first == 0 && all.last == posted,
            "in order, none twice, up to the last change: \(seen) then \(resumed)")
        let read = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(read.status == 200 && read.header("ETag") == "\"\(posted + 1)\"", "applied once each: \(read)")
        b.send(signal: SIGTERM)
        #expect(try await b.waitForExit() == 0)
        await database.stop()
    }

    /// A node restarted in a rolling restart, under its name and internal address, is a live owner, whatever its
    /// previous process refused: node c, which saw a's previous process refuse a connection, forwards a request for
    /// a session the new a owns there instead of taking it over. (It took it over when that refusal was less than
    /// 10 s old, fencing the new owner's copy: a write a was committing then was refused, the round-robin rolling
    /// restart's 503.)
    @Test func aNodeRestartedUnderItsNameKeepsItsSessionsThoughItsPreviousProcessRefusedAConnection() async throws {
        let a = try await node("a")
        let c = try await node("c")
        let internalAddress = try Self.internalAddress(of: a)
        // c learns that a owns a session (it forwards a request there), then a stops; c's next request for it is
        // refused at a's address, and c takes the session over.
        let (old, oldToken) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let routed = try await ProcessHTTP.request(c.port, "GET", "/v1/sessions/\(old)/person", token: oldToken)
        #expect(routed.status == 200, "forwarded to a: \(routed)")
        a.send(signal: SIGTERM)
        #expect(try await a.waitForExit() == 0)
        let moved = try await ProcessHTTP.request(c.port, "GET", "/v1/sessions/\(old)/person", token: oldToken)
        #expect(moved.status == 200, "taken over by c: \(moved)")
        #expect(try await lease(of: old).hasPrefix("c|"))

        // a again, a new process on the same internal address; a session made on it is its own.
        let restarted = try await node("a", internalAddress: internalAddress)
        let (id, token) = try await ProcessHTTP.createSession(restarted.port, features: ["person"])
        #expect(try await lease(of: id) == "a|1")
        // Through c: forwarded to a, which keeps the session (the epoch it writes under), and a write through a
        // answers 202 from the copy it holds.
        let read = try await ProcessHTTP.request(c.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(read.status == 200, "\(read)")
        #expect(try await lease(of: id) == "a|1", "still a's, not taken over by c")
        let posted = try await ProcessHTTP.request(
            restarted.port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Again"),
            headers: ["Idempotency-Key": "restarted-1"])
        #expect(posted.status == 202, "\(posted)")
        #expect(try await lease(of: id) == "a|1")
        for node in [restarted, c] { node.send(signal: SIGTERM) }
        #expect(try await restarted.waitForExit() == 0)
        #expect(try await c.waitForExit() == 0)
        await database.stop()
    }
}
