import Foundation
import TestSupport
import Testing
import LoginAPI
import ChatAPI
import PersonAPI
import WeatherAPI
import ViewHostAPI
import ViewHostClient

/// `changes()`: the current snapshots, then every change; resumed after a dropped connection and after a server
/// restart without missing one; long polls while streams are refused; ends with the session or the task.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ChangeStreamTests {
    @Test func currentSnapshotsThenEachChange() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["login", "person"])
        var changes = session.changes().makeAsyncIterator()
        var first: [String: ViewHostChange] = [:]
        while first.count < 2, let change = try await changes.next() { first[change.feature] = change }
        #expect(first["login"]?.version == 1)
        #expect(first["person"]?.version == 1)

        try await session.send(LoginIntent.setUsername(value: "streamed"))
        let change = try #require(try await changes.next())
        #expect(change.feature == "login")
        #expect(change.version == 2)
        #expect((change.sequence ?? 0) > (first["login"]?.sequence ?? .max))
        #expect(try change.decode(LoginSnapshot.self).username == "streamed")
    }

    @Test func resumesAfterADroppedConnectionWithoutMissingAChange() async throws {
        let server = try await TestServer.start()
        let proxy = try TCPProxy(upstreamPort: server.port)
        defer { proxy.close() }
        let session = try await TestServer.client(port: proxy.port).createSession(features: ["login"])
        let direct = TestServer.client(port: server.port).session(id: session.id, token: session.token)
        var changes = session.changes().makeAsyncIterator()
        #expect(try await changes.next(LoginSnapshot.self).version == 1)

        // Cut the stream, then change the session twice while the client is away (it waits ≥ the server's retry).
        proxy.dropConnections()
        try await direct.send(LoginIntent.setUsername(value: "while"))
        try await direct.send(LoginIntent.setUsername(value: "away"))
        let resumed = try await changes.next(LoginSnapshot.self)
        #expect(resumed.version == 3, "the newest state arrives (the stream collapses what a reader missed)")
        #expect(resumed.username == "away")

        try await direct.send(LoginIntent.setUsername(value: "after"))
        let next = try await changes.next(LoginSnapshot.self)
        #expect(next.version == 4)
        #expect(next.username == "after")
    }

    @Test func resumesAfterAServerRestartWithTheDurableStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewhost-client-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let durable = ["--store", "sqlite", "--data-dir", directory.path]
        let environment = ["VIEWHOST_STORE_KIND": "sqlite"]
        var server = try await TestServer.start(durable, environment: environment)
        let proxy = try TCPProxy(upstreamPort: server.port)
        defer { proxy.close() }
        let session = try await TestServer.client(port: proxy.port).createSession(features: ["login"])
        var changes = session.changes().makeAsyncIterator()
        #expect(try await changes.next(LoginSnapshot.self).version == 1)
        try await session.send(LoginIntent.setUsername(value: "before"))
        #expect(try await changes.next(LoginSnapshot.self).username == "before")

        // Stop the server (the stream ends with `ended: shutdown`), start another on the same store, and change
        // the session there: the client reconnects with Last-Event-ID and gets the change.
        server.send(signal: SIGTERM)
        #expect(try await server.waitForExit() == 0)
        server = try await TestServer.start(durable, environment: environment)
        proxy.upstreamPort = server.port
        let direct = TestServer.client(port: server.port).session(id: session.id, token: session.token)
        try await direct.send(LoginIntent.setUsername(value: "restarted"))
        let resumed = try await changes.next(LoginSnapshot.self)
        #expect(resumed.version == 3)
        #expect(resumed.username == "restarted")
    }

    @Test func fallsBackToLongPollingWhenStreamsAreRefused() async throws {
        let server = try await TestServer.start(environment: ["VIEWHOST_STREAMS_MAX_PER_SESSION": "1"])
        let session = try await TestServer.client(port: server.port).createSession(features: ["login"])
        var streamed = session.changes().makeAsyncIterator()
        let first = try #require(try await streamed.next())
        #expect(first.sequence != nil, "the first follower streams")

        // The session's one stream is taken: the second follower long polls.
        var polled = session.changes().makeAsyncIterator()
        let current = try #require(try await polled.next())
        #expect(current.feature == "login")
        #expect(current.sequence == nil)
        #expect(current.version == 1)
        try await session.send(LoginIntent.setPassword(value: "secret123"))
        let change = try #require(try await polled.next())
        #expect(change.version == 2)
        #expect(change.sequence == nil)
        #expect(try change.decode(LoginSnapshot.self).passwordValid)
        #expect(
            try await TestServer.requestCount(
                port: server.port, route: "/v1/sessions/:id/stream", method: "GET", status: 429) >= 1)
    }

    @Test func endsWithTheSession() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["person"])
        var changes = session.changes().makeAsyncIterator()
        _ = try await changes.next()
        try await session.delete()
        do {
            while try await changes.next() != nil {}
            Issue.record("the changes went on after the session was deleted")
        } catch let error as ViewHostError {
            #expect(error.kind == .sessionEnded)
            #expect(error.detail == "the session was deleted")
        }
    }

    @Test func cancellingTheTaskEndsTheChangesAndTheStream() async throws {
        let server = try await TestServer.start()
        let session = try await TestServer.client(port: server.port).createSession(features: ["person"])
        let started = AsyncStream.makeStream(of: Void.self)
        let follower = Task {
            var count = 0
            for try await _ in session.changes() {
                count += 1
                started.continuation.yield()
            }
            return count
        }
        for await _ in started.stream { break }
        follower.cancel()
        #expect(try await follower.value == 1)
        // The connection is closed: the server gives the stream's place back.
        #expect(try await eventually(timeout: .seconds(30), interval: .milliseconds(50)) { try await TestServer.openStreams(port: server.port) == 0 })
    }
}
