import HTTPCore
import Testing
import TestSupport
import ViewHostLocking

/// Pulled bodies (`HTTPResponseBody.source`): framing, signals from other threads, heartbeats, backpressure, and
/// that the source hears exactly once that its body is over, whatever ended it.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct HTTPBodySourceTests {
    /// A source that sends what is pushed into it, one part per pull.
    final class QueueSource: HTTPBodySource {
        struct State {
            var parts: [[UInt8]] = []
            var ended = false
            var trigger: HTTPBodyTrigger?
            var started = 0
            var pulls = 0
            var idlePulls = 0
            var finished = 0
        }

        let idleInterval: Duration?
        /// When set, every pull answers this many bytes (a producer that never runs dry).
        let endlessPartSize: Int?
        let state = Locked(State())

        init(parts: [String] = [], ended: Bool = false, idleInterval: Duration? = nil, endlessPartSize: Int? = nil) {
            self.idleInterval = idleInterval
            self.endlessPartSize = endlessPartSize
            state.withLock { state in
                state.parts = parts.map { Array($0.utf8) }
                state.ended = ended
            }
        }

        func push(_ text: String) {
            let trigger = state.withLock { state in
                state.parts.append(Array(text.utf8))
                return state.trigger
            }
            trigger?.signal()
        }

        func end() {
            let trigger = state.withLock { state in
                state.ended = true
                return state.trigger
            }
            trigger?.signal()
        }

        func signal() {
            state.withLock { $0.trigger }?.signal()
        }

        func start(_ trigger: HTTPBodyTrigger) {
            state.withLock { state in
                state.trigger = trigger
                state.started += 1
            }
        }

        func next(idle: Bool) -> [UInt8]? {
            state.withLock { state -> [UInt8]? in
                state.pulls += 1
                if let endlessPartSize {
                    state.trigger?.signal()  // more at once: ask to be pulled again
                    return [UInt8](repeating: 120, count: endlessPartSize)
                }
                if idle, state.parts.isEmpty {
                    state.idlePulls += 1
                    return Array(": idle\n".utf8)
                }
                guard !state.parts.isEmpty else { return state.ended ? nil : [] }
                if state.ended { state.trigger?.signal() }  // come back for the end
                defer { state.parts.removeAll() }
                return Array(state.parts.joined())
            }
        }

        func finish() {
            state.withLock { $0.finished += 1 }
        }

        var snapshot: State { state.withLock { $0 } }
    }

    /// Hands the source of the next `GET /source` to the route and keeps it for the test.
    final class SourceBox: Sendable {
        private let made = Locked<[QueueSource]>([])
        private let factory: @Sendable () -> QueueSource

        init(_ factory: @escaping @Sendable () -> QueueSource) {
            self.factory = factory
        }

        func make() -> QueueSource {
            let source = factory()
            made.withLock { $0.append(source) }
            return source
        }

        var last: QueueSource? { made.withLock { $0.last } }
        var count: Int { made.withLock { $0.count } }
    }

    private static func server(_ box: SourceBox, timeouts: HTTPTimeouts = HTTPTimeouts(lingeringClose: .milliseconds(100)))
        throws -> TestServer
    {
        try TestServer(timeouts: timeouts) { router in
            TestServer.standardRoutes(&router)
            router.get("/source") { _, _ in
                HTTPResponse(headers: [.contentType: "text/plain"], body: .source(box.make()))
            }
        }
    }

    @Test func aSourceThatEndsGivesAChunkedBodyAndTheConnectionCarriesOn() async throws {
        let box = SourceBox { QueueSource(parts: ["one ", "two ", "three"], ended: true) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await client.readResponse()
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.text == "one two three")
        try client.send("GET /items/4 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().text == "item 4")
        let source = try #require(box.last)
        #expect(source.snapshot.started == 1)
        #expect(source.snapshot.finished == 1)
        await server.stop()
    }

    @Test func pipelinedRequestsBehindASourceWaitForItsEnd() async throws {
        let box = SourceBox { QueueSource(parts: ["a"]) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\nGET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { (box.last?.snapshot.pulls ?? 0) >= 1 })
        let source = try #require(box.last)
        source.end()
        #expect(try await client.readResponse().text == "a")
        #expect(try await client.readResponse().text == "item 7")
        await server.stop()
    }

    @Test func partsPushedFromOtherThreadsAllArriveInOrder() async throws {
        let box = SourceBox { QueueSource() }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { box.last?.snapshot.started == 1 })
        let source = try #require(box.last)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for index in 0..<500 { source.push("<\(index)>") } }
            group.addTask { for _ in 0..<500 { source.signal() } }  // signals with nothing new are harmless
        }
        source.end()
        let response = try await client.readResponse()
        #expect(response.text == (0..<500).map { "<\($0)>" }.joined())
        #expect(source.snapshot.finished == 1)
        await server.stop()
    }

    @Test func anIdleSourceIsAskedForAHeartbeat() async throws {
        let box = SourceBox { QueueSource(idleInterval: .milliseconds(30)) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.read(untilContaining: ": idle\n")
        _ = try await client.read(untilContaining: ": idle\n")
        #expect((box.last?.snapshot.idlePulls ?? 0) >= 2)
        await server.stop()
    }

    @Test func aClientThatGoesAwayFinishesTheSourceOnce() async throws {
        let box = SourceBox { QueueSource(parts: ["x"]) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.read(untilContaining: "\r\nx\r\n")
        client.closeWithReset()
        let source = try #require(box.last)
        #expect(await eventually { source.snapshot.finished == 1 })
        source.push("after")  // a signal after the end goes nowhere
        #expect(await server.waitForOpenConnections(0))
        #expect(source.snapshot.finished == 1)
        await server.stop()
    }

    @Test func drainingEndsTheBodyWithItsLastChunk() async throws {
        let box = SourceBox { QueueSource(parts: ["live"]) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await client.read(untilContaining: "live\r\n")
        server.server.shutdown()
        let rest = String(decoding: try await client.readUntilClosed(), as: UTF8.self)
        #expect(rest.hasSuffix("0\r\n\r\n"), "the body ends properly, then the connection closes: \(rest.debugDescription)")
        #expect(box.last?.snapshot.finished == 1)
        await server.server.waitUntilStopped()
    }

    @Test func headNeverStartsTheSource() async throws {
        let box = SourceBox { QueueSource(parts: ["never"]) }
        let server = try Self.server(box)
        let client = try server.client()
        try client.send("HEAD /source HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await client.readResponse(headRequest: true)
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        try client.send("GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().text == "item 1")
        #expect(box.last?.snapshot.started == 0)
        #expect(box.last?.snapshot.pulls == 0)
        await server.stop()
    }

    /// A client that reads nothing: the source is not asked again once the backlog is over the low-water mark,
    /// however often it signals, so an eager producer cannot grow the server's memory.
    @Test func aStalledReaderStopsThePulls() async throws {
        let box = SourceBox { QueueSource(endlessPartSize: 32 * 1024) }
        let server = try Self.server(box)
        let client = try server.client()
        client.setReceiveBufferSize(4096)
        try client.send("GET /source HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { box.last?.snapshot.started == 1 })
        let source = try #require(box.last)
        for _ in 0..<2000 {
            source.signal()
            await Task.yield()
        }
        // Socket buffers take a few MiB on loopback; 2000 parts of 32 KiB would be 64 MiB.
        let pulls = source.snapshot.pulls
        #expect(pulls < 400, "the source was pulled \(pulls) times while nobody read")
        client.closeWithReset()
        #expect(await eventually { source.snapshot.finished == 1 })
        await server.stop()
    }
}
