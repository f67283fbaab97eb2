/// An address or a CIDR range of addresses (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`), such as a trusted proxy's.
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The range's first address.
    public let network: IPAddress
    /// How many leading bits every address in it shares, counted over 128 bits (an IPv4 /8 is 104 here).
    let prefixLength: Int
    /// The text it was parsed from.
    public let description: String

    /// Parses `ADDRESS` or `ADDRESS/BITS` (up to 32 for IPv4, 128 for IPv6); nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var bits = width
        if parts.count == 2 {
            guard let given = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...width).contains(given) else {
                return nil
            }
            bits = given
        }
        prefixLength = 128 - width + bits
        let (high, low) = Self.masks(prefixLength)
        network = IPAddress(high: address.high & high, low: address.low & low)
        description = text
    }

    /// Whether `address` is in the range.
    public func contains(_ address: IPAddress) -> Bool {
        let (high, low) = Self.masks(prefixLength)
        return address.high & high == network.high && address.low & low == network.low
    }

    /// The masks of a prefix of `length` bits over the two halves.
    private static func masks(_ length: Int) -> (high: UInt64, low: UInt64) {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits)) }
        return (mask(length), mask(length - 64))
    }
}
