import Foundation
import Testing
import TestSupport
import ViewHost

/// The app on a real SQLite store, restarted on the same clock: what counts as use of a session survives the
/// restart with it.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct DurableSessionHTTPTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-durable-http-\(UUID().uuidString)").path

    /// A page that only listens (an event stream open, nothing sent, nothing read) keeps its session past the idle
    /// TTL, and the store is told: after a stop and a start the session answers `200`, not `410`.
    @Test func aSessionHeldOnlyByAStreamOutlivesItsIdleTimeAcrossARestart() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualScheduler()
        let ttl: (inout AppConfiguration) -> Void = { $0.sessions.idleTTL = .seconds(10) }
        let session = try await TestApp.run(ttl, scheduler: clock, storeDirectory: directory) { app in
            let session = try await app.createSession(body: #"{"features":["person"]}"#)
            let stream = try app.send("GET", session.path("stream"), token: session.token)
            _ = try await stream.read(untilContaining: "event: person", timeout: app.requestTimeout)
            app.advance(by: .seconds(15))
            // Held open by the stream, it is still here after its idle TTL.
            #expect(try await app.request("GET", session.path("person"), token: session.token).status == 200)
            app.advance(by: .seconds(15))
            return session
        }
        try await TestApp.run(ttl, scheduler: clock, storeDirectory: directory) { app in
            let read = try await app.request("GET", session.path("person"), token: session.token)
            #expect(read.status == 200, "\(read)")
        }
    }

    /// With a durable store, memory is a cache: past `sessions.max`, the least recently used idle sessions leave
    /// memory (they stay in the store) and new sessions are still made (they were refused with 503 for every
    /// user once the cap was reached); each evicted session loads again, as it was, when asked for.
    @Test func pastTheMemoryCapIdleSessionsLeaveMemoryAndNewOnesAreStillMade() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run({ $0.sessions.max = 4 }, storeDirectory: directory) { app in
            var sessions: [TestSession] = []
            for number in 0..<12 {
                let session = try await app.createSession(body: #"{"features":["person"]}"#)
                try await app.send(session, "person", Self.person("p\(number)"))
                sessions.append(session)
                app.advance(by: .seconds(1))
            }
            let live = try await app.request("GET", "/metrics").text
            let gauge = live.split(separator: "\n").first { $0.hasPrefix("viewhost_sessions_live ") }
            #expect((gauge?.split(separator: " ").last.flatMap { Double($0) } ?? 99) <= 4, "\(gauge ?? "")")
            for (number, session) in sessions.enumerated() {
                #expect(try await app.snapshot(session, "person")["firstName"].string == "p\(number)")
            }
        }
    }

    /// A session waiting only on a timer leaves memory like an idle one: its timers are stored, and it loads again
    /// when the next falls due and fires it without a request. (A pending timer once held a session in memory, so
    /// a burst of new chats, each with its list's load pending, got 503 once `sessions.max` were in memory.)
    @Test func sessionsWaitingOnATimerLeaveMemoryAndLoadWhenItFallsDue() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run({ $0.sessions.max = 4 }, storeDirectory: directory) { app in
            func metric(_ name: String) async throws -> Double {
                let text = try await app.request("GET", "/metrics").text
                let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
                return line?.split(separator: " ").last.flatMap { Double($0) } ?? -1
            }
            var sessions: [TestSession] = []
            for _ in 0..<12 {
                // Each new chat's list loads half a second later, by a timer; the manual clock stands still here.
                let response = try await app.request("POST", "/v1/sessions", body: #"{"features":["chat"]}"#)
                try #require(response.status == 201, "\(response)")
                sessions.append(
                    TestSession(id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string)))
            }
            #expect(try await metric("viewhost_sessions_live") <= 4)
            app.advance(by: .seconds(1))
            // The sessions whose timer fell due are loaded and their timers fired, no request asking.
            // (The manual clock runs a timer due when it is told to move: a real one at once.)
            let loaded = try await eventually {
                app.advance(by: .zero)
                return try await metric("viewhost_sessions_timer_loads_total") >= 8
            }
            app.advance(by: .zero)
            let loads = try await metric("viewhost_sessions_timer_loads_total")
            #expect(loaded, "timer loads: \(loads)")
            for session in sessions {
                let log = try await app.log(session)
                #expect(log.contains { $0["source"].string == "timer" }, "\(session.id): the list's load did not fire: \(log)")
            }
        }
    }

    /// The store's size is bounded separately (`store.maxMegabytes`): past it, creating a session answers 503 saying
    /// so, and the sessions there are go on taking events. The megabyte fills in a few large writes (chat sessions
    /// of a hundred 4,000-character messages of random letters, 400 kB each, posted as one batch), not a thousand
    /// small sessions: one request each, those took minutes under ThreadSanitizer beside the rest of the suite.
    @Test func pastTheStoreQuotaNewSessionsGet503SayingSo() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run({ $0.store.maxMegabytes = 1 }, storeDirectory: directory) { app in
            let first = try await app.createSession(body: #"{"features":["person"]}"#)
            // Random letters: the store compresses what it keeps, and a repeated one would take next to nothing.
            var random = SplitMix64(state: 58)
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            func message() -> String {
                #"{"type":"send","text":"\#(String((0..<4_000).map { _ in letters.randomElement(using: &random)! }))"}"#
            }
            var refused: TestResponse?
            var fillers: [TestSession] = []
            while refused == nil, fillers.count < 10 {
                let response = try await app.request("POST", "/v1/sessions", body: #"{"features":["chat"]}"#)
                guard response.status == 201 else {
                    refused = response
                    break
                }
                let filler = TestSession(
                    id: try #require(try response.json["id"].string), token: try #require(try response.json["token"].string))
                app.advance(by: .seconds(1))  // its chat list loads
                try await app.send(filler, "chat", #"{"type":"openChat","contact":"John"}"#)
                try await app.send(filler, "chat", "[" + (0..<100).map { _ in message() }.joined(separator: ",") + "]")
                fillers.append(filler)
            }
            let full = try #require(refused, "1 MB never filled by \(fillers.count) sessions of 400 kB")
            #expect(fillers.count >= 2, "a megabyte holds more than one session of 400 kB")
            #expect(full.status == 503)
            #expect(full.header("Retry-After") != nil)
            #expect(full.text.contains("store.maxMegabytes"), "\(full)")
            try await app.send(first, "person", Self.person("still here"))
            try await app.send(try #require(fillers.last), "chat", #"{"type":"send","text":"and so is this one"}"#)
        }
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Cache","birthdate":"1990-01-01"}"#
    }
}
