import Glibc
import Logging
import Synchronization
import Testing
import TestSupport

@testable import HTTPCore

/// A connection accepted by one loop and handed to another that has already stopped (it drained first, during a
/// shutdown) must be closed, not left in a queue that no thread reads, with its descriptor open.
@Suite(.timeLimit(.minutes(TestDeadline.minutes(5))))
struct EventLoopShutdownTests {
    @Test func connectionHandedToAStoppedLoopIsClosed() async throws {
        var logger = Logger(label: "loop-test")
        logger.logLevel = .critical
        let context = ServerContext(
            configuration: HTTPServerConfiguration(port: 0, eventLoopCount: 1), responder: Router(), logger: logger,
            security: nil)
        let (stops, stopped) = AsyncStream<Void>.makeStream()
        let loop = try EventLoop(index: 0, server: context) { stopped.yield() }
        context.setLoops([loop])
        loop.start()
        loop.execute { loop.beginDrain() }  // nothing open, so the loop ends at once
        var iterator = stops.makeAsyncIterator()
        await iterator.next()
        #expect(!loop.execute {}, "a stopped loop takes no more tasks")

        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(pair[1], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(context.claimConnection())
        Listener.handOff(pair[0], peer: try SocketAddress(host: "127.0.0.1", port: 1), to: loop)

        var byte: UInt8 = 0
        #expect(read(pair[1], &byte, 1) == 0, "the handed-over end was closed: the peer reads end of file")
        #expect(context.openConnectionCount == 0, "its connection slot was given back")
        #expect(loop.load.load(ordering: .relaxed) == 0)
    }
}
