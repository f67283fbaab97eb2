/// The members of an intent's JSON object: `type` and the fields of each intent, by name, each field with the
/// ``TextLimit`` its value must keep, when it has one, and what documents say of it. These travel with the key, so a
/// decoder that reads an intent's fields (the server's, or the one that writes its OpenAPI schema) sees them where
/// they are declared.
public struct IntentCodingKeys: CodingKey, Sendable, Hashable {
    /// The member's name.
    public let stringValue: String
    /// The limit of a string field, if it has one.
    public let limit: TextLimit?
    /// A regular expression (ECMA-262, as JSON Schema's `pattern`) that every value the feature takes matches,
    /// for documents; the feature refuses other values itself (`IntentRejection`), with its own words.
    public let pattern: String?
    /// One sentence on what the field holds, for documents.
    public let summary: String?

    /// None: an intent is an object, never an array.
    public var intValue: Int? { nil }

    /// The member `name`, with the limit of its value, if any, and what documents say of it.
    public init(_ name: String, limit: TextLimit? = nil, pattern: String? = nil, summary: String? = nil) {
        stringValue = name
        self.limit = limit
        self.pattern = pattern
        self.summary = summary
    }

    /// The member `stringValue`, with no limit, pattern or summary (a member a decoder met).
    public init(stringValue: String) {
        self.init(stringValue)
    }

    /// None: an intent has no integer keys.
    public init?(intValue: Int) {
        nil
    }

    /// The intent's `type` member.
    public static let type = IntentCodingKeys("type")
}

extension KeyedDecodingContainer where Key == IntentCodingKeys {
    /// The intent's `type`, as one of its kinds.
    /// - Throws: `DecodingError.dataCorrupted` listing the kinds (``IntentKind``'s cases) when `type` names none.
    @inlinable  // specialized in the feature's module: `Kind(rawValue:)` called directly, no generic lookups
    public func kind<Kind: IntentKind>(_ kind: Kind.Type) throws -> Kind {
        let type = try decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: self,
                debugDescription: "'\(type)' is not an event type; the event types: "
                    + Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return kind
    }

    /// The intent's `type`, as a string.
    @available(
        *, deprecated, message: "give the intent an enum Kind: String, IntentKind and read container.kind(Kind.self)"
    )
    public func intentType() throws -> String {
        try decode(String.self, forKey: .type)
    }

    /// A required string field within `limit`.
    /// - Parameters:
    ///   - name: The member's name.
    ///   - limit: How long the value may be.
    ///   - pattern: What every value the feature takes matches, for documents (not checked here).
    ///   - summary: What the field holds, for documents.
    /// - Returns: The value.
    /// - Throws: `DecodingError.dataCorrupted` saying how long the value may be when it is longer.
    public func string(_ name: String, limit: TextLimit, pattern: String? = nil, summary: String? = nil) throws
        -> String
    {
        let key = IntentCodingKeys(name, limit: limit, pattern: pattern, summary: summary)
        return try checked(try decode(String.self, forKey: key), key: key)
    }

    /// An optional string field within `limit` (absent or null gives nil).
    /// - Throws: `DecodingError.dataCorrupted` saying how long the value may be when it is longer.
    public func optionalString(_ name: String, limit: TextLimit, pattern: String? = nil, summary: String? = nil) throws
        -> String?
    {
        let key = IntentCodingKeys(name, limit: limit, pattern: pattern, summary: summary)
        return try decodeIfPresent(String.self, forKey: key).map { try checked($0, key: key) }
    }

    /// The error for a `type` the intent does not know.
    @available(*, deprecated, message: "container.kind(Kind.self) refuses an unknown type itself, listing the kinds")
    public func unknownType(_ type: String, of intent: String) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: .type, in: self, debugDescription: "'\(type)' is not a \(intent) event type")
    }

    private func checked(_ text: String, key: IntentCodingKeys) throws -> String {
        guard let limit = key.limit, let reason = limit.violation(of: text) else { return text }
        throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: reason)
    }
}

extension KeyedEncodingContainer where Key == IntentCodingKeys {
    /// Writes `type`, `kind`'s wire name, and the given fields (nil ones are left out): strings, numbers, booleans
    /// or enums with raw values, as an action's body holds them.
    public mutating func encode<Kind: IntentKind>(kind: Kind, _ fields: KeyValuePairs<String, (any Encodable)?> = [:])
        throws
    {
        try encode(kind.rawValue, forKey: .type)
        for (name, value) in fields {
            if let value { try encode(value, forKey: IntentCodingKeys(name)) }
        }
    }

    /// Writes `type` and the given string fields (nil ones are left out).
    @available(*, deprecated, message: "write encode(kind: kind, fields), the type named by the intent's Kind")
    public mutating func encode(type: String, _ fields: KeyValuePairs<String, String?> = [:]) throws {
        try encode(type, forKey: .type)
        for (name, value) in fields {
            if let value { try encode(value, forKey: IntentCodingKeys(name)) }
        }
    }
}
