import HTTPCore
import Testing

/// Whose address a request counts as: the peer's, or behind a trusted proxy the right-most forwarded address that
/// is not itself trusted (`Forwarded`, RFC 7239, before `X-Forwarded-For`).
struct TrustedProxiesTests {
    private let proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"].compactMap(IPAddressRange.init))

    private func client(peer: String, _ fields: [(HTTPHeaderName, String)]) -> String? {
        proxies.clientAddress(peer: IPAddress(peer), headers: HTTPHeaders(fields))?.description
    }

    @Test func anUntrustedPeerIsItsOwnClientWhateverItsHeadersSay() {
        #expect(client(peer: "203.0.113.5", [(.xForwardedFor, "198.51.100.9")]) == "203.0.113.5")
        #expect(client(peer: "203.0.113.5", [(.forwarded, "for=198.51.100.9")]) == "203.0.113.5")
        #expect(TrustedProxies().clientAddress(peer: IPAddress("127.0.0.1"), headers: HTTPHeaders([(.xForwardedFor, "198.51.100.9")])) == IPAddress("127.0.0.1"))
    }

    @Test func theRightMostUntrustedForwardedAddressIsTheClient() {
        // A client's own (forged) entry on the left, then the client, then an inner proxy.
        #expect(client(peer: "127.0.0.1", [(.xForwardedFor, "198.51.100.9, 203.0.113.5, 10.1.2.3")]) == "203.0.113.5")
        #expect(client(peer: "10.0.0.1", [(.xForwardedFor, "203.0.113.5"), (.xForwardedFor, "10.9.9.9")]) == "203.0.113.5")
        // No header: the proxy itself.
        #expect(client(peer: "127.0.0.1", []) == "127.0.0.1")
        // Every hop trusted: the left-most.
        #expect(client(peer: "127.0.0.1", [(.xForwardedFor, "10.0.0.7, 10.0.0.8")]) == "10.0.0.7")
        // A hop that is no address ends the walk at the last trusted one.
        #expect(client(peer: "127.0.0.1", [(.xForwardedFor, "203.0.113.5, garbage, 10.0.0.8")]) == "10.0.0.8")
        #expect(client(peer: "127.0.0.1", [(.xForwardedFor, "unknown")]) == "127.0.0.1")
    }

    @Test func forwardedIsReadBeforeXForwardedForWithQuotesPortsAndIPv6() {
        #expect(
            client(
                peer: "127.0.0.1",
                [(.forwarded, #"for=198.51.100.9;proto=https, For="[2001:db8:cafe::17]:4711";by=10.0.0.1"#),
                 (.xForwardedFor, "192.0.2.1")]) == "2001:db8:cafe::17")
        #expect(client(peer: "127.0.0.1", [(.forwarded, #"for="192.0.2.43:47011""#)]) == "192.0.2.43")
        #expect(client(peer: "127.0.0.1", [(.forwarded, "proto=https")]) == "127.0.0.1")
        #expect(client(peer: "127.0.0.1", [(.forwarded, "proto=https"), (.xForwardedFor, "192.0.2.1")]) == "192.0.2.1")
        #expect(client(peer: "127.0.0.1", [(.forwarded, "for=_hidden, for=10.0.0.5")]) == "10.0.0.5")
        #expect(client(peer: "fd00::1", [(.xForwardedFor, "[2001:db8::1]:443")]) == "2001:db8::1")
    }

    @Test func rangesMatchTheirPrefixOnly() throws {
        let range = try #require(IPAddressRange("10.1.0.0/16"))
        #expect(range.contains(try #require(IPAddress("10.1.255.7"))))
        #expect(!range.contains(try #require(IPAddress("10.2.0.1"))))
        #expect(IPAddressRange("0.0.0.0/0")?.contains(try #require(IPAddress("203.0.113.5"))) == true)
        #expect(IPAddressRange("0.0.0.0/0")?.contains(try #require(IPAddress("2001:db8::1"))) == false)
        // An IPv4 client reaching a server on `::` is the same client.
        #expect(IPAddressRange("127.0.0.1")?.contains(try #require(IPAddress("::ffff:127.0.0.1"))) == true)
        for bad in ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "localhost", "10.0.0.0/8/8", "", "1.2.3.4:80"] {
            #expect(IPAddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func anIPv6ClientIsCountedByItsSlash64() throws {
        let one = try #require(IPAddress("2001:db8:1:2:aaaa::1"))
        let other = try #require(IPAddress("2001:db8:1:2:bbbb::9"))
        let elsewhere = try #require(IPAddress("2001:db8:1:3::1"))
        #expect(one.clientKey == "2001:db8:1:2::/64")
        #expect(one.clientKey == other.clientKey)
        #expect(one.clientKey != elsewhere.clientKey)
        #expect(IPAddress("192.0.2.7")?.clientKey == "192.0.2.7")
        #expect(IPAddress("::ffff:192.0.2.7")?.description == "192.0.2.7")
    }
}
