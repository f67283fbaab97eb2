import Logging
import Synchronization
import ViewHostLocking

/// What every event loop of one server shares: the responder, configuration, logger and the counters that
/// span loops. All of it is immutable or atomic.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let logger: Logger
    /// TLS for every connection, when configured.
    let security: (any TransportSecurity)?
    /// Random bits that prefix this process's request ids.
    let requestIDPrefix: UInt64
    /// Requests refused by a limit or the parser, logged at a bounded rate.
    let refusals: RefusalLog<ContinuousClock>
    private let openConnections = Atomic<Int>(0)
    private let acceptedConnections = Atomic<Int>(0)
    private let closedConnections = Atomic<Int>(0)
    private let rejectingConnections = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)
    /// The server's loops, set once before they start.
    private let loopList = Locked<[EventLoop]>([])
    /// How many over-limit connections may be held open at once just to send them their `503`.
    let maxRejecting = 1024

    init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger,
        security: (any TransportSecurity)?
    ) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.security = security
        self.requestIDPrefix = UInt64.random(in: 0...UInt64.max)
        self.refusals = RefusalLog(logger: logger, clock: ContinuousClock())
    }

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func setLoops(_ loops: [EventLoop]) {
        loopList.withLock { $0 = loops }
    }

    /// The loop with the fewest connections, `preferred` on a tie (so a balanced server never hands off).
    func leastLoadedLoop(preferring preferred: EventLoop) -> EventLoop {
        loopList.withLock { loops in
            var best = preferred
            var bestLoad = preferred.load.load(ordering: .relaxed)
            for loop in loops where loop !== preferred {
                let load = loop.load.load(ordering: .relaxed)
                if load < bestLoad {
                    best = loop
                    bestLoad = load
                }
            }
            return best
        }
    }
    var openConnectionCount: Int { openConnections.load(ordering: .relaxed) }
    var acceptedConnectionCount: Int { acceptedConnections.load(ordering: .relaxed) }
    var closedConnectionCount: Int { closedConnections.load(ordering: .relaxed) }

    func startDraining() -> Bool {
        !draining.exchange(true, ordering: .relaxed)
    }

    /// Claims a connection slot; false when the server is full.
    func claimConnection() -> Bool {
        let count = openConnections.wrappingAdd(1, ordering: .relaxed).newValue
        if count <= configuration.maxConnections {
            acceptedConnections.wrappingAdd(1, ordering: .relaxed)
            return true
        }
        openConnections.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    func releaseConnection() {
        closedConnections.wrappingAdd(1, ordering: .relaxed)
        openConnections.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Claims a slot for answering an over-limit connection with `503`; false when even those are full.
    func claimRejection() -> Bool {
        let count = rejectingConnections.wrappingAdd(1, ordering: .relaxed).newValue
        if count <= maxRejecting { return true }
        rejectingConnections.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    func releaseRejection() {
        rejectingConnections.wrappingSubtract(1, ordering: .relaxed)
    }

    /// The response for an error a handler threw; anything that is not an ``HTTPResponseError`` is logged and
    /// answered with a generic `500`.
    func response(for error: any Error, requestID: String) -> HTTPResponse {
        if let error = error as? any HTTPResponseError { return error.response }
        var logger = logger
        logger[metadataKey: "request-id"] = "\(requestID)"
        logger.error("handler failed", metadata: ["error": "\(String(reflecting: error))"])
        return ProblemDetails(
            status: .internalServerError, detail: "The server failed to answer this request; it has been logged."
        ).response
    }
}
