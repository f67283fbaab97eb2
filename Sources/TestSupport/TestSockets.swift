import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sockets a test makes to hand to a server the way systemd or a running server would: bound on 127.0.0.1 port 0
/// (the kernel picks a free port), and listening or not, to try what a server accepts and what it refuses.
public enum TestSockets {
    /// Why a socket could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// The call that failed and its error.
        public let description: String
    }

    /// A TCP socket on 127.0.0.1 and a port the kernel picked; listening unless `listening` is false.
    /// - Returns: The descriptor (the caller closes it) and the port.
    public static func tcp(listening: Bool = true) throws -> (fd: Int32, port: Int) {
        try bound(type: Int32(SOCK_STREAM.rawValue), listening: listening)
    }

    /// A UDP socket on 127.0.0.1 and a port the kernel picked (a socket, but not a stream).
    public static func udp() throws -> (fd: Int32, port: Int) {
        try bound(type: Int32(SOCK_DGRAM.rawValue), listening: false)
    }

    private static func bound(type: Int32, listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && (!listening || listen(fd, 128) == 0)
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard result else {
            let failure = Failure(description: "bind/listen: \(String(cString: strerror(errno)))")
            close(fd)
            throw failure
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
