/// How long the server waits for each thing a client must do; each expiry has its own consequence.
public struct HTTPTimeouts: Sendable, Hashable {
    /// From the first byte of a request to the end of its head (slowloris): `408`, then close.
    public var headerRead: Duration
    /// From the end of the head to the end of the body: `408`, then close.
    public var bodyRead: Duration
    /// A keep-alive connection with no request in progress: closed silently.
    public var idle: Duration
    /// Unsent response bytes with no progress (a client that stopped reading): closed.
    public var write: Duration
    /// After SIGTERM, how long in-flight requests and streams may take before connections are cut.
    public var drain: Duration
    /// After the server closed its side, how long it reads and discards what the client still sends, so the
    /// client sees the response instead of a reset.
    public var lingeringClose: Duration
    /// From accepting a TLS connection to the end of its handshake (a client that stalls mid-handshake): closed.
    public var handshake: Duration

    /// Creates timeouts; the defaults are the documented ones.
    public init(
        headerRead: Duration = .seconds(10), bodyRead: Duration = .seconds(30), idle: Duration = .seconds(60),
        write: Duration = .seconds(30), drain: Duration = .seconds(10), lingeringClose: Duration = .seconds(2),
        handshake: Duration = .seconds(10)
    ) {
        self.headerRead = headerRead
        self.bodyRead = bodyRead
        self.idle = idle
        self.write = write
        self.drain = drain
        self.lingeringClose = lingeringClose
        self.handshake = handshake
    }

    /// The shortest of the per-connection timeouts, which bounds how coarse timer checks may be.
    var shortest: Duration {
        [headerRead, bodyRead, idle, write, lingeringClose, handshake].min() ?? .seconds(1)
    }
}
