import Foundation

/// Encodes `Encodable` values to compact JSON with object keys sorted by their UTF-8 bytes and `/` unescaped: the
/// bytes Foundation's `JSONEncoder` makes on Linux with `[.sortedKeys, .withoutEscapingSlashes]` (its sorted-key
/// order off Apple platforms is UTF-8 byte order; numbers and escapes are written as it writes them), in a
/// fraction of the time. Snapshots are encoded once per version, so this runs on every change a session makes.
///
/// It knows Swift's own scalar types, and `Date` and `Data` as `JSONEncoder`'s default strategies write them (the
/// date's own `encode(to:)`, seconds since 2001 as a number; the data as base64 text). The other Foundation types
/// whose encoding `JSONEncoder` special-cases (`URL`, `Decimal`) are refused with ``Unsupported`` rather than
/// guessed at, so a caller can fall back to `JSONEncoder` for such a value; so are non-finite numbers, which
/// `JSONEncoder` refuses too.
public struct SortedJSONEncoder {
    /// Why a value could not be encoded here.
    public struct Unsupported: Error, CustomStringConvertible {
        /// The value that could not be encoded here, and why.
        public let description: String
    }

    /// Values for `Encoder.userInfo` (such as a URL the value's encoding needs).
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with no `userInfo`.
    public init() {}

    /// The JSON text of `value`.
    public func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = JSONNode(parent: nil, key: nil)
        try JSONTreeEncoder(node: root, userInfo: userInfo).encodeValue(value)
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        var orders = KeyOrders()
        root.write(to: &output, orders: &orders)
        return output
    }

    /// Whether JSONEncoder encodes values of `type` by a strategy of its own instead of their `encode(to:)`.
    static func isSpecialCased(_ type: Any.Type) -> Bool {
        type == URL.self || type == Decimal.self
    }
}
