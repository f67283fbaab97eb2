import Foundation
import Testing
import TestSupport
import ViewHost

/// The app on a real SQLite store, restarted on the same clock: what counts as use of a session survives the
/// restart with it.
@Suite(.timeLimit(.minutes(5)))
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

    /// The store's size is bounded separately (`store.maxMegabytes`): past it, creating a session answers 503 saying
    /// so, and the sessions there are go on taking events.
    @Test func pastTheStoreQuotaNewSessionsGet503SayingSo() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run({ $0.store.maxMegabytes = 1 }, storeDirectory: directory) { app in
            let first = try await app.createSession(body: #"{"features":["person"]}"#)
            var refused: TestResponse?
            for number in 0..<5_000 where refused == nil {
                let response = try await app.request("POST", "/v1/sessions", body: #"{"features":["chat","login","person"]}"#)
                if response.status != 201 { refused = response }
                if number % 100 == 0 { app.advance(by: .seconds(1)) }
            }
            let full = try #require(refused, "1 MB never filled")
            #expect(full.status == 503)
            #expect(full.header("Retry-After") != nil)
            #expect(full.text.contains("store.maxMegabytes"), "\(full)")
            try await app.send(first, "person", Self.person("still here"))
        }
    }

    static func person(_ name: String) -> String {
        #"{"type":"setPerson","firstName":"\#(name)","lastName":"Cache","birthdate":"1990-01-01"}"#
    }
}
