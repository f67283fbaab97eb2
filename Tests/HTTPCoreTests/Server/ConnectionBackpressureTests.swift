import Glibc
import Logging
import Synchronization
import Testing
import TestSupport

@testable import HTTPCore

/// epoll's readiness flags (Linux's ABI, `sys/epoll.h`), as the loop hands them to a connection. Not imported from
/// CSystemShim: with that module a dependency of this target, a clean build found Glibc's socket constants in it
/// only, and the test files that import Glibc alone did not compile.
private let epollIn: UInt32 = 0x001
private let epollOut: UInt32 = 0x004

/// A client that pipelines requests without reading the answers: the connection answers until more than
/// `maxQueuedResponseBytes` wait to be sent, then stops parsing and reading (the rest of the requests stay unread),
/// and carries on, in order, as the client takes the answers. Each test drives one connection by hand, on a loop
/// that never runs, so every step is one readiness event and nothing depends on timing. Answers used to pile up
/// without a bound: one such client took the server from 51 to 232 MB in 20 s.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct ConnectionBackpressureTests {
    static let requestCount = 2000
    static let bound = 16 * 1024
    /// Every answer's body, so the bound is passed after a handful of answers.
    static let bodyBytes = 1000

    @Test(arguments: [ConnectionPipe.Transport.plain, .secure])
    func readingStopsWhileQueuedAnswersPassTheBoundAndResumesAsTheClientReads(
        transport: ConnectionPipe.Transport
    ) throws {
        let pipe = try ConnectionPipe(transport, bound: Self.bound, bodyBytes: Self.bodyBytes)
        defer { pipe.close() }
        let requests = (0..<Self.requestCount).map { "GET /items/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        #expect(pipe.clientSend(Array(requests.utf8)) == requests.utf8.count, "the client's requests fit its pipe")

        pipe.handle(events: epollIn)
        let answered = pipe.answered
        #expect(answered > 0)
        #expect(answered < Self.requestCount, "every pipelined request was answered though the client read nothing")
        #expect(pipe.connection.machine.flow?.paused == .answersQueued)
        #expect(pipe.queuedBytes <= Self.bound + Self.bodyBytes + 512, "the queue passed the bound by over an answer")

        // More readiness (the client could have sent more) reads and answers nothing while nothing is taken.
        pipe.handle(events: epollIn | epollOut)
        #expect(pipe.answered == answered)

        // The client reads: the connection reads on and answers everything, in order.
        var received: [UInt8] = []
        var rounds = 0
        while pipe.answered < Self.requestCount || pipe.queuedBytes > 0, rounds < 100_000 {
            received += pipe.clientReceive()
            pipe.handle(events: epollOut)
            rounds += 1
        }
        received += pipe.clientReceive()
        #expect(pipe.answered == Self.requestCount)
        #expect(!pipe.connection.machine.readingIsPaused)
        var offset = 0
        for number in 0..<Self.requestCount {
            // A window that holds one whole answer, so parsing them all is not quadratic.
            let window = Array(received[offset..<min(offset + 4 * Self.bodyBytes, received.count)])
            let parsed = try TestResponse.parse(window, complete: false)
            let (response, used) = try #require(parsed, "answer \(number) is missing")
            #expect(response.status == 200)
            #expect(response.header("X-Item") == "\(number)")
            offset += used
        }
        #expect(offset == received.count)
    }

    /// Paused, the connection still has the write deadline of its unsent answers: a client that never reads is
    /// closed once it passes, as before.
    @Test func aPausedConnectionIsClosedByTheWriteTimeout() throws {
        let pipe = try ConnectionPipe(.plain, bound: Self.bound, bodyBytes: Self.bodyBytes)
        defer { pipe.close() }
        let requests = String(repeating: "GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n", count: Self.requestCount)
        #expect(pipe.clientSend(Array(requests.utf8)) == requests.utf8.count)
        pipe.handle(events: epollIn)
        #expect(pipe.connection.machine.flow?.paused == .answersQueued)
        let stalled = try #require(pipe.connection.timers.writeStalledSince)
        let timeouts = pipe.connection.timers.timeouts
        #expect(pipe.connection.timers.deadline == stalled.advanced(by: timeouts.write))
        _ = pipe.connection.checkTimers(at: stalled.advanced(by: timeouts.write))
        #expect(pipe.connection.isClosed)
    }
}

/// One server connection on an event loop that is never started, fed and read by the test. `plain` is a Unix
/// socket pair; `secure` puts an in-memory ``SecureChannel`` in front of it (the socket is then only closed).
final class ConnectionPipe {
    enum Transport: Sendable, CustomTestStringConvertible {
        case plain
        case secure

        var testDescription: String { self == .plain ? "plain" : "TLS" }
    }

    let connection: Connection
    /// The connection's loop (which the connection does not keep alive).
    private let loop: EventLoop
    private let client: Int32
    private let channel: MemoryChannel?
    private let handled: CallCount

    init(_ transport: Transport, bound: Int, bodyBytes: Int) throws {
        let handled = CallCount()
        self.handled = handled
        var router = Router()
        router.get("/items/:number") { _, context in
            handled.increment()
            return HTTPResponse(
                contentType: "text/plain", bytes: [UInt8](repeating: 120, count: bodyBytes),
                headers: ["X-Item": context.parameters["number"] ?? ""])
        }
        var logger = Logger(label: "pipe-test")
        logger.logLevel = .critical
        let context = ServerContext(
            configuration: HTTPServerConfiguration(
                port: 0, eventLoopCount: 1, maxQueuedResponseBytes: bound,
                compression: HTTPCompressionSettings(isEnabled: false)),
            responder: router, logger: logger, security: nil)
        let loop = try EventLoop(index: 0, server: context) {}
        self.loop = loop
        var pair: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &pair) == 0 else { throw SocketError.makeFailed("socketpair") }
        client = pair[1]
        let channel = transport == .secure ? MemoryChannel(room: 8 * 1024) : nil
        self.channel = channel
        _ = context.claimConnection()
        let peer = try SocketAddress(host: "127.0.0.1", port: 1)
        var made: Connection?
        loop.add(connectionFD: pair[0]) { generation in
            let connection = Connection(
                fd: pair[0], generation: generation, loop: loop, peer: peer, rejecting: false, secure: channel)
            // The memory channel's records never pass through the socket: its first byte is taken as read.
            _ = connection.machine.receivedFirstByte(0x16)
            made = connection
            return connection
        }
        connection = try #require(made)
        if channel != nil { connection.handle(events: epollIn) }  // the handshake
    }

    /// How many requests the handler answered.
    var answered: Int { handled.value }

    /// Answer bytes the connection holds, not yet sent.
    var queuedBytes: Int { connection.outbound.count - connection.outboundSent }

    func handle(events: UInt32) {
        connection.handle(events: events)
    }

    /// Sends what the pipe takes of `bytes`; returns how much that was.
    func clientSend(_ bytes: [UInt8]) -> Int {
        if let channel {
            channel.incoming += bytes
            return bytes.count
        }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, bytes.count - sent, 0) }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    /// Everything the server sent that the client has not taken yet.
    func clientReceive() -> [UInt8] {
        if let channel {
            defer { channel.outgoing = [] }
            return channel.outgoing
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received += chunk[0..<count]
        }
    }

    func close() {
        connection.close()
        Glibc.close(client)
    }
}

/// A ``SecureChannel`` over two byte arrays: reads take what the client put in `incoming`, writes fill `outgoing`
/// up to `room` and then want the socket writable, as a full socket would.
private final class MemoryChannel: SecureChannel {
    var incoming: [UInt8] = []
    var outgoing: [UInt8] = []
    let room: Int

    init(room: Int) {
        self.room = room
    }

    func handshake() -> SecureChannelResult { .done(0) }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> SecureChannelResult {
        guard !incoming.isEmpty else { return .wantRead }
        let count = min(buffer.count, incoming.count)
        incoming.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        incoming.removeFirst(count)
        return .done(count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> SecureChannelResult {
        let count = min(bytes.count, room - outgoing.count)
        guard count > 0 else { return .wantWrite }
        outgoing += bytes[0..<count]
        return .done(count)
    }

    func shutdown() {}

    var negotiatedProtocol: String? { nil }
}

/// Counts handler calls (the handler is `@Sendable`, though here it runs on the test's thread).
private final class CallCount: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.wrappingAdd(1, ordering: .relaxed)
    }
}
