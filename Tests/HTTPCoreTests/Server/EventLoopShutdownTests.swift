import Glibc
import Logging
import Synchronization
import Testing
import TestSupport

@testable import HTTPCore

/// A connection accepted by one loop and handed to another that has already stopped (it drained first, during a
/// shutdown) is served by the loop that accepted it; when no loop can take it, it is closed, not left in a queue
/// that no thread reads, with its descriptor open.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct EventLoopShutdownTests {
    @Test func connectionHandedToAStoppedLoopIsClosed() async throws {
        let context = Self.context(loops: 1)
        let (stops, stopped) = AsyncStream<Void>.makeStream()
        let loop = try EventLoop(index: 0, server: context) { stopped.yield() }
        context.setLoops([loop])
        loop.start()
        loop.execute { loop.beginDrain() }  // nothing open, so the loop ends at once
        var iterator = stops.makeAsyncIterator()
        await iterator.next()
        #expect(!loop.execute {}, "a stopped loop takes no more tasks")

        let pair = try Self.socketPair()
        defer { close(pair[1]) }
        #expect(context.claimConnection())
        Listener.handOff(pair[0], peer: try SocketAddress(host: "127.0.0.1", port: 1), to: loop, from: nil)

        var byte: UInt8 = 0
        #expect(read(pair[1], &byte, 1) == 0, "the handed-over end was closed: the peer reads end of file")
        #expect(context.openConnectionCount == 0, "its connection slot was given back")
        #expect(loop.load.load(ordering: .relaxed) == 0)
    }

    /// The loop a connection was handed to had stopped (it drained first), while the loop that accepted it still
    /// runs: that loop serves it, so the client that sent its request as the drain began gets an answer, not a
    /// closed connection (a take-over's traffic once saw "the server closed after 0 bytes").
    @Test func connectionHandedToAStoppedLoopIsServedByTheLoopThatAcceptedIt() async throws {
        let context = Self.context(loops: 2)
        let (stops, stopped) = AsyncStream<Int>.makeStream()
        let accepting = try EventLoop(index: 0, server: context) { stopped.yield(0) }
        let drained = try EventLoop(index: 1, server: context) { stopped.yield(1) }
        context.setLoops([accepting, drained])
        accepting.start()
        drained.start()
        drained.execute { drained.beginDrain() }  // nothing open, so it ends at once
        var iterator = stops.makeAsyncIterator()
        #expect(await iterator.next() == 1)

        let pair = try Self.socketPair()
        defer { close(pair[1]) }
        #expect(context.claimConnection())
        let peer = try SocketAddress(host: "127.0.0.1", port: 1)
        let fd = pair[0]
        // On the accepting loop's thread, as `acceptConnections` runs.
        accepting.execute { Listener.handOff(fd, peer: peer, to: drained, from: accepting) }

        let request = Array("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        #expect(write(pair[1], request, request.count) == request.count)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pair[1], &buffer, buffer.count)
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 404"), "answered, not closed unanswered")
        accepting.execute { accepting.beginDrain() }
        #expect(await iterator.next() == 0)
        #expect(context.openConnectionCount == 0, "its connection slot was given back")
    }

    /// A server context of `loops` loops, logging nothing below critical.
    private static func context(loops: Int) -> ServerContext {
        var logger = Logger(label: "loop-test")
        logger.logLevel = .critical
        return ServerContext(
            configuration: HTTPServerConfiguration(port: 0, eventLoopCount: loops), responder: Router(),
            logger: logger, security: nil)
    }

    /// A connected pair: `[0]` stands for the accepted connection, `[1]` for its client (reads time out after 5 s).
    private static func socketPair() throws -> [Int32] {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(pair[1], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return pair
    }
}
