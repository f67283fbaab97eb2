public import Logging

/// What the server knows about a request besides the request itself.
public struct HTTPRequestContext: Sendable {
    /// The request id: the client's `X-Request-Id` when acceptable, else one the server made.
    public let requestID: String
    /// The peer's address, when known.
    public let remoteAddress: SocketAddress?
    /// The client's address: the peer's, or behind a trusted proxy the one it forwarded (``TrustedProxies``).
    public let clientAddress: IPAddress?
    /// The parameters of the matched route pattern.
    public var parameters: RouteParameters
    /// Whether the server was draining (shutting down gracefully) when the request arrived.
    public let serverIsDraining: Bool
    private let baseLogger: Logger

    /// Creates a context.
    /// - Parameters:
    ///   - requestID: The request id.
    ///   - remoteAddress: The peer address.
    ///   - clientAddress: The client's address (default: the peer's host).
    ///   - parameters: Route parameters.
    ///   - serverIsDraining: Whether the server is draining.
    ///   - logger: The server's logger; ``logger`` adds the request id to it.
    public init(
        requestID: String, remoteAddress: SocketAddress? = nil, clientAddress: IPAddress? = nil,
        parameters: RouteParameters = RouteParameters(), serverIsDraining: Bool = false, logger: Logger
    ) {
        self.requestID = requestID
        self.serverIsDraining = serverIsDraining
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress ?? remoteAddress.flatMap(IPAddress.init)
        self.parameters = parameters
        self.baseLogger = logger
    }

    /// A logger whose lines carry `request-id`.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "request-id"] = "\(requestID)"
        return logger
    }
}
