import Foundation
import Testing
import TestSupport

/// Two nodes on one PostgreSQL, each with an internal address: any node serves any session. A request that reaches
/// the node that does not own the session goes to the owner and back (the session stays put); a stream held on one
/// node sees what is posted through the other, and ends at once when the owner is killed; the internal listener
/// takes nothing without the cluster's secret, and the public one no hop even with it; and the sessions of a node
/// that dies move, those with pending bot replies without any request.
@Suite(.serialized, .timeLimit(.minutes(TestDeadline.minutes(5))))
final class ClusterProcessTests {
    let database: PostgresServer
    static let secret = "cluster-test-secret-0123456789"

    init() async throws {
        database = try await PostgresServer()
    }
    // Each test stops its database by pid when it ends (the deinit's stop on a thread of its own may not run before
    // the test process exits, when a test fails on the way).

    private func node(_ name: String, speed: String = "1") async throws -> ServerProcess {
        try await ServerProcess(
            arguments: [
                "serve", "--port", "0", "--store", "postgres", "--database-url", database.url, "--node-id", name,
                "--internal-address", "127.0.0.1:0", "--simulation-speed", speed,
            ],
            environment: ["VIEWHOST_CLUSTER_SECRET": Self.secret])
    }

    /// The internal listener's port, from the line the node logs once it listens there.
    private func internalPort(of node: ServerProcess) async throws -> Int {
        let deadline = TestDeadline.after(.seconds(20))
        while ContinuousClock.now < deadline {
            for line in node.standardErrorText().split(separator: "\n") where line.contains("taking forwarded requests") {
                if let port = line.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) { return port }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HTTPTestClient.ClientError.malformedResponse("no internal address logged: \(node.standardErrorText())")
    }

    /// The lines of `node`'s log that contain `text`, once there are `count` of them (its log is written as it
    /// comes, off the request's path), or those there are at the deadline.
    private static func lines(of node: ServerProcess, containing text: String, count: Int) async throws -> [Substring] {
        let deadline = TestDeadline.after(.seconds(10))
        while true {
            let lines = node.standardErrorText().split(separator: "\n").filter { $0.contains(text) }
            if lines.count >= count || ContinuousClock.now >= deadline { return lines }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func counter(_ name: String, on port: Int) async throws -> Int {
        let metrics = try await ProcessHTTP.request(port, "GET", "/metrics").text
        return metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    private static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Cluster","birthdate":"1990-01-01"}"#
    }

    @Test func aStreamOnOneNodeSeesWhatIsPostedThroughTheOtherAndTheSessionStaysPut() async throws {
        let a = try await node("a")
        let b = try await node("b")
        _ = try await internalPort(of: a)
        _ = try await internalPort(of: b)
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let stream = try HTTPTestClient(port: b.port)
        try stream.send("GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        let first = String(decoding: try await stream.read(untilContaining: "event: person"), as: UTF8.self)
        for (index, name) in ["Ada", "Bea", "Cy"].enumerated() {
            // Alternately through each node: both reach the owner, a.
            let port = index % 2 == 0 ? a.port : b.port
            let answer = try await ProcessHTTP.request(
                port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person(name))
            #expect(answer.status == 202, "\(answer)")
        }
        let frames = first + String(decoding: try await stream.read(untilContaining: "Cy"), as: UTF8.self)
        let ids = frames.split(whereSeparator: \.isNewline).compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
        #expect(ids == [0, 1, 2, 3], "every change, in order, no gaps: \(frames)")
        #expect(frames.range(of: "Ada")!.lowerBound < frames.range(of: "Bea")!.lowerBound)
        // Reads through b are answered by a: the session never moved.
        let read = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(read.status == 200 && read.header("ETag") == "\"4\"", "\(read)")
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: a.port) == 0)
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 0)
        #expect(try await Self.counter("viewhost_cluster_forwarded_total", on: b.port) >= 3)
        // A wrong token through b is a's answer too: no session of that id for it.
        let stranger = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(id)/person", token: "x")
        #expect(stranger.status == 404)
        for server in [a, b] {
            server.send(signal: SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
        await database.stop()
    }

    @Test func aStreamRelayedFromAKilledOwnerEndsAtOnceAndResumesOnTheNodeThatTookTheSessionOver() async throws {
        let a = try await node("a")
        let b = try await node("b")
        _ = try await internalPort(of: a)
        _ = try await internalPort(of: b)
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let stream = try HTTPTestClient(port: b.port)
        try stream.send("GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
        _ = try await stream.read(untilContaining: "event: person")
        #expect(try await ProcessHTTP.request(
            a.port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Ada")).status == 202)
        _ = try await stream.read(untilContaining: "Ada")
        a.send(signal: SIGKILL)
        _ = try await a.waitForExit()
        // The kernel closed a's end of the hop: b ends the client's chunked body (its last chunk) without waiting
        // for a heartbeat (15 s) that can never come. Well within the deadline, or the client hangs a minute.
        let end = try await stream.read(untilContaining: "\r\n0\r\n\r\n", timeout: .seconds(10))
        #expect(!String(decoding: end, as: UTF8.self).contains("event: ended"), "no final event: the session lives on")
        // Posted after the kill, through b, which takes the session over; the client resumes on b and misses nothing.
        let posted = try await ProcessHTTP.request(
            b.port, "POST", "/v1/sessions/\(id)/person/events", token: token, body: Self.person("Bea"))
        #expect(posted.status == 202, "\(posted)")
        try stream.send(
            "GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Last-Event-ID: 1\r\n\r\n")
        let resumed = String(decoding: try await stream.read(untilContaining: "Bea"), as: UTF8.self)
        let ids = resumed.split(whereSeparator: \.isNewline)
            .compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
        #expect(ids == [2], "only what came after the last event seen: \(resumed)")
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 1)
        b.send(signal: SIGTERM)
        #expect(try await b.waitForExit() == 0)
        await database.stop()
    }

    @Test func aSessionAskedForOnlyThroughAnotherNodeMovesThereOnceAndOneAskedForEverywhereStays() async throws {
        let a = try await node("a")
        let b = try await node("b")
        _ = try await internalPort(of: a)
        _ = try await internalPort(of: b)
        let (hashed, hashedToken) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let (spread, spreadToken) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        // Round robin: every other request straight to the owner; the session stays on a.
        for index in 0..<40 {
            let port = index % 2 == 0 ? a.port : b.port
            #expect(try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(spread)/person", token: spreadToken).status == 200)
        }
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 0)
        // A balancer that hashes the session to b: after 64 requests in a row from b, a hands it over.
        for _ in 0..<80 {
            #expect(try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(hashed)/person", token: hashedToken).status == 200)
        }
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 1)
        let forwarded = try await Self.counter("viewhost_cluster_forwarded_total", on: b.port)
        #expect(forwarded == 20 + 64, "b forwarded until the hand-over, then served the session itself")
        // Asked through a now, it is b's answer, and it does not move back.
        #expect(try await ProcessHTTP.request(a.port, "POST", "/v1/sessions/\(hashed)/person/events", token: hashedToken, body: Self.person("Moved")).status == 202)
        let read = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(hashed)/person", token: hashedToken)
        #expect(read.text.contains("Moved"))
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: a.port) == 0)
        for server in [a, b] {
            server.send(signal: SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
        await database.stop()
    }

    @Test func theInternalListenerTakesNothingWithoutTheSecret() async throws {
        let a = try await node("a")
        let port = try await internalPort(of: a)
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let bare = try await ProcessHTTP.request(port, "GET", "/v1/sessions/\(id)/person", token: token)
        #expect(bare.status == 403 && bare.text.contains("ViewHost-Hop"), "\(bare)")
        let wrong = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(id)/person", token: token, headers: ["ViewHost-Hop": "not-the-secret-at-all"])
        #expect(wrong.status == 403)
        let hop = try await ProcessHTTP.request(
            port, "GET", "/v1/sessions/\(id)/person", token: token, headers: ["ViewHost-Hop": Self.secret])
        #expect(hop.status == 200)
        a.send(signal: SIGTERM)
        #expect(try await a.waitForExit() == 0)
        await database.stop()
    }

    @Test func thePublicListenerRefusesAHopEvenWithTheSecret() async throws {
        let a = try await node("a")
        let b = try await node("b")
        _ = try await internalPort(of: a)
        _ = try await internalPort(of: b)
        let (id, token) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let path = "/v1/sessions/\(id)/person"
        // As a hop, b would answer 421 (a owns the session, and a hop is never forwarded): a leaked secret would
        // reach the hop's paths from outside. Refused instead, whatever the field says (no way to test a guess).
        let hop = try await ProcessHTTP.request(
            b.port, "GET", path, token: token, headers: ["ViewHost-Hop": Self.secret, "ViewHost-Hop-From": "a"])
        #expect(hop.status == 403 && hop.header("Content-Type") == "application/problem+json", "\(hop)")
        #expect(hop.text.contains("ViewHost-Hop") && hop.text.contains("internal listener"), "\(hop.text)")
        let guess = try await ProcessHTTP.request(
            b.port, "GET", path, token: token, headers: ["ViewHost-Hop": "not-the-secret-at-all"])
        #expect(guess.status == 403 && guess.text == hop.text)
        let posted = try await ProcessHTTP.request(
            a.port, "POST", path + "/events", token: token, body: Self.person("Ada"),
            headers: ["ViewHost-Hop": Self.secret])
        #expect(posted.status == 403, "refused on the owner's public port too, before anything is applied")
        // Without the field, the same requests are a client's: forwarded to the owner, and nothing was applied.
        let read = try await ProcessHTTP.request(b.port, "GET", path, token: token)
        #expect(read.status == 200 && !read.text.contains("Ada"), "\(read)")
        #expect(try await Self.counter("viewhost_cluster_forwarded_total", on: b.port) == 1)
        // Each refusal is logged (at a bounded rate, as other refusals), saying when the secret itself came.
        let refusals = try await Self.lines(of: b, containing: "refused request", count: 2)
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.contains("status=403") }, "\(refusals)")
        #expect(refusals.first?.contains("carrying the cluster's secret") == true, "\(refusals)")
        #expect(refusals.last?.contains("carrying") == false, "a wrong value is not called the secret: \(refusals)")
        #expect(!b.standardErrorText().contains(Self.secret), "the secret is never logged")
        for server in [a, b] {
            server.send(signal: SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
        await database.stop()
    }

    @Test func aDeadNodesSessionsMoveAndItsBotRepliesArriveWithoutARequest() async throws {
        // Speed 10: the bot reads a message 0.15–0.45 s after it is sent and replies 0.5–1.4 s later.
        let a = try await node("a", speed: "10")
        let b = try await node("b", speed: "10")
        _ = try await internalPort(of: a)
        _ = try await internalPort(of: b)
        let (person, personToken) = try await ProcessHTTP.createSession(a.port, features: ["person"])
        let (chat, chatToken) = try await ProcessHTTP.createSession(a.port, features: ["chat"])
        let events = "/v1/sessions/\(chat)/chat/events"
        #expect(try await ProcessHTTP.request(a.port, "POST", events, token: chatToken, body: #"{"type":"appear"}"#).status == 202)
        var johnListed = false
        var deadline = TestDeadline.after(.seconds(60))
        while !johnListed, ContinuousClock.now < deadline {
            johnListed = try await ProcessHTTP.request(a.port, "GET", "/v1/sessions/\(chat)/chat", token: chatToken)
                .text.contains(#""contact":"John""#)
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(johnListed)
        #expect(try await ProcessHTTP.request(a.port, "POST", events, token: chatToken, body: #"{"type":"openChat","contact":"John"}"#).status == 202)
        #expect(try await ProcessHTTP.request(a.port, "POST", events, token: chatToken, body: #"{"type":"send","text":"Still there?"}"#).status == 202)
        a.send(signal: SIGKILL)
        _ = try await a.waitForExit()

        // No request for the chat session: b claims it once a's lease (5 s) ends, and its reply timers fire there.
        deadline = TestDeadline.after(.seconds(60))
        var takeovers = 0
        while takeovers < 1, ContinuousClock.now < deadline {
            takeovers = try await Self.counter("viewhost_cluster_takeovers_total", on: b.port)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(takeovers == 1, "b claimed the chat session with its pending timers by itself")
        var messages: [[String: Any]] = []
        deadline = TestDeadline.after(.seconds(30))
        while messages.count < 3, ContinuousClock.now < deadline {
            let log = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(chat)/chat", token: chatToken)
            let conversations = ProcessHTTP.json(log)?["conversations"] as? [String: Any]
            messages = (conversations?["John"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
            if messages.count < 3 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(messages.count >= 3, "greeting, our message, the bot's reply: \(messages)")
        #expect(messages.dropFirst(2).allSatisfy { $0["sentBy"] as? String == "other" })
        // The person session had no timers: it stayed where it was until asked for, and moves on its request.
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 1)
        let moved = try await ProcessHTTP.request(b.port, "GET", "/v1/sessions/\(person)/person", token: personToken)
        #expect(moved.status == 200, "\(moved)")
        #expect(try await Self.counter("viewhost_cluster_takeovers_total", on: b.port) == 2)
        b.send(signal: SIGTERM)
        #expect(try await b.waitForExit() == 0)
        await database.stop()
    }
}
