import Foundation
import ViewHostAPI
import ViewHostJSON

/// Derives a JSON Schema from a type's own `Decodable`: it decodes the type once, at start, with a decoder that
/// records what the type asks for (each member's name and type, required or optional, nullable, its ``TextLimit``
/// and pattern when it is an intent's field, the cases of an enum), so the OpenAPI document states exactly what the
/// code reads and nothing is written twice.
///
/// A decoder must hand back values for the type to be made. Scalars get a value of the example (the feature's first
/// snapshot, walked alongside, so an enum's raw value or a discriminator is one the type takes) or a neutral one;
/// arrays, dictionaries and optionals are probed for their element and then given empty, so one element type that
/// refuses a neutral value only leaves that element's schema open. Each value handed back is made from its JSON by
/// ``JSONValueDecoder``, the events route's decoder, and an enum's cases are those it lists (``JSONValue/cases(of:)``)
/// when it refuses a value outside them. A type that cannot be made at all gives nil: the caller then describes it
/// from the example (``SchemaNode/inferred(from:)``).
struct SchemaProbe {
    /// The member that names an intent's type, and the type to answer it with.
    var typeOverride: String?

    /// The schema of `type`, walking `example` alongside; nil when it cannot be made.
    func schema<T: Decodable>(of type: T.Type, example: JSONValue?) -> SchemaNode? {
        let node = SchemaNode()
        do {
            _ = try value(T.self, node: node, example: example, path: [])
        } catch {
            return nil
        }
        return node
    }

    /// A value of `type`, recording its schema in `node`.
    func value<T: Decodable>(_ type: T.Type, node: SchemaNode, example: JSONValue?, path: [any CodingKey]) throws -> T {
        if let override = typeOverride, path.count == 1, path[0].stringValue == "type", T.self == String.self {
            node.kind = .string
            node.constant = override
            return try Self.made(T.self, from: .string(override))
        }
        switch type {
        case is String.Type:
            node.kind = .string
            if case .string(let text)? = example { return try Self.made(T.self, from: .string(text)) }
            return try Self.made(T.self, from: .string(""))
        case is Bool.Type:
            node.kind = .boolean
            if case .bool(let flag)? = example { return try Self.made(T.self, from: .bool(flag)) }
            return try Self.made(T.self, from: .bool(false))
        case is ActionDescriptor.Type:
            node.reference = "#/components/schemas/Action"
            return try Self.made(T.self, from: .object([("body", .object([("type", .string("probe"))]))]))
        default:
            break
        }
        if T.self is any FixedWidthInteger.Type || T.self is any BinaryFloatingPoint.Type {
            node.kind = T.self is any FixedWidthInteger.Type ? .integer : .number
            // The example's number when the type holds it (an integer for an integer type), else 0.
            if case .number(let number)? = example, let value = try? Self.made(T.self, from: .number(number)) {
                return value
            }
            return try Self.made(T.self, from: .number(0))
        }
        if let array = T.self as? any ProbedArray.Type {
            node.kind = .array
            item(of: node, array.probedElement, example: example?.firstElement, path: path)
            return try Self.made(T.self, from: .array([]))
        }
        if let map = T.self as? any ProbedMap.Type {
            node.kind = .map
            item(of: node, map.probedValue, example: example?.firstMemberValue, path: path)
            return try Self.made(T.self, from: .object([]))
        }
        if let optional = T.self as? any ProbedOptional.Type {
            node.nullable = true
            elementOrExample(optional.probedWrapped, node: node, example: example == .null ? nil : example, path: path)
            node.nullable = true
            return try Self.made(T.self, from: .null)
        }
        let cases = JSONValue.cases(of: T.self)
        if let cases { node.enumValues = cases.map(Self.documentValue) }
        let example = example ?? cases?.first
        return try T(from: ProbeDecoder(probe: self, node: node, example: example, codingPath: path))
    }

    /// The value of `type` that `json` is, as the events route reads it (``JSONValueDecoder``): a scalar, an empty
    /// list or map, a null, handed back to the type being probed.
    private static func made<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        var decoder = JSONValueDecoder()
        decoder.source = .client
        return try decoder.decode(T.self, from: json)
    }

    /// The schema of an array's elements or a map's values, of type `element`, as `node`'s ``SchemaNode/item``.
    private func item(
        of node: SchemaNode, _ element: any Decodable.Type, example: JSONValue?, path: [any CodingKey]
    ) {
        let item = SchemaNode()
        node.item = item
        elementOrExample(element, node: item, example: example, path: path)
    }

    /// The schema of an element type, or, when the type cannot be made from neutral values, what its example shows
    /// (nothing known without one): never half of what the type reads.
    private func elementOrExample(
        _ type: any Decodable.Type, node: SchemaNode, example: JSONValue?, path: [any CodingKey]
    ) {
        do {
            try element(type, node: node, example: example, path: path)
        } catch {
            node.replace(with: example.map(SchemaNode.inferred(from:)) ?? SchemaNode())
        }
    }

    private func element<E: Decodable>(_ type: E.Type, node: SchemaNode, example: JSONValue?, path: [any CodingKey])
        throws
    {
        _ = try value(E.self, node: node, example: example, path: path)
    }

    /// An enum case's JSON as the document's JSONSerialization value: a whole number as an integer.
    private static func documentValue(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): Int(exactly: number).map { $0 as Any } ?? number
        case .string(let text): text
        case .array(let elements): elements.map(documentValue)
        case .object(let members):
            Dictionary(members.map { ($0.0, documentValue($0.1)) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// Arrays, dictionaries keyed by string, optionals and ``Nullable``, for the probe to reach their element type.
protocol ProbedArray {
    static var probedElement: any Decodable.Type { get }
}

protocol ProbedMap {
    static var probedValue: any Decodable.Type { get }
}

protocol ProbedOptional {
    static var probedWrapped: any Decodable.Type { get }
}

extension Array: ProbedArray where Element: Decodable {
    static var probedElement: any Decodable.Type { Element.self }
}

extension Dictionary: ProbedMap where Key == String, Value: Decodable {
    static var probedValue: any Decodable.Type { Value.self }
}

extension Optional: ProbedOptional where Wrapped: Decodable {
    static var probedWrapped: any Decodable.Type { Wrapped.self }
}

extension Nullable: ProbedOptional {
    static var probedWrapped: any Decodable.Type { Value.self }
}

/// The recording decoder.
private struct ProbeDecoder: Decoder {
    let probe: SchemaProbe
    let node: SchemaNode
    let example: JSONValue?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.kind = .object
        return KeyedDecodingContainer(
            ProbeKeyed<Key>(probe: probe, node: node, example: example, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        node.kind = .array
        let item = node.item ?? SchemaNode()
        node.item = item
        return ProbeUnkeyed(probe: probe, item: item, example: example?.firstElement, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingle(probe: probe, node: node, example: example, codingPath: codingPath)
    }
}

private struct ProbeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    let node: SchemaNode
    let example: JSONValue?
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        guard case .object(let members)? = example else { return [] }
        return members.compactMap { Key(stringValue: $0.0) }
    }

    func contains(_ key: Key) -> Bool { true }

    private func child(_ key: Key) -> SchemaNode {
        let child = node.property(key.stringValue)
        if let field = key as? IntentCodingKeys {
            child.limit = field.limit ?? child.limit
            child.pattern = field.pattern ?? child.pattern
            child.summary = field.summary ?? child.summary
        }
        return child
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        child(key).nullable = true
        // `decodeIfPresent` of a string (and of every other primitive) checks for null, then decodes: such a
        // member is optional.
        node.checkedForNull.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if !node.checkedForNull.contains(key.stringValue) { node.required.insert(key.stringValue) }
        return try probe.value(type, node: child(key), example: example?[key.stringValue], path: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let child = child(key)
        child.nullable = true
        return try probe.value(type, node: child, example: example?[key.stringValue], path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        node.required.insert(key.stringValue)
        return try superDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        node.required.insert(key.stringValue)
        return try superDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ProbeDecoder(probe: probe, node: node, example: example, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ProbeDecoder(probe: probe, node: child(key), example: example?[key.stringValue], codingPath: codingPath + [key])
    }
}

private struct ProbeUnkeyed: UnkeyedDecodingContainer {
    let probe: SchemaProbe
    let item: SchemaNode
    let example: JSONValue?
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(probe: SchemaProbe, item: SchemaNode, example: JSONValue?, codingPath: [any CodingKey]) {
        self.probe = probe
        self.item = item
        self.example = example
        self.codingPath = codingPath
    }

    /// One element is read (to learn its schema), then the list ends.
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }

    mutating func decodeNil() throws -> Bool {
        item.nullable = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try probe.value(type, node: item, example: example, path: codingPath + [ProbeIndexKey()])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return ProbeDecoder(
            probe: probe, node: item, example: example, codingPath: codingPath + [ProbeIndexKey()])
    }
}

private struct ProbeSingle: SingleValueDecodingContainer {
    let probe: SchemaProbe
    let node: SchemaNode
    let example: JSONValue?
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        node.nullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try probe.value(type, node: node, example: example, path: codingPath)
    }
}

extension JSONValue {
    /// An array's first element.
    fileprivate var firstElement: JSONValue? {
        guard case .array(let elements) = self else { return nil }
        return elements.first
    }

    /// An object's first member's value.
    fileprivate var firstMemberValue: JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first?.1
    }
}

/// The coding key of the one element of an array the probe reads.
private struct ProbeIndexKey: CodingKey {
    var stringValue: String { "0" }
    var intValue: Int? { 0 }

    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}
