import Foundation
import ViewHostJSON

/// The JSON a store keeps (journal records, their events, session values): written by `SortedJSONEncoder`, keys
/// sorted and `/` unescaped, the very bytes `JSONEncoder` makes with `[.sortedKeys, .withoutEscapingSlashes]`, which
/// writes what it leaves (a `URL`, a `Decimal`). Every event passes through here, and Foundation's encoder costs
/// several times more.
public enum StoredJSON {
    /// The JSON of `value`.
    /// - Throws: `EncodingError` when `JSONEncoder` refuses it too (a non-finite number).
    public static func encode(_ value: some Encodable) throws -> Data {
        if let bytes = try? SortedJSONEncoder().encode(value) { return Data(bytes) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
