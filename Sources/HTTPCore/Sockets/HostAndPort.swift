/// An address as a configuration or a peer names it, `HOST:PORT`: a name, an IPv4 address or a bracketed IPv6
/// address (`[::1]:9090`), then a port from 0 to 65535.
public struct HostAndPort: Sendable, Hashable {
    /// The host, without brackets.
    public let host: String
    /// The port.
    public let port: Int

    /// Creates an address from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST:PORT`; nil when there is no host or no port in range.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
            let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else { return nil }
        var host = Substring(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        self.init(host: String(host), port: port)
    }
}
