/// The members of an intent's JSON object: `type` and the fields of each intent, by name.
public struct IntentCodingKeys: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public init?(intValue: Int) {
        nil
    }

    public static let type = IntentCodingKeys(stringValue: "type")
}

extension KeyedDecodingContainer where Key == IntentCodingKeys {
    /// The intent's `type`.
    public func intentType() throws -> String {
        try decode(String.self, forKey: .type)
    }

    /// A required string field.
    public func string(_ name: String) throws -> String {
        try decode(String.self, forKey: IntentCodingKeys(stringValue: name))
    }

    /// An optional string field (absent or null gives nil).
    public func optionalString(_ name: String) throws -> String? {
        try decodeIfPresent(String.self, forKey: IntentCodingKeys(stringValue: name))
    }

    /// The error for a `type` the intent does not know.
    public func unknownType(_ type: String, of intent: String) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: .type, in: self, debugDescription: "'\(type)' is not a \(intent) event type")
    }
}

extension KeyedEncodingContainer where Key == IntentCodingKeys {
    /// Writes `type` and the given string fields (nil ones are left out).
    public mutating func encode(type: String, _ fields: KeyValuePairs<String, String?> = [:]) throws {
        try encode(type, forKey: .type)
        for (name, value) in fields {
            if let value { try encode(value, forKey: IntentCodingKeys(stringValue: name)) }
        }
    }
}
