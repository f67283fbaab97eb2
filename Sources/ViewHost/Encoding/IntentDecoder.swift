import ViewHostAPI
import ViewModelCore
import ViewHostJSON

/// Decodes a posted event object with the intent's own `Decodable`, the one decoder the route, the journal and the
/// client share, over the already parsed ``JSONValue`` (no second parse), with answers a `422` can name: the field's
/// path (`text`, or `[2].text` in a batch), what it should be and what it was. It refuses, after decoding, any member
/// the intent did not read (`txt` for `text`), so a typo is never silently ignored; `type` and `id` are always
/// allowed. `null` counts as absent.
struct IntentDecoder {
    /// Decodes `members` (one event object) as `Intent`.
    /// - Parameter prefix: `""` for a single event, `"[2]."` for the third of a batch.
    /// - Throws: ``EventDecodingError`` naming the field.
    static func decode<Intent: FeatureIntent>(
        _ type: Intent.Type, members: [(String, JSONValue)], prefix: String
    ) throws(EventDecodingError) -> Intent {
        let read = ReadKeys()
        let decoder = ValueDecoder(value: .object(members), codingPath: [], prefix: prefix, read: read)
        let intent: Intent
        do {
            intent = try Intent(from: decoder)
        } catch let error as EventDecodingError {
            throw error
        } catch let error as DecodingError {
            throw Self.describe(error, prefix: prefix)
        } catch {
            throw .invalidValue(prefix + "type", reason: "\(error)")
        }
        let allowed = read.names
        // A few names each: a linear search beats hashing them into a set on every event.
        for (name, _) in members where name != "type" && name != "id" && !allowed.contains(name) {
            // The name is echoed in the 422, so a name of any length is cut first.
            throw .unexpectedField(
                prefix + EventDescription.shortened(name, maxBytes: 64), allowed: allowed.filter { $0 != "type" }.sorted())
        }
        return intent
    }

    /// A `DecodingError` an intent threw itself (a limit, a value it refuses) as the 422's field and reason.
    static func describe(_ error: DecodingError, prefix: String) -> EventDecodingError {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .invalidValue(prefix + path(context.codingPath), reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            return .missingField(prefix + path(context.codingPath + [key]))
        @unknown default:
            return .invalidValue(prefix + "type", reason: "\(error)")
        }
    }

    /// `text`, `items[2].title`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

/// The names of the top-level members an intent read (asked for, present or not): the fields it has.
/// `@unchecked Sendable`: confined to the one decoding that made it.
final class ReadKeys: @unchecked Sendable {
    private(set) var names: [String] = []

    func note(_ name: String) {
        if !names.contains(name) { names.append(name) }
    }
}

/// A `Decoder` over one ``JSONValue``.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let prefix: String
    /// Noted for the top-level object only.
    let read: ReadKeys?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(
            KeyedValues<Key>(members: members, codingPath: codingPath, prefix: prefix, read: read))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return ListValues(elements: elements, codingPath: codingPath, prefix: prefix)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath, prefix: prefix)
    }

    private func mismatch(_ expected: String) -> EventDecodingError {
        .wrongType(prefix + IntentDecoder.path(codingPath), expected: expected, got: value.typeName)
    }
}

/// Typed reads of one JSON value, shared by the three containers.
private protocol ValueReading {
    var codingPath: [any CodingKey] { get }
    var prefix: String { get }
}

extension ValueReading {
    func read<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        let field = prefix + IntentDecoder.path(path)
        func wrong(_ expected: String) -> EventDecodingError {
            .wrongType(field, expected: expected, got: value.typeName)
        }
        if value == .null { throw EventDecodingError.missingField(field) }
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw wrong("a string") }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw wrong("a boolean") }
            return flag as! T
        default:
            // Every integer and floating-point type here: their own `init(from:)` asks for themselves again.
            if let integer = T.self as? any FixedWidthInteger.Type {
                guard case .number(let number) = value, let exact = integer.init(exactly: number) else {
                    throw wrong("an integer")
                }
                return exact as! T
            }
            if let floating = T.self as? any BinaryFloatingPoint.Type {
                guard case .number(let number) = value else { throw wrong("a number") }
                return floating.init(number) as! T
            }
            return try T(from: ValueDecoder(value: value, codingPath: path, prefix: prefix, read: nil))
        }
    }
}

private struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol, ValueReading {
    let members: [(String, JSONValue)]
    let codingPath: [any CodingKey]
    let prefix: String
    let read: ReadKeys?

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    private func value(_ key: Key) -> JSONValue? {
        read?.note(key.stringValue)
        return members.first { $0.0 == key.stringValue }?.1
    }

    func contains(_ key: Key) -> Bool {
        value(key) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        (value(key) ?? .null) == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = value(key) else {
            throw EventDecodingError.missingField(prefix + IntentDecoder.path(codingPath + [key]))
        }
        return try read(type, from: value, at: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = value(key), value != .null else { return nil }
        return try read(type, from: value, at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: value(key) ?? .null, codingPath: codingPath + [key], prefix: prefix, read: nil)
            .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key) ?? .null, codingPath: codingPath + [key], prefix: prefix, read: nil)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(members), codingPath: codingPath, prefix: prefix, read: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: value(key) ?? .null, codingPath: codingPath + [key], prefix: prefix, read: nil)
    }
}

private struct ListValues: UnkeyedDecodingContainer, ValueReading {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let prefix: String
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], prefix: String) {
        self.elements = elements
        self.codingPath = codingPath
        self.prefix = prefix
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var indexKey: IntentIndexKey { IntentIndexKey(intValue: currentIndex) }

    private func next() throws -> JSONValue {
        guard !isAtEnd else {
            throw EventDecodingError.missingField(prefix + IntentDecoder.path(codingPath + [indexKey]))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next() == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try read(type, from: try next(), at: codingPath + [indexKey])
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let decoder = ValueDecoder(value: try next(), codingPath: codingPath + [indexKey], prefix: prefix, read: nil)
        currentIndex += 1
        return try decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let decoder = ValueDecoder(value: try next(), codingPath: codingPath + [indexKey], prefix: prefix, read: nil)
        currentIndex += 1
        return try decoder.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = ValueDecoder(value: try next(), codingPath: codingPath + [indexKey], prefix: prefix, read: nil)
        currentIndex += 1
        return decoder
    }
}

private struct SingleValue: SingleValueDecodingContainer, ValueReading {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let prefix: String

    func decodeNil() -> Bool {
        value == .null
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try read(type, from: value, at: codingPath)
    }
}

/// An array index in a coding path.
struct IntentIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(intValue: Int) {
        self.intValue = intValue
    }

    init?(stringValue: String) {
        nil
    }
}
