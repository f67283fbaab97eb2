import CSystemShim
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One accepted TCP connection, confined to the event loop that accepted it.
///
/// It reads with one `recv` per readiness edge into the loop's buffer, parses requests in place, answers them
/// in order (pipelining included), and writes each batch of responses with one `send`. Timeouts are decided by
/// ``ConnectionTimeouts``; this class only does the I/O. The descriptor is closed only by ``close()``, once.
final class Connection {
    /// What the connection is doing with the current request.
    enum Activity {
        /// Reading and answering requests.
        case reading
        /// A handler's deferred work is running; later requests wait.
        case awaitingResponse
        /// A response body is being streamed; later requests wait.
        case streaming(BodyStreamState)
        /// Our side is closed; input is read and discarded until the client closes or the linger time passes.
        case lingering
        case closed
    }

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
    /// Whether this connection is over the limit and is only told `503`.
    let isRejecting: Bool
    var timers: ConnectionTimeouts<ContinuousClock.Instant>
    var parser: HTTPRequestParser
    var activity = Activity.reading
    /// Received bytes not parsed yet (usually empty: requests are parsed straight from the loop's buffer).
    var inbound: [UInt8] = []
    /// Response bytes not sent yet, from `outboundSent` on.
    var outbound: [UInt8] = []
    var outboundSent = 0
    var outboundIsShared = false
    /// Close once everything queued is sent.
    var closeWhenFlushed = false
    /// The client closed its sending side; answer what is in progress, then close.
    var inputClosed = false
    /// Reading stopped: too much arrived while a response was being made, or more answers than
    /// ``HTTPServerConfiguration/maxQueuedResponseBytes`` wait for the client to read them.
    var readPaused = false
    var inFlight: ResponseContext?
    /// The TLS session, when the server has ``TransportSecurity``; released (on this loop) when the connection closes.
    var secure: (any SecureChannel)?
    /// The TLS handshake is not finished yet.
    var isHandshaking: Bool
    /// The first byte was checked to be a TLS record (not plain HTTP sent to the TLS port).
    var checkedFirstByte = false
    /// A secure read or write must be retried once the socket allows the other direction.
    var secureReadWantsWrite = false
    var secureWriteWantsRead = false

    /// Input buffered beyond this while a response is being made pauses reading.
    var maxBufferedInput: Int {
        let limits = loop.server.configuration.limits
        return limits.maxRequestLineBytes + limits.maxHeaderBytes + 64 * 1024
    }

    /// ``HTTPServerConfiguration/maxQueuedResponseBytes``, read once (it is compared before every request).
    let maxQueuedOutbound: Int

    /// More answers wait to be sent than the client may have queued: no further pipelined request is parsed.
    var outboundIsFull: Bool { outbound.count - outboundSent > maxQueuedOutbound }

    init(
        fd: Int32, generation: UInt32, loop: EventLoop, peer: SocketAddress, rejecting: Bool,
        secure: (any SecureChannel)? = nil
    ) {
        self.fd = fd
        self.generation = generation
        self.loop = loop
        self.peer = peer
        peerAddress = IPAddress(peer)
        self.isRejecting = rejecting
        self.secure = secure
        self.isHandshaking = secure != nil
        self.timers = ConnectionTimeouts(
            timeouts: loop.server.configuration.timeouts, now: loop.now, handshaking: secure != nil)
        self.parser = HTTPRequestParser(limits: loop.server.configuration.limits)
        self.maxQueuedOutbound = max(loop.server.configuration.maxQueuedResponseBytes, 0)
    }

    var isClosed: Bool {
        if case .closed = activity { return true }
        return false
    }

    var isLingering: Bool {
        if case .lingering = activity { return true }
        return false
    }

    /// Called once registered.
    func start() {
        if isRejecting, !isHandshaking {
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
        if isHandshaking {
            advanceHandshake()
            if !isClosed { scheduleTimers() }
            return
        }
        let readable = events & (VH_EPOLLIN | VH_EPOLLRDHUP | VH_EPOLLHUP | VH_EPOLLERR) != 0
        let writable = events & VH_EPOLLOUT != 0
        if readable || (writable && secureReadWantsWrite) {
            readAvailable()
        }
        if !isClosed, writable || (readable && secureWriteWantsRead), outboundSent < outbound.count {
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

    /// Ends this connection's part in a graceful shutdown: idle connections close now, busy ones after their
    /// current response, streams are asked to end.
    func drain() {
        switch activity {
        case .reading where parser.isIdle && inbound.isEmpty && outboundSent == outbound.count && inFlight == nil:
            close()
        case .streaming(let stream):
            closeWhenFlushed = true
            if stream.source != nil {
                finishStream(stream)  // a pulled source has no task to cancel: end its body now (and flush)
            } else {
                stream.cancelProducer()
            }
        case .closed, .lingering:
            break
        default:
            closeWhenFlushed = true
        }
    }

    /// Closes the descriptor and releases everything; safe to call twice.
    func close() {
        if isClosed { return }
        if case .streaming(let stream) = activity { stream.connectionClosed() }
        activity = .closed
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
        if case .streaming(let stream) = activity, let idle = stream.idleDeadline { loop.scheduleTimerCheck(at: idle) }
    }

    /// Answers a protocol error (problem+json, `Connection: close`) and closes after sending it.
    func fail(with error: any HTTPResponseError) {
        inbound = []
        let requestID = inFlight?.requestID ?? loop.requestIDs.next()
        // Every refusal the connection itself makes (a limit: 408, 413, 414, 431; or a malformed request: 400).
        loop.server.refusals.record(
            status: error.status.code, reason: (error as? HTTPParserError).map { "\($0)" } ?? error.problem.detail ?? "\(error.status.code)",
            requestID: requestID, peer: peer.host)
        guard inFlight == nil, case .reading = activity else {
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
