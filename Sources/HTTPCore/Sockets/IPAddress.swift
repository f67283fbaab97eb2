import CSystemShim

#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address without a port: a client's address, from the socket or from a proxy's header.
///
/// Both families are kept as 16 bytes (IPv4 as `::ffff:a.b.c.d`, RFC 4291 §2.5.5.2), so an IPv4 client reaching
/// a server listening on `::` is the same client as one reaching `0.0.0.0`.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The first and last eight bytes, in network order.
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a numeric address: `192.0.2.7`, `2001:db8::1`; nil for anything else (a name, a port, brackets).
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: UInt32(bigEndian: v4.s_addr))
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self = withUnsafeBytes(of: v6) { IPAddress(bytes: $0) }
        } else {
            return nil
        }
    }

    /// The host of a socket address, read from its bytes (once per connection).
    public init?(_ address: SocketAddress) {
        let parsed = address.withSockAddr { pointer, _ -> IPAddress? in
            switch Int32(pointer.pointee.sa_family) {
            case AF_INET:
                let v4 = UnsafeRawPointer(pointer).load(as: sockaddr_in.self).sin_addr
                return IPAddress(ipv4: UInt32(bigEndian: v4.s_addr))
            case AF_INET6:
                let v6 = UnsafeRawPointer(pointer).load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: v6) { IPAddress(bytes: $0) }
            default:
                return nil
            }
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// An IPv4 address, as a host-order number.
    init(ipv4: UInt32) {
        self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(ipv4))
    }

    /// An IPv6 address from its 16 bytes in network order.
    private init(bytes: some Collection<UInt8>) {
        let high = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes.dropFirst(8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low)
    }

    /// Whether it is an IPv4 address (or an IPv4-mapped IPv6 one, which is the same client).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The key a per-client limit counts under: an IPv4 address itself, an IPv6 address's /64 network (the usual
    /// allocation to one subscriber, who could otherwise take a new address per request).
    public var clientKey: String {
        isIPv4 ? description : "\(IPAddress(high: high, low: 0))/64"
    }

    /// The address as `inet_ntop` writes it: `192.0.2.7`, `2001:db8::1`.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if isIPv4 {
            var address = in_addr(s_addr: UInt32(truncatingIfNeeded: low).bigEndian)
            _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        } else {
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for index in 0..<8 {
                    raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
                    raw[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
                }
            }
            _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
