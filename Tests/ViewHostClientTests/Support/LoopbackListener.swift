import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A listening socket on a free port of 127.0.0.1, for the client tests' own servers (a scripted server, a proxy).
enum LoopbackListener {
    /// The socket and its port; nothing stays open when it fails.
    static func open() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { Glibc.close(fd) }
            throw HTTPTestClient.ClientError.connectFailed(errno)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
