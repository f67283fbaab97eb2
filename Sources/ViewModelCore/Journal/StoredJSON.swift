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
        Data(try bytes(of: value))
    }

    /// The JSON of `value`, as bytes (what the encoder makes, not copied into a `Data`).
    /// - Throws: `EncodingError` when `JSONEncoder` refuses it too (a non-finite number).
    public static func bytes(of value: some Encodable) throws -> [UInt8] {
        if let bytes = try? SortedJSONEncoder().encode(value) { return bytes }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }
}
