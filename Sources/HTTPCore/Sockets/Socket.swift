import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// The socket calls the server makes, each failing with a `SocketError` that names the call.
enum Socket {
    /// A non-blocking listening socket bound to `address`.
    /// - Parameters:
    ///   - address: Where to listen.
    ///   - backlog: The accept queue length.
    ///   - reusePort: Whether to set `SO_REUSEPORT`, so each event loop can have a listener of its own.
    /// - Returns: The file descriptor.
    /// - Throws: ``SocketError`` naming the call that failed (`socket`, `setsockopt`, `bind`, `listen`).
    static func makeListener(
        address: SocketAddress, backlog: Int32, reusePort: Bool
    ) throws(SocketError) -> Int32 {
        let fd = vh_stream_socket(address.family)
        guard fd >= 0 else { throw .makeFailed("socket") }
        guard vh_set_reuse(fd, reusePort ? 1 : 0) == 0 else {
            let error = SocketError.makeFailed("setsockopt(SO_REUSEADDR/SO_REUSEPORT)")
            close(fd)
            throw error
        }
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = SocketError.makeFailed("bind(\(address))")
            close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = SocketError.makeFailed("listen(\(address))")
            close(fd)
            throw error
        }
        return fd
    }

    /// The address a socket is bound to (the real port after binding port 0).
    static func localAddress(of fd: Int32) throws(SocketError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw .makeFailed("getsockname") }
        return SocketAddress(storage: storage, length: length)
    }

    /// Accepts one connection, non-blocking and close-on-exec.
    /// - Returns: The new descriptor and the peer address, or nil when none is waiting (`EAGAIN`).
    static func accept(_ listener: Int32) throws(SocketError) -> (fd: Int32, peer: SocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { vh_accept(listener, $0, &length) }
            }
            if fd >= 0 { return (fd, SocketAddress(storage: storage, length: length)) }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return nil
            case EINTR, ECONNABORTED, EPROTO: continue
            default: throw .makeFailed("accept")
            }
        }
    }
}
