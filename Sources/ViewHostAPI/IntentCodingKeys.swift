/// The members of an intent's JSON object: `type` and the fields of each intent, by name.
struct IntentCodingKeys: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }

    static let type = IntentCodingKeys(stringValue: "type")
}

extension KeyedDecodingContainer where Key == IntentCodingKeys {
    /// The intent's `type`.
    func intentType() throws -> String {
        try decode(String.self, forKey: .type)
    }

    /// A required string field.
    func string(_ name: String) throws -> String {
        try decode(String.self, forKey: IntentCodingKeys(stringValue: name))
    }

    /// An optional string field (absent or null gives nil).
    func optionalString(_ name: String) throws -> String? {
        try decodeIfPresent(String.self, forKey: IntentCodingKeys(stringValue: name))
    }

    /// The error for a `type` the intent does not know.
    func unknownType(_ type: String, of intent: String) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: .type, in: self, debugDescription: "'\(type)' is not a \(intent) event type")
    }
}

extension KeyedEncodingContainer where Key == IntentCodingKeys {
    /// Writes `type` and the given string fields (nil ones are left out).
    mutating func encode(type: String, _ fields: KeyValuePairs<String, String?> = [:]) throws {
        try encode(type, forKey: .type)
        for (name, value) in fields {
            if let value { try encode(value, forKey: IntentCodingKeys(stringValue: name)) }
        }
    }
}
