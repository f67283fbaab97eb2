/// A security layer for every connection of a server (TLS, from the `HTTPTLS` target), so HTTPCore builds and
/// tests without OpenSSL. The server asks it for one ``SecureChannel`` per accepted socket.
///
/// ```swift
/// let tls = try TLSContext(configuration: .init(certificatePath: "cert.pem", keyPath: "key.pem"))
/// let server = HTTPServer(configuration: configuration, responder: router, logger: logger, security: tls)
/// ```
public protocol TransportSecurity: Sendable {
    /// Wraps a newly accepted, non-blocking socket. Called on the event loop that owns the socket, which is the
    /// only thread that ever touches the channel. The socket stays owned (and closed) by the server.
    /// - Parameter socket: The connection's file descriptor.
    /// - Returns: The channel, or nil when none can be made (out of memory); the connection is then closed.
    func makeChannel(socket: Int32) -> (any SecureChannel)?
}

/// The encrypted side of one connection. Every call is non-blocking and made from one thread only.
public protocol SecureChannel: AnyObject {
    /// Advances the handshake as far as the socket allows.
    func handshake() -> SecureChannelResult
    /// Reads decrypted bytes into `buffer`; `.done(n)` with n > 0 for data.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> SecureChannelResult
    /// Encrypts and sends a prefix of `bytes`; `.done(n)` with the count taken (n > 0).
    func write(_ bytes: UnsafeRawBufferPointer) -> SecureChannelResult
    /// Sends the close notification, best effort and without waiting for the peer's.
    func shutdown()
    /// The application protocol agreed in the handshake (ALPN), if any.
    var negotiatedProtocol: String? { get }
}

/// What a ``SecureChannel`` call did.
public enum SecureChannelResult: Equatable, Sendable {
    /// Finished: the handshake is complete, or this many bytes were read or written.
    case done(Int)
    /// Try again once the socket is readable.
    case wantRead
    /// Try again once the socket is writable.
    case wantWrite
    /// The peer closed the secure session (close notification, or end of input).
    case closed
    /// A protocol or socket error; the text says what (for TLS, the drained OpenSSL error queue).
    case failed(String)
}
