import CSystemShim
import Logging
import Synchronization

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

    /// Accepts what is waiting, a bounded batch per wake-up so one loop cannot starve its connections. Each
    /// connection goes to the loop with the fewest (this one on a tie): the kernel's spread (one SO_REUSEPORT
    /// socket per loop, hashed) or a shared socket's wake-ups can leave one loop with most of a client's
    /// keep-alive connections, and then half the requests wait on a busy loop while the other idles.
    func acceptConnections(on loop: EventLoop) {
        for _ in 0..<64 {
            // Once draining, what waits in the queue stays there: the socket may have been handed to a process
            // taking over (``ListenerHandover``), which answers it; accepting it here would only close it.
            if loop.server.isDraining { return }
            let accepted: (fd: Int32, peer: SocketAddress)?
            do {
                accepted = try Socket.accept(fd)
            } catch {
                if case .failed(_, let code, _) = error,
                    code == EMFILE || code == ENFILE || code == ENOBUFS
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
            // Accepted as the drain began (the check above passed): the client sent its request, or is about to,
            // so it is served (its one request answered with `Connection: close`), not closed unanswered.
            if server.claimConnection() {
                let target = server.leastLoadedLoop(preferring: loop)
                if target === loop {
                    Self.adopt(accepted.fd, peer: accepted.peer, on: loop)
                } else {
                    Self.handOff(accepted.fd, peer: accepted.peer, to: target, from: loop)
                }
            } else if server.claimRejection() {
                // Over the limit: a 503 (after a TLS handshake, with TLS on), at most `maxRejecting` at once.
                var secure: (any SecureChannel)?
                if let security = server.security {
                    secure = security.makeChannel(socket: accepted.fd)
                    if secure == nil {
                        server.releaseRejection()
                        Glibc.close(accepted.fd)
                        continue
                    }
                }
                loop.add(connectionFD: accepted.fd) { generation in
                    Connection(
                        fd: accepted.fd, generation: generation, loop: loop, peer: accepted.peer, rejecting: true,
                        secure: secure)
                }
            } else {
                Glibc.close(accepted.fd)
            }
        }
    }

    /// Gives an accepted (and counted) connection to another loop. A loop that has already stopped (it drained
    /// while `source` was still accepting, and a stopped loop is the least loaded) runs nothing more: the
    /// connection goes back to `source`, the loop that accepted it, which serves it (its one request answered with
    /// `Connection: close` once it drains too); only when no loop runs any more is it closed, never left in an
    /// inbox that no thread reads with its descriptor open.
    /// - Parameters:
    ///   - fd: The accepted connection's descriptor.
    ///   - peer: Its peer's address.
    ///   - target: The loop to serve it.
    ///   - source: The loop that accepted it (the caller runs on it), or nil when none can take it back.
    static func handOff(_ fd: Int32, peer: SocketAddress, to target: EventLoop, from source: EventLoop?) {
        target.load.wrappingAdd(1, ordering: .relaxed)  // counted now, so the next accept sees it
        let queued = target.execute {
            target.load.wrappingSubtract(1, ordering: .relaxed)
            // Queued as the target stopped: it runs what was queued, on its way out.
            if target.isStopped, let source, source !== target {
                handOff(fd, peer: peer, to: source, from: nil)
            } else {
                adopt(fd, peer: peer, on: target)
            }
        }
        guard !queued else { return }
        target.load.wrappingSubtract(1, ordering: .relaxed)
        if let source, source !== target {
            adopt(fd, peer: peer, on: source)  // the caller runs on `source`, which is accepting, so running
        } else {
            target.server.releaseConnection()
            Glibc.close(fd)
        }
    }

    /// Makes an accepted (and counted) connection live on `loop`, which runs this: served even when the loop
    /// drains (it answers the connection's first request, and ends only after), closed only once it stopped.
    private static func adopt(_ fd: Int32, peer: SocketAddress, on loop: EventLoop) {
        let server = loop.server
        if loop.isStopped {
            server.releaseConnection()
            Glibc.close(fd)
            return
        }
        var secure: (any SecureChannel)?
        if let security = server.security {
            secure = security.makeChannel(socket: fd)
            if secure == nil {
                server.releaseConnection()
                Glibc.close(fd)
                return
            }
        }
        loop.add(connectionFD: fd) { generation in
            Connection(fd: fd, generation: generation, loop: loop, peer: peer, rejecting: false, secure: secure)
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
