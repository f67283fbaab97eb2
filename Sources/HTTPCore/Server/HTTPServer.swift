import CSystemShim
public import Logging
import Synchronization
import ViewHostLocking

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on the C socket API: one epoll event loop per core, each on its own thread.
///
/// HTTPCore is the bottom layer: it knows HTTP and sockets, nothing of the application above it. Handlers
/// come in as an ``HTTPResponder``.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), responder: router, logger: logger)
/// try server.start()
/// print(server.localAddress!)  // the real port
/// server.shutdown()            // graceful: stop accepting, finish in-flight requests, close idle connections
/// await server.waitUntilStopped()
/// ```
public final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var localAddress: SocketAddress?
        var listenerFDs: [Int32] = []
        var started = false
        var runningLoops = 0
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    private let context: ServerContext
    private let state = Locked(State())

    /// Creates a server; nothing is bound until ``start()``.
    /// - Parameters:
    ///   - configuration: Address, limits, timeouts.
    ///   - responder: Answers every request.
    ///   - logger: Receives one line per error.
    ///   - security: TLS for every connection (from `HTTPTLS`); nil for plain HTTP.
    public init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger,
        security: (any TransportSecurity)? = nil
    ) {
        self.configuration = configuration
        self.context = ServerContext(
            configuration: configuration, responder: responder, logger: logger, security: security)
    }

    /// Whether connections are TLS (`https`).
    public var isSecure: Bool { context.security != nil }

    /// The bound address (with the real port when configured with port 0); nil before ``start()``.
    public var localAddress: SocketAddress? {
        state.withLock { $0.localAddress }
    }

    /// Whether a graceful shutdown has begun.
    public var isDraining: Bool { context.isDraining }

    /// Open connections, across loops.
    public var openConnectionCount: Int { context.openConnectionCount }

    /// Open connections of each event loop, in loop order (new connections go to the least loaded loop).
    public var openConnectionsPerLoop: [Int] {
        state.withLock { $0.loops }.map { $0.load.load(ordering: .relaxed) }
    }

    /// Connections accepted since start (not counting those refused with 503).
    public var acceptedConnectionCount: Int { context.acceptedConnectionCount }

    /// Accepted connections closed since start.
    public var closedConnectionCount: Int { context.closedConnectionCount }

    /// Binds, listens and starts the event loops; returns once the server accepts connections.
    /// - Throws: `SocketError` when the address cannot be resolved or bound.
    public func start() throws(SocketError) {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        precondition(!alreadyStarted, "an HTTPServer starts once")
        vh_ignore_sigpipe()  // SSL_write cannot pass MSG_NOSIGNAL; plain sends do anyway
        _ = vh_raise_fd_limit()
        let loopCount =
            configuration.eventLoopCount > 0 ? configuration.eventLoopCount : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        if configuration.reusePort, configuration.port != 0 {
            // SO_REUSEPORT would let a second server share a busy port; probe without it so that a port already
            // in use fails loudly, as it does for any other server.
            Glibc.close(try Socket.makeListener(address: address, backlog: 1, reusePort: false))
        }
        let firstFD = try Socket.makeListener(
            address: address, backlog: configuration.backlog, reusePort: configuration.reusePort)
        var listenerFDs = [firstFD]
        do {
            let bound = try Socket.localAddress(of: firstFD)
            if configuration.reusePort {
                let sameAddress = try SocketAddress(host: configuration.host, port: bound.port)
                for _ in 1..<max(loopCount, 1) {
                    listenerFDs.append(
                        try Socket.makeListener(address: sameAddress, backlog: configuration.backlog, reusePort: true))
                }
            }
            try startLoops(count: loopCount, listeners: listenerFDs, address: bound)
        } catch {
            for fd in listenerFDs { Glibc.close(fd) }
            throw error
        }
    }

    /// Starts the event loops on sockets bound and listening already (systemd's, or those of the server this one
    /// takes over from) instead of binding `configuration.host`/`port`; returns once the server accepts
    /// connections. With as many sockets as loops or more, each loop owns its share (the kernel spread
    /// connections over `SO_REUSEPORT` sockets, and each must be accepted from); with fewer, every loop watches
    /// every socket. The server owns the descriptors from here on, also when starting fails.
    /// - Parameter sockets: At least one adopted socket (``ListeningSocket/adopt(_:)``).
    /// - Throws: `SocketError` when the event loops cannot be made.
    public func start(listeningOn sockets: [ListeningSocket]) throws(SocketError) {
        precondition(!sockets.isEmpty, "start(listeningOn:) needs a socket")
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        precondition(!alreadyStarted, "an HTTPServer starts once")
        vh_ignore_sigpipe()
        _ = vh_raise_fd_limit()
        let loopCount =
            configuration.eventLoopCount > 0 ? configuration.eventLoopCount : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        do {
            try startLoops(count: loopCount, listeners: sockets.map(\.fd), address: sockets[0].address)
        } catch {
            for socket in sockets { Glibc.close(socket.fd) }
            throw error
        }
    }

    /// The listening descriptors the loops accept from, for handing to the process that takes over (which gets
    /// copies of them); valid until ``shutdown()`` closes them. Empty before start.
    public var listeningDescriptors: [Int32] {
        state.withLock { $0.listenerFDs }
    }

    private func startLoops(count loopCount: Int, listeners listenerFDs: [Int32], address: SocketAddress)
        throws(SocketError)
    {
        var loops: [EventLoop] = []
        for index in 0..<max(loopCount, 1) {
            loops.append(try EventLoop(index: index, server: context) { [weak self] in self?.loopStopped() })
        }
        if listenerFDs.count >= loops.count {
            for (index, fd) in listenerFDs.enumerated() {
                loops[index % loops.count].add(listener: Listener(fd: fd, ownsSocket: true), shared: false)
            }
        } else {
            for (index, loop) in loops.enumerated() {
                for fd in listenerFDs { loop.add(listener: Listener(fd: fd, ownsSocket: index == 0), shared: true) }
            }
        }
        context.setLoops(loops)
        state.withLock { state in
            state.loops = loops
            state.localAddress = address
            state.runningLoops = loops.count
            state.listenerFDs = listenerFDs
        }
        for loop in loops { loop.start() }
    }

    /// Begins a graceful shutdown: stop accepting, close idle connections, let in-flight requests and streams
    /// finish (streams are asked to end), and cut whatever is left once the drain timeout passes. Idempotent.
    public func shutdown() {
        guard context.startDraining() else { return }
        let loops = state.withLock { $0.loops }
        for loop in loops {
            loop.execute { loop.beginDrain() }
        }
        let drain = configuration.timeouts.drain
        Task {
            try? await Task.sleep(for: drain)
            for loop in loops { loop.execute { loop.forceClose() } }
        }
    }

    /// Returns once every event loop has ended (after ``shutdown()``).
    public func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.stopped || !state.started { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Starts if needed, then serves until the task is cancelled, which shuts the server down gracefully.
    /// - Throws: `SocketError` when starting fails.
    public func run() async throws {
        if !state.withLock({ $0.started }) { try start() }
        await withTaskCancellationHandler {
            await waitUntilStopped()
        } onCancel: {
            shutdown()
        }
    }

    private func loopStopped() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runningLoops -= 1
            guard state.runningLoops == 0 else { return [] }
            state.stopped = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
