import CSystemShim
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The running server's side of a take-over: a unix socket (in the data directory, so only a process that may use
/// the store reaches it) where a new process of the same user gets copies of the listening sockets
/// (``ListenerHandover``) and then asks this one to release. Peers of another user, and requests that are not the
/// protocol's, are logged and closed; the server goes on serving.
public final class ListenerHandoverPoint: Sendable {
    /// The socket's path.
    public let path: String
    private let fd: Int32
    private let closed = Atomic<Bool>(false)

    /// Listens at `path` (a stale file there, left by a killed server, is removed: the caller holds the data
    /// directory's lock, so no live server uses it) and answers take-overs on a thread of its own.
    /// - Parameters:
    ///   - path: Where to listen (at most 107 bytes).
    ///   - descriptors: The listening sockets to hand over, asked at each take-over.
    ///   - logger: Receives a line per refused or failed take-over.
    ///   - onRelease: Called once the new process has the sockets and asks this one to stop, with the handover
    ///     connection and copies of the sockets, kept for the new process's word (``ListenerHandoverRelease``).
    /// - Throws: `SocketError` when the socket cannot be made.
    public init(
        path: String, descriptors: @escaping @Sendable () -> [Int32], logger: Logger,
        onRelease: @escaping @Sendable (ListenerHandoverRelease) -> Void
    ) throws(SocketError) {
        unlink(path)
        let fd = vh_unix_listen(path, 4)
        guard fd >= 0 else { throw .makeFailed("listen(\(path))") }
        chmod(path, 0o600)
        self.path = path
        self.fd = fd
        Thread.detachNewThread { [self] in
            acceptLoop(descriptors: descriptors, logger: logger, onRelease: onRelease)
        }
    }

    /// Stops answering and removes the socket file (before the store is released, so the next server's own
    /// point is never removed by this one). Idempotent.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        unlink(path)
        // Wakes the accept blocked on the thread; it then closes the descriptor.
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private func acceptLoop(
        descriptors: @Sendable () -> [Int32], logger: Logger, onRelease: @Sendable (ListenerHandoverRelease) -> Void
    ) {
        defer { Glibc.close(fd) }
        while !closed.load(ordering: .acquiring) {
            let connection = Glibc.accept(fd, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard let release = answer(connection, descriptors: descriptors, logger: logger) else {
                Glibc.close(connection)
                continue
            }
            onRelease(release)
            return
        }
    }

    /// One take-over: checks the peer, passes the sockets, waits for the release. Returns the release (which owns
    /// the connection from then on) when it came.
    private func answer(_ connection: Int32, descriptors: () -> [Int32], logger: Logger) -> ListenerHandoverRelease? {
        _ = vh_set_io_timeout(connection, 10_000)
        var uid = uid_t()
        guard vh_peer_uid(connection, &uid) == 0, uid == getuid() else {
            logger.warning("take-over refused: the peer is another user", metadata: ["path": "\(path)"])
            return nil
        }
        guard Self.readLine(connection) == ListenerHandover.request else {
            logger.warning("take-over refused: not a take-over request", metadata: ["path": "\(path)"])
            return nil
        }
        let fds = descriptors()
        let header = Array("listeners \(fds.count)\n".utf8)
        guard !fds.isEmpty, vh_send_fds(connection, header, header.count, fds, Int32(fds.count)) == header.count else {
            logger.error("take-over failed: the sockets could not be passed", metadata: ["errno": "\(errno)"])
            return nil
        }
        // The new process checks the sockets and asks for the release, saying how long it may take to serve once
        // the store is free; anything else (it gave up, it closed) leaves this server serving.
        guard let line = Self.readLine(connection), let timeout = ListenerHandover.releaseTimeout(line) else {
            logger.notice("take-over abandoned by the new process; still serving")
            return nil
        }
        // Copies of the sockets, kept past the drain (which closes the server's own): if the new process fails,
        // this one serves again on them, and what queued meanwhile is answered.
        var copies: [ListeningSocket] = []
        for descriptor in fds {
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0, let socket = try? ListeningSocket.adopt(copy) else {
                if copy >= 0 { Glibc.close(copy) }
                for socket in copies { Glibc.close(socket.fd) }
                logger.error(
                    "take-over refused: the listening sockets could not be kept for a return",
                    metadata: ["errno": "\(errno)"])
                return nil
            }
            copies.append(socket)
        }
        return ListenerHandoverRelease(connection: connection, sockets: copies, timeout: timeout)
    }

    /// A line of at most 64 bytes, or nil (closed, timed out, too long).
    static func readLine(_ fd: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 64 {
            guard vh_recv(fd, &byte, 1) == 1 else { return nil }
            line.append(byte)
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
        }
        return nil
    }
}
