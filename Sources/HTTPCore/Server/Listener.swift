import Logging
import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// A listening socket registered in one event loop. With `SO_REUSEPORT` every loop owns a socket of its own;
/// otherwise loop 0 owns the one socket and the others only watch it.
final class Listener {
    let fd: Int32
    /// Whether this loop closes the socket (the others only stop watching it).
    let ownsSocket: Bool
    private var isClosed = false

    init(fd: Int32, ownsSocket: Bool) {
        self.fd = fd
        self.ownsSocket = ownsSocket
    }

    /// Accepts what is waiting, a bounded batch per wake-up so one loop cannot starve its connections.
    func acceptConnections(on loop: EventLoop) {
        for _ in 0..<64 {
            let accepted: (fd: Int32, peer: SocketAddress)?
            do {
                accepted = try Socket.accept(fd)
            } catch {
                if case .failed(_, let code, _) = error, code == EMFILE || code == ENFILE || code == ENOBUFS
                    || code == ENOMEM
                {
                    loop.pauseAccepting(self, reason: error)
                } else {
                    loop.server.logger.error("accept failed", metadata: ["error": "\(error)"])
                }
                return
            }
            guard let accepted else { return }
            _ = vh_set_nodelay(accepted.fd)
            let server = loop.server
            if server.isDraining {
                Glibc.close(accepted.fd)
            } else if server.claimConnection() {
                var secure: (any SecureChannel)?
                if let security = server.security {
                    secure = security.makeChannel(socket: accepted.fd)
                    if secure == nil {
                        server.releaseConnection()
                        Glibc.close(accepted.fd)
                        continue
                    }
                }
                loop.add(connectionFD: accepted.fd) { generation in
                    Connection(
                        fd: accepted.fd, generation: generation, loop: loop, peer: accepted.peer, rejecting: false,
                        secure: secure)
                }
            } else if server.claimRejection() {
                if server.security != nil {
                    server.releaseRejection()  // a 503 would need a whole handshake first; under overload, refusing costs least
                    Glibc.close(accepted.fd)
                    continue
                }
                loop.add(connectionFD: accepted.fd) { generation in
                    Connection(fd: accepted.fd, generation: generation, loop: loop, peer: accepted.peer, rejecting: true)
                }
            } else {
                Glibc.close(accepted.fd)
            }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if ownsSocket { Glibc.close(fd) }
    }
}

@available(*, unavailable)
extension Listener: Sendable {}
