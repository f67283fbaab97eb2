import Foundation
import TestSupport
import Testing

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

    /// A stopping node hands a session back only once the writes it took before have reached the store: a post
    /// forwarded to the owner a, its write held up on its way to the store (the journal locked from outside),
    /// gets its 202 although a is stopping and another request for the session, forwarded while a's write waits,
    /// is held by a (b does not take the session over meanwhile) and then handed back to b. (b took the session
    /// over at once, raising its epoch, and a's write was refused: 503.)
    @Test func aStoppingNodeHandsASessionBackOnlyOnceTheWritesItTookAreStored() async throws {
        let a = try await node("a")
        let b = try await node("b")
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let (port, database) = (b.port, database)
        let locks = "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'journal'"
        // The journal locked by a session of its own until it is cancelled below: a's next write waits for it.
        let holder = Task { [database] in
            try? await database.psql("BEGIN; LOCK TABLE journal IN EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT;")
        }
        defer { holder.cancel() }
        try await Self.waitFor { try await count(locks + " AND l.granted AND l.mode = 'ExclusiveLock'") == 1 }
        let post = Self.request(
            port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Held"))
        // a took the hop and its write waits for the lock.
        try await Self.waitFor { try await count(locks + " AND NOT l.granted") > 0 }
        #expect(try await count(locks + " AND NOT l.granted") > 0, "a's write waits for the journal's lock")
        a.send(signal: SIGTERM)
        // Reads through b, forwarded to a: answered while a drains its public listener, then held once a leaves
        // (it waits for its write before handing the session back), which a logs. Until a holds one, or b has
        // taken the session over (which would fence a's write).
        let held = "a forwarded request waits for this stopping node's writes to be stored"
        var reads: [Task<TestResponse, any Error>] = []
        try await Self.waitFor {
            if a.standardErrorText().contains(held) { return true }
            if try await lease(of: id).hasPrefix("b|") { return true }
            reads.append(Self.request(port, "GET", "/v1/sessions/\(id)/person", token: token))
            try await Task.sleep(for: .milliseconds(100))
            return false
        }
        #expect(a.standardErrorText().contains(held), "a read forwarded to a while its write waited was held there")
        #expect(try await lease(of: id) == "a|1", "b did not take the session over while a's write waited")
        // The write goes on to the store.
        try await database.psql(
            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%LOCK TABLE journal%' "
                + "AND pid <> pg_backend_pid()")
        let answer = try await post.value
        #expect(answer.status == 202, "the post a took while stopping: \(answer)")
        for read in reads {
            let read = try await read.value
            #expect(read.status == 200, "\(read)")
        }
        #expect(try await a.waitForExit() == 0)
        let final = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(final.status == 200 && final.header("ETag") == "\"2\"", "the held post applied once: \(final)")
        b.send(signal: SIGTERM)
        #expect(try await b.waitForExit() == 0)
        await database.stop()
    }

    /// A request sent on a task of its own (its answer awaited later).
    private static func request(
        _ port: Int, _ method: String, _ path: String, token: String, body: String? = nil
    ) -> Task<TestResponse, any Error> {
        let headers = body == nil ? [:] : ["Idempotency-Key": "held-1"]
        return Task {
            try await ProcessHTTP.request(port, method, path, token: token, body: body, headers: headers)
        }
    }

    /// The number a `SELECT count(*)` query answers (psql ends its output with a newline).
    private func count(_ query: String) async throws -> Int {
        Int(try await database.psql(query).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until `condition` holds (or the deadline: the test's expectations then say what did not happen).
    private static func waitFor(_ condition: () async throws -> Bool) async throws {
        let deadline = TestDeadline.after(.seconds(20))
        while try await !condition(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
