import Foundation

/// Decodes `Decodable` values from JSON the way Foundation's `JSONDecoder` does with its default strategies, over a
/// ``JSONValue`` parsed by ``JSONParser``: for the journal, which decodes every stored event again on each replay,
/// export and import, where `JSONDecoder` cost a third of the time (about 14 µs for a one-event record).
///
/// It never guesses where `JSONDecoder` would answer differently: what it does not read exactly is refused with
/// ``Unsupported`` (a `URL` or `Decimal`, which `JSONDecoder` special-cases; an integer of 2^53 or more in
/// magnitude, which a `Double` holds only approximately; duplicate member names), so a caller can fall back to
/// `JSONDecoder` for that text. `Date` and `Data` are read as `JSONDecoder`'s default strategies read them (the
/// date's own `init(from:)`, a number of seconds since 2001; the data from base64 text). Errors are `DecodingError`s with coding paths, as `JSONDecoder` throws.
public struct JSONValueDecoder {
    /// Why a text is left to `JSONDecoder`.
    public struct Unsupported: Error, CustomStringConvertible {
        public let description: String
    }

    /// Values for `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// The value of type `type` in the JSON text `bytes`.
    /// - Throws: ``Unsupported`` (see above), or `DecodingError` as `JSONDecoder` would.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: 512)
        } catch {
            throw Unsupported(description: "not read here: \(error)")
        }
        return try decode(type, from: value)
    }

    /// The value of type `type` in `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoding(value: value, codingPath: [], userInfo: userInfo).read(type, from: value, parent: [], key: nil)
    }
}

/// The `Decoder` over one value.
private struct ValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self, "a dictionary", value, codingPath)
        }
        return KeyedDecodingContainer(ValueKeyedContainer<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, "an array", value, codingPath) }
        return ValueUnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleContainer(decoder: self)
    }

    func nested(_ value: JSONValue, at path: [any CodingKey]) -> ValueDecoding {
        ValueDecoding(value: value, codingPath: path, userInfo: userInfoStorage)
    }

    /// `value` as `T`, at `parent` and then `key` (the path is made only when it is needed: for an error, or
    /// for the decoder a nested value is read with).
    func read<T: Decodable>(
        _ type: T.Type, from value: JSONValue, parent: [any CodingKey], key: (any CodingKey)?
    ) throws -> T {
        func path() -> [any CodingKey] { key.map { parent + [$0] } ?? parent }
        switch value {
        case .object, .array:
            break
        case .null:
            guard T.self is any OptionalValue.Type else {
                throw DecodingError.valueNotFound(
                    T.self, .init(codingPath: path(), debugDescription: "Cannot get value of type \(T.self) -- found null value instead"))
            }
        case .string(let text):
            if T.self == String.self { return text as! T }
            if T.self == Data.self {
                // JSONDecoder's default data strategy: base64 text.
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Encountered Data is not valid Base64."))
                }
                return data as! T
            }
            if Self.isScalar(T.self) { throw mismatch(T.self, "a string", value, path()) }
        case .bool(let flag):
            if T.self == Bool.self { return flag as! T }
            if Self.isScalar(T.self) { throw mismatch(T.self, "a boolean", value, path()) }
        case .number(let number):
            if T.self == Double.self { return number as! T }
            if let integer = T.self as? any FixedWidthInteger.Type {
                // A Double holds every integer below 2^53 exactly; from there on the text's digits may be lost.
                guard abs(number) < 9_007_199_254_740_992 else {
                    throw JSONValueDecoder.Unsupported(description: "an integer of 2^53 or more")
                }
                guard let exact = integer.init(exactly: number) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: path(), debugDescription: "Number \(number) is not representable in Swift."))
                }
                return exact as! T
            }
            if T.self == Float.self {
                let narrowed = Float(number)
                guard narrowed.isFinite else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: path(), debugDescription: "Number \(number) does not fit in Float."))
                }
                return narrowed as! T
            }
            if Self.isScalar(T.self) { throw mismatch(T.self, "a number", value, path()) }
        }
        if Self.isScalar(T.self) {
            let expected = T.self == String.self || T.self == Data.self ? "a string" : T.self == Bool.self ? "a boolean" : "a number"
            throw mismatch(T.self, expected, value, path())
        }
        guard !SortedJSONEncoder.isSpecialCased(T.self) else {
            throw JSONValueDecoder.Unsupported(description: "\(T.self) is decoded by JSONDecoder's own rules")
        }
        return try T(from: nested(value, at: path()))
    }

    /// Whether `type` is one this decoder reads itself (its own `init(from:)` would ask for it again).
    private static func isScalar(_ type: Any.Type) -> Bool {
        type == String.self || type == Bool.self || type == Double.self || type == Float.self || type == Data.self
            || type is any FixedWidthInteger.Type
    }
}

private func mismatch(_ type: Any.Type, _ expected: String, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(expected) but found \(value.typeName) instead."))
}

private struct ValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSONValue)]
    let decoder: ValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    private func member(_ key: Key) -> JSONValue? {
        let name = key.stringValue
        return members.first { $0.0 == name }?.1
    }

    private func required(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try required(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.read(type, from: try required(key), parent: codingPath, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = member(key) else { return nil }
        if case .null = value { return nil }
        return try decoder.read(type, from: value, parent: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.nested(try required(key), at: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.nested(try required(key), at: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.nested(members.first { $0.0 == "super" }?.1 ?? .null, at: codingPath + [SuperKey()])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.nested(member(key) ?? .null, at: codingPath + [key])
    }
}

private struct ValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: ValueDecoding
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: ValueDecoding) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: [any CodingKey] { codingPath + [JSONIndexKey(currentIndex)] }

    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try next(Any?.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.read(type, from: try next(type), parent: codingPath, key: JSONIndexKey(currentIndex))
        currentIndex += 1
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if case .null = try next(type) {
            currentIndex += 1
            return nil
        }
        return try decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try decoder.nested(try next([String: Any].self), at: path).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.nested(try next([Any].self), at: path).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let nested = decoder.nested(try next(Any.self), at: path)
        currentIndex += 1
        return nested
    }
}

private struct ValueSingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.read(type, from: decoder.value, parent: codingPath, key: nil)
    }
}

/// The key `JSONDecoder` reads a keyed container's super decoder from.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// `Optional`, whatever it wraps: a null is its value, read by its own `init(from:)`.
private protocol OptionalValue {}
extension Optional: OptionalValue {}
