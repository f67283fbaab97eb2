@testable import ViewHost
import Foundation
import HTTPCore
import Testing
import TestSupport
import ChatAPI
import LoginAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewModelCore

/// The stream limits: per session (`429`) and in total (`503`), and that every way a stream ends gives its
/// place back.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct StreamLimitsHTTPTests {
    /// Opens a stream and reads its head; the reader keeps the connection open.
    private func connect(_ app: TestApp, _ session: TestSession) async throws -> (SSEReader, TestResponse) {
        let reader = try SSEReader(port: app.port, path: session.path("stream"), token: session.token)
        return (reader, try await reader.head())
    }

    /// Polls (bounded) until a new stream of `session` is accepted again.
    private func eventuallyAccepted(_ app: TestApp, _ session: TestSession) async throws -> Bool {
        let deadline = TestDeadline.after(.seconds(60))
        while ContinuousClock.now < deadline {
            let (reader, head) = try await connect(app, session)
            if head.status == 200 {
                reader.client.closeWithReset()
                return true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func ninthStreamOfOneSessionIs429() async throws {
        try await TestApp.run({ $0.streams.maxPerSession = 8 }) { app in
            let session = try await app.createQuietSession()
            let other = try await app.createQuietSession()
            var open: [SSEReader] = []
            for _ in 0..<8 {
                let (reader, head) = try await connect(app, session)
                #expect(head.status == 200)
                open.append(reader)
            }
            let (_, refused) = try await connect(app, session)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") != nil)
            #expect(refused.header("Content-Type") == "application/problem+json")
            let (_, elsewhere) = try await connect(app, other)
            #expect(elsewhere.status == 200, "another session has its own share")
            // A client that goes away gives its place back.
            open.removeLast().client.closeWithReset()
            #expect(try await eventuallyAccepted(app, session))
            withExtendedLifetime(open) {}
        }
    }

    @Test func theRefusalCountsOneStreamInTheSingular() async throws {
        try await TestApp.run({ $0.streams.maxPerSession = 1 }) { app in
            let session = try await app.createQuietSession()
            let (first, head) = try await connect(app, session)
            #expect(head.status == 200)
            let (_, refused) = try await connect(app, session)
            #expect(refused.status == 429)
            #expect(try refused.json["detail"].string == "This session already has 1 open stream; close one first.")
            withExtendedLifetime(first) {}
        }
    }

    @Test func totalLimitIs503() async throws {
        try await TestApp.run({ $0.streams.max = 3 }) { app in
            let a = try await app.createQuietSession()
            let b = try await app.createQuietSession()
            var open: [SSEReader] = []
            for session in [a, a, b] {
                let (reader, head) = try await connect(app, session)
                #expect(head.status == 200)
                open.append(reader)
            }
            let (_, refused) = try await connect(app, b)
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") != nil)
            open.removeFirst().client.closeWithReset()
            #expect(try await eventuallyAccepted(app, b))
            withExtendedLifetime(open) {}
        }
    }

    @Test func headRequestsDoNotUseUpStreamPlaces() async throws {
        try await TestApp.run({ $0.streams.maxPerSession = 2 }) { app in
            let session = try await app.createQuietSession()
            for _ in 0..<4 {
                let head = try await app.request("HEAD", session.path("stream"), token: session.token)
                #expect(head.status == 200)
                #expect(head.header("Content-Type") == "text/event-stream")
                #expect(head.body.isEmpty)
            }
            let (reader, head) = try await connect(app, session)
            #expect(head.status == 200, "HEAD never runs a stream, so it must not hold a place")
            withExtendedLifetime(reader) {}
        }
    }

    /// A stream holds its session's observer until its body ends: a client that goes away leaves nothing behind
    /// in the session (the observer holds the stream strongly, so one left would keep both alive).
    @Test func aStreamWhoseClientGoesAwayStopsObservingItsSession() async throws {
        // A store directory: the app is then reachable (its registry), not only its server.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-observers-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestApp.run(storeDirectory: directory) { app in
            let created = try await app.createQuietSession()
            let (first, firstHead) = try await connect(app, created)
            let (second, secondHead) = try await connect(app, created)
            #expect(firstHead.status == 200 && secondHead.status == 200)
            let session = try #require(app.app?.registry.store.session(SessionID(created.id)))
            #expect(await eventually { session.stream.observerCount == 2 })
            first.client.closeWithReset()
            #expect(await eventually { session.stream.observerCount == 1 }, "the stream that ended let go")
            second.client.closeWithReset()
            #expect(await eventually { session.stream.observerCount == 0 })
        }
    }

    @Test func streamsOfADeletedSessionGiveTheirPlacesBack() async throws {
        try await TestApp.run({
            $0.streams.max = 1
            $0.streams.heartbeat = .milliseconds(100)
        }) { app in
            let first = try await app.createQuietSession()
            let (reader, head) = try await connect(app, first)
            #expect(head.status == 200)
            #expect(try await app.request("DELETE", first.path(), token: first.token).status == 204)
            _ = try await reader.readToEnd(waitForClose: false)
            let second = try await app.createQuietSession()
            #expect(try await eventuallyAccepted(app, second))
        }
    }
}
