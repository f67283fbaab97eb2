import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    private var storage: sockaddr_storage
    let length: socklen_t

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// Resolves a host and port for listening: a numeric address (`127.0.0.1`, `::`) or a name (`localhost`).
    /// - Parameters:
    ///   - host: The host.
    ///   - port: The port, 0 for any free one.
    /// - Throws: `SocketError.unresolvableHost` when it does not resolve.
    public init(host: String, port: Int) throws(SocketError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
            throw .unresolvableHost(host)
        }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { destination in
            destination.copyMemory(
                from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        self.init(storage: storage, length: first.pointee.ai_addrlen)
    }

    /// The address family (`AF_INET` or `AF_INET6`).
    var family: Int32 { Int32(storage.ss_family) }

    /// The port.
    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The numeric host, such as `127.0.0.1` or `::1`.
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            default:
                break
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, with IPv6 hosts in brackets (`[::1]:8080`), as in a URL authority.
    public var description: String {
        family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// Addresses are equal when their text (`host:port`) is.
    public static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        lhs.description == rhs.description
    }

    /// Hashes the text, as equality compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}
