/// Everything the HTTP server needs to know before it starts.
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// The address to listen on: a numeric IPv4/IPv6 address or a resolvable name.
    public var host: String
    /// The port; 0 picks a free one (read it back from ``HTTPServer/localAddress``).
    public var port: Int
    /// Event loops (one thread each); 0 means one per CPU core.
    public var eventLoopCount: Int
    /// Whether each loop gets its own `SO_REUSEPORT` listener (the kernel spreads connections); otherwise the
    /// loops share one listener.
    public var reusePort: Bool
    /// The listen backlog.
    public var backlog: Int32
    /// Open connections past which new ones are answered `503` and closed.
    public var maxConnections: Int
    /// Unsent response bytes of one connection past which it parses no further pipelined request and reads
    /// nothing more until the client has taken enough of them (RFC 9112 §9.3.2): a client that pipelines requests
    /// without reading the answers holds the server's memory to about this plus one response. One response is
    /// never cut by it; a client that takes nothing is closed by the write timeout.
    public var maxQueuedResponseBytes: Int
    /// Request size limits.
    public var limits: HTTPLimits
    /// Timeouts.
    public var timeouts: HTTPTimeouts
    /// gzip for responses.
    public var compression: HTTPCompressionSettings
    /// The proxies whose forwarded client address is taken as the request's client (none by default).
    public var trustedProxies: TrustedProxies

    /// Creates a configuration; the defaults are the documented ones.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, eventLoopCount: Int = 0, reusePort: Bool = true,
        backlog: Int32 = 1024, maxConnections: Int = 20_000, maxQueuedResponseBytes: Int = 256 * 1024,
        limits: HTTPLimits = HTTPLimits(),
        timeouts: HTTPTimeouts = HTTPTimeouts(), compression: HTTPCompressionSettings = HTTPCompressionSettings(),
        trustedProxies: TrustedProxies = TrustedProxies()
    ) {
        self.compression = compression
        self.trustedProxies = trustedProxies
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.reusePort = reusePort
        self.backlog = backlog
        self.maxConnections = maxConnections
        self.maxQueuedResponseBytes = maxQueuedResponseBytes
        self.limits = limits
        self.timeouts = timeouts
    }
}

/// When responses are gzipped: for clients that accept gzip, bodies of compressible types at or over
/// `minimumBytes` (streams of those types always), never `HEAD`, `304` or bodies that already have a coding.
public struct HTTPCompressionSettings: Sendable, Hashable {
    /// Whether responses are ever gzipped.
    public var isEnabled: Bool
    /// The smallest body that is gzipped.
    public var minimumBytes: Int

    /// Creates settings; the defaults are the documented ones.
    public init(isEnabled: Bool = true, minimumBytes: Int = 1024) {
        self.isEnabled = isEnabled
        self.minimumBytes = minimumBytes
    }
}
