import Foundation
import Testing
import TestSupport
import ViewHost

/// The app on a real SQLite store, restarted on the same clock: what counts as use of a session survives the
/// restart with it.
@Suite(.timeLimit(.minutes(2)))
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
            _ = try await stream.read(untilContaining: "event: person")
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
}
