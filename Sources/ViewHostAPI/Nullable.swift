/// An optional that is always written: `null` when it holds nothing, never left out.
///
/// API.md shows absent values as `null` (`"createChat":null`, `"error":null`), while synthesized `Encodable`
/// leaves nil optionals out. Wrapping the property keeps synthesized coding for the rest of the type.
///
/// ```swift
/// struct Example: Codable { @Nullable var error: String? }   // {"error":null}
/// ```
@propertyWrapper
public struct Nullable<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The value, or nil (written as `null`).
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads `null` as nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing member decodes as nil too (synthesized decoding would otherwise require the key).
    public func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
