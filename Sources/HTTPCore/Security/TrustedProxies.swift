/// The proxies whose word on a request's client is taken (config `proxy.trusted`): behind them, a request's client
/// is the address they append to `Forwarded` (RFC 7239) or `X-Forwarded-For`, not the proxy's own.
///
/// Each proxy appends the address it received the request from, so the list reads client, proxy, proxy, … left to
/// right, and only what trusted proxies appended can be believed: the client is the right-most address that is not
/// itself trusted (anything to its left was written by the client and is ignored). A request from an untrusted
/// peer is its own client whatever its headers say, so the headers cannot be forged from outside.
///
/// `Forwarded` is read when it names any `for=`, else `X-Forwarded-For`: a trusted proxy must therefore set (or
/// drop) `Forwarded` itself, as `Config/nginx.conf` does, so a client cannot smuggle one through.
public struct TrustedProxies: Sendable, Hashable {
    /// The trusted addresses and ranges.
    public let ranges: [IPAddressRange]

    /// Trusts the proxies in `ranges` (none: every peer is its own client).
    public init(_ ranges: [IPAddressRange] = []) {
        self.ranges = ranges
    }

    /// Whether `address` is a trusted proxy's.
    public func isTrusted(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The request's client: the peer, or, when the peer is trusted, the right-most untrusted forwarded address.
    /// When every forwarded address is trusted, the left-most; when the walk meets a value that is no address
    /// (`unknown`, an obfuscated `_name`), the last trusted hop before it.
    public func clientAddress(peer: IPAddress?, headers: HTTPHeaders) -> IPAddress? {
        guard let peer, !ranges.isEmpty, isTrusted(peer) else { return peer }
        var client = peer
        for hop in Self.forwardedHops(headers).reversed() {
            guard let address = Self.address(ofHop: hop) else { return client }
            client = address
            if !isTrusted(address) { return address }
        }
        return client
    }

    /// The forwarded-for values, left to right: every `for=` of `Forwarded` if there is one, else the items of
    /// `X-Forwarded-For`.
    static func forwardedHops(_ headers: HTTPHeaders) -> [String] {
        let forwarded = headers.values(for: .forwarded).flatMap(ForwardedElement.forValues(in:))
        if !forwarded.isEmpty { return forwarded }
        return headers.values(for: .xForwardedFor).flatMap { $0.fieldParts(separatedBy: UInt8(ascii: ",")) }
            .map { String($0.trimmingOWS()) }
    }

    /// The address in one hop: `192.0.2.7`, `2001:db8::1`, `[2001:db8::1]:4711` or `192.0.2.7:4711`.
    static func address(ofHop hop: String) -> IPAddress? {
        if hop.hasPrefix("["), let end = hop.firstIndex(of: "]") {
            return IPAddress(String(hop[hop.index(after: hop.startIndex)..<end]))
        }
        if let address = IPAddress(hop) { return address }
        // IPv4 with a port: one colon (an IPv6 address has several).
        let parts = hop.split(separator: ":")
        return parts.count == 2 && parts[1].allSatisfy(\.isNumber) ? IPAddress(String(parts[0])) : nil
    }
}

/// RFC 7239 §4: `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"`, read as far as `for=` goes.
enum ForwardedElement {
    /// The `for` values of one field value, in order, quotes removed.
    static func forValues(in value: String) -> [String] {
        var values: [String] = []
        var pair = ""
        var inQuotes = false
        var escaped = false
        func endPair() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingOWS().lowercased() == "for" {
                values.append(String(parts[1].trimmingOWS()))
            }
            pair = ""
        }
        for character in value {
            if escaped {
                pair.append(character)
                escaped = false
            } else if inQuotes, character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if !inQuotes, character == ";" || character == "," {
                endPair()
            } else {
                pair.append(character)
            }
        }
        endPair()
        return values
    }
}
