import HTTPCore
import Testing

/// `HOST:PORT` as a configuration or a peer names an address.
struct HostAndPortTests {
    @Test func aNameAnIPv4AndABracketedIPv6AddressAreRead() {
        #expect(HostAndPort("10.0.0.7:9090") == HostAndPort(host: "10.0.0.7", port: 9090))
        #expect(HostAndPort("db.internal:0") == HostAndPort(host: "db.internal", port: 0))
        #expect(HostAndPort("[::1]:8080") == HostAndPort(host: "::1", port: 8080))
    }

    @Test(arguments: ["9090", "host:", "host:99999", ":", "host:port", "[]:80", "host:-1"])
    func whatIsNoHostAndPortIsRefused(_ text: String) {
        #expect(HostAndPort(text) == nil)
    }
}
