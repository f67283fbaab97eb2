import CSystemShim
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One accepted TCP connection, confined to the event loop that accepted it.
///
/// It reads with one `recv` per readiness edge into the loop's buffer, parses requests in place, answers them
/// in order (pipelining included), and writes each batch of responses with one `send`. What it does next is
/// decided by ``ConnectionStateMachine`` (its lifecycle) and ``ConnectionTimeouts`` (its deadlines); this class
/// only does the I/O. The descriptor is closed only by ``close()``, once.
final class Connection {
    /// What is remembered about a request until its response is written.
    struct ResponseContext {
        var method: HTTPMethod
        var version: HTTPVersion
        var keepAlive: Bool
        var requestID: String
        /// The coding the request's `Accept-Encoding` prefers (nil: none acceptable; identity is sent then).
        var coding: ContentCoding? = .identity
    }

    let fd: Int32
    let generation: UInt32
    unowned let loop: EventLoop
    let peer: SocketAddress
    /// The peer's address without its port, read once per connection (the client of its requests, unless it is a
    /// trusted proxy).
    let peerAddress: IPAddress?
    var timers: ConnectionTimeouts<ContinuousClock.Instant>
    var machine: ConnectionStateMachine
    var parser: HTTPRequestParser
    /// Received bytes not parsed yet (usually empty: requests are parsed straight from the loop's buffer).
    var inbound: [UInt8] = []
    /// Response bytes not sent yet, from `outboundSent` on.
    var outbound: [UInt8] = []
    var outboundSent = 0
    /// `outbound` is the loop's buffer, lent while this connection has bytes queued (an I/O detail, not state).
    var outboundIsShared = false
    /// The TLS session, when the server has ``TransportSecurity``; released (on this loop) when the connection closes.
    var secure: (any SecureChannel)?
    /// The body being streamed: set while the machine is `.streaming`, and only then.
    var stream: BodyStreamState?

    /// How many response bytes wait to be sent.
    var unsent: Int { outbound.count - outboundSent }

    init(
        fd: Int32, generation: UInt32, loop: EventLoop, peer: SocketAddress, rejecting: Bool,
        secure: (any SecureChannel)? = nil
    ) {
        self.fd = fd
        self.generation = generation
        self.loop = loop
        self.peer = peer
        peerAddress = IPAddress(peer)
        self.secure = secure
        let configuration = loop.server.configuration
        self.timers = ConnectionTimeouts(timeouts: configuration.timeouts, now: loop.now, handshaking: secure != nil)
        self.machine = ConnectionStateMachine(
            handshaking: secure != nil, rejecting: rejecting,
            limits: .init(
                // Room for a whole next head, and some body, while a response is being made.
                maxBufferedInput: configuration.limits.maxRequestLineBytes + configuration.limits.maxHeaderBytes
                    + 64 * 1024,
                maxQueuedAnswers: configuration.maxQueuedResponseBytes))
        self.parser = HTTPRequestParser(limits: configuration.limits)
    }

    var isClosed: Bool { machine.isClosed }

    /// Whether this connection is over the limit and is only told `503`.
    var isRejecting: Bool { machine.rejecting }

    /// Called once registered.
    func start() {
        if case .answerOverLimit = machine.started() {
            answerOverLimit()
            return
        }
        scheduleTimers()  // a rejecting TLS connection is answered once its handshake is done (or times out)
    }

    /// The `503` of a connection over the limit, sent without reading a request, then closed.
    func answerOverLimit() {
        let problem = ProblemDetails(
            status: .serviceUnavailable, detail: "The server is at its connection limit; retry shortly.")
        var response = problem.response
        response.headers.add(.retryAfter, "1")
        let context = ResponseContext(
            method: .get, version: .http1_1, keepAlive: false, requestID: loop.requestIDs.next())
        loop.server.refusals.record(
            status: 503, reason: "connection limit (server.maxConnections) reached", requestID: context.requestID,
            peer: peer.host)
        write(response, for: context)
        flush()
    }

    /// Handles readiness reported by epoll.
    func handle(events: UInt32) {
        if machine.isHandshaking {
            advanceHandshake()
            if !isClosed { scheduleTimers() }
            return
        }
        let readable = events & (VH_EPOLLIN | VH_EPOLLRDHUP | VH_EPOLLHUP | VH_EPOLLERR) != 0
        let writable = events & VH_EPOLLOUT != 0
        if readable || (writable && machine.flow?.readWantsWritable == true) {
            readAvailable()
        }
        if !isClosed, writable || (readable && machine.flow?.writeWantsReadable == true),
            outboundSent < outbound.count
        {
            flush()
        }
        if !isClosed { resumeReadingOnceAnswersTaken() }
        if !isClosed, events & VH_EPOLLERR != 0 {
            close()
        }
        if !isClosed { scheduleTimers() }
    }

    /// Applies the timeout decision for `now`; returns the next deadline, or nil once closed or none is due.
    func checkTimers(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        switch timers.action(at: now) {
        case .none:
            break
        case .close:
            close()
        case .abort:
            _ = vh_set_linger_zero(fd)
            close()
        case .requestTimeout:
            fail(with: HTTPError(.requestTimeout, detail: "The request was not received in time."))
        }
        guard !isClosed else { return nil }
        let idle = checkStreamIdle(at: now)
        guard !isClosed else { return nil }
        switch (timers.deadline, idle) {
        case (let deadline?, let idle?): return min(deadline, idle)
        case (let deadline, nil): return deadline
        case (nil, let idle): return idle
        }
    }

    /// Ends this connection's part in a graceful shutdown: idle keep-alive connections close now, busy ones after
    /// their current response, streams are asked to end; one that has not sent its first request yet (or is
    /// sending one) is answered that request, within the request-head timeout, and then closed.
    func drain() {
        switch machine.drain(midRequest: !parser.isIdle || !inbound.isEmpty, unsent: outboundSent < outbound.count) {
        case .close: close()
        case .finishStream: if let stream { finishStream(stream) }  // ends its body now, and flushes
        case .cancelProducer: stream?.cancelProducer()
        case .awaitLastRequest:
            timers.drainBegan(at: loop.now)
            scheduleTimers()
        default: break
        }
    }

    /// Closes the descriptor and releases everything; safe to call twice.
    func close() {
        if isClosed { return }
        machine.close()
        stream?.connectionClosed()
        stream = nil
        secure = nil
        returnSharedOutbound()
        outbound = []
        outboundSent = 0
        inbound = []
        loop.remove(connection: self)
        if isRejecting { loop.server.releaseRejection() } else { loop.server.releaseConnection() }
    }

    /// Tells the loop when this connection's next deadline is.
    func scheduleTimers() {
        if let deadline = timers.deadline { loop.scheduleTimerCheck(at: deadline) }
        if let idle = stream?.idleDeadline { loop.scheduleTimerCheck(at: idle) }
    }

    /// Answers a protocol error (problem+json, `Connection: close`) and closes after sending it.
    func fail(with error: any HTTPResponseError) {
        inbound = []
        let requestID = loop.requestIDs.next()  // a request that failed has no id of its own yet
        // Every refusal the connection itself makes (a limit: 408, 413, 414, 431; or a malformed request: 400).
        loop.server.refusals.record(
            status: error.status.code,
            reason: (error as? HTTPParserError).map { "\($0)" } ?? error.problem.detail ?? "\(error.status.code)",
            requestID: requestID, peer: peer.host)
        guard case .answerError = machine.failed() else {
            close()  // a response is already under way: nothing well-framed can follow it
            return
        }
        let context = ResponseContext(method: .get, version: .http1_1, keepAlive: false, requestID: requestID)
        write(error.response, for: context)
        flush()
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
