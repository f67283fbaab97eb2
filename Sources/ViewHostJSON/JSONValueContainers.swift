/// ``JSONValueDecoding``'s keyed container: an object's members, in document order (the parser refused duplicates).
struct JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSONValue)]
    let decoder: JSONValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    /// The member `key`; at the top level, its name is noted as read (asked for, present or not) when the decoding
    /// notes them.
    private func member(_ key: Key) -> JSONValue? {
        let name = key.stringValue
        if codingPath.isEmpty { decoder.shared.note(name) }
        return members.first { $0.0 == name }?.1
    }

    private func required(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
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

/// ``JSONValueDecoding``'s unkeyed container: an array's elements.
struct JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoding
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoding) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: [any CodingKey] { codingPath + [JSONIndexKey(currentIndex)] }

    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
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

/// ``JSONValueDecoding``'s single-value container: the decoder's own value.
struct JSONValueSingleContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.read(type, from: decoder.value, parent: codingPath, key: nil)
    }
}
