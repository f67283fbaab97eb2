import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket the server did not bind itself: passed in by systemd (`LISTEN_FDS`) or handed over by the
/// server it takes over from. The descriptor came from outside, so ``adopt(_:)`` checks what it is before the
/// server serves on it.
public struct ListeningSocket: Sendable, Hashable {
    /// The descriptor, non-blocking and close-on-exec once adopted; the server that starts on it owns it.
    public let fd: Int32
    /// The address it is bound to.
    public let address: SocketAddress

    /// Checks that `fd` is a listening IPv4 or IPv6 stream socket (`SO_TYPE`, `SO_ACCEPTCONN`, `getsockname`) and
    /// makes it non-blocking and close-on-exec, as the event loops and spawned children need.
    /// - Throws: ``ListeningSocketError`` naming the descriptor and what it is instead.
    public static func adopt(_ fd: Int32) throws(ListeningSocketError) -> ListeningSocket {
        var type: Int32 = 0
        var listening: Int32 = 0
        var family: Int32 = 0
        guard vh_socket_info(fd, &type, &listening, &family) == 0 else {
            let code = errno
            if code == ENOTSOCK { throw .notASocket(fd: fd) }
            if code == EBADF { throw .notOpen(fd: fd) }
            throw .unreadable(fd: fd, reason: String(cString: strerror(code)))
        }
        guard type == Int32(SOCK_STREAM.rawValue) else { throw .notAStreamSocket(fd: fd) }
        guard family == AF_INET || family == AF_INET6 else { throw .notTCP(fd: fd, family: family) }
        guard listening != 0 else { throw .notListening(fd: fd) }
        guard vh_set_nonblocking_cloexec(fd) == 0 else {
            throw .unreadable(fd: fd, reason: String(cString: strerror(errno)))
        }
        let address: SocketAddress
        do {
            address = try Socket.localAddress(of: fd)
        } catch {
            throw .unreadable(fd: fd, reason: "\(error)")
        }
        return ListeningSocket(fd: fd, address: address)
    }
}

/// Why a descriptor passed in from outside cannot be served on.
public enum ListeningSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No descriptor of that number is open.
    case notOpen(fd: Int32)
    /// It is a file, pipe or terminal, not a socket.
    case notASocket(fd: Int32)
    /// A datagram or other socket, not a stream.
    case notAStreamSocket(fd: Int32)
    /// A stream socket of another family than IPv4/IPv6 (a unix socket).
    case notTCP(fd: Int32, family: Int32)
    /// A stream socket nobody called `listen` on.
    case notListening(fd: Int32)
    /// Asking the kernel about it failed.
    case unreadable(fd: Int32, reason: String)

    /// One sentence for the refusal line.
    public var description: String {
        switch self {
        case .notOpen(let fd): "file descriptor \(fd) is not open"
        case .notASocket(let fd): "file descriptor \(fd) is not a socket"
        case .notAStreamSocket(let fd): "file descriptor \(fd) is not a stream (TCP) socket"
        case .notTCP(let fd, let family):
            "file descriptor \(fd) is not an IPv4 or IPv6 socket (address family \(family))"
        case .notListening(let fd): "file descriptor \(fd) is a socket that is not listening"
        case .unreadable(let fd, let reason): "file descriptor \(fd) cannot be inspected: \(reason)"
        }
    }
}
